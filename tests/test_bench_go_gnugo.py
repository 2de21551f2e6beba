"""bench/go_gnugo.py shares a pairing's missing games so that colours stay even."""

from bench.go_gnugo import shares


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
