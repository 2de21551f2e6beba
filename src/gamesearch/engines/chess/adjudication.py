"""Adjudicating a benchmark game that reaches its ply cut-off, so that a long game is scored
by who stands better rather than counted as a plain draw (issue 42).

The rule, in order, for a game still running at :data:`CUTOFF` plies:

1. **The endgame tables** (:class:`~gamesearch.engines.chess.tables.Tables`), where they hold
   the position: their exact value (a win for the side to move, a loss, or a draw).
2. **Played on** by the same players until the game ends by the rules (or the tables come
   to hold it: step 1 again after every move), up to :data:`HARD_CAP` plies.
3. **Stockfish's evaluation** at the hard cap: Stockfish at depth :data:`EVAL_DEPTH`
   evaluates the last :data:`EVAL_COUNT` positions of the game (each side to move twice);
   when every one of them is at least :data:`EVAL_MARGIN` centipawns for the same side
   (a mate counts as more), that side wins; otherwise the game is drawn.

Each verdict is an :class:`Adjudication`: the result and a sentence saying how it was
reached, which the benchmark writes into the game's PGN (``Termination`` and a comment).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import chess

CUTOFF = 200
"""Plies after which a benchmark game is adjudicated (the benchmark's old draw cut-off)."""
HARD_CAP = 400
"""Plies after which a game played on past :data:`CUTOFF` goes to Stockfish's evaluation."""
EVAL_DEPTH = 16
"""Stockfish's search depth for each evaluation."""
EVAL_MARGIN = 300
"""Centipawns, for the same side in every evaluation, that make a win."""
EVAL_COUNT = 4
"""How many of the last positions Stockfish evaluates."""
MATE_CP = 100_000
"""A mate found by the evaluator, as centipawns (beyond any margin)."""


@dataclass(frozen=True)
class Adjudication:
    """A verdict: ``result`` in PGN's words (``1-0``, ``0-1``, ``1/2-1/2``) and ``how`` it
    was reached (one sentence, for the record)."""

    result: str
    how: str


def by_tables(board: chess.Board, tables: Any | None) -> Adjudication | None:
    """The tables' exact verdict where ``tables`` (a ``Tables`` or None) hold the position,
    else None."""
    from gamesearch.tables.sweep import DRAW, WIN

    if tables is None:
        return None
    found = tables.probe_board(board)
    if found is None:
        return None
    value, plies = found
    mover = "White" if board.turn == chess.WHITE else "Black"
    if value == DRAW:
        return Adjudication("1/2-1/2", f"endgame tables at ply {board.ply()}: a draw")
    winner_white = (value == WIN) == (board.turn == chess.WHITE)
    outcome = "wins" if value == WIN else "loses"
    return Adjudication("1-0" if winner_white else "0-1",
                        f"endgame tables at ply {board.ply()}: {mover} to move {outcome} "
                        f"(mate in {plies} plies)")


def by_evaluations(scores: Sequence[int], margin: int = EVAL_MARGIN,
                   count: int = EVAL_COUNT) -> Adjudication:
    """The verdict of the last ``count`` evaluations (centipawns from White's side, a mate
    as +-``MATE_CP``): a win for the side every one of them gives at least ``margin``, else
    a draw (also when there are fewer than ``count``)."""
    last = list(scores)[-count:]
    shown = ", ".join(f"{s:+d}" for s in last)
    if len(last) == count and all(s >= margin for s in last):
        return Adjudication("1-0", f"Stockfish evaluation: White at least +{margin} cp in "
                            f"each of the last {count} positions ({shown})")
    if len(last) == count and all(s <= -margin for s in last):
        return Adjudication("0-1", f"Stockfish evaluation: Black at least +{margin} cp in "
                            f"each of the last {count} positions ({shown})")
    return Adjudication("1/2-1/2", f"Stockfish evaluation: neither side at least "
                        f"+{margin} cp in all of the last {count} positions ({shown})")


def last_positions(board: chess.Board, count: int = EVAL_COUNT) -> list[chess.Board]:
    """The game's last ``count`` positions, oldest first (the current one last)."""
    positions = []
    replay = board.copy()
    for _ in range(min(count, len(replay.move_stack) + 1)):
        positions.append(replay.copy())
        if not replay.move_stack:
            break
        replay.pop()
    return positions[::-1]


def at_cap(board: chess.Board, evaluate: Callable[[chess.Board], int],
           margin: int = EVAL_MARGIN, count: int = EVAL_COUNT) -> Adjudication:
    """Step 3: ``evaluate`` (a board -> centipawns from White's side) on the game's last
    ``count`` positions, then :func:`by_evaluations`."""
    return by_evaluations([evaluate(b) for b in last_positions(board, count)], margin, count)


def stockfish_evaluator(engine: Any, depth: int = EVAL_DEPTH) -> Callable[[chess.Board], int]:
    """An ``evaluate`` for :func:`at_cap` from a python-chess UCI engine (Stockfish at full
    strength): its score at ``depth`` from White's side, a mate as +-:data:`MATE_CP`."""
    import chess.engine

    def evaluate(board: chess.Board) -> int:
        info = engine.analyse(board, chess.engine.Limit(depth=depth))
        return int(info["score"].white().score(mate_score=MATE_CP))

    return evaluate
