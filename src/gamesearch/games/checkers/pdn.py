"""PDN game files (Portable Draughts Notation) for English draughts: read and written, so a
match's games open in other checkers software and games from elsewhere replay here.

A game is tag pairs (``[Event "..."]``, ``[Black "..."]``, ``[White "..."]``,
``[Result "1-0"]``, ``[GameType "21"]``: 21 is English draughts; ``[FEN "B:W...:B..."]``
for a game that does not start from the opening position) and then the moves, numbered
(``1. 11-15 23-19 2. 8-11 ...``), ending with the result. Results are written from
Black's side, the first player: ``1-0`` Black won, ``0-1`` White won, ``1/2-1/2`` a draw,
``*`` unfinished. Reading skips comments (``{...}``, ``;`` to the end of a line),
variations (``(...)``), move-strength marks (``!``, ``?``) and ``$n`` annotations, and
accepts a capture written by its two ends (``15x31``) when only one capture joins them.
Every move is replayed by the rules: an illegal one is an error naming the game and move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.games.checkers.notation import fen
from gamesearch.games.checkers.rules import Checkers

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
GAME_TYPE = "21"
MAX_TEXT = 50_000_000
"""A PDN text longer than this (50 MB) is refused before it is read."""
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


@dataclass
class PdnGame:
    """One game: its tags (in file order), its moves (ours: ``11-15``, ``15x24x31``), the
    result token and the start position (None: the opening position)."""

    moves: list[str]
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)
    start: str | None = None

    def final_state(self) -> tuple:
        """The position after the moves (checked by the rules)."""
        game = Checkers()
        state = game.state_from_string(self.start) if self.start else game.initial_state()
        for move in self.moves:
            state = game.result(state, move)
        return state


def result_token(utilities: tuple[float, ...] | list[float] | None) -> str:
    """The PDN result of a finished game's utilities (Black first); ``*`` if unfinished."""
    if utilities is None:
        return "*"
    black = utilities[0]
    return "1-0" if black > 0 else ("0-1" if black < 0 else "1/2-1/2")


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def write_pdn(games: list[PdnGame]) -> str:
    """The PDN text of ``games`` (moves numbered, lines under 80 characters), each marked
    as ours with a ``Generator`` tag (gamesearch/records.py)."""
    from gamesearch.records import generator_tag

    out = []
    for g in games:
        tags = {"Event": "gamesearch", "Black": "?", "White": "?", **g.tags,
                "Result": g.result, "GameType": GAME_TYPE, "Generator": generator_tag()}
        if g.start:
            tags["SetUp"], tags["FEN"] = "1", g.start
        out.extend(f'[{k} "{_quote(str(v))}"]' for k, v in tags.items())
        mover = Checkers().state_from_string(g.start)[1] if g.start else 0
        words, number = [], 1
        for i, move in enumerate(g.moves):
            if (i + mover) % 2 == 0:
                words.append(f"{number}.")
            elif i == 0:
                words.append(f"{number}...")
            words.append(move)
            if (i + mover) % 2 == 1:
                number += 1
        words.append(g.result)
        line = ""
        lines = []
        for word in words:
            if line and len(line) + 1 + len(word) > 79:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        out.extend(lines)
        out.append("")
    return "\n".join(out)


def _strip(text: str) -> str:
    """The move text without comments, variations and annotations."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    depth, kept = 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
    return re.sub(r"\$\d+|[!?]+", " ", "".join(kept))


def read_pdn(text: str) -> list[PdnGame]:
    """Every game of a PDN text, each replayed by the rules; one clear error otherwise."""
    if len(text) > MAX_TEXT:
        raise GameSearchError(f"PDN text of {len(text):,} characters; at most {MAX_TEXT:,}")
    games: list[PdnGame] = []
    tags: dict[str, str] = {}
    body: list[str] = []

    def finish() -> None:
        moves = _strip("\n".join(body)).split()
        if tags or moves:  # only comments (or nothing): not a game
            games.append(_game(tags, "\n".join(body), len(games) + 1))

    seen_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            if seen_moves:  # a tag after move text starts the next game
                finish()
                tags, body, seen_moves = {}, [], False
            match = _TAG.fullmatch(stripped)
            if match is None:
                raise GameSearchError(f"PDN game {len(games) + 1}: cannot read the tag line "
                                      f"{stripped[:60]!r}")
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif stripped:
            body.append(line)
            seen_moves = True
    finish()
    return games


def _game(tags: dict[str, str], text: str, number: int) -> PdnGame:
    """One game from its tags and move text, replayed by the rules."""
    where = f"PDN game {number}"
    game_type = tags.get("GameType", GAME_TYPE).split(",")[0].strip()
    if game_type != GAME_TYPE:
        raise GameSearchError(f"{where}: GameType {game_type} is not English draughts (21)")
    rules = Checkers()
    start = tags.get("FEN")
    try:
        state = rules.state_from_string(start) if start else rules.initial_state()
    except GameSearchError as err:
        raise GameSearchError(f"{where}: FEN tag: {err}") from None
    if start and rules.state_to_string(state) == START_FEN:
        start = None
    moves, result = [], tags.get("Result", "*")
    for word in _strip(text).split():
        token = re.sub(r"^\d+\.+", "", word)
        if not token:
            continue
        if token in RESULTS:
            result = token
            break
        if rules.is_terminal(state):
            raise GameSearchError(f"{where}: move {len(moves) + 1} ({token!r}) comes after "
                                  "the end of the game")
        try:
            move = rules.string_to_action(state, token)
        except IllegalActionError as err:
            raise GameSearchError(f"{where}, move {len(moves) + 1} in "
                                  f"{fen(state[0], state[1])}: {err}") from None
        moves.append(move)
        state = rules.result(state, move)
    if result not in RESULTS:
        raise GameSearchError(f"{where}: Result {result!r} is not one of {', '.join(RESULTS)}")
    return PdnGame(moves, result, dict(tags), start)
