"""bench/othello_grhino.py's time rule under --capped: GRhino's expected time a game,
spread over our moves left, turned into the engine's target by what moves have spent."""

from __future__ import annotations

import json

import pytest
from bench.othello_grhino import (
    Pacer,
    append_record,
    expected_cpu,
    games_to_play,
    moves_left,
    parse_shard,
    run_file,
)

from gamesearch.engines.othello.engine import HARD_SHARE


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
