"""The Go network's learning curve (#43): each kept network against fixed opponents, as an
Elo difference over the training positions, one line an opponent, in one plot.

    PYTHONPATH=src python bench/go_net_curve.py RUN [RUN ...] [--start FILE] [--games 40]
        [--opponents random,go-mcts:playouts=8] [--simulations 0]
        [--out bench/records/go-net/curve.jsonl] [--plot docs/img/go-net-curve.png]

A RUN is a folder of ``train alphazero-jax go`` (its ``snapshots/weights-*.npz``, kept by
``--snapshots N``, else its ``weights.npz``), a ``snapshots.tar.xz`` as the device call
brings it back (bench/go_net_device.sh), or one weights file; each network is placed at the
positions its file says it was trained on. ``--start`` adds the network the run began from
at 0. ``--simulations 0`` plays the policy alone (one evaluation a move); more plays
``go-net`` with that many simulations a move. Games open with 6 random moves, colours
alternate (bench/go_net_eval.py's games). The Elo of a score s over n games is
400 log10(s / (1 - s)), s kept within 1/(2n) of 0 and 1, with the 95% Wilson interval's.
``--out`` keeps one JSON line a network and opponent; a rerun with the same ``--out`` skips
the pairs it holds (the same command resumes).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tarfile
import tempfile
from pathlib import Path

from gamesearch.agents import make_agent
from gamesearch.arena.match import wilson_interval
from gamesearch.engines.go.net_agent import WEIGHTS_KIND, load_network
from gamesearch.errors import GameSearchError
from gamesearch.learn.checkpoint import load_checkpoint
from go_net_eval import score  # bench/ is the script's folder


def networks(sources: list[Path], unpack: Path) -> list[Path]:
    """The weights files of the sources, each source's in training order."""
    found: list[Path] = []
    for i, source in enumerate(sources):
        if source.is_dir():
            kept = sorted((source / "snapshots").glob("weights-*.npz"))
            found += kept or [source / "weights.npz"]
        elif source.name.endswith((".tar.xz", ".tar")):
            into = unpack / str(i)
            with tarfile.open(source) as tar:
                tar.extractall(into, filter="data")  # names stay inside ``into``
            found += sorted(into.rglob("weights-*.npz"))
        else:
            found.append(source)
    missing = [str(p) for p in found if not p.is_file()]
    if missing or not found:
        raise GameSearchError(f"no network at {', '.join(missing) or sources}")
    return found


def elo(points: float, games: int) -> tuple[float, float, float]:
    """The Elo difference of ``points`` in ``games`` and its 95% interval's ends."""
    def of(s: float) -> float:
        s = min(max(s, 0.5 / games), 1 - 0.5 / games)
        return 400 * math.log10(s / (1 - s))

    low, high = wilson_interval(points / games, games)
    return of(points / games), of(low), of(high)


def label(opponent: str) -> str:
    """A short name for the plot's legend: GNU Go by its level, other agents by spec."""
    words = opponent.split()
    if opponent.startswith("gtp:cmd=gnugo") and "--level" in words[:-1]:
        return f"GNU Go level {words[words.index('--level') + 1]}"
    return opponent


def plot(rows: list[dict], path: Path) -> None:
    """Elo against each opponent over training positions, with 95% intervals."""
    from gamesearch.cli.common import pyplot_for, save_png

    plt = pyplot_for(path)
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = sorted((r for r in rows if r["opponent"] == opponent),
                      key=lambda r: r["positions"])
        x = [r["positions"] / 1e6 for r in mine]
        ax.errorbar(x, [r["elo"] for r in mine],
                    yerr=[[r["elo"] - r["elo_low"] for r in mine],
                          [r["elo_high"] - r["elo"] for r in mine]],
                    marker="o", capsize=3, label=f"against {label(opponent)}")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("training positions (millions)")
    ax.set_ylabel("Elo difference (95% interval)")
    ax.set_title(f"go-net ({rows[0]['player']}) against fixed opponents, "
                 f"{rows[0]['games']} games a point")
    ax.legend()
    fig.tight_layout()
    save_png(fig, path)


def main() -> int:
    """Play every network against every opponent; print, keep and plot the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+")
    parser.add_argument("--start", type=Path, default=None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--opponents", default="random,go-mcts:playouts=8")
    parser.add_argument("--simulations", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args()
    try:
        if args.games < 2 or args.simulations < 0:
            raise GameSearchError("--games must be at least 2 and --simulations at least 0")
        opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
        for opponent in opponents:
            make_agent(opponent)  # a bad spec is one line before any game
        with tempfile.TemporaryDirectory() as unpack:
            found = networks(args.runs, Path(unpack))
            points = [(0, args.start)] if args.start else []
            for path in found:
                points.append((load_checkpoint(path, WEIGHTS_KIND)[1].get("positions", 0),
                               path))
            rows = run_all(points, opponents, args)
    except GameSearchError as err:
        print(f"go_net_curve: {err}", file=sys.stderr)
        return 2
    if args.plot and rows:
        plot(rows, args.plot)
    return 0


def run_all(points: list[tuple[int, Path]], opponents: list[str],
            args: argparse.Namespace) -> list[dict]:
    """Every (network, opponent) pair's row; those in ``args.out`` already are read back."""
    player = ("policy alone" if args.simulations == 0
              else f"{args.simulations} simulations a move")
    done: dict[tuple, dict] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            try:
                r = json.loads(line)
                done[(r["network"], r["positions"], r["opponent"], r["player"],
                      r["games"])] = r
            except (ValueError, KeyError, TypeError):
                raise GameSearchError(f"--out {str(args.out)!r} is not a curve this script "
                                      "wrote: give another file") from None
    rows = []
    for positions, path in points:
        for opponent in opponents:
            key = (path.name, positions, opponent, player, args.games)
            if key not in done:
                won = score(load_network(path), opponent, args.games, args.seed,
                            args.simulations)["points"]
                e, low, high = elo(won, args.games)
                done[key] = {"network": path.name, "positions": positions,
                             "opponent": opponent, "player": player, "games": args.games,
                             "points": won, "elo": round(e), "elo_low": round(low),
                             "elo_high": round(high)}
                if args.out:
                    with args.out.open("a") as f:
                        f.write(json.dumps(done[key]) + "\n")
            rows.append(done[key])
            print(json.dumps(done[key]), flush=True)
    return rows


if __name__ == "__main__":
    sys.exit(main())
