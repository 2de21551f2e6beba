"""Label Connect Four positions with their perfect moves, for measuring a policy's accuracy.

Samples ``--per-set`` positions from each of Pons' six test sets (``--sets``; the full
sets of 1,000 lines each are in shared/data/connect4, a 30-line sample in
tests/data/connect4) and writes one JSON line per position: the moves, the set's name,
and the weak score (+1 win, 0 draw, -1 loss for the mover) of every column, ``null``
where the column is full. A perfect move is one whose score equals the best. The perfect
solver computes the scores; it takes about a second a position, so the job appends as it
goes and a second run with the same arguments resumes where the first stopped.

    nice python bench/connect4_labels.py --sets ../shared/data/connect4 --per-set 500 \\
        --out c4-labels.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

SETS = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4"


def sample(folder: Path, per_set: int, seed: int) -> list[tuple[str, str]]:
    """``(set name, moves)`` pairs: ``per_set`` lines of each Test_L*_R* file, seeded."""
    chosen = []
    for path in sorted(folder.glob("Test_L*_R*")):
        lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
        rng = random.Random(f"{seed}:{path.name}")
        chosen += [(path.name, m) for m in rng.sample(lines, min(per_set, len(lines)))]
    return chosen


def done_moves(out: Path) -> set[str]:
    """Positions already labelled in ``out``; a torn last line (a kill mid-write) is cut."""
    if not out.exists():
        return set()
    text = out.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        out.write_text(text)
    return {json.loads(line)["moves"] for line in text.splitlines() if line.strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=Path, default=SETS)
    parser.add_argument("--per-set", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.per_set < 1:
        parser.error(f"--per-set must be >= 1, got {args.per_set}")
    if not args.sets.is_dir() or not any(args.sets.glob("Test_L*_R*")):
        parser.error(f"no Test_L*_R* files in {args.sets}")

    from gamesearch.engines.connect4.solver import Connect4Solver
    from gamesearch.games.connect4 import ConnectFour

    game, solver = ConnectFour(), Connect4Solver()
    todo = sample(args.sets, args.per_set, args.seed)
    done = done_moves(args.out)
    began, count = time.perf_counter(), 0
    with open(args.out, "a") as out:
        for k, (name, moves) in enumerate(todo):
            if moves in done:
                continue
            state = game.state_from_string(moves)
            scores = solver.analyze(game, state, weak=True)
            row = [scores.get(c) for c in range(game.width)]
            out.write(json.dumps({"moves": moves, "set": name, "scores": row}) + "\n")
            out.flush()
            count += 1
            if count % 50 == 0:
                rate = count / (time.perf_counter() - began)
                print(f"{k + 1}/{len(todo)} labelled ({rate:.2f}/s)", file=sys.stderr,
                      flush=True)
    print(f"{len(todo)} positions labelled in {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted: run again with the same arguments to resume", file=sys.stderr)
        sys.exit(130)
