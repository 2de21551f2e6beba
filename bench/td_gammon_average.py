"""Average the weights of several snapshots of one TD-Gammon run (``gamesearch train td
backgammon --keep-every N`` keeps them in ``OUT/snapshots``) into one weights file:

    python bench/td_gammon_average.py td-run/snapshots/games-{380000,390000,400000}.npz \\
        --out averaged.npz

The result is a checkpoint file like the snapshots (``td-gammon:weights=averaged.npz``
plays it; ``bench/td_gammon_eval.py`` measures it). docs/LEARNING.md says why and with
what effect.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gamesearch.engines.backgammon.training import average_snapshots
from gamesearch.errors import GameSearchError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("snapshots", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args()
    if Path(args.out).exists() and not args.force:
        print(f"error: {args.out} exists (--force replaces it)", file=sys.stderr)
        sys.exit(2)
    try:
        net = average_snapshots(args.snapshots, args.out)
    except (GameSearchError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    print(f"{args.out}: the mean of {len(args.snapshots)} snapshots "
          f"({net.inputs} -> {net.hidden} -> 1)")


if __name__ == "__main__":
    main()
