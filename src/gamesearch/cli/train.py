"""``gamesearch train ...``: loads every training command (each module adds its command to
the group in train_group.py, so none of them imports another)."""

import gamesearch.cli.train_az_jax  # noqa: F401  (``train alphazero-jax``: batched)
import gamesearch.cli.train_cfr  # noqa: F401  (``train cfr``: hidden information)
import gamesearch.cli.train_learn  # noqa: F401  (``train td``, ``train alphazero``)
import gamesearch.cli.train_nnue  # noqa: F401  (``train nnue``: a learned evaluation)
import gamesearch.cli.train_samuel  # noqa: F401  (``train samuel``: TD-leaf weights)
import gamesearch.cli.train_supervised  # noqa: F401  (``train supervised``: from a teacher)
