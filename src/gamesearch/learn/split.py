"""The supervised trainer's split of a teacher's games into training and held-out games,
by game number (so a game's positions stay together): in a module of its own, without JAX,
so that ``bench/go_net_heldout.py`` can rebuild an older run's split."""

from __future__ import annotations

import numpy as np


def held_out(game: np.ndarray, every: int) -> np.ndarray:
    """Whether each game number is held out: every ``every``-th game."""
    return (np.asarray(game) % every) == every - 1
