"""simplech behind its line driver (issue 41): fake programs that die, cheat and babble each
forfeit with one line; the real program, built from a simplech source folder with
bench/outside/build_simplech.sh, plays legal moves and whole games where it exists."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena_runs import CLI, tournament_rows
from gamesearch.games import load_game
from gamesearch.games.checkers.notation import fen

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "bench" / "outside" / "build_simplech.sh"
SOURCE = os.environ.get("SIMPLECH_SRC", "")
"""A folder holding simplech.c and CheckerBoard's headers (for example a checkout of
github.com/vhabgood/Checkerboard-for-Linux); the real-program tests build it, else skip."""

# A driver written with our own rules: it answers `hello`, reads `position FEN` with the
# checkers rules (a FEN it cannot read is an error line) and answers `go` with __MOVE__.
FAKE = textwrap.dedent("""
    import sys
    from gamesearch.games import load_game
    game = load_game("checkers")
    state = None
    for line in sys.stdin:
        words = line.split(None, 1)
        if not words:
            continue
        if words[0] == "quit":
            break
        if words[0] == "hello":
            print("ok simplech", flush=True)
        elif words[0] == "position":
            state = game.state_from_string(words[1].strip())
            print("ok", flush=True)
        elif words[0] == "go":
            legal = game.actions(state)
            __MOVE__
        else:
            print("error unknown command", flush=True)
""")


def fake(tmp_path: Path, move: str, name: str = "fake_simplech.py") -> str:
    script = tmp_path / name
    script.write_text(FAKE.replace("__MOVE__", move))
    return f"simplech:cmd={sys.executable} {script},time=0.05"


def test_a_driver_that_plays_legal_moves_finishes_its_games(tmp_path: Path) -> None:
    """The fake plays its first legal move: each position it was sent read as the game's."""
    rows = tournament_rows("checkers", tmp_path / "r.sqlite",
                           [fake(tmp_path, 'print("bestmove " + legal[0], flush=True)'),
                            "random"], games=2, extra=["--seed", "3"])
    assert len(rows) == 2, rows
    assert all(not reason.startswith("forfeit") for _, reason, _ in rows), rows


@pytest.mark.parametrize(("move", "words"), [
    ('sys.exit(3)', "has stopped"),  # dies when asked to move
    ('print("bestmove 1-5", flush=True)', "illegal here"),  # cheats: never legal at the start
    ('print("I like checkers very much", flush=True)', "not 'bestmove MOVE'"),  # babbles
    ('print("bestmove none", flush=True)', "says it has no move"),
    ('pass', "did not answer 'go'"),  # silent: late
])
def test_a_faulty_driver_forfeits_with_one_line(tmp_path: Path, move: str, words: str) -> None:
    """Each fault loses the game it happens in, the reason one line naming it; the
    tournament goes on to the next game."""
    rows = tournament_rows("checkers", tmp_path / "r.sqlite", [fake(tmp_path, move), "random"])
    assert len(rows) == 2, rows
    for game, reason, score_first in rows:
        assert reason.startswith("forfeit") and words in reason, reason
        assert "\n" not in reason
        assert score_first == (0.0 if game == 0 else 1.0)  # simplech moved first in game 0


def test_a_program_that_is_no_driver_forfeits(tmp_path: Path) -> None:
    """A program that answers `hello` with something else is refused before its first move."""
    script = tmp_path / "other.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('= 2', flush=True)\n")
    rows = tournament_rows("checkers", tmp_path / "r.sqlite",
                           [f"simplech:cmd={sys.executable} {script},time=0.05", "random"])
    assert all(r[1].startswith("forfeit") and "not simplech's driver" in r[1] for r in rows), rows


@pytest.mark.parametrize(("spec", "words"), [
    ("simplech:cmd=no-such-simplech", "no program 'no-such-simplech'"),
    ("simplech:time=0", "time: 0 is out of range"),
    ("simplech:time=-1", "time: -1 is out of range"),
    ("simplech:time=fast", "time"),
])
def test_bad_simplech_specs_are_one_line(spec: str, words: str) -> None:
    done = subprocess.run([*CLI, "match", "checkers", spec, "random", "--games", "2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_build_script_refuses_a_folder_without_simplech(tmp_path: Path) -> None:
    done = subprocess.run(["sh", str(BUILD), str(tmp_path), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no simplech.c" in done.stderr, done.stderr


@pytest.fixture(scope="module")
def simplech(tmp_path_factory) -> str:
    """The real program, built from $SIMPLECH_SRC (skips where there is none)."""
    if not SOURCE or not (Path(SOURCE) / "simplech.c").is_file():
        pytest.skip("no simplech source: set SIMPLECH_SRC to a folder with simplech.c and "
                    "CheckerBoard's headers (github.com/vhabgood/Checkerboard-for-Linux)")
    if shutil.which(os.environ.get("CXX", "g++")) is None:
        pytest.skip("no C++ compiler (g++) to build simplech")
    out = tmp_path_factory.mktemp("simplech")
    done = subprocess.run(["sh", str(BUILD), SOURCE, str(out)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return str(out / "simplech")


def test_real_simplech_answers_legal_moves_in_random_positions(simplech: str) -> None:
    """Positions of random games (captures, multi-jumps, kings, several captures at once):
    every answer is a legal move written with each landing square."""
    game = load_game("checkers")
    rng = random.Random(7)
    proc = subprocess.Popen([simplech], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    asked = captures = several = 0
    try:
        for _ in range(40):
            state = game.initial_state()
            while not game.is_terminal(state):
                legal = game.actions(state)
                if rng.random() < 0.3 or len(legal) == 1 or "x" in legal[0]:
                    proc.stdin.write(f"position {fen(state[0], state[1])}\ngo 0.005\n")
                    proc.stdin.flush()
                    assert proc.stdout.readline().strip() == "ok"
                    answer = proc.stdout.readline().split()
                    assert answer[0] == "bestmove", answer
                    assert answer[1] in legal, (fen(state[0], state[1]), answer, legal)
                    asked += 1
                    captures += "x" in answer[1]
                    several += "x" in legal[0] and len(legal) > 1
                state = game.result(state, rng.choice(legal))
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=10)
    assert asked > 300 and captures > 50 and several > 10, (asked, captures, several)


def test_real_simplech_plays_whole_games_in_the_arena(simplech: str, tmp_path: Path) -> None:
    rows = tournament_rows("checkers", tmp_path / "r.sqlite",
                           [f"simplech:cmd={simplech},time=0.02", "random"], games=2,
                           extra=["--seed", "5"])
    assert len(rows) == 2, rows
    assert all(not reason.startswith("forfeit") for _, reason, _ in rows), rows


def test_the_processor_time_of_a_running_program_is_read() -> None:
    """The benchmarks charge an outside program its own processor time (/proc/PID/stat):
    a child that spins for a while shows at least most of it, one that sleeps almost none."""
    from gamesearch.outside.line_client import process_cpu_seconds

    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc here (not Linux)")
    spin = subprocess.Popen([sys.executable, "-c", "import time, sys\nt = time.process_time()\n"
                             "while time.process_time() - t < 0.5: pass\nprint(1, flush=True)\n"
                             "sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    sleep = subprocess.Popen([sys.executable, "-c", "import sys; print(1, flush=True); "
                              "sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        spin.stdout.readline()
        sleep.stdout.readline()
        spun, slept = process_cpu_seconds(spin.pid), process_cpu_seconds(sleep.pid)
    finally:
        for proc in (spin, sleep):
            proc.stdin.close()
            proc.wait(timeout=10)
    assert spun is not None and spun >= 0.45, spun
    assert slept is not None and slept < spun - 0.3, (slept, spun)
    assert process_cpu_seconds(spin.pid) is None  # ended: nothing to read


def test_the_bench_splits_the_ballots_and_refuses_a_bad_skip(tmp_path) -> None:
    """``--skip N`` (two runs, one match in halves): a skip or a ballot count past the
    deck is one line, exit 2, and nothing is played."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import checkers_simplech as bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    deck = bench.read_ballots()
    for args, says in ((["--skip", str(len(deck))], "--skip"),
                       (["--skip", "150", "--ballots", "7"], "after --skip")):
        run = subprocess.run([sys.executable, str(ROOT / "bench" / "checkers_simplech.py"),
                              "--simplech", "none", "--db", str(tmp_path / "x.sqlite"), *args],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "x.sqlite").exists()
