"""Kill -9 at random moments: match --out, train cfr and book lose no finished work, and a
resume ends with exactly the results of a run that was never killed.

Each test starts the real command in a subprocess, kills it with SIGKILL at seeded random
moments once it has begun writing, checks the files after every kill (readable, and never
fewer finished items than before), then lets it finish and compares with an uninterrupted
run. Ctrl-C (SIGINT) is checked the same way: exit 130 soon, with the work on disk.
"""

from __future__ import annotations

import functools
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

TRIES = 3
SLOW_TRIES = 8


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """The command line in a subprocess (stdout and stderr kept for the failure message)."""
    return subprocess.Popen([sys.executable, "-m", "gamesearch", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def kill_at_random_moments(args: list[str], cwd: Path, progress: Callable[[], int],
                           after_kill: Callable[[], None], seed: int, tries: int,
                           most: int, jitter: float) -> int:
    """Start ``args`` and kill -9 it at a seeded random moment, ``tries`` times, calling
    ``after_kill`` after each. The moment: once in four tries during start-up or resume
    (within ``jitter`` s of the start); otherwise once ``progress()`` (finished items) has
    grown by a random 1..``most`` items, then up to ``jitter`` s later, so that the kill
    lands mid-work whatever the machine's speed. Returns how many kills landed before the
    command had finished by itself."""
    rng = random.Random(seed)
    landed = 0
    for _ in range(tries):
        during_start = rng.random() < 0.25
        wanted = progress() + rng.randint(1, most)
        pause = rng.uniform(0, jitter)
        proc = start(args, cwd)
        deadline = time.monotonic() + 120
        while (not during_start and progress() < wanted and proc.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.005)
        time.sleep(pause)
        proc.kill()
        # within a minute: worker processes left behind would hold the pipes open for ever
        out, err = proc.communicate(timeout=60)
        assert proc.returncode in (0, -signal.SIGKILL), err
        landed += proc.returncode != 0
        after_kill()
    return landed


def line_count(path: Path) -> int:
    """Complete lines in a file after its header (0 when absent)."""
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except OSError:
        return 0


def finish(args: list[str], cwd: Path) -> str:
    """Run ``args`` to the end (no kill); its stdout."""
    proc = start(args, cwd)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return out


# --- match --out ------------------------------------------------------------------------

def match_args(games: int) -> list[str]:
    return ["match", "connect4", "mcts:iterations=300", "random", "--games", str(games),
            "--seed", "5", "--out", "m.jsonl", "--json"]


def complete_games(path: Path) -> list[dict]:
    """The complete game lines of a match file; a torn last line is allowed, nothing else."""
    if not path.exists():
        return []
    text = path.read_text()
    lines = text.split("\n")
    complete, tail = lines[:-1], lines[-1]  # tail: '' or a line cut short by the kill
    assert json.loads(complete[0])["type"] == "match"
    games = [json.loads(line) for line in complete[1:]]  # every complete line parses
    assert all(g["type"] == "game" for g in games)
    assert tail == "" or not tail.endswith("}")
    return games


def match_kill_test(tmp_path: Path, seed: int, tries: int, n: int) -> None:
    out = tmp_path / "m.jsonl"
    counts = [0]

    def check() -> None:
        counts.append(len(complete_games(out)))
        assert counts[-1] >= counts[-2], "finished games were lost"

    landed = kill_at_random_moments(match_args(n), tmp_path, lambda: line_count(out), check,
                                    seed, tries, most=3, jitter=0.2)
    summary = json.loads(finish(match_args(n), tmp_path))
    games = complete_games(out)
    assert sorted(g["index"] for g in games) == list(range(n))  # each game exactly once
    assert summary["games"] == n
    assert summary["wins"] + summary["draws"] + summary["losses"] == n
    assert landed >= 1, f"no kill landed mid-match {counts}"
    # the same games as a match that was never killed (every game is seeded)
    from gamesearch.arena.match import run_match
    from gamesearch.games import load_game

    straight = run_match(load_game("connect4"), "mcts:iterations=300", "random", n, seed=5)
    assert {g["index"]: g["moves"] for g in games} == {r.index: r.moves
                                                       for r in straight.records}


def test_match_survives_kill_9(tmp_path) -> None:
    match_kill_test(tmp_path, seed=1, tries=TRIES, n=12)


@pytest.mark.slow
def test_match_survives_many_kills(tmp_path) -> None:
    match_kill_test(tmp_path, seed=2, tries=SLOW_TRIES, n=40)


# --- train cfr --------------------------------------------------------------------------

TOTAL, EVERY = 3000, 100
TRAIN = ["train", "cfr", "leduc_poker", "--total", str(TOTAL), "--every", str(EVERY),
         "--checkpoint-every", "0", "--out", "run", "--resume", "--json"]


def checkpoint_iterations(folder: Path) -> int:
    """The iterations in the run's checkpoint (0 before the first); it must always load."""
    from gamesearch.games import load_game
    from gamesearch.imperfect.cfr import CFRSolver

    path = folder / "checkpoint.npz"
    if not path.exists():
        return 0
    solver = CFRSolver(load_game("leduc_poker"))
    solver.load(path)  # raises if a kill left a broken checkpoint
    return solver.iterations


@functools.cache
def straight_cfr() -> tuple[np.ndarray, np.ndarray]:
    """TOTAL iterations of CFR on Leduc, never stopped: the strategy sums and regrets that
    every killed-and-resumed run must end with (run once for the two kill tests: the tree
    and 3,000 iterations took 4-7 s)."""
    from gamesearch.games import load_game
    from gamesearch.imperfect.cfr import CFRSolver

    straight = CFRSolver(load_game("leduc_poker"))
    straight.run(TOTAL)
    strategy_sum, regrets = straight.strategy_sum.copy(), straight.regrets.copy()
    strategy_sum.flags.writeable = regrets.flags.writeable = False
    return strategy_sum, regrets


def cfr_kill_test(tmp_path: Path, seed: int, tries: int, most: int) -> None:
    folder = tmp_path / "run"
    counts = [0]

    def check() -> None:
        counts.append(checkpoint_iterations(folder))
        assert counts[-1] >= counts[-2], "checkpointed iterations were lost"

    def saved() -> int:  # the iterations in the checkpoint on disk
        try:
            with np.load(folder / "checkpoint.npz") as data:
                return int(data["iterations"])
        except (OSError, KeyError, ValueError):
            return 0

    landed = kill_at_random_moments(TRAIN, tmp_path, saved, check, seed, tries,
                                    most=most, jitter=0.3)
    summary = json.loads(finish(TRAIN, tmp_path))
    assert summary["iterations"] == TOTAL  # exact across every resume
    assert not list(folder.glob(".*.tmp"))  # temp files of killed writes were swept
    assert landed >= 1, f"no kill landed mid-run {counts}"
    from gamesearch.games import load_game
    from gamesearch.imperfect.cfr import CFRSolver

    resumed = CFRSolver(load_game("leduc_poker"))
    extra = resumed.load(folder / "checkpoint.npz")
    strategy_sum, regrets = straight_cfr()
    np.testing.assert_array_equal(resumed.strategy_sum, strategy_sum)
    np.testing.assert_array_equal(resumed.regrets, regrets)
    assert [int(t) for t, _ in extra["curve"]] == list(range(0, TOTAL + 1, EVERY))


def test_train_cfr_survives_kill_9(tmp_path) -> None:
    cfr_kill_test(tmp_path, seed=1, tries=TRIES, most=TOTAL // 4)


@pytest.mark.slow
def test_train_cfr_survives_many_kills(tmp_path) -> None:
    cfr_kill_test(tmp_path, seed=2, tries=SLOW_TRIES, most=TOTAL // 20)


def test_train_cfr_ctrl_c_stops_soon_with_an_exact_checkpoint(tmp_path) -> None:
    # A periodic checkpoint every second shows when training has begun (the folder appears
    # before the game tree is built, and a busy machine can take seconds over that); the
    # interrupt then lands between two periodic writes, so only the stop's own checkpoint
    # can hold the iterations the summary reports.
    proc = start(["train", "cfr", "leduc_poker", "-n", "100000", "--out", "run", "--json",
                  "--checkpoint-every", "1"], tmp_path)
    folder = tmp_path / "run"
    deadline = time.monotonic() + 120
    while not (folder / "checkpoint.npz").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.4)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert time.monotonic() - sent < 10  # the slices are short: the stop is prompt
    summary = json.loads(out)
    assert summary["interrupted"] and 0 < summary["iterations"] < 100000
    assert checkpoint_iterations(folder) == summary["iterations"]


# --- book -------------------------------------------------------------------------------

BOOK = ["book", "connect4", "--width", "5", "--height", "4", "--depth", "5", "-o", "b.npz"]


def partial_count(tmp_path: Path) -> int:
    """Solved positions in the build's .partial file (all its complete lines must parse)."""
    partial = tmp_path / "b.npz.partial"
    if not partial.exists():
        return -1 if (tmp_path / "b.npz").exists() else 0
    lines = partial.read_text().split("\n")[:-1]
    assert lines[0].startswith("# gamesearch connect4 book 5x4 depth 5")
    for line in lines[1:]:
        key, score = map(int, line.split())
    return len(lines) - 1


def book_kill_test(tmp_path: Path, seed: int, tries: int, extra: tuple[str, ...] = ()) -> None:
    args = [*BOOK, *extra]
    counts = [0]
    partial = tmp_path / "b.npz.partial"

    def check() -> None:
        count = partial_count(tmp_path)
        if count >= 0:  # -1: the book was finished
            assert count >= counts[-1], "solved positions were lost"
            counts.append(count)

    landed = kill_at_random_moments(args, tmp_path, lambda: line_count(partial), check, seed,
                                    tries, most=40, jitter=0.05)
    finish(args, tmp_path)
    assert not partial.exists()
    assert landed >= 1, f"no kill landed mid-build {counts}"
    from gamesearch.engines.connect4.book import OpeningBook, build_book

    book = OpeningBook.load(tmp_path / "b.npz")
    fresh = build_book(5, 4, 5, tmp_path / "fresh.npz")
    assert book.depth == 5 and np.array_equal(book.keys, fresh.keys)
    assert np.array_equal(book.values, fresh.values)


def test_book_on_two_workers_survives_kill_9(tmp_path) -> None:
    """Positions solved in worker processes (-j 2, the backend Ray also fills) are logged by
    the driver as they arrive: a kill loses none of them (the serial build: below)."""
    book_kill_test(tmp_path, seed=1, tries=TRIES, extra=("-j", "2"))


@pytest.mark.slow
def test_book_survives_many_kills(tmp_path) -> None:
    book_kill_test(tmp_path, seed=2, tries=SLOW_TRIES)


# --- tournament --db (SQLite) -------------------------------------------------------------

TOURNEY_GAMES = 600


def tournament_args(db: str) -> list[str]:
    """Tic-tac-toe between two random players: each game takes well under a millisecond,
    so most of the run is the commit of each finished game, where the kills must land."""
    return ["tournament", "tictactoe", "--players", "random", "--players", "random:seed=2",
            "--games", str(TOURNEY_GAMES), "--seed", "3", "--db", db, "--json"]


def stored_games(db: Path) -> set[int]:
    """The indices of the finished games in the database, read as ``report`` reads it (a
    plain SQLite connection, which recovers whatever a kill left); empty before it exists."""
    from gamesearch.arena.db import ResultsDB

    if not db.exists() or db.stat().st_size == 0:
        return set()
    with ResultsDB(db) as results:
        return results.finished()


def test_tournament_killed_inside_its_commits_resumes_and_reports(tmp_path, cli) -> None:
    """Issue 39: a kill during a game's commit left a hot journal that made the file look
    "not a gamesearch results database", for the next run and for ``report`` alike. Now each
    of many kills at random instants is followed by ``report`` (readable, no finished game
    lost) and the same command resumes to the end with every game stored once."""
    db = tmp_path / "t.sqlite"
    seen: list[set[int]] = [set()]

    def after_kill() -> None:
        code, out, err = cli("report", str(db), "--json")
        now = stored_games(db)
        if db.exists():
            assert code == 0, err
            assert json.loads(out)["games"] == len(now)
        assert now >= seen[-1], f"finished games were lost: {sorted(seen[-1] - now)[:5]}"
        seen.append(now)

    def progress() -> int:
        try:
            return len(stored_games(db))
        except Exception:  # noqa: BLE001 (the file is being created)
            return len(seen[-1])

    landed = kill_at_random_moments(tournament_args(str(db)), tmp_path, progress, after_kill,
                                    seed=7, tries=14, most=60, jitter=0.03)
    summary = json.loads(finish(tournament_args(str(db)), tmp_path))
    assert summary["games"] == summary["planned"] == TOURNEY_GAMES
    assert stored_games(db) == set(range(TOURNEY_GAMES))
    code, out, err = cli("report", str(db), "--json")
    assert code == 0 and json.loads(out)["games"] == TOURNEY_GAMES, err
    assert landed >= 10, f"only {landed} kills landed mid-tournament"
