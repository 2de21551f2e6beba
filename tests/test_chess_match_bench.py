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
from bench.chess_perft import Clock, _record, cpu_seconds, parse_options, recorded_games


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
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(0.3)
        busy0, idle0 = cpu_seconds(busy.pid), cpu_seconds(idle.pid)
        time.sleep(1.0)
        assert cpu_seconds(busy.pid) - busy0 > 0.05  # some of a core, even on a loaded machine
        assert cpu_seconds(idle.pid) - idle0 < 0.05
    finally:
        busy.kill()
        idle.kill()
        busy.wait()
        idle.wait()
    assert cpu_seconds(os.getpid()) > 0


@pytest.mark.parametrize("args", [["--cpu-clock"], ["--resume"], ["--ours-option", "x"]])
def test_bad_match_arguments_exit_2(args):
    out = subprocess.run([sys.executable, "bench/chess_perft.py", "match", *args],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": "src"})
    assert out.returncode == 2
    last = out.stderr.strip().splitlines()[-1]
    assert "Traceback" not in out.stderr and last.startswith("chess_perft.py: error:"), \
        out.stderr
    assert args[0].lstrip("-").split("-")[0] in last
