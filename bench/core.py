"""Core search benchmark (issue 2): our minimax and alpha-beta against easyAI and OpenSpiel.

Run ``python bench/core.py`` (or ``python -m bench.core``) from the repository root. It
prints one table: nodes, best time and nodes per second of each engine on the same
positions, measured in the same run, with our figures as ratios against the references,
then the issue's targets with the measured figures. easyAI and OpenSpiel are optional: a
missing one is skipped with a note (install them only in a benchmark environment).

How nodes are counted, the same way for every engine: every state whose value the search
asked for, i.e. the root plus every child state it made (a transposition-table hit still
counts, as the child was made). Ours: ``SearchStats.visited`` (expanded + leaves).
OpenSpiel: calls of ``_alpha_beta`` / ``expectiminimax``. easyAI: calls of ``negamax``
(1 + calls of the game's ``make_move``). The references are counted in an extra untimed
run with a counting wrapper, so counting costs them nothing in the timed runs.

Every engine scores a depth cut-off as 0 (easyAI: its scoring, -100 for a loss and 0
otherwise), so the benchmark measures search and rules, not an evaluation function. One
extra row per Connect Four case shows our alpha-beta with the game's own heuristic
``evaluate``, for information (no reference runs that evaluation, so it has no ratios).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.table import Table

from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.search import alphabeta, minimax

# Connect Four positions (columns 1-7 played from the empty board), alpha-beta depths, and
# whether to run easyAI's slow bundled ConnectFour class there too (seconds per search).
# Besides the empty board they come from Pascal Pons' benchmark sets ("Solving Connect 4",
# files Test_L*_R*; shared/data/connect4) and his article's example "4455".
C4_POSITIONS = (
    ("", 8, True, "empty board"),
    ("4455", 8, False, "Pons' article example"),
    ("32164625", 8, False, "Test_L1_R1 line 1 (Begin-Easy)"),
    ("32751571231557", 7, True, "Test_L1_R2 line 1 (Begin-Medium)"),
    ("5554224333234511764415115", 8, False, "Test_L2_R1 line 1 (Middle-Easy)"),
)
C4_MINIMAX_DEPTH = 6
TTT_CASE = "tic-tac-toe, full solve"

OURS_AB, OURS_AB_NOTT, OURS_MM = "gamesearch alphabeta", "gamesearch alphabeta tt=False", \
    "gamesearch minimax"
OURS_AB_EVAL = "gamesearch alphabeta, game's evaluate*"
EASY, EASY_TT, EASY_BUNDLED = "easyAI Negamax", "easyAI Negamax + TT", \
    "easyAI Negamax (easyAI's ConnectFour class)"
OS_AB, OS_MM = "OpenSpiel alpha_beta_search", "OpenSpiel expectiminimax"


@dataclass
class Measurement:
    case: str
    kind: str  # "alphabeta" or "minimax"
    engine: str
    nodes: int
    seconds: float
    value: float

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def best_time(run: Callable[[], object], repeats: int, budget: float) -> float:
    """The best time of up to ``repeats`` runs (fewer once ``budget`` seconds are spent; at
    least one), garbage collection off while timing, as ``timeit`` does. Time is the CPU
    time of this process (``time.process_time``; every engine here runs in this one
    thread, OpenSpiel's C++ included): on a shared machine wall time would mostly measure
    the neighbours."""
    times: list[float] = []
    spent = 0.0
    while len(times) < repeats and (not times or spent < budget):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            run()
            elapsed = time.process_time() - start
        finally:
            gc.enable()
        times.append(elapsed)
        spent += elapsed
    return min(times)


def zero(*_args: object) -> float:
    """The cut-off evaluation every engine uses: 0 (only wins and losses are known)."""
    return 0


# --- our engines ---------------------------------------------------------------------------
def ours(case: str, kind: str, game, state, depth: int | None, repeats: int,
         budget: float) -> list[Measurement]:
    rows = []
    if kind == "minimax":
        engines = [(OURS_MM, lambda: minimax(game, state, depth=depth, evaluate=zero))]
    else:
        engines = [
            (OURS_AB, lambda: alphabeta(game, state, depth=depth, evaluate=zero)),
            (OURS_AB_NOTT, lambda: alphabeta(game, state, depth=depth, evaluate=zero, tt=False)),
        ]
        if depth is not None:  # for information: the same search with the heuristic
            engines.append((OURS_AB_EVAL, lambda: alphabeta(game, state, depth=depth)))
    for name, run in engines:
        result = run()
        seconds = best_time(run, repeats, budget)
        rows.append(Measurement(case, kind, name, result.stats.visited, seconds, result.value))
    return rows


# --- easyAI ----------------------------------------------------------------------------------
def easyai_rows(case: str, moves: str | None, depth: int, bundled: bool, repeats: int,
                budget: float) -> list[Measurement]:
    """easyAI's Negamax without and with its transposition table (and, for Connect Four,
    on easyAI's own bundled ConnectFour class, without a table: it has no ``ttentry``)."""
    from easyAI import Negamax
    from easyAI.AI import TranspositionTable

    from bench.easyai_games import (
        EasyConnectFour,
        EasyTicTacToe,
        bundled_connect_four_class,
        counting,
        play_moves,
    )

    def make(cls):
        game = cls([None, None])
        return game if moves is None else play_moves(game, moves)

    classes = [(EASY, EasyTicTacToe if moves is None else EasyConnectFour, False),
               (EASY_TT, EasyTicTacToe if moves is None else EasyConnectFour, True)]
    if moves is not None and bundled:
        classes.append((EASY_BUNDLED, bundled_connect_four_class(), False))
    rows = []
    for name, cls, with_tt in classes:
        def run(cls=cls, with_tt=with_tt):
            ai = Negamax(depth, tt=TranspositionTable() if with_tt else None)
            ai(make(cls))
            return ai.alpha

        counted = counting(cls)
        value = run(counted, with_tt)
        nodes = 1 + counted.made
        rows.append(Measurement(case, "alphabeta", name, nodes,
                                best_time(run, repeats, budget), value))
    return rows


# --- OpenSpiel -------------------------------------------------------------------------------
def openspiel_rows(case: str, kind: str, moves: str | None, depth: int, repeats: int,
                   budget: float) -> list[Measurement]:
    """OpenSpiel's Python alpha_beta_search (or expectiminimax, plain minimax on a
    deterministic game) over pyspiel's C++ game states."""
    import pyspiel
    from open_spiel.python.algorithms import minimax as osm

    game = pyspiel.load_game("tic_tac_toe" if moves is None else "connect_four")
    state = game.new_initial_state()
    for ch in moves or "":
        state.apply_action(int(ch) - 1)
    player = state.current_player()
    if kind == "alphabeta":
        name, attr = OS_AB, "_alpha_beta"

        def run():
            return osm.alpha_beta_search(game, state, value_function=zero,
                                         maximum_depth=depth)[0]
    else:
        name, attr = OS_MM, "expectiminimax"

        def run():
            return osm.expectiminimax(state.clone(), depth, zero, player)[0]

    original = getattr(osm, attr)
    calls = 0

    def counted(*args, **kwargs):
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    setattr(osm, attr, counted)  # the recursion calls the module-level name
    try:
        value = run() if kind == "alphabeta" else counted(state.clone(), depth, zero, player)[0]
    finally:
        setattr(osm, attr, original)
    return [Measurement(case, kind, name, calls, best_time(run, repeats, budget), value)]


def available(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# --- the run ---------------------------------------------------------------------------------
def measure_all(repeats: int, budget: float, console: Console) -> tuple[list, list[str]]:
    have_easy, have_os = available("easyAI"), available("pyspiel")
    notes = []
    if not have_easy:
        notes.append("easyAI not installed: its rows are skipped (pip install easyAI).")
    if not have_os:
        notes.append("OpenSpiel not installed: its rows are skipped (pip install open_spiel).")
    rows: list[Measurement] = []
    ttt, c4 = TicTacToe(), ConnectFour()
    cases = [(TTT_CASE, ttt, ttt.initial_state(), None, None, 9, False)]
    for moves, depth, bundled, _source in C4_POSITIONS:
        cases.append((f"connect4 '{moves}' d={depth}", c4, c4.state_from_string(moves), moves,
                      depth, depth, bundled))
    for case, game, state, moves, depth, ref_depth, bundled in cases:
        console.log(f"alpha-beta: {case}")
        rows += ours(case, "alphabeta", game, state, depth, repeats, budget)
        if have_easy:
            rows += easyai_rows(case, moves, ref_depth, bundled, repeats, budget)
        if have_os:
            rows += openspiel_rows(case, "alphabeta", moves, ref_depth, repeats, budget)
    for case, game, state, moves, depth, ref_depth, _bundled in cases:
        mm_depth = depth if game is ttt else C4_MINIMAX_DEPTH
        ref_depth = ref_depth if game is ttt else C4_MINIMAX_DEPTH
        name = case if game is ttt else f"connect4 '{moves}' d={mm_depth}"
        console.log(f"minimax: {name}")
        rows += ours(name, "minimax", game, state, mm_depth, repeats, budget)
        if have_os:
            rows += openspiel_rows(name, "minimax", moves, ref_depth, repeats, budget)
    return rows, notes


def ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}x" if b else "-"


def table(rows: list[Measurement]) -> Table:
    out = Table(title="Core search: nodes per second, same positions, same run "
                      "(ratios: ours / reference nodes per second; time: reference / ours)")
    for col in ("case", "engine", "nodes", "best s", "nodes/s", "value",
                "vs easyAI", "vs easyAI+TT", "vs OpenSpiel", "time vs OpenSpiel"):
        out.add_column(col, justify="left" if col in ("case", "engine") else "right")
    by = {(r.case, r.kind, r.engine): r for r in rows}
    previous = None
    for r in rows:
        def ref(engine: str, r=r) -> Measurement | None:
            return by.get((r.case, r.kind, engine))

        os_ref = ref(OS_AB if r.kind == "alphabeta" else OS_MM)
        cells = ["", "", "", ""]
        if r.engine in (OURS_AB, OURS_AB_NOTT, OURS_MM):
            e, et = ref(EASY), ref(EASY_TT)
            cells = [ratio(r.rate, e.rate if e else None), ratio(r.rate, et.rate if et else None),
                     ratio(r.rate, os_ref.rate if os_ref else None),
                     ratio(os_ref.seconds, r.seconds) if os_ref else "-"]
        if previous is not None and (r.case, r.kind) != previous:
            out.add_section()
        previous = (r.case, r.kind)
        out.add_row(f"{r.case} [{r.kind}]", r.engine, f"{r.nodes:,}", f"{r.seconds:.4f}",
                    f"{r.rate:,.0f}", f"{r.value:g}", *cells)
    return out


def pooled(rows: list[Measurement], engine: str, cases: set[str]) -> float:
    """Nodes per second of ``engine``'s alpha-beta over ``cases``: total nodes / total time."""
    chosen = [r for r in rows if r.engine == engine and r.kind == "alphabeta" and r.case in cases]
    return sum(r.nodes for r in chosen) / sum(r.seconds for r in chosen)


def targets(rows: list[Measurement]) -> list[str]:
    """The issue's targets for the pure-Python path, each with the measured figure. Connect
    Four rates are pooled over the positions both engines searched (total nodes / total
    time), with the range of the per-position ratios."""
    lines = []
    ttt = next(r for r in rows if r.case == TTT_CASE and r.engine == OURS_AB)
    lines.append(f"tic-tac-toe full solve under 10 ms: {ttt.seconds * 1000:.2f} ms "
                 f"({ttt.nodes:,} nodes) -> {'MET' if ttt.seconds < 0.010 else 'MISSED'}")
    by = {(r.case, r.engine): r for r in rows if r.kind == "alphabeta"}
    for engine, factor in ((EASY, 50), (EASY_TT, 50), (EASY_BUNDLED, 50), (OS_AB, 0.5)):
        cases = {case for case, name in by if name == engine and case.startswith("connect4")}
        if not cases:
            lines.append(f"Connect Four alpha-beta >= {factor}x {engine}: not measured "
                         "(not installed)")
            continue
        mine, ref = pooled(rows, OURS_AB, cases), pooled(rows, engine, cases)
        each = [by[c, OURS_AB].rate / by[c, engine].rate for c in cases]
        got = mine / ref
        lines.append(f"Connect Four alpha-beta nodes/s >= {factor}x {engine} "
                     f"({len(cases)} positions): {mine:,.0f} vs {ref:,.0f} = {got:.2f}x "
                     f"(per position {min(each):.2f}-{max(each):.2f}x) -> "
                     f"{'MET' if got >= factor else 'MISSED'}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per measurement (best)")
    parser.add_argument("--budget", type=float, default=1.5,
                        help="stop repeating a measurement after this many seconds")
    args = parser.parse_args(argv)
    console = Console()
    rows, notes = measure_all(args.repeats, args.budget, console)
    console.print(table(rows))
    console.print(f"Python {sys.version.split()[0]}; best of up to {args.repeats} runs "
                  f"(fewer past {args.budget} s); C4 minimax depth {C4_MINIMAX_DEPTH}; "
                  "cut-offs score 0 for every engine (* except this row: our heuristic, "
                  "no ratios).")
    for note in notes:
        console.print(f"[yellow]note:[/] {note}")
    console.print("[bold]Targets (pure-Python path, issue 2):[/]")
    for line in targets(rows):
        console.print(f"  {line}")


if __name__ == "__main__":
    main()
