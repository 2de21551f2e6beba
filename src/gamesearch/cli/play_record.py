"""``gamesearch play --record FILE``: keep each game played in the terminal in its game's own
record format (PGN for chess, SGF for Go, PDN for checkers), appended to FILE, so a game
opens in any chess, Go or draughts program afterwards (an abandoned game too, its result
unknown)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from gamesearch.errors import GameSearchError

KINDS = {"chess": "PGN file", "go": "SGF file", "checkers": "PDN file"}


def _is_ours(kind: str):
    """Whether an existing file reads as a record file of this kind (PGN and PDN open with
    a tag pair, SGF with a game tree)."""
    def check(path: Path) -> bool:
        head = path.read_text(errors="replace").lstrip()
        return head.startswith("(;") if kind == "go" else head.startswith("[")
    return check


def check_record(path: Path, game: Any) -> Path:
    """The record file, checked before the game starts: a game with a record format, a
    writable place, and no file there that is not a record of that kind."""
    from gamesearch.durable import check_output

    kind = game.name
    if kind not in KINDS:
        raise GameSearchError(f"--record keeps {', '.join(sorted(KINDS))} games (as "
                              f"{', '.join(KINDS[k] for k in sorted(KINDS))}); {kind} has "
                              "no record format: use --json")
    return check_output(path, _is_ours(kind), what=KINDS[kind],
                        remedy="choose another name (the game is added to a record file "
                        "of its kind)")


def append_record(path: Path, game: Any, start: Any, moves: list[str], players: list[str],
                  utilities: list[float] | None) -> None:
    """Add the game (from ``start``, the moves as the terminal showed them) to ``path``,
    atomically: the old games and the new one, or the old file untouched."""
    from gamesearch.durable import atomic_write

    actions, state = [], start
    for text in moves:
        action = game.string_to_action(state, text)
        actions.append(action)
        state = game.result(state, action)
    text = _text(game, start, actions, moves, players, utilities, state)
    old = path.read_text() if path.exists() else ""
    joint = "\n" if game.name == "go" else "\n\n"
    atomic_write(path, (old.rstrip() + joint if old.strip() else "") + text.strip() + "\n")


def _text(game: Any, start: Any, actions: list, moves: list[str], players: list[str],
          utilities: list[float] | None, end: Any) -> str:
    """One game in its kind's record format."""
    if game.name == "chess":
        import chess

        from gamesearch.games.chess.pgn import PgnRecord, result_token, write_pgn

        return write_pgn([PgnRecord(
            [str(a) for a in actions], result_token(utilities),
            {"Event": "gamesearch play", "Site": "gamesearch",
             "Date": time.strftime("%Y.%m.%d"), "White": players[0], "Black": players[1]},
            None if start == chess.STARTING_FEN else start)])
    if game.name == "go":
        from gamesearch.games.go.sgf import SgfRecord, result_text, write_sgf

        setup = None if (start[0] == game.initial_state()[0] and start[1] == 0) \
            else (start[0], start[1])
        return write_sgf(SgfRecord(game.size, game.komi, actions, setup,
                                   {"black": players[0], "white": players[1]},
                                   result_text(game, end) if game.is_terminal(end) else None))
    from gamesearch.games.checkers.notation import fen
    from gamesearch.games.checkers.pdn import PdnGame, result_token, write_pdn

    return write_pdn([PdnGame(moves=list(moves), result=result_token(utilities),
                              tags={"Event": "gamesearch play", "Black": players[0],
                                    "White": players[1]},
                              start=None if start == game.initial_state()
                              else fen(start[0], start[1]))])
