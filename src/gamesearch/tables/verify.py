"""Check built tables against the rules at every slot, without trusting the build: a win
has a move to a loss one ply shorter and none shorter, a loss only moves to wins (the
longest one ply shorter), a draw has a move to a draw and none to a loss. The files'
checksums say the bytes are the ones written; this says the values are right.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.tables import store
from gamesearch.tables.build import Progress, TableSpec


@dataclass
class VerifyReport:
    """What was checked, and the first slot that breaks the rules (None: none does)."""

    slots: int
    seconds: float
    bad: tuple[str, int] | None = None


def verify_tables(spec: TableSpec, folder: Path, progress: Progress | None = None,
                  ) -> VerifyReport:
    """Load every slice of ``spec`` from ``folder`` (checksums checked) and verify each
    slot; GameSearchError when a slice is missing."""
    if not Path(folder).is_dir():
        raise GameSearchError(f"no tables folder {str(folder)!r}; build one with 'tables "
                              "build'")
    manifest = store.read_manifest(Path(folder), spec.game)
    missing = [name for name in spec.slices if name not in manifest["slices"]]
    if missing:
        raise GameSearchError(f"{str(folder)!r} lacks {len(missing)} of {len(spec.slices)} "
                              f"slices (first: {missing[0]}); run 'tables build' to finish")
    values = np.zeros(spec.total_slots, np.uint8)
    dist = np.zeros(spec.total_slots, np.uint8)
    for name in spec.slices:  # children may sit in any earlier slice: load all first
        lo, n = spec.where[name]
        packed, d = store.load_slice(Path(folder), name, manifest)
        values[lo:lo + n] = store.unpack(packed, n)
        dist[lo:lo + n] = d
    began = time.perf_counter()
    buf = np.zeros(spec.max_actions, np.int64)
    for number, name in enumerate(spec.slices):
        lo, n = spec.where[name]
        bad = spec.code.verify(values, dist, spec.meta, spec.slice_ids[name], lo, lo + n, buf)
        if bad != -1:
            return VerifyReport(spec.total_slots, time.perf_counter() - began,
                                (name, int(bad) - lo))
        if progress is not None:
            progress(f"verifying {spec.game} tables", number + 1, len(spec.slices))
    return VerifyReport(spec.total_slots, time.perf_counter() - began)
