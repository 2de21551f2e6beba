"""bench/othello_grhino.py's time rule under --capped: GRhino's expected time a game,
spread over our moves left, turned into the engine's target by what moves have spent."""

from __future__ import annotations

import json

from bench.othello_grhino import Pacer, expected_cpu, moves_left

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
