"""Fitting the pattern tables (engines/othello/patterns.py) on labelled positions.

Each stage's weights solve a ridge least-squares problem: one row per position (its 46
pattern entries, parity and bias, each a column holding 1 or +-1), the label its game's
final disc difference for the side to move. The matrix is sparse (48 nonzeros in a row of
167,267 columns), so the solver is scipy's LSQR with ``damp`` as the ridge: a configuration
never seen keeps weight 0, a rare one is pulled towards 0. A stage is fitted on the
positions within ``spread`` empties of its own range too (neighbouring stages overlap), so
that the tables change smoothly from one stage to the next.
"""

from __future__ import annotations

import numpy as np

from gamesearch.engines.othello import patterns as P


def indices_many(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """:func:`patterns.instance_indices` for arrays of positions at once (positions x
    instances), by numpy over the instances' squares."""
    squares, lengths, offsets, _, _ = P.layout()
    me = np.asarray(me, np.uint64)
    opp = np.asarray(opp, np.uint64)
    out = np.zeros((len(me), len(lengths)), np.int64)
    one = np.uint64(1)
    for i in range(len(lengths)):
        index = np.zeros(len(me), np.int64)
        for sq in squares[i, :lengths[i]]:
            s = np.uint64(sq)
            index = index * 3 + ((me >> s) & one).astype(np.int64) + 2 * (
                (opp >> s) & one).astype(np.int64)
        out[:, i] = offsets[i] + index
    return out


def empties_of(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The empty squares of each position."""
    both = np.asarray(me, np.uint64) | np.asarray(opp, np.uint64)
    bytes_ = both.view(np.uint8).reshape(-1, 8)
    return 64 - np.unpackbits(bytes_, axis=1).sum(axis=1).astype(np.int64)


def design(me: np.ndarray, opp: np.ndarray):
    """The sparse rows of the positions (CSR, positions x :func:`patterns.n_columns`)."""
    from scipy import sparse

    size = P.layout()[4]
    canon = P.layout()[3]
    cols = canon[indices_many(me, opp)]
    n, k = cols.shape
    parity = np.where(empties_of(me, opp) & 1, 1.0, -1.0)
    indices = np.hstack([cols, np.full((n, 1), size), np.full((n, 1), size + 1)])
    data = np.hstack([np.ones((n, k)), parity[:, None], np.ones((n, 1))])
    indptr = np.arange(0, n * (k + 2) + 1, k + 2)
    return sparse.csr_matrix((data.ravel(), indices.ravel(), indptr),
                             shape=(n, P.n_columns()))


def stage_rows(empties: np.ndarray, stage: int, spread: int) -> np.ndarray:
    """The positions a stage is fitted on: its own empties and ``spread`` either side."""
    high = 60 - stage * P.STAGE_WIDTH + spread
    low = (60 - (stage + 1) * P.STAGE_WIDTH + 1 - spread) if stage < P.N_STAGES - 1 else 0
    return (empties >= low) & (empties <= high)


def fit(me: np.ndarray, opp: np.ndarray, labels: np.ndarray, ridge: float = 50.0,
        spread: int = 8, iterations: int = 300) -> np.ndarray:
    """Weights per stage (stages x columns, canonical entries only; :func:`patterns.expand`
    fills the rest) fitted on the positions by sparse ridge least squares."""
    from scipy.sparse.linalg import lsqr

    empties = empties_of(me, opp)
    weights = np.zeros((P.N_STAGES, P.n_columns()))
    for st in range(P.N_STAGES):
        rows = stage_rows(empties, st, spread)
        if not rows.any():
            continue
        a = design(me[rows], opp[rows])
        y = np.asarray(labels[rows], np.float64)
        weights[st] = lsqr(a, y, damp=np.sqrt(ridge), iter_lim=iterations)[0]
    return weights


def predict(me: np.ndarray, opp: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """The expanded ``tables``' values of the positions (numpy, for measuring a fit)."""
    size = P.layout()[4]
    empties = empties_of(me, opp)
    stages = np.minimum(P.N_STAGES - 1, (60 - empties) // P.STAGE_WIDTH)
    v = tables[stages[:, None], indices_many(me, opp)].sum(axis=1)
    return v + tables[stages, size] * np.where(empties & 1, 1.0, -1.0) + tables[stages, size + 1]
