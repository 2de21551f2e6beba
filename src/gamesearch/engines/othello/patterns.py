"""Logistello's pattern evaluation for Othello: a weight for every configuration of a line
of squares, per game stage.

The idea is Michael Buro's ("Experiments with Multi-ProbCut and a New High-Quality
Evaluation Function for Othello", 1997; the Logistello pages): the value of a position is
the sum, over a fixed set of square patterns and their images under the board's eight
symmetries, of a learned weight for what the pattern's squares hold (each square empty,
the side to move's or the opponent's: 3^n configurations of an n-square pattern), one
table per pattern and game stage, fitted by least squares on positions labelled with
their game's final disc difference. Logistello's set, which we use:

=============  =======  ==========  =====================================================
pattern        squares  instances   what it sees
=============  =======  ==========  =====================================================
edge + 2X      10       4           an edge and the two X-squares beside its corners
corner 2x5     10       8           a corner's 2x5 block, both orientations
corner 3x3     9        4           a corner's 3x3 block
row 2, 3, 4    8        4 each      the lines parallel to an edge, one to three in
diagonal 8     8        2           the main diagonals
diagonal 7..4  7..4     4 each      the shorter diagonals
=============  =======  ==========  =====================================================

46 instances; 167,265 table entries per stage, plus a parity term (+1 where the number of
empty squares is odd) and a bias. A pattern's instances share its table: each instance is
the canonical square list mapped by one of the eight symmetries, in that order, so a
configuration means the same thing wherever it stands. Where a symmetry maps a pattern onto
itself (an edge read backwards, a corner block mirrored on its diagonal), the configurations
it exchanges share one weight (:data:`CANON`), so symmetric positions get the same value.

An instance's index is base 3 over its squares in order, the first square the most
significant digit: 0 empty, 1 the side to move's disc, 2 the opponent's
(:func:`instance_indices`, the readable specification; the compiled :func:`evaluate` reads
the same squares and is tested against it).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from gamesearch.shipped import shipped

PATTERNS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("edge+2X", tuple((0, c) for c in range(8)) + ((1, 1), (1, 6))),
    ("corner 2x5", tuple((r, c) for r in range(2) for c in range(5))),
    ("corner 3x3", tuple((r, c) for r in range(3) for c in range(3))),
    ("row 2", tuple((1, c) for c in range(8))),
    ("row 3", tuple((2, c) for c in range(8))),
    ("row 4", tuple((3, c) for c in range(8))),
    ("diagonal 8", tuple((i, i) for i in range(8))),
    ("diagonal 7", tuple((i, i + 1) for i in range(7))),
    ("diagonal 6", tuple((i, i + 2) for i in range(6))),
    ("diagonal 5", tuple((i, i + 3) for i in range(5))),
    ("diagonal 4", tuple((i, i + 4) for i in range(4))),
)
"""Each pattern's canonical squares as (row, column), in index order."""

SYMMETRIES = (lambda r, c: (r, c), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c),
              lambda r, c: (7 - r, 7 - c), lambda r, c: (c, r), lambda r, c: (c, 7 - r),
              lambda r, c: (7 - c, r), lambda r, c: (7 - c, 7 - r))
"""The eight symmetries of the board on (row, column)."""

STAGE_WIDTH = 4
N_STAGES = 15
SCRATCH = 64
"""The compiled evaluation's scratch: one float per instance (46), rounded up."""
"""Stages of :data:`STAGE_WIDTH` empty squares: stage 0 is 57-60 empties, 14 is 0-3."""
WEIGHTS_FILE = shipped("othello", "patterns.npz")
KIND = "othello-patterns"
QUANTUM = 0.02
"""The shipped tables' step in discs (int16 multiples of it; a weight is off by at most
0.01 disc): small steps only add entropy, 996 KiB compressed here against 1,324 KiB at the
finest step the int16 range allowed."""


def stage_of(empties: int) -> int:
    """The pattern tables' stage of a position with ``empties`` empty squares."""
    return min(N_STAGES - 1, (60 - empties) // STAGE_WIDTH)


def _square(rc: tuple[int, int]) -> int:
    return rc[0] * 8 + rc[1]


def _instances(squares: tuple[tuple[int, int], ...]) -> list[tuple[int, ...]]:
    """The distinct images of a pattern under the symmetries (one ordering per square set,
    the first symmetry's that reaches it)."""
    seen: dict[frozenset, tuple[int, ...]] = {}
    for sym in SYMMETRIES:
        image = tuple(_square(sym(r, c)) for r, c in squares)
        seen.setdefault(frozenset(image), image)
    return list(seen.values())


def _canon(squares: tuple[tuple[int, int], ...]) -> np.ndarray:
    """For each configuration, the least index among those the pattern's own symmetries
    (the ones mapping its square set onto itself) turn it into."""
    n = len(squares)
    base = tuple(_square(s) for s in squares)
    digits = np.array(np.unravel_index(np.arange(3 ** n), (3,) * n)).T  # most significant first
    powers = 3 ** np.arange(n - 1, -1, -1)
    best = np.arange(3 ** n)
    for sym in SYMMETRIES:
        image = tuple(_square(sym(r, c)) for r, c in squares)
        if frozenset(image) != frozenset(base):
            continue
        # the image's k-th square is base's perm[k]-th: reading the position through the
        # image is reading the permuted digits through the base
        perm = [base.index(sq) for sq in image]
        best = np.minimum(best, digits[:, perm] @ powers)
    return best


@functools.cache
def layout() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``(squares, lengths, offsets, canon, size)``: per instance its squares (padded with
    -1 to 10), how many, the offset of its pattern's table; the canonical column of every
    table entry; the number of table entries (all patterns, one stage)."""
    rows, lengths, offsets, canon = [], [], [], []
    offset = 0
    for _, squares in PATTERNS:
        for inst in _instances(squares):
            rows.append(list(inst) + [-1] * (10 - len(inst)))
            lengths.append(len(inst))
            offsets.append(offset)
        canon.append(offset + _canon(squares))
        offset += 3 ** len(squares)
    return (np.array(rows, np.int64), np.array(lengths, np.int64),
            np.array(offsets, np.int64), np.concatenate(canon), offset)


def n_columns() -> int:
    """Columns of one stage's weight vector: the tables, then parity, then the bias."""
    return layout()[4] + 2


def instance_indices(me: int, opp: int) -> np.ndarray:
    """The specification: each instance's table entry (its pattern's offset plus its base-3
    index) for the position seen by the side owning ``me``."""
    squares, lengths, offsets, _, _ = layout()
    out = np.zeros(len(lengths), np.int64)
    for i in range(len(lengths)):
        index = 0
        for sq in squares[i, :lengths[i]]:
            digit = 1 if me >> int(sq) & 1 else (2 if opp >> int(sq) & 1 else 0)
            index = index * 3 + digit
        out[i] = offsets[i] + index
    return out


def columns(me: int, opp: int) -> np.ndarray:
    """The position's nonzero feature columns (canonical entries, each with value 1), as
    the fit sees them; parity and bias are added by the caller."""
    return layout()[3][instance_indices(me, opp)]


def expand(weights: np.ndarray) -> np.ndarray:
    """Fitted weights (stages x columns, only canonical entries used) as the evaluation's
    tables: every entry holds its canonical entry's weight."""
    canon = layout()[3]
    out = np.array(weights, dtype=np.float64)
    out[:, :len(canon)] = out[:, canon]
    return out


def evaluate_spec(me: int, opp: int, tables: np.ndarray) -> float:
    """The specification's value of a position for the side to move (``tables`` from
    :func:`expand`)."""
    empties = 64 - bin(me | opp).count("1")
    row = tables[stage_of(empties)]
    size = layout()[4]
    return float(row[instance_indices(me, opp)].sum()
                 + row[size] * (1 if empties & 1 else -1) + row[size + 1])


# --- the compiled evaluation (a template: the names in capitals are bound by specialize) ---

def pattern_value(me, opp, tables, index):
    """The value of the position for the side owning ``me``: the sum of its instances'
    table entries in its stage, parity and bias. Each instance's index is built from the
    discs alone (``index``: scratch, one float per instance): a disc on a square adds its
    digit (1 or 2) times the square's power of 3 in every instance that holds the square
    (the same number as the specification's reading of the squares in order)."""
    for i in range(N_INSTANCES):  # noqa: F821  (bound by specialize)
        index[i] = P_OFFSETS[i]  # noqa: F821
    discs = 0
    for side in range(2):
        x = me if side == 0 else opp
        digit = 1.0 + side
        while x:
            sq = 63 - CLZ(x)  # noqa: F821
            x ^= ONE64 << np.uint64(sq)  # noqa: F821
            discs += 1
            for j in range(SQ_COUNT[sq]):  # noqa: F821
                index[SQ_INSTANCE[sq, j]] += digit * SQ_POWER[sq, j]  # noqa: F821
    n_empty = 64 - discs
    st = min(N_STAGES_C - 1, (60 - n_empty) // STAGE_WIDTH_C)  # noqa: F821
    v = 0.0
    for i in range(N_INSTANCES):  # noqa: F821
        v += tables[st, np.int64(index[i])]
    v += tables[st, P_SIZE] * (1.0 if n_empty & 1 else -1.0)  # noqa: F821
    return v + tables[st, P_SIZE + 1]  # noqa: F821


def evaluate_with(me, opp, weights, scratch):
    """The engine's evaluation hook (engine.evaluate_with's signature) over the pattern
    tables: ``weights`` are the expanded tables, ``scratch`` at least :data:`SCRATCH` long."""
    return pattern_value(me, opp, weights, scratch)


def bindings() -> dict:
    """The constants the compiled evaluation is specialised with."""
    from gamesearch.kernels.bits import bit_intrinsics

    squares, lengths, offsets, _, size = layout()
    count = np.zeros(64, np.int64)
    instance = np.zeros((64, 16), np.int64)
    power = np.zeros((64, 16), np.float64)
    for i, n in enumerate(lengths):
        for k in range(n):
            sq = squares[i, k]
            instance[sq, count[sq]] = i
            power[sq, count[sq]] = 3.0 ** (n - 1 - k)  # the first square: most significant
            count[sq] += 1
    return {"SQ_COUNT": count, "SQ_INSTANCE": instance, "SQ_POWER": power,
            "P_OFFSETS": offsets.astype(np.float64), "N_INSTANCES": len(lengths),
            "P_SIZE": size, "N_STAGES_C": N_STAGES, "STAGE_WIDTH_C": STAGE_WIDTH,
            "ONE64": np.uint64(1), "CLZ": bit_intrinsics()[1]}


@functools.cache
def compiled():
    """:func:`pattern_value` compiled alone (for tests and for the fit's checks)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    tag = source_tag(pattern_value, ("patterns", repr(PATTERNS)))
    return specialize((pattern_value,), bindings(), f"othello_patterns_{tag}")


def load(path: Path | None = None) -> np.ndarray:
    """The evaluation's tables (stages x columns, float64, expanded) from a weights file."""
    from gamesearch.errors import GameSearchError

    path = path or WEIGHTS_FILE
    if not path.exists():
        raise GameSearchError(
            f"no pattern weights at {path}: build them with `python bench/othello_patterns.py"
            " selfplay ...` then `fit --ship` (docs/BENCHMARKS.md, issue #41)")
    with np.load(path) as data:
        if "kind" not in data or str(data["kind"]) != KIND:
            raise GameSearchError(f"{path.name} is not an Othello pattern weights file")
        weights = data["weights"].astype(np.float64) * float(data["scale"])
    if weights.shape != (N_STAGES, n_columns()):
        raise GameSearchError(f"{path.name} holds tables of shape {weights.shape}, not "
                              f"{(N_STAGES, n_columns())}: refit with this version")
    return expand(weights)
