"""The Connect Four engine: the perfect solver (bitboards, table, opening book), AlphaZero,
the solver's tournament judge, and Connect Four's ENTRY (with the analyzer of ``gamesearch
analyze``, the book of ``gamesearch book`` and the trainers of ``train alphazero`` and
``train alphazero-jax``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from gamesearch.agent import Agent
from gamesearch.engines.connect4.scale import VALUE_SCALE
from gamesearch.entry import (
    AgentDecl,
    Analyzer,
    BookMaker,
    GameEntry,
    Trainer,
    VerdictPolicy,
    WarmupStep,
)
from gamesearch.spec import Option, Range

SOLVER_OPTIONS = {
    "weak": Option(bool, "win/draw/loss only (faster)"),
    "pure": Option(bool, "the generic pure-Python alpha-beta instead of the compiled solver"),
    "depth": Option(int, "depth limit in plies (with --pure only)", Range(1, 1000)),
    "time": Option(float, "time budget in seconds (with --pure only)",
                   Range(0, 86_400, low_open=True)),
    "table": Option(int, "log2 of the transposition table slots (4 bytes each)",
                    Range(8, 32)),
    "book": Option(str, "an opening book (.npz)"),
    "batch": Option(str, "solve every position of a benchmark file"),
    "limit": Option(int, "with --batch: only the first N positions", Range(1, 10**9)),
    "pv": Option(int, "moves of the principal variation to show", Range(0, 81)),
}


def _connect4(width: int = 7, height: int = 6) -> Any:
    from gamesearch.games.connect4 import ConnectFour

    return ConnectFour(width=width, height=height)


def _solver(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.engines.connect4.solve import solve_entry

    return solve_entry(game, state, options)


def _solver_agent(weak: bool = False, seed: int | None = None) -> Agent:
    from gamesearch.engines.connect4.perfect import PerfectAgent

    return PerfectAgent(weak, seed)


def _alphazero(simulations: int = 800, weights: str | None = None, c: float = 1.5,
               policy: bool = False) -> Agent:
    from gamesearch.engines.connect4.alphazero import alphazero_agent

    return alphazero_agent(simulations=0 if policy else simulations, weights=weights, c=c)


def _warmups(game: Any) -> list[WarmupStep]:
    from gamesearch.kernels.warmup import kernel_steps

    def verdict() -> None:
        """The verdict path (the registry's solver) on a position three plies from the end
        of a fixed play-out: it compiles the same code as any position, in microseconds."""
        import random

        rng = random.Random(0)
        states = [game.initial_state()]
        while not game.is_terminal(states[-1]):
            states.append(game.result(states[-1], rng.choice(list(game.actions(states[-1])))))
        _solver(game, states[max(0, len(states) - 3)], {"depth": None, "budget": 60.0})

    steps = kernel_steps(game.kernel, game.initial_state()) if game.kernel else []
    return [*steps, (f"connect4_{game.width}x{game.height} perfect solver", verdict)]


def _needs_compile(game: Any) -> bool:
    """No cache holds the solver of this board size yet (about 13 s to compile)."""
    from gamesearch.engines.connect4.solve import is_cached
    from gamesearch.engines.connect4.solver import DEFAULT_LOG_TABLE, compiled

    return not is_cached(compiled(game.width, game.height, True, DEFAULT_LOG_TABLE).search)


def _stopping(game: Any, stop: Callable[[], bool]) -> AbstractContextManager:
    """Every solve of the session's solver ends (SearchTimeout) once ``stop()`` says so."""
    from gamesearch.engines.connect4.solve import session_solver

    return session_solver(game).stopping(stop)


def _move_values(game: Any, state: Any) -> dict:
    from gamesearch.engines.connect4.solve import analyze

    return analyze(game, state)


@dataclass(frozen=True)
class SolverJudge:
    """From ``stones`` stones on, the solver's win/draw/loss ends a tournament game."""

    stones: int
    label = "solver"

    def __call__(self, game: Any, state: Any, ply: int) -> tuple[float, float] | None:
        """The utilities under perfect play once enough stones are down, else None."""
        if state[2] < self.stones or game.is_terminal(state):
            return None
        from gamesearch.engines.connect4.solve import session_solver

        score = session_solver(game).solve(state, True).score  # the mover's viewpoint
        if score == 0:
            return (0.0, 0.0)
        mover = game.to_move(state)
        winner = mover if score > 0 else 1 - mover
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def _analyze(game: Any, state: Any, options: dict) -> dict:
    """Every column's score (benchmark convention, for the mover); a full column: None."""
    from gamesearch.engines.connect4.solve import analyze, flag

    scores = analyze(game, state, flag(options, "weak"))
    return {column: scores.get(column) for column in range(game.width)}


def _outcome(score: int) -> str:
    from gamesearch.engines.connect4.solve import outcome

    return outcome(score)


ANALYZER = Analyzer(_analyze, {"weak": Option(bool, "win/draw/loss only (faster)")},
                    describe=_outcome, blank="full")


def _build_book(game: Any, depth: int, path: str, progress: Any, force: bool,
                backend: Any) -> dict:
    from gamesearch.engines.connect4.book import build_book

    book = build_book(game.width, game.height, depth, path, progress=progress, force=force,
                      backend=backend)
    return {"positions": len(book.keys), "bytes": book.keys.nbytes + book.values.nbytes}


def _is_book(path: Any) -> bool:
    from gamesearch.engines.connect4.book import is_book

    return is_book(path)


def _kept(partial: str) -> int | None:
    from gamesearch.engines.connect4.book import solved_in_partial

    return solved_in_partial(partial)


BOOK = BookMaker(_build_book, _is_book, max_depth=lambda game: game.cells,
                 file_name=lambda game, depth: f"book_{game.width}x{game.height}_d{depth}.npz",
                 kept=_kept)


def _alphazero_problem() -> Any:
    from gamesearch.engines.connect4.alphazero import connect4_problem

    return connect4_problem()


def _jax_rules() -> Any:
    from gamesearch.engines.connect4.jax_rules import CONNECT4

    return CONNECT4


def _load_labelled(path: Any) -> Any:
    from gamesearch.engines.connect4.alphazero import load_labelled

    return load_labelled(path)


TRAINERS = {
    "alphazero": Trainer(_alphazero_problem),
    "alphazero-jax": Trainer(_jax_rules, {"labels": _load_labelled}),
}
"""``train alphazero`` learns on the problem (rules and network shapes); ``train
alphazero-jax`` on the rules in JAX, with ``labels(path)`` reading the solver's labelled
positions (bench/connect4_labels.py) for its accuracy."""


def _board(game: Any, state: Any) -> dict:
    return {"grid": game.grid(state), "width": game.width, "height": game.height}


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """Red (first player) and yellow discs in a blue frame, columns numbered 1 to width;
    each disc carries its column and its row from the bottom (``data-column``,
    ``data-row``); the top disc of the last move's column is ringed, an arrow points down a
    column where it would fall."""
    from gamesearch.drawing import ARROW, Canvas

    grid = game.grid(state)
    s, m = 48, 24

    def column(action: Any) -> int:
        return int(action) - 1 if isinstance(action, str) else action

    canvas = Canvas(2 * m + s * game.width, 2 * m + s * game.height + 14, "Connect Four")
    canvas.add("rect", class_="board", x=m, y=m, width=s * game.width,
               height=s * game.height, rx=8, fill="#1f4fa8")
    heights = [sum(1 for row in grid if row[c]) for c in range(game.width)]
    last = column(lastmove) if lastmove is not None else None
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            x, y = m + (c + 0.5) * s, m + (r + 0.5) * s
            side = {0: None, 1: "red", 2: "yellow"}[v]
            top = c == last and game.height - r == heights[c]
            canvas.add("circle", class_=f"piece {side}" + (" lastmove" if top else "")
                       if side else "hole", cx=x, cy=y, r=s * 0.4,
                       fill={None: "#fff", "red": "#d62828", "yellow": "#f7c948"}[side],
                       stroke="#2a9d8f" if top else "#123", stroke_width=4 if top else 1,
                       data_column=c + 1 if side else None,
                       data_row=game.height - r if side else None)
    for c in range(game.width):
        canvas.add("text", str(c + 1), class_="coord", x=m + (c + 0.5) * s,
                   y=2 * m + s * game.height, font_size=12, text_anchor="middle",
                   fill="#555")
    for action in arrows:
        c = column(action)
        x, land = m + (c + 0.5) * s, m + (game.height - heights[c] - 0.5) * s
        canvas.add("circle", class_="arrow", cx=x, cy=land, r=s * 0.42, fill="none",
                   stroke=ARROW, stroke_width=4)
        canvas.arrow(x, 4, x, m + s * 0.1, 5)
    return canvas.svg()


ENTRY = GameEntry(
    "connect4", "Connect Four, 7x6 by default (other sizes too)", _connect4,
    solver=_solver, solver_options=SOLVER_OPTIONS, analyzer=ANALYZER, book=BOOK,
    trainers=TRAINERS,
    ranges={"width": Range(4, 9), "height": Range(4, 8)},
    agents=(
        AgentDecl("solver", _solver_agent, "perfect play from a game's exact solver "
                  "(connect4; weak=true, seed=N)"),
        AgentDecl("alphazero", _alphazero, "connect4: PUCT with the self-play policy-value "
                  "network, simulations=N (policy=true: the policy alone, no search), "
                  "weights=FILE, c=1.5"),
    ),
    defaults=("alphabeta:time=1",),
    warmups=_warmups,
    judge=SolverJudge,
    verdict=VerdictPolicy(needs_compile=_needs_compile, move_values=_move_values,
                          stopping=_stopping),
    board=_board,
    svg=_svg,
    scale=VALUE_SCALE,
)
