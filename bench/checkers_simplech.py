"""Our checkers engine against simplech (Martin Fierz's engine of CheckerBoard) from the
three-move ballots, with and without the endgame databases, at equal time per move.

``python bench/checkers_simplech.py --simplech OUT/simplech --tables tables/checkers
--ballots 100 --time 0.1 --db runs/checkers_simplech.sqlite`` plays a round robin of three
players, each ballot once with each colour for every pair:

* ``simplech:cmd=OUT/simplech,time=T``: built first with ``bench/outside/build_simplech.sh
  SRC_DIR OUT`` from a simplech source folder (nothing is downloaded here);
* ``checkers-engine:target=T``: ours without tables (about T a move, at most 2 T: the
  time simplech spends at time=T; both programs' mean seconds a move are printed, and
  ``--engine soft=S,hard=H`` moves ours' shares of T where they differ);
* ``checkers-engine:target=T,tables=DIR``: ours with the databases of DIR (``gamesearch
  tables build checkers --pieces 5``; the table says how many pieces they hold in full).

The ballots are the first ``--ballots`` of bench/openings/checkers-3move-ballots.txt (the
ACF's 156-opening deck, in the ACF's order, or shuffled with ``--shuffle SEED``). Round r
plays ballot r for all three pairs, so a run stopped anywhere has played the same openings
with the tables on and off. It is one ``gamesearch tournament`` with its SQLite database:
the same command resumes a stopped run and replays nothing; ``--no-play`` only reads the
database. Every game is written as PDN into ``--records`` (bench/records/checkers-simplech),
then the table: for each pairing the games, wins, draws, losses, score with a 95% Wilson
interval and the Elo difference; the last row, tables on against off, is the databases'
gain in the same games. Without ``--tables`` only simplech and ours without tables play
(200 games for 100 ballots instead of 600): how one change to the engine is measured;
with ``--tables-only``, simplech and ours with tables (two such runs, run side by side,
are the same games with the tables on and off, without the head-to-head third).
``--skip N`` leaves out the first N ballots: two runs side by side, each with its own
``--db``, play one match in halves (their tables are added up by hand).
Ours also takes ``--engine`` options (``hash=64``, ``weights=...``) for both of its players.
"""

from __future__ import annotations

import argparse
import math
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from gamesearch.arena.match import elo_difference, wilson_interval

HERE = Path(__file__).resolve().parent
BALLOTS = HERE / "openings" / "checkers-3move-ballots.txt"
RECORDS = HERE / "records" / "checkers-simplech"
PROGRESS_SECONDS = 60.0


def read_ballots(path: Path = BALLOTS) -> list[str]:
    """The ballots of the data file (moves, comments dropped), in its order."""
    out = []
    for line in path.read_text().splitlines():
        moves = line.split("#", 1)[0].strip()
        if moves:
            out.append(moves)
    return out


def players(simplech: str, tables: str | None, seconds: float, extra: str = "",
            tables_only: bool = False) -> list[str]:
    """simplech, ours without tables (unless ``tables_only``), ours with them (where
    ``tables`` is given): the tournament's players in order; ``extra`` is added to ours'
    options."""
    # target=T: ours spends about T a move, as simplech does at time=T (both means printed)
    ours = f"checkers-engine:target={seconds:g}" + (f",{extra}" if extra else "")
    specs = [f"simplech:cmd={simplech},time={seconds:g}"]
    specs += [] if tables_only else [ours]
    return specs + [f"{ours},tables={tables}"] if tables else specs


def write_openings(path: Path, ballots: list[str], pairs: int) -> None:
    """Each ballot ``pairs`` times in a row: the schedule takes a new opening for each pair
    of games, so round r plays ballot r for every pair."""
    lines = [b for b in ballots for _ in range(pairs)]
    text = "\n".join(lines) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def play(db: Path, specs: list[str], openings: Path, ballots: int) -> int:
    """Run (or resume) the tournament; its exit status."""
    argv = [sys.executable, "-m", "gamesearch", "tournament", "checkers", "--games", "2",
            "--rounds", str(ballots), "--openings", str(openings), "--db", str(db)]
    for spec in specs:
        argv += ["--players", spec]
    print(" ".join(argv), flush=True)
    proc = subprocess.Popen(argv)
    try:
        while proc.poll() is None:
            time.sleep(PROGRESS_SECONDS)
            if proc.poll() is None and db.exists():
                print(progress(db), flush=True)
    except KeyboardInterrupt:
        proc.wait()
    return proc.returncode


def progress(db: Path) -> str:
    """One line: games stored so far and each player's points (the tournament's live view
    is drawn only on a terminal; a run in the background prints this instead)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            rows = con.execute("SELECT g.first, g.second, r.score_first FROM games g "
                               "JOIN results r ON r.game = g.id").fetchall()
            specs = [row[0] for row in con.execute("SELECT spec FROM players ORDER BY id")]
        finally:
            con.close()
    except sqlite3.Error as err:
        return f"progress: cannot read {db} now ({err})"
    points = [0.0] * len(specs)
    for first, second, score in rows:
        points[first] += score
        points[second] += 1 - score
    names = ["simplech" if spec.startswith("simplech") else
             "ours with tables" if ",tables=" in spec else "ours without tables"
             for spec in specs]
    return (f"{time.strftime('%H:%M:%S')} {len(rows)} games; points: "
            + ", ".join(f"{name} {p:g}" for name, p in zip(names, points)))


def tally(db: Path) -> tuple[list[str], dict[tuple[int, int], list[float]], list[float]]:
    """The players, for each pair (i < j) player i's points in every game they met, and
    each player's mean wall seconds a move."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        specs = [row[0] for row in con.execute("SELECT spec FROM players ORDER BY id")]
        rows = con.execute("SELECT g.first, g.second, r.score_first FROM games g "
                           "JOIN results r ON r.game = g.id ORDER BY g.id").fetchall()
        reasons = con.execute("SELECT reason, COUNT(*) FROM games GROUP BY reason").fetchall()
        timed = con.execute("SELECT g.first, g.second, g.opening, m.ply, m.seconds FROM moves m "
                            "JOIN games g ON g.id = m.game").fetchall()
    finally:
        con.close()
    spent = [[0.0, 0] for _ in specs]
    for first, second, opening, ply, seconds in timed:
        player = (first, second)[(len(opening.split()) + ply) % 2]
        spent[player][0] += seconds
        spent[player][1] += 1
    print("wall seconds a move, mean: " + ", ".join(
        f"{spec.split(',tables=')[0] + (' +tables' if ',tables=' in spec else '')} "
        f"{total / max(1, n):.3f} ({n} moves)" for spec, (total, n) in zip(specs, spent)))
    points: dict[tuple[int, int], list[float]] = {}
    for first, second, score in rows:
        i, j = min(first, second), max(first, second)
        points.setdefault((i, j), []).append(score if first == i else 1 - score)
    print("game endings: " + ", ".join(f"{reason} {n}" for reason, n in reasons))
    return specs, points, [total / max(1, n) for total, n in spent]


def export(db: Path, folder: Path, paths: dict[str, str]) -> Path:
    """Every game of the database as one PDN file in ``folder``, each machine path of
    ``paths`` (the program, the tables) written as its short name."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{db.stem}.pdn"
    subprocess.check_call([sys.executable, "-m", "gamesearch", "pdn", "write", str(db),
                           str(out), "--event", "checkers-engine vs simplech, 3-move ballots",
                           "--force"])
    text = out.read_text()
    for path, name in paths.items():
        text = text.replace(path, name)
    out.write_text(text)
    return out


def complete_pieces(tables: str) -> int:
    """How many pieces the databases in ``tables`` hold in full (0 where they cannot be read)."""
    from gamesearch.engines.checkers.tables import Tables
    from gamesearch.errors import GameSearchError

    try:
        return Tables(Path(tables)).complete_pieces()
    except (GameSearchError, OSError):
        return 0


def elo_text(score: float, n: int) -> str:
    elo = elo_difference(score)
    if math.isfinite(elo):
        return f"{elo:+.0f}"
    return "+inf" if elo > 0 else "-inf"


def report(specs: list[str], points: dict[tuple[int, int], list[float]], seconds: float,
           pieces: int, means: list[float]) -> None:
    """The table: each pairing from the first-named side's view, with both sides' mean wall
    seconds a move over the whole run (equal time: they should be close)."""
    from rich.console import Console
    from rich.table import Table

    names = ["simplech" if spec.startswith("simplech") else
             f"ours, tables ({pieces} pieces)" if ",tables=" in spec else "ours, no tables"
             for spec in specs]
    table = Table(title=f"checkers: {seconds:g} s a move, 3-move ballots, both colours")
    for column in ("pairing", "games", "wins", "draws", "losses", "score", "95% interval",
                   "Elo", "s/move", "theirs"):
        table.add_column(column, justify="right" if column != "pairing" else "left")
    pairs = [(i, j) for i in range(len(specs)) for j in range(i)]  # a later player's view
    for i, j in pairs:
        label = f"{names[i]} vs {names[j]}"
        if names[j] == "ours, no tables" and names[i].startswith("ours, tables"):
            label = "tables on vs off (the databases' gain)"
        got = points.get((min(i, j), max(i, j)), [])
        if i > j:
            got = [1 - p for p in got]
        n = len(got)
        if not n:
            table.add_row(label, "0", "", "", "", "", "", "", "", "")
            continue
        score = sum(got) / n
        low, high = wilson_interval(score, n)
        table.add_row(label, str(n), str(got.count(1.0)), str(got.count(0.5)),
                      str(got.count(0.0)), f"{score:.1%}", f"{low:.1%} - {high:.1%}",
                      elo_text(score, n), f"{means[i]:.3f}", f"{means[j]:.3f}")
    Console().print(table)
    print("players: " + "; ".join(f"{name} = {spec}" for name, spec in zip(names, specs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simplech", required=True, help="the program build_simplech.sh made")
    parser.add_argument("--tables", default=None,
                        help="the checkers databases' folder (none: ours without only)")
    parser.add_argument("--engine", default="", help="options added to ours' specs")
    parser.add_argument("--tables-only", action="store_true",
                        help="ours with tables against simplech alone (no ours without)")
    parser.add_argument("--ballots", type=int, default=100,
                        help="ballots played (each with both colours, every pair); 1-156")
    parser.add_argument("--skip", type=int, default=0,
                        help="leave out the first N ballots (a second run, own --db, plays "
                             "the next --ballots: two runs side by side split one match)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move, each side")
    parser.add_argument("--shuffle", type=int, default=None,
                        help="take the ballots in an order shuffled by this seed")
    parser.add_argument("--db", type=Path, default=Path("checkers_simplech.sqlite"))
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--no-play", action="store_true", help="only read the database")
    args = parser.parse_args()
    ballots = read_ballots()
    if not 0 <= args.skip < len(ballots):
        parser.error(f"--skip must be 0 to {len(ballots) - 1}")
    if not 1 <= args.ballots <= len(ballots) - args.skip:
        parser.error(f"--ballots must be 1 to {len(ballots) - args.skip} (after --skip)")
    if not args.time > 0:
        parser.error("--time must be above 0")
    if args.shuffle is not None:
        random.Random(args.shuffle).shuffle(ballots)
    ballots = ballots[args.skip:]
    if args.tables_only and not args.tables:
        parser.error("--tables-only needs --tables")
    specs = players(args.simplech, args.tables, args.time, args.engine, args.tables_only)
    if not args.no_play:
        openings = args.db.with_suffix(".openings.txt")
        args.db.parent.mkdir(parents=True, exist_ok=True)
        write_openings(openings, ballots[:args.ballots], len(specs) * (len(specs) - 1) // 2)
        status = play(args.db, specs, openings, args.ballots)
        if status not in (0, 130):  # 130: stopped with Ctrl-C, games kept
            raise SystemExit(status)
    if not args.db.exists():
        raise SystemExit(f"checkers_simplech: no database {args.db}")
    paths = {args.simplech: "simplech", **({args.tables: "TABLES"} if args.tables else {})}
    print(f"records: {export(args.db, args.records, paths)}")
    specs, points, means = tally(args.db)
    report(specs, points, args.time, complete_pieces(args.tables) if args.tables else 0, means)


if __name__ == "__main__":
    main()
