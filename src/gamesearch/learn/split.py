"""The trainers' split of games into training and held-out games, by game number (so a
game's positions stay together and a game's side never changes as the data grows): in a
module of its own, without JAX, so that the data readers and ``bench/`` (an older run's
split in ``go_net_heldout.py``, fresh data in ``chess_nnue_eval.py``) can rebuild it."""

from __future__ import annotations

import numpy as np


def held_out(game: np.ndarray, every: int) -> np.ndarray:
    """Whether each game number is held out: every ``every``-th game; none when ``every``
    is 0 (train on all)."""
    game = np.asarray(game)
    if every <= 0:
        return np.zeros(game.shape, bool)
    return game % every == every - 1
