"""PGN (Portable Game Notation, the chess standard) through python-chess's ``chess.pgn``:
our games written so that every chess program and database opens them, and PGN games
from elsewhere read, each move checked by the rules (python-chess's, which ours wrap).

A game is a :class:`PgnRecord`: the seven-tag roster (plus SetUp/FEN for a game that
starts elsewhere than the opening position), the moves in UCI notation, the result. The
reader keeps the main line (variations are skipped) and turns the first problem of a game
(an illegal or unreadable move, a bad FEN) into one error naming the game.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

import chess
import chess.pgn

from gamesearch.errors import GameSearchError

MAX_TEXT = 20_000_000
"""Bytes of PGN read at most (about 20,000 games): beyond, split the file."""
MAX_GAMES = 100_000
"""Games read from one file at most."""


@dataclass
class PgnRecord:
    """One game: ``moves`` in UCI from ``start`` (a FEN; None for the opening position)."""

    moves: list[str]
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)
    start: str | None = None

    def final_board(self) -> chess.Board:
        """The board after the last move; GameSearchError at the first illegal one."""
        board = chess.Board(self.start) if self.start else chess.Board()
        for number, text in enumerate(self.moves, 1):
            try:
                board.push_uci(text)
            except ValueError:
                raise GameSearchError(f"move {number} ({text}) is not legal in "
                                      f"{board.fen()}") from None
        return board


def result_token(utilities: list[float] | None) -> str:
    """PGN's result from White's and Black's utilities: 1-0, 0-1, 1/2-1/2, or * (none)."""
    if not utilities:
        return "*"
    white, black = utilities[0], utilities[1]
    return "1-0" if white > black else "0-1" if black > white else "1/2-1/2"


def write_pgn(records: list[PgnRecord]) -> str:
    """The games as one PGN text (a blank line between games), each marked as ours with a
    ``Generator`` tag (gamesearch/records.py)."""
    from gamesearch.records import generator_tag

    texts = []
    for record in records:
        game = chess.pgn.Game()
        for tag, value in record.tags.items():
            game.headers[tag] = value
        game.headers["Result"] = record.result
        game.headers["Generator"] = generator_tag()  # the mark of a file we wrote
        board = chess.Board(record.start) if record.start else chess.Board()
        if record.start:
            game.setup(board)
        node = game
        for text in record.moves:
            move = chess.Move.from_uci(text)
            if not board.is_legal(move):
                raise GameSearchError(f"move {text} is not legal in {board.fen()}")
            node = node.add_variation(move)
            board.push(move)
        texts.append(str(game))
    return "\n\n".join(texts) + "\n"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """python-chess logs each unreadable game as well as recording it: we report it."""
    logger = logging.getLogger("chess.pgn")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def read_pgn(text: str) -> list[PgnRecord]:
    """Every game of a PGN text (main lines); GameSearchError names the first game with an
    illegal or unreadable move or set-up."""
    if len(text) > MAX_TEXT:
        raise GameSearchError(f"PGN of {len(text):,} characters; at most {MAX_TEXT:,}")
    stream, records = io.StringIO(text), []
    with _quiet():
        while True:
            try:
                game = chess.pgn.read_game(stream)
            except (ValueError, RecursionError) as err:  # python-chess raises few; one line
                raise GameSearchError(f"PGN game {len(records) + 1}: {err}") from None
            except (IndexError, KeyError, AttributeError):  # its reader's own slips: 'a1)!'
                raise GameSearchError(f"PGN game {len(records) + 1}: unreadable (unbalanced "
                                      "variation or annotation)") from None
            if game is None:
                break
            number = len(records) + 1
            if number > MAX_GAMES:
                raise GameSearchError(f"more than {MAX_GAMES:,} games: split the file")
            if game.errors:
                raise GameSearchError(f"PGN game {number}: {game.errors[0]}")
            moves = [m.uci() for m in game.mainline_moves()]
            if not moves and dict(game.headers) == dict(chess.pgn.Game().headers):
                continue  # text with no tags and no moves: not a game
            start = game.headers.get("FEN") if game.headers.get("SetUp") == "1" or \
                "FEN" in game.headers else None
            records.append(PgnRecord(moves, game.headers.get("Result", "*"),
                                     dict(game.headers), start))
    return records
