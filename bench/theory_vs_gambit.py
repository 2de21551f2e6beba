"""Benchmark: gamesearch's equilibrium solvers against Gambit (pygambit), same games, same run.

    python bench/theory_vs_gambit.py            # the full table (a minute or two)
    python bench/theory_vs_gambit.py --quick    # small sizes only
    python bench/theory_vs_gambit.py --sections agent,gnm   # the tree QRE and gnm only

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
from gamesearch.theory.simpdiv import simpdiv
from gamesearch.theory.vertex_enumeration import vertex_enumeration

NPLAYER_SHAPES = ((3, 3, 3), (4, 4, 4), (2, 2, 2, 2), (3, 3, 3, 3))
FLOAT_SIZES = (4, 6, 8, 10, 11, 12)
INTEGER_SIZES = (4, 6, 8)
QUICK_FLOAT = (4, 6, 8)
GNM_SHAPES = ((5, 5), (8, 8), (2, 2, 2), (3, 3, 3))
"""gnm's shapes: our tracer is numpy, four-player games take it seconds to minutes."""


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
    parser.add_argument("--sections", default="vertex,nplayer,simpdiv,agent,gnm,lcp",
                        help="which comparisons, comma-separated")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    console = Console(width=170)
    vertex_enumeration(NormalFormGame.bimatrix(np.eye(3), np.eye(3)))  # numba warm-up
    table = Table(title="gamesearch vs Gambit (pygambit " + gbt.__version__ + ")")
    for col in ("method", "games", "size", "equilibria", "gamesearch s", "gambit s",
                "speed-up", "answers"):
        table.add_column(col)
    plan = [("float", s) for s in (QUICK_FLOAT if args.quick else FLOAT_SIZES)]
    plan += [("integer", s) for s in INTEGER_SIZES]
    plan = plan if "vertex" in sections else []
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
    for name, rows in (("nplayer", nplayer_rows), ("simpdiv", simpdiv_rows),
                       ("agent", agent_qre_rows), ("gnm", gnm_rows), ("lcp", lcp_rows)):
        if name in sections:
            console.print(f"{name} ...")
            rows(table)
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


GAMBIT_SIMPDIV_LIMIT = 60.0
"""Seconds one Gambit simpdiv run may take here (its exact arithmetic can take minutes)."""


def _gambit_simpdiv(payoffs: np.ndarray, out) -> None:
    """In a child process: Gambit's simpdiv from the centroid, (seconds, profile)."""
    game = gbt.Game.from_arrays(*payoffs)
    began = time.perf_counter()
    result = gbt.nash.simpdiv_solve(game.mixed_strategy_profile(rational=True))
    out.put((time.perf_counter() - began, gambit_profiles(result, False)[0]))


def gambit_simpdiv(payoffs: np.ndarray) -> tuple[float, tuple | None]:
    """(seconds, profile) of one Gambit simpdiv run, or (limit, None) past the limit."""
    import multiprocessing

    out = multiprocessing.Queue()
    child = multiprocessing.Process(target=_gambit_simpdiv, args=(payoffs, out))
    child.start()
    child.join(GAMBIT_SIMPDIV_LIMIT)
    if child.is_alive():
        child.kill()
        child.join()
        return GAMBIT_SIMPDIV_LIMIT, None
    return out.get()


def simpdiv_rows(table: Table) -> None:
    """N-player games: our simplicial subdivision against Gambit's simpdiv (both from the
    centroid), five seeded games of each shape, total time and the worst maximum regret;
    a Gambit run past GAMBIT_SIMPDIV_LIMIT counts that limit and is noted."""
    for shape in NPLAYER_SHAPES:
        ours_total = theirs_total = 0.0
        mine = theirs_regret = 0.0
        stopped = 0
        for k in range(5):
            rng = np.random.default_rng(sum(shape) * len(shape) + 1000 * k)
            payoffs = rng.standard_normal((len(shape), *shape))
            game = NormalFormGame(payoffs)
            ours, found = fastest(partial(simpdiv, game))
            theirs, profile = gambit_simpdiv(payoffs)
            ours_total, theirs_total = ours_total + ours, theirs_total + theirs
            mine = max(mine, max_regret(game, found.equilibria[0]))
            if profile is None:
                stopped += 1
            else:
                theirs_regret = max(theirs_regret, max_regret(game, profile))
        late = f", {stopped} Gambit run(s) stopped at {GAMBIT_SIMPDIV_LIMIT:g} s" if stopped else ""
        table.add_row("N-player Nash: simpdiv / gambit simpdiv", "normal floats, 5 games",
                      "x".join(map(str, shape)), "1 each", f"{ours_total:.3g}",
                      f"{'>' if stopped else ''}{theirs_total:.3g}",
                      f"{'>' if stopped else ''}{theirs_total / ours_total:.1f}x",
                      f"max regret ours {mine:.1e}, gambit {theirs_regret:.1e}{late}")


def gnm_rows(table: Table) -> None:
    """N-player games: our global Newton method against Gambit's gnm_solve, both from
    Gambit's default perturbation (each player's first strategy), three seeded games of each
    shape (normal payoffs), times summed; the answers compare the equilibrium sets."""
    from gamesearch.theory.gnm import gnm

    for shape in GNM_SHAPES:
        ours_total = theirs_total = 0.0
        counts, verdicts = [], []
        for k in range(3):
            rng = np.random.default_rng(sum(shape) * len(shape) + 1000 * k)
            payoffs = rng.standard_normal((len(shape), *shape))
            game = NormalFormGame(payoffs)
            ours, found = fastest(partial(gnm, game))
            theirs, result = fastest(partial(gbt.nash.gnm_solve, gbt.Game.from_arrays(*payoffs)))
            ours_total, theirs_total = ours_total + ours, theirs_total + theirs
            counts.append(str(len(found.equilibria)))
            verdicts.append(same_sets(found.equilibria, gambit_profiles(result, False)))
        table.add_row("Nash: gnm / gambit gnm", "normal floats, 3 games",
                      "x".join(map(str, shape)), "/".join(counts), f"{ours_total:.3g}",
                      f"{theirs_total:.3g}", f"{theirs_total / ours_total:.2g}x",
                      ", ".join(verdicts))


def agent_qre_rows(table: Table) -> None:
    """Trees: our agent logit QRE against Gambit's logit QRE of the same .efg at lambda 2
    and 20 (behaviour strategies), the largest difference in any action's probability."""
    import tempfile
    from pathlib import Path

    from gamesearch.games import load_game
    from gamesearch.theory.agent_qre import agent_qre_at
    from gamesearch.theory.efg import read_efg, write_efg

    examples = Path(__file__).resolve().parent.parent / "src" / "gamesearch" / "data" / "efg"
    texts = {path.stem: path.read_text() for path in sorted(examples.glob("*.efg"))}
    texts["kuhn_poker"] = write_efg(load_game("kuhn_poker"))
    agent_qre_at(read_efg(texts["entry_deterrence"]), 1.0)  # numba warm-up
    for name, text in texts.items():
        for lam in (2.0, 20.0):
            game = read_efg(text)
            ours, point = fastest(partial(agent_qre_at, game, lam))
            with tempfile.NamedTemporaryFile("w", suffix=".efg", delete=False) as handle:
                handle.write(text)
            gambit_game = gbt.read_efg(handle.name)
            theirs, result = fastest(partial(gbt.qre.logit_solve_lambda, gambit_game, [lam]))
            qre = result[0]  # probabilities by flat index: player, information set, action
            gap, flat = 0.0, 0
            for p, player in enumerate(gambit_game.players):
                for infoset in player.infosets:
                    key = (p, infoset.number + 1)
                    for action in infoset.actions:
                        mine = point.profile[p][key][action.label]
                        gap = max(gap, abs(mine - float(qre[flat])))
                        flat += 1
            table.add_row(f"agent logit QRE at lambda {lam:g} / gambit logit", name,
                          f"{len(game.nodes)} nodes", "1", f"{ours:.3g}", f"{theirs:.3g}",
                          f"{theirs / ours:.1f}x", f"largest difference {gap:.1e}")

if __name__ == "__main__":
    main()
