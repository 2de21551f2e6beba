"""Board routes of the play view: games opened from record files (PGN, SGF, PDN) and
positions (a FEN), and the ends a person chooses (resigning, offering a draw). Every game
fact comes from the game's entry (its ``record.read``, ``position_text``): no game is
named here."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from gamesearch.errors import GameSearchError
from gamesearch.web import validate
from gamesearch.web.api_play import load_position
from gamesearch.web.validate import EndRequest, ImportRequest

router = APIRouter()

DRAW_MARGIN = 0.1
"""An AI accepts a draw when its last search valued its position within this of even (on
the scale where a win is 1: chess's engine squashes its centipawns into it)."""


def _spec(name: str, params: dict[str, str]) -> str:
    return f"{name}:{','.join(f'{k}={v}' for k, v in params.items())}" if params else name


def _suffix(name: str) -> str:
    """The last suffix of a file name, lower case (the name is never used as a path)."""
    tail = name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    return tail.rsplit(".", 1)[-1].lower() if "." in tail else ""


def _formats(game_name: str, suffix: str, text: str) -> list[Any]:
    """The entries whose record format may hold ``text``: the file's suffix decides, else
    the formats the text looks like, the page's game first."""
    from gamesearch.games import entries

    readable = [e for e in entries() if e.record is not None and e.record.read is not None]
    by_suffix = [e for e in readable if e.record.suffix == suffix]
    if by_suffix:
        return by_suffix
    looks = [e for e in readable if e.record.looks_like(text.lstrip())]
    return sorted(looks, key=lambda e: e.name != game_name)


@router.post("/import")
async def import_game(body: ImportRequest) -> dict:
    """A game to play on from a record's text (its first game) or a position's text: the
    game spec (with its parameters: size, komi, the FEN) and the moves, every move checked
    by the rules. 400 with one line for anything the rules refuse."""
    from gamesearch.games import entries
    from gamesearch.spec import parse_spec

    text = body.text.strip()
    if not text:
        raise GameSearchError("nothing to open: paste a FEN, PGN, SGF or PDN text")
    game_name = parse_spec(body.game)[0] if body.game.strip() else ""
    candidates = _formats(game_name, _suffix(body.name), text)
    if not candidates and "\n" not in text:  # one line: a position's text (a FEN)
        positions = [e for e in entries() if e.position_text is not None]
        positions.sort(key=lambda e: e.name != game_name)
        for entry in positions:
            code = entry.position_text
            checked = code.check(text)  # the first position format's error is the answer
            return {"game": _spec(entry.name, {code.param: checked}), "moves": []}
    if not candidates:
        names = ", ".join(sorted(e.record.suffix.upper() for e in entries()
                                 if e.record is not None and e.record.read is not None))
        raise GameSearchError(f"not a record this page opens ({names}, or a FEN)")
    first_error = None
    for entry in candidates:
        try:
            params, moves = entry.record.read(text)
        except GameSearchError as err:
            first_error = first_error or err
            continue
        if len(moves) > validate.MAX_MOVES:
            raise GameSearchError(f"the game has {len(moves)} moves; the page plays at most "
                                  f"{validate.MAX_MOVES}")
        spec = validate.game_spec(_spec(entry.name, params))
        return {"game": spec, "moves": moves, "format": entry.record.suffix}
    message = " ".join(str(first_error).split())
    raise GameSearchError(message[:300])


@router.post("/end")
async def end(body: EndRequest) -> dict:
    """A game ended by a person: ``resign`` (``seat`` gives up), ``draw`` (``seat`` offers
    a draw; the AI accepts when its last search, ``value`` from its own viewpoint, is near
    even, and declines without one) or ``agreed`` (a draw already agreed, from a link).
    Answers whether the game ended, in words, and the players' utilities."""
    spec, game, state, repeated = load_position(body.game, body.moves)
    if game.is_terminal(state) or repeated:
        raise GameSearchError("the game is over already")
    if game.num_players != 2:
        raise GameSearchError("resigning and draws are for two-player games")
    if body.seat not in (0, 1):
        raise GameSearchError(f"seat {body.seat}: a two-player game has seats 0 and 1")
    me, other = game.player_name(body.seat), game.player_name(1 - body.seat)
    if body.kind == "resign":
        utilities = [1.0, 1.0]
        utilities[body.seat] = -1.0
        return {"accepted": True, "outcome": f"{other} wins: {me} resigned",
                "utilities": utilities}
    if body.kind == "draw" and (body.value is None or abs(body.value) > DRAW_MARGIN):
        why = ("it has not searched this game yet" if body.value is None
               else f"its last search valued its position at {body.value:+.2f}")
        return {"accepted": False, "outcome": None,
                "message": f"{other} declines the draw: {why}"}
    return {"accepted": True, "outcome": "draw by agreement", "utilities": [0.0, 0.0]}
