"""Othello pattern evaluation (issue #41): gather self-play positions, fit the tables.

``python bench/othello_patterns.py selfplay --games 10000 --out /tmp/othello_selfplay.npz``
plays self-play games of our engine with randomness, labelled by their final disc
difference (the last 16 empties played by the exact solver); Ctrl-C saves, the same
command resumes. ``fit`` fits the pattern tables per stage (sparse ridge least squares) on
all games but the held-out ones, reports each stage's error on the held-out games beside
the current 16-feature evaluation's, and writes the weights (``--ship``: into the package).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gamesearch.errors import GameSearchError


def selfplay(args: argparse.Namespace) -> None:
    from gamesearch.engines.othello.selfplay import generate

    began = time.perf_counter()
    last = [began]

    def progress(done: int, total: int, positions: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 30 or done == total:
            last[0] = now
            rate = done / max(now - began, 1e-9)
            print(f"{done}/{total} games, {positions} positions, {now - began:.0f} s "
                  f"(this run {rate:.2f} games/s)", flush=True)

    try:
        generate(args.out, args.games, seed=args.seed, depth=args.depth, noise=args.noise,
                 solve=args.solve, progress=progress)
    except KeyboardInterrupt:
        print("interrupted: positions saved; run the same command to resume")


def fit(args: argparse.Namespace) -> None:
    import numpy as np

    from gamesearch.engines.othello import engine as E
    from gamesearch.engines.othello import pattern_fit as F
    from gamesearch.engines.othello import patterns as P
    from gamesearch.engines.othello.selfplay import load

    data = load(args.data)
    me, opp, label, game = data["me"], data["opp"], data["label"], data["game"]
    held = game % args.hold_every == 0
    print(f"{int(data['games'])} games, {len(me)} positions; fitting on {(~held).sum()}, "
          f"{held.sum()} held out (every {args.hold_every}th game)", flush=True)
    began = time.process_time()
    weights = F.fit(me[~held], opp[~held], label[~held], ridge=args.ridge,
                    spread=args.spread, iterations=args.iterations)
    print(f"fitted in {time.process_time() - began:.0f} s of processor time", flush=True)
    scale = max(P.QUANTUM, np.abs(weights).max() / 32000)
    quantized = np.round(weights / scale).astype(np.int16)
    out = P.WEIGHTS_FILE if args.ship else args.out
    if out is not None:  # written first: the comparison below is only a report
        from gamesearch.durable import atomic_writer

        out.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(out) as f:
            np.savez_compressed(f, weights=quantized, scale=np.float64(scale),
                                kind=np.array(P.KIND), games=data["games"],
                                positions=np.int64((~held).sum()))
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)", flush=True)
    tables = P.expand(quantized.astype(np.float64) * scale)
    hm, ho, hy = me[held], opp[held], label[held].astype(np.float64)
    ours = F.predict(hm, ho, tables)
    learned = E.load_weights()
    old = np.array([E.position_features(int(a), int(b)) @ learned[
        E.stage_of(64 - bin(int(a) | int(b)).count("1"))] for a, b in zip(hm, ho)])
    empties = F.empties_of(hm, ho)
    print("| empties | held-out positions | patterns RMSE | 16 features RMSE | patterns MAE "
          "| 16 features MAE |\n|---|---:|---:|---:|---:|---:|")
    for st in range(P.N_STAGES):
        rows = np.minimum(P.N_STAGES - 1, (60 - empties) // P.STAGE_WIDTH) == st
        if not rows.any():
            continue
        high = 60 - st * P.STAGE_WIDTH
        low = 0 if st == P.N_STAGES - 1 else high - P.STAGE_WIDTH + 1
        e_new, e_old = ours[rows] - hy[rows], old[rows] - hy[rows]
        print(f"| {low}-{high} | {rows.sum()} | {np.sqrt(np.mean(e_new ** 2)):.2f} | "
              f"{np.sqrt(np.mean(e_old ** 2)):.2f} | {np.mean(np.abs(e_new)):.2f} | "
              f"{np.mean(np.abs(e_old)):.2f} |")
    e_new, e_old = ours - hy, old - hy
    print(f"| all | {len(hy)} | {np.sqrt(np.mean(e_new ** 2)):.2f} | "
          f"{np.sqrt(np.mean(e_old ** 2)):.2f} | {np.mean(np.abs(e_new)):.2f} | "
          f"{np.mean(np.abs(e_old)):.2f} |")


def speed(args: argparse.Namespace) -> None:
    import random

    from gamesearch.engines.othello import engine as E
    from gamesearch.engines.othello import patterns as P
    from gamesearch.games import load_game
    from gamesearch.games.othello.kernel import encode_state

    game = load_game("othello")
    rng = random.Random(args.seed)
    boards = []
    while len(boards) < args.positions:
        state = game.initial_state()
        stop = rng.randint(24, 44)
        while state[0].count("-") > stop and not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            me, opp, _ = encode_state(state, 8)
            boards.append((int(me), int(opp)))
    engines = {"learned": E.Engine(E.load_weights()),
               "patterns": E.Engine(P.load(args.weights), patterns=True)}
    for engine in engines.values():
        engine.best(*boards[0], 2)  # compile or load the cache
    totals = {name: [0, 0.0] for name in engines}
    for rep in range(args.repeats):
        for name in (list(engines) if rep % 2 == 0 else list(engines)[::-1]):
            engine = engines[name]
            for me, opp in boards:
                engine.tkey[:] = 0
                began = time.process_time()
                nodes = engine.best(me, opp, args.depth)[2]
                totals[name][0] += nodes
                totals[name][1] += time.process_time() - began
    rates = {name: n / t for name, (n, t) in totals.items()}
    for name, (n, t) in totals.items():
        print(f"{name}: {n} nodes in {t:.2f} s of processor time, {rates[name]:,.0f} nodes/s")
    print(f"patterns / learned nodes/s: {rates['patterns'] / rates['learned']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("selfplay", help="gather labelled positions (resumable)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--noise", type=float, default=0.1)
    p.add_argument("--solve", type=int, default=16)
    p.set_defaults(run=selfplay)
    p = sub.add_parser("fit", help="fit the pattern tables, compare on held-out games")
    p.add_argument("--data", type=Path, required=True)
    p.add_argument("--out", type=Path, help="write the weights here")
    p.add_argument("--ship", action="store_true", help="write the package's weights")
    p.add_argument("--ridge", type=float, default=50.0)
    p.add_argument("--spread", type=int, default=8)
    p.add_argument("--iterations", type=int, default=300)
    p.add_argument("--hold-every", type=int, default=10)
    p.set_defaults(run=fit)
    p = sub.add_parser("speed", help="nodes/s of the engine with each evaluation")
    p.add_argument("--weights", type=Path, help="pattern weights (default: the package's)")
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=speed)
    args = parser.parse_args()
    try:
        args.run(args)
    except GameSearchError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
