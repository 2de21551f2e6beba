"""Tournaments (issue 20): the schedule, the results database, resume after kill -9, the
report, and bad input (one line, exit 2, nothing in the database lost)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gamesearch.arena.schedule import gauntlet, round_robin

CLI = [sys.executable, "-c", "import sys; from gamesearch.cli.main import main; main(sys.argv[1:])"]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


def rows(db: Path) -> list[tuple]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return con.execute("SELECT id, round, first, second, opening, reason FROM games "
                           "ORDER BY id").fetchall()


def test_round_robin_meets_every_pair_with_colours_alternating() -> None:
    schedule = round_robin(3, games=4, rounds=2)
    assert len(schedule) == 3 * 4 * 2
    assert [p.index for p in schedule] == list(range(len(schedule)))
    assert schedule == round_robin(3, games=4, rounds=2)  # deterministic
    for pair in ((0, 1), (0, 2), (1, 2)):
        games = [p for p in schedule if {p.first, p.second} == set(pair)]
        assert len(games) == 8
        firsts = [p.first for p in games]
        assert firsts.count(pair[0]) == firsts.count(pair[1]) == 4
        assert all(a != b for a, b in zip(firsts, firsts[1:]))  # alternate game by game


def test_a_gauntlet_pits_one_player_against_each_other_only() -> None:
    schedule = gauntlet(4, games=2, rounds=1)
    assert len(schedule) == 3 * 2
    assert all(0 in (p.first, p.second) for p in schedule)


def test_a_tournament_stores_every_game_and_the_report_rates_them(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    args = ["tournament", "tictactoe", "--players", "alphabeta", "--players", "random",
            "--players", "mcts:iterations=50", "--games", "4", "--seed", "7", "--db", str(db)]
    first = run(*args)
    assert first.returncode == 0, first.stderr
    stored = rows(db)
    assert len(stored) == 12 and [r[0] for r in stored] == list(range(12))
    with sqlite3.connect(db) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        command = con.execute("SELECT argv FROM commands").fetchone()[0]
        moves = con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    assert {"players", "games", "moves", "results", "commands"} <= tables
    assert "tournament" in json.loads(command) and moves >= 12 * 5  # tic-tac-toe: >= 5 plies
    again = run(*args)  # the same command: nothing to play, nothing replayed
    assert again.returncode == 0 and "12 from before" in again.stdout
    assert rows(db) == stored
    report = run("report", str(db), "--json", "--plot", str(tmp_path / "ratings.png"))
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    ranks = {r["player"]: r["rank"] for r in data["ratings"]}
    assert ranks["random"] == 3  # perfect play and MCTS never lose to random at 4 games each
    assert sum(row[1][1] for row in [data["crosstable"][0]]) == 4
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    sprt = json.loads(run("report", str(db), "--json", "--sprt", "0:200").stdout)["sprt"]
    assert sprt["wins"] + sprt["draws"] + sprt["losses"] == 4  # alphabeta against random
    assert sprt["losses"] == 0 and sprt["verdict"] in ("H1", "continue")
    assert run("report", str(db), "--sprt", "5:0").returncode == 2  # elo1 must be above
    standings = json.loads(run(*args, "--json").stdout)["standings"]  # resumed: all done
    assert [s["rank"] for s in standings] == [1, 2, 3]
    assert [s["points"] for s in standings] == sorted((s["points"] for s in standings),
                                                      reverse=True)
    assert standings[-1]["spec"] == "random"
    for s in standings:  # the same Elo and interval as the report's
        rated = next(r for r in data["ratings"] if r["player"] == s["spec"])
        assert (s["elo"], s["low"], s["high"]) == (rated["elo"], rated["low"], rated["high"])


def test_a_killed_tournament_resumes_and_replays_nothing(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    # 8 games: killed once the third is stored, five are left (a game takes 1-3 s, the
    # poll 0.2 s); 14 left eleven for the resume to play, a third of the test's time
    games = 8
    args = ["tournament", "connect4", "--players", "mcts:iterations=2000", "--players", "random",
            "--games", str(games), "--seed", "1", "--db", str(db)]
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    before: list[tuple] = []
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if db.exists():
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                try:
                    if con.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 3:
                        break
                except sqlite3.OperationalError:  # tables not made yet
                    continue
    assert proc.poll() is None, "the tournament ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = rows(db)
    assert 3 <= len(before) < games
    resumed = run(*args, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({len(before)} from before)" in resumed.stdout
    after = rows(db)
    assert [r[0] for r in after] == list(range(games))  # every game exactly once
    assert after[:len(before)] == before  # what was stored is unchanged


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "random", "--players", "nosuch"], "unknown agent 'nosuch'"),
    (["--players", "random"], "at least two players"),
    (["--players", "random", "--players", "pig-optimal"], "plays pig only"),
    (["--players", "random", "--players", "alphabeta", "--games", "100000", "--rounds", "100000"],
     "at most 1000000"),
    (["--players", "random", "--players", "alphabeta", "--resign", "x"], "--resign"),
    (["--players", "random", "--players", "alphabeta", "--backend", "nope"], "unknown backend"),
    (["--players", "random", "--players", "random"], "named twice"),
])
def test_bad_tournaments_are_one_line_and_exit_2(tmp_path: Path, args, words) -> None:
    db = tmp_path / "r.sqlite"
    result = run("tournament", "tictactoe", *args, "--db", str(db))
    assert result.returncode == 2, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_file_that_is_not_a_results_database_is_never_touched(tmp_path: Path) -> None:
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"garbage" * 20)
    for path in (mine, damaged):
        content = path.read_bytes()
        result = run("tournament", "tictactoe", "--players", "random", "--players", "alphabeta",
                     "--db", str(path))
        assert result.returncode == 2 and "not a gamesearch results database" in result.stderr
        assert path.read_bytes() == content
    assert run("report", str(damaged)).returncode == 2
    missing = run("report", str(tmp_path / "nope.sqlite"))
    assert missing.returncode == 2 and "no results database" in missing.stderr


def test_another_tournament_in_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    base = ["tournament", "tictactoe", "--players", "random", "--players", "alphabeta",
            "--games", "2", "--db", str(db)]
    assert run(*base).returncode == 0
    stored = rows(db)
    other = run(*base[:-2], "--seed", "5", "--db", str(db))
    assert other.returncode == 2 and "another tournament" in other.stderr
    assert rows(db) == stored


def test_a_locked_database_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    base = ["tournament", "tictactoe", "--players", "random", "--players", "alphabeta",
            "--games", "2", "--db", str(db)]
    assert run(*base).returncode == 0
    con = sqlite3.connect(db, timeout=0.1)
    con.execute("BEGIN EXCLUSIVE")
    try:
        result = run(*base[:-4], "--games", "4", "--db", str(db), timeout=120)
    finally:
        con.rollback()
        con.close()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory):
    """A real Ray cluster on 127.0.0.1 (head only, 2 CPUs) in a temporary folder."""
    pytest.importorskip("ray")
    import shutil
    import socket

    ray_cli = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    if ray_cli is None:
        pytest.skip("the ray command is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tmp_path_factory.mktemp("ray")
    try:
        started = subprocess.run([ray_cli, "start", "--head", "--port", str(port), "--num-cpus",
                                  "2", "--node-ip-address", "127.0.0.1", "--temp-dir",
                                  str(folder), "--include-dashboard=false",
                                  "--disable-usage-stats"],
                                 capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        subprocess.run([ray_cli, "stop", "--force"], capture_output=True, timeout=120)
        pytest.skip("ray start took over 2 minutes")
    if started.returncode != 0:
        pytest.skip(f"ray start failed: {started.stderr.strip()[-200:]}")
    yield f"127.0.0.1:{port}"
    subprocess.run([ray_cli, "stop", "--force"], capture_output=True, timeout=120)


@pytest.mark.slow
def test_on_ray_a_killed_worker_costs_no_game_and_doubles_none(tmp_path: Path, ray_head) -> None:
    """Games run as Ray tasks on a local cluster; one worker process is killed mid-run;
    Ray re-runs its game and the database holds every game exactly once."""
    db = tmp_path / "results.sqlite"
    # 8 games: when the third is stored, the fourth and fifth are running on the two Ray
    # workers and three wait (a game takes 1-3 s; the poll sees the third within 0.3 s).
    # 20 games left 17 to play after the kill: 42 s against 20 s for 8 on a busy machine.
    games = 8
    args = ["tournament", "connect4", "--players", "mcts:iterations=3000", "--players",
            "random", "--games", str(games), "-j", "2", "--backend", "ray", "--address", ray_head,
            "--db", str(db)]
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.3)
        listing = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True)
        workers = [int(line.split()[0]) for line in listing.stdout.splitlines()
                   if "ray::play_task" in line]
        if workers and db.exists() and len(rows(db)) >= 3:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert killed is not None, "no game was running on a Ray worker to kill"
    assert proc.returncode == 0, err
    stored = rows(db)
    assert [r[0] for r in stored] == list(range(games))  # every game, once
    assert f"{games} of {games} games" in out


def test_a_ray_address_that_does_not_answer_is_one_line_at_once(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    result = run("tournament", "tictactoe", "--players", "random", "--players", "alphabeta",
                 "--backend", "ray", "--address", f"127.0.0.1:{port}",
                 "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2 and "no Ray cluster answers" in result.stderr
    assert time.monotonic() - began < 30
    assert len(result.stderr.strip().splitlines()) == 1


def test_ray_starts_and_joins_with_the_settings_that_work(monkeypatch, tmp_path) -> None:
    """A Ray started for the run gives its workers the driver's priority (Ray's default nice
    15 made them yield shared cores: 1.45x on 2 workers where the pool ran 2.08x); a driver
    joining a cluster sends the machine's Ray token when there is one (``ray start --head``
    turns token checks on once any local Ray wrote the token, and the join then failed)."""
    ray = pytest.importorskip("ray")
    from gamesearch.arena import ray_backend

    nice, auth = ray_backend.NICENESS_VARIABLE, ray_backend.AUTH_VARIABLE
    seen = []
    for name in (nice, auth, "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: seen.append(
        (kw.get("address"), os.environ.get(nice), os.environ.get(auth))))
    monkeypatch.setattr(ray_backend, "check_address", lambda address: None)
    token = tmp_path / "auth_token"
    monkeypatch.setattr(ray_backend, "TOKEN_FILE", token)
    ray_backend.RayBackend(None, 2)
    ray_backend.RayBackend("127.0.0.1:6379", 2)  # no token on this machine: none sent
    token.write_text("secret")
    ray_backend.RayBackend("127.0.0.1:6379", 2)  # a token: token mode for the join
    monkeypatch.setenv(nice, "5")  # the user's choices are kept
    monkeypatch.setenv(auth, "disabled")
    ray_backend.RayBackend(None, 2)
    ray_backend.RayBackend("127.0.0.1:6379", 2)
    assert seen == [(None, "0", None), ("127.0.0.1:6379", None, None),
                    ("127.0.0.1:6379", None, "token"), (None, "5", "disabled"),
                    ("127.0.0.1:6379", "5", "disabled")]
    assert (os.environ[nice], os.environ[auth]) == ("5", "disabled")
    monkeypatch.delenv(nice)
    monkeypatch.delenv(auth)
    ray_backend.RayBackend(None, 2)
    ray_backend.RayBackend("127.0.0.1:6379", 2)
    assert nice not in os.environ and auth not in os.environ  # only set for Ray's start


@pytest.mark.slow
def test_the_book_solved_on_ray_equals_the_serial_book(tmp_path: Path, ray_head) -> None:
    """The other job the backend carries: book positions as Ray tasks give the same book."""
    from gamesearch.engines.connect4.book import OpeningBook, build_book

    args = ["book", "connect4", "--width", "5", "--height", "4", "--depth", "4", "-o",
            str(tmp_path / "ray.npz"), "-j", "2", "--backend", "ray", "--address", ray_head]
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    book = OpeningBook.load(tmp_path / "ray.npz")
    serial = build_book(5, 4, 4, tmp_path / "serial.npz")
    assert len(book.keys) > 100
    assert np.array_equal(book.keys, serial.keys) and np.array_equal(book.values, serial.values)


def test_a_killed_database_in_a_folder_nobody_may_write_is_still_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament killed mid-run leaves its games in the WAL; where the reader may not write
    (a read-only folder: no WAL index can be made) SQLite cannot read them in place, so the
    report reads a private copy, which SQLite recovers: every game is counted, nothing beside
    the database is touched."""
    from gamesearch.arena import db as results
    from gamesearch.arena.report import summarise

    db = tmp_path / "results.sqlite"
    run_args = ["tournament", "tictactoe", "--players", "random", "--players",
                "minimax:depth=1", "--games", "6", "--seed", "3", "--db", str(db)]
    finished = run(*run_args)
    assert finished.returncode == 0, finished.stderr
    # reopen for writing and die without closing: the last games stay in the WAL
    hold = ("import os\nimport sqlite3\n"
            f"con = sqlite3.connect({str(db)!r})\ncon.execute('PRAGMA journal_mode = WAL')\n"
            "con.execute('PRAGMA wal_autocheckpoint = 0')\n"
            "with con:\n    con.execute(\"INSERT INTO commands (argv, started) "
            "VALUES ('[]', 'x')\")\n"
            "    con.execute(\"UPDATE games SET reason = 'end of game (wal)'\")\n"
            "os._exit(0)\n")
    assert subprocess.run([sys.executable, "-c", hold], timeout=60).returncode == 0
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    assert wal.stat().st_size > 0
    shm.unlink()  # as after a copy or a reboot: no index beside the WAL
    before = sorted(p.name for p in tmp_path.iterdir())
    if os.geteuid() != 0:  # a real read-only folder
        tmp_path.chmod(0o555)
    else:  # root writes anywhere: SQLite is refused as it would refuse another user
        real_connect = sqlite3.connect

        def refusing(target, *args, **kwargs):
            if "mode=ro" in str(target) and not shm.exists():
                raise sqlite3.OperationalError("unable to open database file")
            return real_connect(target, *args, **kwargs)

        monkeypatch.setattr(results, "_uri", lambda path: f"file:{path}?mode=ro")
        monkeypatch.setattr(results.sqlite3, "connect", refusing)
    try:
        report = summarise(db)
    finally:
        tmp_path.chmod(0o755)
    assert report["games"] == 6
    assert report["endings"] == {"end of game (wal)": 6}  # read from the WAL: recovered
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing made or changed
