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

from gamesearch.catalog.backgammon_training import average_snapshots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("snapshots", nargs="+")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    net = average_snapshots(args.snapshots, args.out)
    print(f"{args.out}: the mean of {len(args.snapshots)} snapshots "
          f"({net.inputs} -> {net.hidden} -> 1)")


if __name__ == "__main__":
    main()
