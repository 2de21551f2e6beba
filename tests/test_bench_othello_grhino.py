"""bench/othello_grhino.py's time rule under --capped: GRhino's expected time a game,
spread over our moves left, turned into the engine's target by what moves have spent."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest
from bench.othello_grhino import (
    GameClaims,
    Pacer,
    append_record,
    expected_cpu,
    games_to_play,
    moves_left,
    next_game,
    parse_shard,
    run_file,
)

from gamesearch.engines.othello.engine import HARD_SHARE
from gamesearch.errors import GameSearchError


def test_expected_time_is_the_median_over_the_levels_files(tmp_path) -> None:
    assert expected_cpu(tmp_path, 5) is None
    for name, times in (("L5_capped1.jsonl", [100.0, 300.0]), ("L5_capped.jsonl", [50.0]),
                        ("L4_capped.jsonl", [1.0, 1.0, 1.0])):
        (tmp_path / name).write_text("".join(json.dumps({"grhino_cpu": t}) + "\n"
                                             for t in times))
    assert expected_cpu(tmp_path, 5) == 100.0
    assert expected_cpu(tmp_path, 4) == 1.0


def test_the_pacer_learns_the_spending_rate_and_keeps_the_cut_within_whats_left() -> None:
    assert moves_left(60) == 24 and moves_left(13) == 1 and moves_left(2) == 1
    pacer = Pacer()
    assert pacer.rate() == 0.7
    for _ in range(40):
        pacer.spent(1.0, 0.25)  # a quarter of a second for each second of target
    assert abs(pacer.rate() - 0.25) < 1e-9 and len(pacer.moves) == Pacer.WINDOW
    assert abs(pacer.target(0.5, 100.0) - 2.0) < 1e-9  # 0.5 s of processor time wanted
    # near the end: the engine's cut (HARD_SHARE targets) must fit in what is left
    tight = pacer.target(0.5, 0.3)
    assert tight * HARD_SHARE * pacer.rate() <= 0.3 + 1e-9


def test_shards_split_the_games_a_file_lacks_and_share_it(tmp_path) -> None:
    done = [{"game": g, "points": 1.0} for g in (0, 1, 2, 5)]
    assert games_to_play(done, 8, (0, 1)) == [3, 4, 6, 7]
    assert games_to_play(done, 8, (0, 2)) == [4, 6]
    assert games_to_play(done, 8, (1, 2)) == [3, 7]
    assert games_to_play(done, 6, (1, 2)) == [3]
    assert parse_shard("1/2") == (1, 2) and parse_shard("0/1") == (0, 1)
    for bad in ("2/2", "-1/2", "1", "a/b", "1/0"):
        with pytest.raises(ValueError, match="--shard"):
            parse_shard(bad)
    path = tmp_path / "L5_capped.jsonl"
    for g in (3, 0, 2, 1):  # two shards' appends, interleaved
        append_record(path, {"game": g, "grhino_cpu": float(g)})
    assert [r["game"] for r in run_file(path)] == [0, 1, 2, 3]
    assert expected_cpu(tmp_path, 5) == 2.0


def _hold(path, game: int, ready) -> None:
    """A process that claims ``game``, says so by making the file ``ready`` and holds the
    claim until killed (no Event: killing a process inside an Event's wait breaks it)."""
    claims = GameClaims(path)
    assert claims.claim(game)
    ready.touch()
    time.sleep(120)


def _play_all(path, games: int, pause: float) -> None:
    """A process playing a file's missing games as the benchmark does: claim, play, append."""
    claims = GameClaims(path)
    while (index := next_game(path, games, (0, 1), claims)) is not None:
        time.sleep(pause)  # the game
        append_record(path, {"game": index, "points": 1.0, "pid": os.getpid()})
        claims.release(index)


def test_a_claimed_game_is_passed_over_and_a_killed_holders_claim_lapses(tmp_path) -> None:
    path = tmp_path / "L5_capped.jsonl"
    for g in (0, 2):
        append_record(path, {"game": g, "points": 1.0})
    ctx = multiprocessing.get_context("fork")
    ready = tmp_path / "ready"
    holder = ctx.Process(target=_hold, args=(path, 1, ready))
    holder.start()
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready.exists()
        claims = GameClaims(path)
        assert next_game(path, 6, (0, 1), claims) == 3  # 0 and 2 played, 1 held
        append_record(path, {"game": 3, "points": 0.0})
        claims.release(3)
        assert next_game(path, 6, (0, 2), claims) == 4  # the shard's own games only
        claims.release(4)
        holder.kill()  # killed mid-game: the kernel drops its claim
        holder.join(30)
        assert next_game(path, 6, (0, 1), claims) == 1
        claims.close()
    finally:
        if holder.is_alive():
            holder.kill()
        holder.join(30)
    fifo = tmp_path / "L4_capped.jsonl.claims"
    os.mkfifo(fifo)
    with pytest.raises(GameSearchError, match="only regular files"):
        GameClaims(tmp_path / "L4_capped.jsonl")
    (tmp_path / "L3_capped.jsonl.claims").write_text("a person's notes\n")
    with pytest.raises(GameSearchError, match="not this benchmark's"):
        GameClaims(tmp_path / "L3_capped.jsonl")


def test_processes_running_the_same_command_share_a_resumed_file_evenly(tmp_path) -> None:
    """The missing games of a resume are uneven by index (here all odd): both processes
    still play to the end, every game once."""
    path = tmp_path / "L5_capped.jsonl"
    for g in range(0, 24, 2):
        append_record(path, {"game": g, "points": 1.0})
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_play_all, args=(path, 24, 0.05)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    records = run_file(path)
    assert [r["game"] for r in records] == list(range(24))
    shares = [sum(r.get("pid") == w.pid for r in records) for w in workers]
    assert sum(shares) == 12 and min(shares) >= 4, shares


def test_a_claims_file_that_is_a_pipe_is_one_line_and_exit_2(tmp_path) -> None:
    import subprocess
    import sys

    folder = tmp_path / "othello-grhino"
    folder.mkdir()
    os.mkfifo(folder / "L1_time0.05_patterns.jsonl.claims")
    out = subprocess.run([sys.executable, "bench/othello_grhino.py", "--levels", "1",
                          "--games", "2", "--time", "0.05", "--records", str(tmp_path)],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": "src"})
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip().splitlines() == [out.stderr.strip()]
    assert "named pipe" in out.stderr
