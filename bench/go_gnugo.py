"""go-mcts against GNU Go 3.8 on 9x9 (komi 7, Tromp-Taylor area scoring): win rates by GNU Go
level and by our simulations a move, with 95% Wilson intervals, and the plot of win rate
against simulations.

``python bench/go_gnugo.py --runs 1:500,1:2000,1:8000,10:2000 --games 100 --dir go-runs``
plays each LEVEL:SIMULATIONS[:FPU[:PRIOR[:PATTERNS]]] pairing (FPU: go-mcts's first-play
urgency, PRIOR: the weight of its tree knowledge, PATTERNS: 1 for MoGo's 3x3 patterns in
the play-outs, 0 for none; go-mcts's defaults, 0, 20 and 1, unless given) as ``gamesearch
match go go-mcts:playouts=N,fpu=F,prior=P,patterns=B gtp:cmd=gnugo ... --level L --games G
--out DIR/L{L}_p{N}_fpu{F}[_prior{P}][_pat].jsonl`` (no ``_prior`` part for prior 0, the
runs made before the option; colours alternate, each game stored as it ends; the same
command resumes a killed run and replays nothing), then prints one table and writes
``DIR/go-gnugo.png``. ``--jobs K`` plays K matches of a pairing at once (for a machine with
cores to spare): the games still missing are shared out so that each file's colours stay
even, job j > 0 writing ``....job{j}.jsonl`` with seed + 1000 j; the table counts every
file of a pairing.
``--no-play`` only reads what ``DIR`` holds. A pairing with no match file there is taken
from ``DIR/figures.csv`` when that file names it: figures published in docs/BENCHMARKS.md
whose game records were not kept; the table says so and the plot draws them hollow.
A fixed number of simulations (not a time)
makes each game independent of the machine's load: a busy machine changes the wall time,
not the result.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from gamesearch.arena.match import elo_difference, wilson_interval

GNUGO = "gnugo --mode gtp --chinese-rules --capture-all-dead --level {level}"


class Run(NamedTuple):
    """One pairing: GNU Go's level, our simulations a move, go-mcts's fpu, prior and
    play-out patterns (0 or 1)."""

    level: int
    playouts: int
    fpu: int = 0
    prior: int = 20
    patterns: int = 1

    @property
    def spec(self) -> str:
        return (f"go-mcts:playouts={self.playouts},fpu={self.fpu},prior={self.prior}"
                + (",patterns=true" if self.patterns else ",patterns=false"))

    @property
    def label(self) -> str:
        return f"fpu={self.fpu}" + (f", prior={self.prior}" if self.prior else "") \
            + (", patterns" if self.patterns else "")


def parse_runs(text: str) -> list[Run]:
    """``1:500,10:2000:1,10:2000:0:0,10:2000:0:20:0`` -> Run(1, 500, 0, 20, 1),
    Run(10, 2000, 1, 20, 1), Run(10, 2000, 0, 0, 1), Run(10, 2000, 0, 20, 0)."""
    runs = []
    for item in text.split(","):
        parts = item.split(":")
        if len(parts) not in (2, 3, 4, 5):
            raise ValueError(f"{item!r} is not LEVEL:SIMULATIONS[:FPU[:PRIOR[:PATTERNS]]]")
        run = Run(*(int(x) for x in parts))
        if run.playouts < 1 or run.patterns not in (0, 1):
            raise ValueError(f"{item!r}: SIMULATIONS must be positive and PATTERNS 0 or 1")
        runs.append(run)
    return runs


def match_file(folder: Path, run: Run, job: int = 0) -> Path:
    """The match file of one pairing (``job`` > 0: one of its parallel parts)."""
    tail = (f"_prior{run.prior}" if run.prior else "") + ("_pat" if run.patterns else "")
    part = f".job{job}" if job else ""
    return folder / f"L{run.level}_p{run.playouts}_fpu{run.fpu}{tail}{part}.jsonl"


def match_files(folder: Path, run: Run) -> list[Path]:
    """Every file of a pairing that exists: the main one, then its parallel parts."""
    first = match_file(folder, run)
    parts = sorted(folder.glob(first.stem + ".job*.jsonl"),
                   key=lambda p: int(p.stem.rsplit(".job", 1)[1]))
    return [p for p in [first, *parts] if p.exists()]


def shares(have: list[int], missing: int, jobs: int) -> list[int]:
    """Games to add to each of a pairing's files (``have``: the games each holds) so that
    the colours stay even: a match file alternates colours from its first game, so a file
    holding an odd number gets one game first, then the rest go out in pairs over the first
    ``jobs`` files (an odd last game to the first)."""
    add = [0] * len(have)
    for i, done in enumerate(have):
        if done % 2 and missing > 0:
            add[i] += 1
            missing -= 1
    pairs, odd = divmod(max(0, missing), 2)
    for j in range(min(jobs, len(have))):
        add[j] += 2 * (pairs // jobs + (j < pairs % jobs))
    add[0] += odd
    return add


def play(folder: Path, run: Run, games: int, seed: int, jobs: int = 1) -> None:
    """Play (or finish) one pairing through the CLI's resumable match, ``jobs`` processes
    at a time: the games still missing are shared out among the pairing's files
    (``shares``), file j playing with seed + 1000 j; the files that need fewest go first,
    so that a run stopped early has its colours near even."""
    present = [int(p.stem.rsplit(".job", 1)[1]) if ".job" in p.stem else 0
               for p in match_files(folder, run)]
    files = [match_file(folder, run, j) for j in range(max([jobs - 1, *present]) + 1)]
    have = [int((tally([f]) or {}).get("games", 0)) if f.exists() else 0 for f in files]
    missing = games - sum(have)
    jobs_to_run = sorted(  # the files that need fewest games first
        (extra, j, path, done) for j, (path, done, extra)
        in enumerate(zip(files, have, shares(have, missing, jobs))) if extra)
    waiting = [[sys.executable, "-m", "gamesearch", "match", "go", run.spec,
                "gtp:cmd=" + GNUGO.format(level=run.level), "--games", str(done + extra),
                "--seed", str(seed + 1000 * j), "--out", str(path)]
               for extra, j, path, done in jobs_to_run]
    running: list[subprocess.Popen] = []
    failed = []
    while waiting or running:
        while waiting and len(running) < jobs:
            running.append(subprocess.Popen(waiting.pop(0)))
        time.sleep(0.5)
        for proc in [p for p in running if p.poll() is not None]:
            running.remove(proc)
            if proc.returncode != 0:
                failed.append(proc.args)
    if failed:
        raise SystemExit(f"go_gnugo: a match failed: {' '.join(failed[0])}")


def tally(paths: list[Path]) -> dict[str, float] | None:
    """Games, our points, wins, draws, losses and mean game length of a pairing's match
    files."""
    games = wins = draws = 0
    plies = 0
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("type") != "game":
                continue
            games += 1
            wins += record["score_a"] == 1.0
            draws += record["score_a"] == 0.5
            plies += len(record["moves"])
    if not games:
        return None
    points = wins + draws / 2
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "score": points / games, "plies": plies / games}


FIGURES = "figures.csv"
FIGURE_FIELDS = ("level", "playouts", "fpu", "prior", "patterns", "games", "wins", "draws",
                 "losses", "plies")


def read_figures(path: Path) -> dict[Run, dict[str, float]]:
    """Published tallies of pairings whose records were not kept (``FIGURES``: one row a
    pairing, ``FIGURE_FIELDS`` and a ``source``; an empty ``plies`` when it was not
    recorded), as ``tally`` gives them, with ``"published": 1``."""
    if not path.exists():
        return {}
    figures = {}
    with path.open(newline="") as handle:
        for row in csv.DictReader(line for line in handle if not line.startswith("#")):
            try:
                run = Run(*(int(row[k]) for k in FIGURE_FIELDS[:5]))
                games, wins, draws, losses = (int(row[k]) for k in FIGURE_FIELDS[5:9])
                plies = float(row["plies"]) if row["plies"] else math.nan
            except (KeyError, TypeError, ValueError):
                raise SystemExit(f"go_gnugo: {path}: {dict(row)}: want whole numbers in "
                                 f"{', '.join(FIGURE_FIELDS)}") from None
            if games != wins + draws + losses or games < 1:
                raise SystemExit(f"go_gnugo: {path}: {dict(row)}: games must be wins + "
                                 "draws + losses, at least 1")
            figures[run] = {"games": games, "wins": wins, "draws": draws, "losses": losses,
                            "score": (wins + draws / 2) / games,
                            "plies": plies, "published": 1}
    return figures


def plot(rows: list[tuple[Run, dict[str, float]]], image: Path) -> None:
    """Win rate against simulations a move, one line per GNU Go level and go-mcts setting,
    with the intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    lines = sorted({(run.level, run.fpu, run.prior, run.patterns) for run, _ in rows})
    for k, line in enumerate(lines):
        points = sorted(((run.playouts, t) for run, t in rows
                         if (run.level, run.fpu, run.prior, run.patterns) == line),
                        key=lambda pt: pt[0])
        # the lines side by side at the same x, within 16% of it
        xs = [p * 1.06 ** (k - (len(lines) - 1) / 2) for p, _ in points]
        ys = [t["score"] * 100 for _, t in points]
        lows = [(t["score"] - wilson_interval(t["score"], int(t["games"]))[0]) * 100
                for _, t in points]
        highs = [(wilson_interval(t["score"], int(t["games"]))[1] - t["score"]) * 100
                 for _, t in points]
        ax.errorbar(xs, ys, yerr=[lows, highs], marker="o", capsize=4,
                    label=f"GNU Go level {line[0]}, "
                    f"{Run(line[0], 0, *line[1:]).label}")
        hollow = [(x, y) for x, y, (_, t) in zip(xs, ys, points) if t.get("published")]
        if hollow:  # figures without their records
            ax.plot(*zip(*hollow), "o", color=f"C{k}", markerfacecolor="white", zorder=3)
        for x, y, (_, t) in zip(xs, ys, points):
            ax.annotate(f"{int(t['games'])}", (x, y), textcoords="offset points",
                        xytext=(5, 4), fontsize=8, color=f"C{k}")
    ax.set_xscale("log", base=2)
    ticks = sorted({run.playouts for run, _ in rows})
    ax.set_xticks(ticks, [f"{p:,}" for p in ticks])
    ax.minorticks_off()
    ax.set_xlabel("go-mcts simulations a move")
    ax.set_ylabel("our score, % (95% Wilson interval)")
    ax.set_ylim(-2, 102)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    title = "go-mcts against GNU Go 3.8, 9x9, komi 7 (numbers: games)"
    if any(t.get("published") for _, t in rows):
        title += "\nhollow: published figures whose game records were not kept"
    ax.set_title(title, fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(image, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=parse_runs, default=parse_runs("1:500,1:2000,1:8000"),
                        help="LEVEL:SIMULATIONS[:FPU[:PRIOR[:PATTERNS]]] pairings, comma-separated")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1,
                        help="matches of a pairing played at once (each a process pair)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--dir", type=Path, default=Path("go-runs"))
    parser.add_argument("--no-play", action="store_true", help="only report what --dir holds")
    args = parser.parse_args()
    if args.games < 1 or not 1 <= args.jobs <= 64:
        parser.error("--games must be positive and --jobs in 1..64")
    args.dir.mkdir(parents=True, exist_ok=True)
    if not args.no_play:
        if shutil.which("gnugo") is None:
            parser.error("gnugo is not on PATH (Debian: apt install gnugo; it is in /usr/games)")
        for k, run in enumerate(args.runs):
            play(args.dir, run, args.games, args.seed + k, args.jobs)
    rows = []
    figures = read_figures(args.dir / FIGURES)
    print("| GNU Go level | our simulations a move | fpu | prior | patterns | games | wins "
          "| draws | losses | our score | 95% interval | Elo | plies a game | from |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for run in args.runs:
        t = tally(match_files(args.dir, run)) or figures.get(run)
        if t is None:
            continue
        rows.append((run, t))
        low, high = wilson_interval(t["score"], int(t["games"]))
        elo = elo_difference(t["score"])
        elo_text = f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        print(f"| {run.level} | {run.playouts:,} | {run.fpu} | {run.prior} "
              f"| {'on' if run.patterns else 'off'} | {t['games']} "
              f"| {t['wins']} | {t['draws']} "
              f"| {t['losses']} | {t['score']:.1%} | {low:.1%} - {high:.1%} | {elo_text} "
              f"| {'' if math.isnan(t['plies']) else format(t['plies'], '.0f')} "
              f"| {FIGURES if t.get('published') else 'records'} |")
    if rows:
        image = args.dir / "go-gnugo.png"
        plot(rows, image)
        print(f"plot: {image}")


if __name__ == "__main__":
    main()
