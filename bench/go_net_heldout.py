"""Go networks scored on the same teacher positions that none of them learned from (#43).

    PYTHONPATH=src python bench/go_net_heldout.py --data S1 --data S2 --seen 1104,1080 \\
        NET [NET ...] [--out FILE]

The teacher's files grow between runs, and ``train supervised`` numbers games across the
files, so the runs' held-out sets differ and their logged figures compare only roughly.
This scores every NET (a ``weights.npz``, or ``shipped``) on the games the run over all of
``--data`` held out (every ``--holdout``-th) that the older run, which read the first
``--seen`` games of each file, either held out too or never read. Per network: how often
the teacher's move is the policy's first choice (among the legal moves), the policy's
cross-entropy and the value's squared error. Prints JSON; ``--out`` also writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from gamesearch.durable import atomic_write, check_output
from gamesearch.engines.go.net_agent import load_network
from gamesearch.engines.go.teacher import Examples, read_teacher_games
from gamesearch.errors import GameSearchError
from gamesearch.learn.split import held_out


def unseen_rows(game: np.ndarray, per_file: list[int], seen: list[int],
                holdout: int) -> np.ndarray:
    """Rows whose game both runs held out or the older run never read (see module doc)."""
    keep = np.zeros(game.shape, dtype=bool)
    held_new = held_out(game, holdout)
    start_new = start_old = 0
    for games, old in zip(per_file, seen):
        local = game - start_new
        inside = (local >= 0) & (local < games)
        held_old = held_out(start_old + local, holdout)
        keep |= inside & held_new & ((local >= old) | held_old)
        start_new, start_old = start_new + games, start_old + old
    return np.flatnonzero(keep)


def score(net_path: str, ex: Examples, rows: np.ndarray) -> dict:
    """First-choice agreement, policy cross-entropy and value squared error on ``rows``."""
    net = load_network(None if net_path == "shipped" else net_path)
    hits, ce, se = 0, 0.0, 0.0
    for i in range(0, len(rows), 256):
        r = rows[i:i + 256]
        logits, v = net.forward(ex.x[r].astype(np.float32).reshape(len(r), -1))
        logits = np.where(ex.legal[r].astype(bool), logits, -np.inf)
        hits += int((logits.argmax(1) == ex.action[r]).sum())
        z = logits - logits.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        ce -= float(logp[np.arange(len(r)), ex.action[r]].sum())
        se += float(((v.reshape(-1) - ex.z[r]) ** 2).sum())
    n = max(1, len(rows))
    return {"agreement": round(hits / n, 4), "policy_ce": round(ce / n, 4),
            "value_mse": round(se / n, 4)}


def main() -> int:
    """Parse, score, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nets", nargs="+", help="weights.npz files, or 'shipped'")
    parser.add_argument("--data", action="append", required=True, help="a teacher's file")
    parser.add_argument("--seen", required=True,
                        help="games the older run read from each file, comma-separated")
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    try:
        seen = [int(s) if s.strip().isdigit() else -1 for s in args.seen.split(",")]
        if len(seen) != len(args.data) or min(seen) < 0 or args.holdout < 2:
            raise GameSearchError("--seen needs one count >= 0 per --data file, --holdout >= 2")
        out = check_output(args.out, None, remedy="give a new --out") if args.out else None
        ex = read_teacher_games(args.data)
        rows = unseen_rows(ex.game, list(ex.per_file), seen, args.holdout)
        result = {"data": [Path(p).name for p in args.data], "seen": seen,
                  "games": int(len(np.unique(ex.game[rows]))), "positions": int(len(rows)),
                  "nets": {n: score(n, ex, rows) for n in args.nets}}
    except (GameSearchError, ValueError, OSError) as error:
        print(f"go_net_heldout: {error}", file=sys.stderr)
        return 2
    text = json.dumps(result, indent=1)
    print(text)
    if out is not None:
        atomic_write(out, text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
