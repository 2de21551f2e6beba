"""A played game in its kind's own record format: PGN for chess, SGF for Go, PDN for
checkers, so it opens in any chess, Go or draughts program. Shared by ``play --record``
and the web page's "Save game"."""

from __future__ import annotations

import time
from typing import Any

from gamesearch.errors import GameSearchError

FORMATS = {"chess": ("pgn", "PGN file"), "go": ("sgf", "SGF file"),
           "checkers": ("pdn", "PDN file")}
"""Game name: (file suffix, what the file is called in messages)."""


GENERATOR = "gamesearch"
"""The mark our record files carry, so that ``pgn/sgf/pdn write`` replace only files we
made: PGN and PDN games get the tag ``[Generator "gamesearch VERSION"]`` (tags unknown to
a reader are kept and ignored by the standards), SGF games the root property
``AP[gamesearch:VERSION]`` (SGF's own "application that wrote the file")."""


def generator_tag() -> str:
    """The value of the ``Generator`` tag our PGN and PDN games carry."""
    from gamesearch import __version__

    return f"{GENERATOR} {__version__}"


def _first_game_head(text: str, opener: str) -> str:
    """The text of the first game up to its moves: the tag lines of PGN/PDN, the root node
    of SGF (what a mark must be found in)."""
    text = text.lstrip("\ufeff \t\r\n")
    if opener == "(;":
        end = text.find(";", 2)
        return text[:end if end >= 0 else len(text)]
    lines = []
    for line in text.splitlines():
        if not line.strip().startswith("["):
            break
        lines.append(line.strip())
    return "\n".join(lines)


def record_is_ours(kind: str, text: str) -> bool:
    """Whether ``text`` (the start of a file) is a record file that gamesearch wrote:
    ``kind`` is pgn, pdn or sgf; its first game carries our mark (:data:`GENERATOR`)."""
    if kind == "sgf":
        head = _first_game_head(text, "(;")
        return text.lstrip("\ufeff \t\r\n").startswith("(;") and \
            f"AP[{GENERATOR}:" in head
    head = _first_game_head(text, "[")
    return f'[Generator "{GENERATOR} ' in head or f'[Generator "{GENERATOR}"]' in head


def record_file_is_ours(kind: str, path: Any) -> bool:
    """:func:`record_is_ours` on the first 64 KiB of the regular file ``path``."""
    from gamesearch.durable import head

    return record_is_ours(kind, head(path).decode("utf-8", "replace"))


def record_format(game: Any) -> tuple[str, str]:
    """(suffix, name) of the game's record format; GameSearchError for a game without one."""
    if game.name not in FORMATS:
        kinds = ", ".join(f"{name} ({FORMATS[name][0].upper()})" for name in sorted(FORMATS))
        raise GameSearchError(f"{game.name} has no record format; records are kept for "
                              f"{kinds}")
    return FORMATS[game.name]


def looks_like(game: Any, text: str) -> bool:
    """Whether ``text`` reads as a record file of the game's kind (PGN and PDN open with a
    tag pair, SGF with a game tree)."""
    head = text.lstrip()
    return head.startswith("(;") if game.name == "go" else head.startswith("[")


def record_text(game: Any, start: Any, moves: list[str], players: list[str],
                utilities: list[float] | None) -> str:
    """One game (from ``start``, ``moves`` in the game's notation, ``utilities`` None while
    unfinished) as its kind's record text; GameSearchError at an illegal move."""
    record_format(game)
    actions, state = [], start
    for text in moves:
        action = game.string_to_action(state, text)
        actions.append(action)
        state = game.result(state, action)
    names = (list(players) + ["?", "?"])[:2]
    if game.name == "chess":
        import chess

        from gamesearch.games.chess.pgn import PgnRecord, result_token, write_pgn

        return write_pgn([PgnRecord(
            [str(a) for a in actions], result_token(utilities),
            {"Event": "gamesearch", "Site": "gamesearch", "Date": time.strftime("%Y.%m.%d"),
             "White": names[0], "Black": names[1]},
            None if start == chess.STARTING_FEN else start)])
    if game.name == "go":
        from gamesearch.games.go.sgf import SgfRecord, result_text, write_sgf

        setup = None if (start[0] == game.initial_state()[0] and start[1] == 0) \
            else (start[0], start[1])
        return write_sgf(SgfRecord(game.size, game.komi, actions, setup,
                                   {"black": names[0], "white": names[1]},
                                   result_text(game, state) if game.is_terminal(state)
                                   else None))
    from gamesearch.games.checkers.notation import fen
    from gamesearch.games.checkers.pdn import PdnGame, result_token, write_pdn

    return write_pdn([PdnGame(moves=list(moves), result=result_token(utilities),
                              tags={"Event": "gamesearch", "Black": names[0],
                                    "White": names[1]},
                              start=None if start == game.initial_state()
                              else fen(start[0], start[1]))])
