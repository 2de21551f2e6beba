"""bench/go_gnugo.py: missing games shared with colours even; published figures read."""

from pathlib import Path

import pytest
from bench.go_gnugo import FIGURES, Run, read_figures, shares


def test_odd_files_get_one_game_first_then_pairs_over_the_jobs() -> None:
    # 16 files of one game each (all as Black), 84 missing, 2 jobs at a time.
    add = shares([1] * 16, 84, 2)
    assert sum(add) == 84
    assert all((have + extra) % 2 == 0 for have, extra in zip([1] * 16, add))
    assert add[2:] == [1] * 14 and add[0] == add[1] == 35


def test_every_game_is_given_and_an_odd_total_leaves_one_odd_file() -> None:
    for have, missing, jobs in [([0], 100, 1), ([29, 29], 42, 2), ([0, 0, 0], 7, 3),
                                ([3, 0], 1, 2), ([4, 4], 0, 2)]:
        add = shares(have, missing, jobs)
        assert sum(add) == missing
        assert sum((h + a) % 2 for h, a in zip(have, add)) == (sum(have) + missing) % 2


def test_published_figures_parse_and_a_bad_row_is_refused(tmp_path: Path) -> None:
    kept = read_figures(Path(__file__).parents[1] / "bench/records/go-gnugo" / FIGURES)
    assert kept[Run(10, 8000)]["games"] == 100 and kept[Run(10, 8000)]["score"] == 0.485
    assert all(t["published"] and t["games"] == t["wins"] + t["draws"] + t["losses"]
               for t in kept.values())
    assert read_figures(tmp_path / "none.csv") == {}
    bad = tmp_path / FIGURES
    bad.write_text("level,playouts,fpu,prior,patterns,games,wins,draws,losses,plies,source\n"
                   "10,2000,0,20,1,100,50,0,49,,a lost game\n")
    with pytest.raises(SystemExit, match="wins"):
        read_figures(bad)
    bad.write_text("level,playouts\n10,lots\n")
    with pytest.raises(SystemExit, match="whole numbers"):
        read_figures(bad)
