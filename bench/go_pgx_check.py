"""pgx's Go against our rules on thousands of random games (issue 43): every board, legal
move, end and result compared (gamesearch/engines/go/pgx_check.py).

    PYTHONPATH=src python bench/go_pgx_check.py --games 2000

Prints the counts (positions, captures, ends, superko moves that pgx allows) and the
first differences; exits 1 if any. Needs the ``[gpu]`` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from gamesearch.engines.go.pgx_check import compare_random_games


def main() -> int:
    """Run the comparison and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()
    began = time.monotonic()
    report = compare_random_games(args.games, seed=args.seed, batch=args.batch)
    report["seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps(report, indent=1))
    return 1 if report["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
