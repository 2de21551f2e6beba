"""bench/go_net_heldout.py picks the games neither run learned from: held out by the run
over all the files, and either held out by the older run too or never read by it (games
are numbered across the files, so the two runs' numbers differ after the first file)."""

from __future__ import annotations

import numpy as np
from bench.go_net_heldout import unseen_rows


def _older_learned(per_file: list[int], seen: list[int], holdout: int) -> set[tuple]:
    """(file, index) of every game the older run trained on, by its own numbering."""
    learned, number = set(), 0
    for f, old in enumerate(seen):
        for i in range(old):
            if number % holdout != holdout - 1:
                learned.add((f, i))
            number += 1
    return learned


def test_unseen_rows_are_held_out_by_the_new_run_and_unlearned_by_the_old() -> None:
    per_file, seen, holdout = [37, 23], [21, 11], 10
    game = np.repeat(np.arange(sum(per_file)), 3)  # three positions a game
    rows = unseen_rows(game, per_file, seen, holdout)
    picked = set(game[rows].tolist())
    learned = _older_learned(per_file, seen, holdout)
    where = [(0, i) for i in range(per_file[0])] + [(1, i) for i in range(per_file[1])]
    expected = {n for n, at in enumerate(where)
                if n % holdout == holdout - 1 and at not in learned}
    assert picked == expected
    assert len(rows) == 3 * len(expected)
    # the second file's held-out games that the older run learned from are left out
    assert any(n % holdout == holdout - 1 and where[n] in learned for n in range(len(where)))


def test_nothing_seen_keeps_every_held_out_game() -> None:
    game = np.arange(50)
    rows = unseen_rows(game, [30, 20], [0, 0], 10)
    assert game[rows].tolist() == [9, 19, 29, 39, 49]
