"""Perfect Connect Four for the public calls: ``gamesearch solve connect4`` (the registry's
GameEntry.solver), ``analyze``, ``--batch`` over benchmark files, and the ``solver`` agent.

One :class:`~gamesearch.engines.connect4.solver.Connect4Solver` per board size is kept for the
session, so its table serves every later call; the first call says when numba is compiling.
"""

from __future__ import annotations

import logging
import time as _time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.games.connect4 import ConnectFour

_SOLVERS: dict[tuple[int, int, int], Any] = {}
TRUE = {"true", "1", "yes", "on"}


def flag(options: dict, name: str) -> bool:
    value = options.get(name)
    return value is True or (isinstance(value, str) and value.strip().lower() in TRUE)


def session_solver(game: ConnectFour, log_table: int | None = None, book: str | None = None,
                   notice: bool = True):
    """The session's solver for this board size (made, and compiled if needed, once)."""
    from gamesearch.engines.connect4.book import OpeningBook, default_book
    from gamesearch.engines.connect4.solver import (
        DEFAULT_LOG_TABLE,
        Connect4Solver,
        check_table,
        compiled,
    )

    log_table = DEFAULT_LOG_TABLE if log_table is None else log_table
    check_table(log_table)
    # a book file is read before the solver compiles: a bad one is refused at once
    loaded = OpeningBook.load(book) if book not in (None, "", "none") else None
    key = (game.width, game.height, log_table)
    if key not in _SOLVERS:
        if notice and not is_cached(compiled(game.width, game.height, True, log_table).search):
            logging.getLogger("gamesearch").warning(
                f"compiling the Connect Four {game.width}x{game.height} solver (first use on "
                "this machine; cached afterwards, or run 'gamesearch warmup')...")
        solver = Connect4Solver(game.width, game.height, log_table=log_table,
                                book=default_book(game.width, game.height))
        _SOLVERS[key] = solver
    solver = _SOLVERS[key]
    if book is not None:
        solver.set_book(loaded)
    return solver


def is_cached(dispatcher: Any) -> bool:
    """True when numba has this function compiled in memory or in its on-disk cache."""
    if dispatcher.signatures:
        return True
    try:
        return Path(dispatcher._cache._cache_file._index_path).exists()
    except AttributeError:  # another numba version: assume the worst, say it is compiling
        return False


def solve_entry(game: ConnectFour, state: tuple, options: dict) -> dict:
    """GameEntry.solver: exact score (``--weak``: win/draw/loss), best move, statistics;
    ``--batch FILE`` (benchmark format), ``--pure`` (the generic pure-Python alpha-beta)."""
    known = {"depth", "time", "budget", "weak", "batch", "pure", "table", "book", "limit", "pv",
             "progress"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise GameSearchError(f"solve connect4: unknown option(s) {', '.join(unknown)}; "
                              f"known: --weak, --batch FILE, --limit N, --pure, --table LOG2, "
                              "--book FILE, --pv N")
    weak = flag(options, "weak")
    if flag(options, "pure"):
        compiled_only = [f"--{k}" for k in ("weak", "batch", "table", "book", "limit", "pv")
                         if options.get(k) not in (None, False, "")]
        if compiled_only:
            verb = "is" if len(compiled_only) == 1 else "are"
            raise GameSearchError(f"solve connect4: {', '.join(compiled_only)} {verb} for the "
                                  "compiled solver; --pure runs the readable alpha-beta "
                                  "(its options: --depth, --time)")
        return pure_entry(game, state, options)
    limits = [f"--{k}" for k in ("depth", "time") if options.get(k) is not None]
    if limits:
        raise GameSearchError(f"solve connect4: the compiled solver computes the exact score; "
                              f"{' and '.join(limits)} apply with --pure only")
    log_table = int(options["table"]) if options.get("table") else None
    if options.get("batch"):
        limit = int(options["limit"]) if options.get("limit") else None
        load_batch(game, options["batch"], limit)  # a bad file is refused before any compile
        solver = session_solver(game, log_table, options.get("book"))
        return run_batch(game, solver, options["batch"], weak, limit,
                         progress=options.get("progress"))
    solver = session_solver(game, log_table, options.get("book"))
    pv_length = _pv_length(options.get("pv"), game.cells)
    started = _time.perf_counter()
    solved = solver.solve(state, weak)
    report: dict[str, Any] = {"stones": state[2],
                              "to_move": game.player_name(game.to_move(state)),
                              "score" if not weak else "result": solved.score}
    report["outcome"] = outcome(solved.score)
    from gamesearch.engines.connect4.scale import VALUE_SCALE

    where = (None, None) if weak else (game, state)  # a weak solve says no distance
    # "score" is the solver's number (kept as it was); "evaluation" reads it as a Score
    report["evaluation"] = VALUE_SCALE.score(solved.score, game.to_move(state), True,
                                             *where).as_dict()
    pv_nodes_before = solver.total_nodes
    if not game.is_terminal(state):
        # the best move is the PV's first move, so one ply is searched even with --pv 0:
        # a weak guess could pick a column of the same sign but another score
        pv = solver.principal_variation(game, state, solved.score,
                                        max(1, pv_length)) if not weak else []
        best = pv[0] if pv else best_weak_move(game, solver, state)
        report["best_move"] = game.action_to_string(state, best)
        if pv_length:
            report["pv"] = [game.action_to_string(state, c) for c in pv[:pv_length]]
    seconds = _time.perf_counter() - started
    nodes = solver.total_nodes - pv_nodes_before + solved.nodes
    # every figure covers the whole command (solve + best move + PV); the parts follow
    report["nodes"] = nodes
    report["seconds"] = round(seconds, 6)
    report["nodes_per_second"] = round(nodes / seconds) if seconds else 0
    report["solve_nodes"] = solved.nodes
    report["solve_seconds"] = round(solved.seconds, 6)
    report["pv_nodes"] = nodes - solved.nodes
    report["pv_seconds"] = round(max(0.0, seconds - solved.seconds), 6)
    report["solver"] = "compiled (numba)"
    return report


def _pv_length(text: Any, cells: int) -> int:
    """``--pv N``: how many moves of the principal variation to show (default 8)."""
    if text is None or text == "":
        return 8
    text = str(text)
    if not (text.isascii() and text.isdigit()) or int(text) > cells:
        raise GameSearchError(f"--pv {text!r}: give a whole number of moves, 0-{cells}")
    return int(text)


def best_weak_move(game: ConnectFour, solver: Any, state: tuple) -> int:
    scores = analyze(game, state, weak=True, solver=solver)
    return max(game.order_actions(state, list(scores)), key=lambda c: scores[c])


def outcome(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def analyze(game: ConnectFour, state: tuple, weak: bool = False, solver: Any = None
            ) -> dict[int, int]:
    """Score of every legal column (0-based) for the player to move."""
    if game.is_terminal(state):
        raise GameSearchError("the game is over: no column to analyze")
    solver = solver or session_solver(game)
    return solver.analyze(game, state, weak)


def pure_entry(game: ConnectFour, state: tuple, options: dict) -> dict:
    """The generic pure-Python alpha-beta (the readable specification), for comparison."""
    from gamesearch.search.alphabeta import alphabeta

    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to search")
    depth = int(options["depth"]) if options.get("depth") is not None else None
    time = float(options["time"]) if options.get("time") is not None else None
    result = alphabeta(game, state, depth=depth, time=time)
    data = result.as_dict(game, state)
    data["solver"] = "pure Python alpha-beta"
    return data


def read_benchmark(path: str) -> list[tuple[str, int | None]]:
    """Lines ``MOVES SCORE`` (the score may be missing); a bad line is named."""
    from gamesearch.textinput import read_text

    text = read_text(path, "benchmark file")
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        score = parts[1].lstrip("-") if len(parts) == 2 else "0"
        if len(parts) > 2 or not (score.isascii() and score.isdigit() and len(score) <= 4):
            raise FileFormatError(f"{path!r} line {number}: expected 'MOVES SCORE', got "
                                  f"{line[:60]!r}")
        rows.append((parts[0], int(parts[1]) if len(parts) == 2 else None))
    return rows


def load_batch(game: ConnectFour, path: str, limit: int | None = None
               ) -> tuple[list, list]:
    """The (moves, expected score) rows of a benchmark file and their positions; a malformed
    file raises FileFormatError naming the line."""
    rows = read_benchmark(path)[:limit]
    states = []
    for number, (moves, _) in enumerate(rows, 1):
        try:
            states.append(game.state_from_string(moves))
        except GameSearchError as err:
            raise FileFormatError(f"{path!r} line {number}: {err}") from None
    return rows, states


def run_batch(game: ConnectFour, solver: Any, path: str, weak: bool = False,
              limit: int | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Solve every position of a benchmark file: correctness, mean time, nodes, nodes/s."""
    rows, states = load_batch(game, path, limit)
    correct = wrong = done = 0
    seconds = nodes = 0
    first_wrong = None
    interrupted = False
    title = f"solving {Path(path).name}"
    try:
        for (moves, expected), state in zip(rows, states):
            start = _time.perf_counter()
            solved = solver.solve(state, weak)
            seconds += _time.perf_counter() - start
            nodes += solved.nodes
            done += 1
            if expected is not None:
                want = (expected > 0) - (expected < 0) if weak else expected
                if solved.score == want:
                    correct += 1
                else:
                    wrong += 1
                    first_wrong = first_wrong or f"{moves}: {solved.score} (expected {want})"
            if progress is not None:
                progress(title, done, len(rows))
    except KeyboardInterrupt:  # Ctrl-C: report the positions finished so far
        interrupted = True
    n = max(done, 1)
    report = {"file": path, "mode": "weak" if weak else "strong", "positions": done,
              "correct": correct, "wrong": wrong, "first_wrong": first_wrong,
              "mean_seconds": seconds / n, "mean_nodes": nodes / n,
              "nodes_per_second": round(nodes / seconds) if seconds else 0}
    if interrupted:
        report["interrupted"] = f"after {done} of {len(rows)} positions"
    return report

