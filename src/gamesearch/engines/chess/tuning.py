"""The chess search's tunable settings (pruning margins, reductions): their names, ranges
and defaults, and where they ride in the compiled search's ``info`` array.

A light module (no compiled code): the UCI dialogue and the ``chess-engine:`` spec check
values here without loading the search. The engine writes the settings into every worker's
``info`` before each iteration (``write_tuning``), so one compiled search serves every
setting and a fixed-node match can set one against the same build's defaults
(docs/BENCHMARKS.md, "Issue 42: search tuning at a fixed node budget").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the module stays light: `gamesearch games` imports it, not numpy
    import numpy as np

RFP_MARGIN, FUTILITY_BASE, FUTILITY_STEP, NULL_BASE, NULL_DIVISOR, LMP_BASE, LMR_BASE, \
    LMR_DIVISOR = range(8, 16)
INFO_SIZE = 16
TUNING = {
    "rfp_margin": (RFP_MARGIN, 80, 0, 1000),
    "futility_base": (FUTILITY_BASE, 50, 0, 2000),
    "futility_step": (FUTILITY_STEP, 100, 0, 2000),
    "null_base": (NULL_BASE, 2, 1, 6),
    "null_divisor": (NULL_DIVISOR, 4, 1, 16),
    "lmp_base": (LMP_BASE, 3, 1, 64),
    "lmr_base": (LMR_BASE, 75, -200, 400),
    "lmr_divisor": (LMR_DIVISOR, 0, 0, 1000),
}
"""The search's tunable settings: name -> (index in ``info``, default, least, greatest).
Reverse futility returns at a non-PV node of depth <= 6 whose static value is ``rfp_margin`` cp a
ply above beta; futility skips a quiet move at depth 1-3 where the static value plus
``futility_base + futility_step * depth`` cannot reach alpha; the null move is searched
``null_base + depth // null_divisor`` plies shallower; late-move pruning skips the quiet
moves after the first ``lmp_base + depth * depth`` at depth <= 4; late-move reductions
reduce a late quiet move by ``1 + (moves > 8) + depth // 8`` plies where ``lmr_divisor`` is 0
(the default), else by ``lmr_base / 100 + ln(depth) ln(moves) * 100 / lmr_divisor``
(rounded down; a ply less at PV nodes, never below 0). The defaults are the search as it
was measured before these became settings (node for node)."""


def default_tuning() -> dict[str, int]:
    """The search settings' defaults (``TUNING``)."""
    return {name: spec[1] for name, spec in TUNING.items()}


def check_tuning(name: str, value: int, label: str | None = None) -> None:
    """Raise ValueError with one line where ``name`` is no setting or ``value`` is out of its
    range (``TUNING``); ``label`` names the setting in that line (UCI: ``LmrDivisor``)."""
    if name not in TUNING:
        raise ValueError(f"unknown search setting {name!r} (known: {', '.join(TUNING)})")
    _, _, low, high = TUNING[name]
    if not low <= value <= high:
        raise ValueError(f"{label or 'search setting ' + name} must be {low}..{high}, "
                         f"got {value}")


def write_tuning(info: np.ndarray, tuning: dict[str, int]) -> None:
    """Put the settings into a worker's ``info`` array (unnamed ones at their defaults)."""
    for name, (index, default, _, _) in TUNING.items():
        info[index] = tuning.get(name, default)


def uci_name(name: str) -> str:
    """The UCI option of a setting: ``lmr_divisor`` -> ``LmrDivisor``."""
    return "".join(part.capitalize() for part in name.split("_"))


UCI_NAMES = {uci_name(name).lower(): name for name in TUNING}
"""A UCI option's name in lower case -> its setting."""
