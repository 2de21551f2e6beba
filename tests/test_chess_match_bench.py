"""bench/chess_perft.py's match plumbing (issue 42): ``--resume`` counts the games a PGN
holds as the match recorded them, ``--ours-option`` pairs, and ``--cpu-clock``'s processor
time of a process."""

import os
import subprocess
import sys
import threading
import time

import chess
import pytest
from bench.chess_perft import (
    STOCKFISH,
    Clock,
    _record,
    cpu_seconds,
    opponent_name,
    parse_options,
    recorded_games,
    think_for_cpu,
)


def test_an_opponent_is_recorded_without_this_machines_folders():
    assert opponent_name("env PYTHONPATH=/tmp/cand/src /srv/venv/bin/python -m gamesearch "
                         "uci") == "python -m gamesearch uci"
    assert opponent_name("/usr/games/stockfish") == "stockfish"
    assert opponent_name("stockfish --flag") == "stockfish --flag"


def test_resume_reads_back_each_game_and_our_points(tmp_path):
    pgn = str(tmp_path / "m.pgn")
    assert recorded_games(pgn) == {}
    lock = threading.Lock()
    board = chess.Board()
    board.push_uci("e2e4")
    results = {0: "1-0", 1: "1-0", 2: "1/2-1/2", 5: "0-1"}  # ours White in even games
    points = {g: _record(board, r, g, "them", Clock(nodes=10), pgn, lock)
              for g, r in results.items()}
    assert points == {0: 1.0, 1: 0.0, 2: 0.5, 5: 1.0}
    assert recorded_games(pgn) == points


def test_ours_options_are_name_value_pairs():
    assert parse_options(["LmrDivisor=225", " NullBase = 3 "]) == {
        "LmrDivisor": "225", "NullBase": "3"}
    for bad in ("LmrDivisor", "=3"):
        with pytest.raises(ValueError, match="NAME=VALUE"):
            parse_options([bad])


def test_cpu_seconds_counts_a_busy_process_and_not_a_sleeping_one():
    code = "print('ready', flush=True); import time; time.sleep(120)"
    idle = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        assert idle.stdout.readline().strip() == "ready"  # its start-up is behind it
        busy0, idle0 = cpu_seconds(busy.pid), cpu_seconds(idle.pid)
        deadline = time.monotonic() + 60  # a loaded machine may give it a twentieth of a core
        while cpu_seconds(busy.pid) - busy0 < 0.2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert cpu_seconds(busy.pid) - busy0 >= 0.2
        assert cpu_seconds(idle.pid) - idle0 < 0.05
    finally:
        busy.kill()
        idle.kill()
        busy.wait()
        idle.wait()
    assert cpu_seconds(os.getpid()) > 0


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="needs Stockfish")
def test_think_for_cpu_stops_the_engine_after_its_processor_time():
    import chess.engine

    with chess.engine.SimpleEngine.popen_uci([STOCKFISH], timeout=60) as fish:
        fish.configure({"Threads": 1})
        pid = fish.transport.get_pid()
        board = chess.Board()
        for budget in (0.05, 0.3):
            before = cpu_seconds(pid)
            move = think_for_cpu(fish, board, budget)
            used = cpu_seconds(pid) - before
            assert move in board.legal_moves
            assert budget <= used < budget + 0.5, (budget, used)
            board.push(move)
        mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")  # no move: the engine ends it
        assert think_for_cpu(fish, mated, 0.05) is None


@pytest.mark.parametrize("args", [["--cpu-clock"], ["--resume"], ["--ours-option", "x"],
                                  ["--cpu-movetime", "0"],
                                  ["--cpu-movetime", "0.1", "--tc", "10+0.1"]])
def test_bad_match_arguments_exit_2(args):
    out = subprocess.run([sys.executable, "bench/chess_perft.py", "match", *args],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": "src"})
    assert out.returncode == 2
    last = out.stderr.strip().splitlines()[-1]
    assert "Traceback" not in out.stderr and last.startswith("chess_perft.py: error:"), \
        out.stderr
    assert args[0].lstrip("-") in last


def test_an_opponent_that_will_not_start_is_one_line_and_exit_2(tmp_path):
    """A wrong --opponent command (here a program that exits at once) used to print each
    match thread's traceback and end with exit 0."""
    out = subprocess.run([sys.executable, "bench/chess_perft.py", "match", "--games", "2",
                          "--nodes", "100", "--jobs", "2", "--opponent",
                          f"{sys.executable} -c 'raise SystemExit(1)'"],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": "src"})
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("chess_perft.py: error: an engine failed") and \
        "0 games played" in last, last
