"""The durable build of an endgame database: every slice in order, each computed by the
compiled sweep, written with its checksum, recorded in the manifest; a killed build
resumes at the first slice the manifest lacks, and loads (and checks) the ones it has.

What a game provides is a :class:`TableSpec` (the catalog makes checkers' one): the
slices in build order, where each sits in one array of slots, the compiled sweep bound to
the game's kernel and indexing, and the largest move buffer the kernel needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import OutputFileError, StopRequest, hold_folder_lock
from gamesearch.errors import GameSearchError
from gamesearch.tables import store
from gamesearch.tables.sweep import DRAW, LOSS, MAX_DISTANCE, NO_POSITION_DISTANCE, WIN

Progress = Callable[[str, int, int], None]


@dataclass
class TableSpec:
    """A game's tables: slices (names) in build order and the compiled pieces to build
    them."""

    game: str
    slices: list[str]
    where: dict[str, tuple[int, int]]
    """Each slice's first slot and slot count in the one array of all slots."""
    meta: tuple
    """The arrays the game's ``state_at`` / ``locate`` read."""
    code: Any
    """The sweep templates compiled for the game (``mark_ends``, ``sweep``, ``settle``)."""
    max_actions: int
    slice_ids: dict[str, int]
    """Each slice's number in the game's indexing (what ``state_at`` takes)."""
    total_slots: int = field(init=False)

    def __post_init__(self) -> None:
        self.total_slots = max((lo + n for lo, n in self.where.values()), default=0)


@dataclass
class BuildReport:
    built: list[str] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: {"win": 0, "loss": 0, "draw": 0})
    interrupted: bool = False


def build_tables(spec: TableSpec, folder: Path, progress: Progress | None = None,
                 ) -> tuple[BuildReport, np.ndarray, np.ndarray]:
    """Build (or resume) ``spec``'s tables in ``folder``; returns the report and the
    values and distances of every slot."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputFileError(f"{str(folder)!r} is a file, not a folder for tables")
    folder.mkdir(parents=True, exist_ok=True)
    lock = hold_folder_lock(folder, "tables folder")
    try:
        return _build(spec, folder, progress)
    finally:
        import os

        os.close(lock)


def _build(spec: TableSpec, folder: Path, progress: Progress | None):
    manifest = store.read_manifest(folder, spec.game)
    values = np.zeros(spec.total_slots, np.uint8)
    dist = np.zeros(spec.total_slots, np.uint8)
    report = BuildReport()
    began = time.perf_counter()
    buf = np.zeros(spec.max_actions, np.int64)
    with StopRequest() as stop:
        for number, name in enumerate(spec.slices):
            lo, n = spec.where[name]
            if name in manifest["slices"]:
                packed, d = store.load_slice(folder, name, manifest)
                values[lo:lo + n] = store.unpack(packed, n)
                dist[lo:lo + n] = d
                report.loaded.append(name)
            else:
                if stop.requested:
                    report.interrupted = True
                    break
                slice_began = time.perf_counter()
                passes = _solve_slice(spec, values, dist, name, lo, n, buf, progress,
                                      number, stop)
                if passes is None:  # Ctrl-C between two passes: this slice is redone
                    report.interrupted = True
                    break
                info = {"passes": passes, "seconds": round(time.perf_counter()
                                                           - slice_began, 3)}
                store.save_slice(folder, name, values[lo:lo + n], dist[lo:lo + n],
                                 manifest, info)
                report.built.append(name)
            if progress is not None:
                progress(f"{spec.game} tables", number + 1, len(spec.slices))
    real = dist != NO_POSITION_DISTANCE  # slots of an index that hold no position
    for label, code in (("win", WIN), ("loss", LOSS), ("draw", DRAW)):
        report.counts[label] = int(np.count_nonzero((values == code) & real))
    report.seconds = time.perf_counter() - began
    return report, values, dist


def _solve_slice(spec: TableSpec, values: np.ndarray, dist: np.ndarray, name: str, lo: int,
                 n: int, buf: np.ndarray, progress: Progress | None,
                 number: int, stop: StopRequest) -> int | None:
    """Mark the ends, then sweep until a pass decides nothing and every distance the
    slice's positions reach in other slices has been seen (a move to a loss in 30 decides
    nothing before pass 31); the number of passes, or None when asked to stop (the slice
    is left unfinished)."""
    sid = spec.slice_ids[name]
    code = spec.code
    code.mark_ends(values, dist, spec.meta, sid, lo, lo + n, buf)
    k = 0
    known = 0  # the longest distance met so far, in this slice or the ones it reaches
    while True:
        k += 1
        if k > MAX_DISTANCE:
            raise GameSearchError(f"{spec.game} tables: slice {name} needs more than "
                                  f"{MAX_DISTANCE} passes (distances are one byte)")
        decided, missing, reach = code.sweep(values, dist, spec.meta, sid, lo, lo + n, k,
                                             buf)
        known = max(known, reach)
        if missing:
            raise GameSearchError(f"{spec.game} tables: slice {name} reaches positions of "
                                  "a slice not built yet (the build order is wrong)")
        if decided:
            known = max(known, k)
        if progress is not None:
            progress(f"slice {name} pass {k}", number, len(spec.slices))
        if stop.requested:
            values[lo:lo + n] = 0
            return None
        if not decided and k - 1 >= known:
            break
    code.settle(values, lo, lo + n)
    return k
