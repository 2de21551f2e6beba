"""Benchmark: gamesearch's equilibrium solvers against Gambit (pygambit), same games, same run.

    python bench/theory_vs_gambit.py            # the full table (a minute or two)
    python bench/theory_vs_gambit.py --quick    # small sizes only

Vertex enumeration against Gambit's enummixed: random games with standard-normal payoffs
(nondegenerate with probability 1; seed = size) in floats, and degenerate games with small
integer payoffs solved exactly (Gambit with ``rational=True``). Each side's time is the
fastest of repeated runs within a second (single runs above 0.3 s). "answers" compares the
equilibrium sets: enumeration is complete, so they must be equal.
Needs pygambit (``pip install pygambit``; a benchmark/test dependency, never a runtime one).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from functools import partial

import numpy as np
import pygambit as gbt
from rich.console import Console
from rich.table import Table

from gamesearch.theory import NormalFormGame
from gamesearch.theory.equilibrium import same_profile
from gamesearch.theory.logit_nash import logit_nash, max_regret
from gamesearch.theory.qre import qre_at
from gamesearch.theory.vertex_enumeration import vertex_enumeration

NPLAYER_SHAPES = ((3, 3, 3), (4, 4, 4), (2, 2, 2, 2), (3, 3, 3, 3))
FLOAT_SIZES = (4, 6, 8, 10, 11, 12)
INTEGER_SIZES = (4, 6, 8)
QUICK_FLOAT = (4, 6, 8)


def fastest(run) -> tuple[float, object]:
    """(seconds, result) of the fastest of repeated calls within about a second."""
    best, total, result = float("inf"), 0.0, None
    while total < 1.0:
        start = time.perf_counter()
        result = run()
        elapsed = time.perf_counter() - start
        best, total = min(best, elapsed), total + elapsed
        if elapsed > 0.3:
            break
    return best, result


def gambit_profiles(result, rational: bool) -> list[tuple]:
    """Gambit's equilibria as tuples of mixed strategies."""
    convert = (lambda v: Fraction(str(v))) if rational else float
    return [tuple(tuple(convert(eq[p][s]) for s in p.strategies) for p in eq.game.players)
            for eq in result.equilibria]


def same_sets(ours: list, theirs: list) -> str:
    """'same' when each list holds the other's profiles (noting Gambit's repeats)."""
    one = all(any(same_profile(p, q, 1e-7) for q in theirs) for p in ours)
    two = all(any(same_profile(p, q, 1e-7) for q in ours) for p in theirs)
    unique = []
    for q in theirs:
        if not any(same_profile(q, u, 1e-9) for u in unique):
            unique.append(q)
    if not (one and two and len(ours) == len(unique)):
        return "DIFFERENT"
    repeats = len(theirs) - len(unique)
    return f"same (Gambit lists {repeats} twice)" if repeats else "same"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    console = Console(width=170)
    vertex_enumeration(NormalFormGame.bimatrix(np.eye(3), np.eye(3)))  # numba warm-up
    table = Table(title="gamesearch vs Gambit (pygambit " + gbt.__version__ + ")")
    for col in ("method", "games", "size", "equilibria", "gamesearch s", "gambit s",
                "speed-up", "answers"):
        table.add_column(col)
    plan = [("float", s) for s in (QUICK_FLOAT if args.quick else FLOAT_SIZES)]
    plan += [("integer", s) for s in INTEGER_SIZES]
    for kind, size in plan:
        rng = np.random.default_rng(size)
        if kind == "float":
            a, b = rng.standard_normal((size, size)), rng.standard_normal((size, size))
        else:
            a, b = rng.integers(0, 4, (size, size)), rng.integers(0, 4, (size, size))
        game = NormalFormGame.bimatrix(a, b)
        ours, found = fastest(partial(vertex_enumeration, game))
        rational = kind == "integer"
        theirs, result = fastest(partial(gbt.nash.enummixed_solve,
                                         gbt.Game.from_arrays(a, b), rational=rational))
        table.add_row("vertex enumeration / enummixed",
                      "normal floats" if kind == "float" else "integers 0..3, exact",
                      f"{size}x{size}", str(len(found.equilibria)), f"{ours:.3g}",
                      f"{theirs:.3g}", f"{theirs / ours:.1f}x",
                      same_sets(found.equilibria, gambit_profiles(result, rational)))
        console.print(f"{kind} {size}x{size}: ours {ours:.3g} s, gambit {theirs:.3g} s")
    nplayer_rows(table)
    lcp_rows(table)
    console.print(table)


def lcp_rows(table: Table) -> None:
    """Two-player general-sum trees (Kuhn poker's tree with random integer payoffs): our
    sequence-form LCP against Gambit's lcp on the same .efg text."""
    import random
    import re
    import tempfile

    from gamesearch.games import load_game
    from gamesearch.theory.efg import read_efg, write_efg
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    kuhn = write_efg(load_game("kuhn_poker"))
    cases = []
    for seed in range(3):
        rng = random.Random(seed)
        cases.append((f"Kuhn tree, random payoffs #{seed}", re.sub(
            r"\{ (-?\d+), (-?\d+) \}",
            lambda m, rng=rng: f"{{ {rng.randint(-5, 5)}, {rng.randint(-5, 5)} }}", kuhn)))
    for name, text in cases:
        game = read_efg(text)
        ours, found = fastest(partial(solve_sequence_lcp, game))
        with tempfile.NamedTemporaryFile("w", suffix=".efg", delete=False) as handle:
            handle.write(text)
        gambit_game = gbt.read_efg(handle.name)
        theirs, result = fastest(partial(gbt.nash.lcp_solve, gambit_game, rational=False))
        their_regret = float(result.equilibria[0].max_regret())
        table.add_row("sequence-form LCP / gambit lcp", name, f"{len(game.nodes)} nodes", "1",
                      f"{ours:.3g}", f"{theirs:.3g}", f"{theirs / ours:.1f}x",
                      f"max regret ours {max(float(g) for g in found.regret):.1e}, "
                      f"gambit {their_regret:.1e}")


def nplayer_rows(table: Table) -> None:
    """N-player games: our logit-branch solver against Gambit's logit and gnm, each
    answer's maximum regret; and the QRE at lambda = 2 against Gambit's."""
    for shape in NPLAYER_SHAPES:
        rng = np.random.default_rng(sum(shape) * len(shape))
        payoffs = rng.standard_normal((len(shape), *shape))
        game = NormalFormGame(payoffs)
        gambit_game = gbt.Game.from_arrays(*payoffs)
        ours, found = fastest(partial(logit_nash, game))
        mine = max_regret(game, found.equilibria[0]) if found.equilibria else float("nan")
        for name, solver in (("logit", gbt.nash.logit_solve), ("gnm", gbt.nash.gnm_solve)):
            theirs, result = fastest(partial(solver, gambit_game))
            profile = gambit_profiles(result, False)[0]
            table.add_row(f"N-player Nash: logit / gambit {name}", "normal floats",
                          "x".join(map(str, shape)), "1", f"{ours:.3g}", f"{theirs:.3g}",
                          f"{theirs / ours:.1f}x",
                          f"max regret ours {mine:.1e}, gambit {max_regret(game, profile):.1e}")
        ours, point = fastest(partial(qre_at, game, 2.0))
        theirs, result = fastest(partial(gbt.qre.logit_solve_lambda, gambit_game, [2.0]))
        expected = [tuple(float(result[0].profile[p][s]) for s in p.strategies)
                    for p in gambit_game.players]
        gap = max(abs(a - b) for x, y in zip(point.profile, expected) for a, b in zip(x, y))
        table.add_row("logit QRE at lambda 2", "normal floats", "x".join(map(str, shape)), "1",
                      f"{ours:.3g}", f"{theirs:.3g}", f"{theirs / ours:.1f}x",
                      f"largest difference {gap:.1e}")


if __name__ == "__main__":
    main()
