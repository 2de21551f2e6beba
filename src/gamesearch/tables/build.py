"""The durable build of an endgame database: every slice in order, each computed by the
compiled sweep, written with its checksum, recorded in the manifest; a killed build
resumes at the first slice the manifest lacks, and loads (and checks) the ones it has.

What a game provides is a :class:`TableSpec` (the catalog makes checkers' one): the
slices in build order, where each sits in one array of slots, the compiled sweep bound to
the game's kernel and indexing, and the largest move buffer the kernel needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import StopRequest, hold_folder_lock, output_folder
from gamesearch.errors import GameSearchError
from gamesearch.tables import store
from gamesearch.tables.levels import TOO_LONG
from gamesearch.tables.sweep import DRAW, LOSS, MAX_DISTANCE, NO_POSITION_DISTANCE, WIN

Progress = Callable[[str, int, int], None]

LINK_SLOT_BYTES = 21
"""Bytes the level solve holds for each slot of the slice it solves, besides its value and
distance: the move counts, schedule, longest win outside, the flag, where its list of
predecessors starts, and its place in a level's frontier."""
LINK_MOVE_BYTES = 4
"""Bytes for each move into the slice (one entry of a list of predecessors)."""


def solve_bytes(largest_slice: int, moves_in_per_slot: float) -> int:
    """Memory the level solve holds at most besides every slot's value and distance: the
    largest slice's counts and lists of predecessors (``moves_in_per_slot``: the moves
    into a slice per slot, as the manifests record them)."""
    return int(largest_slice * (LINK_SLOT_BYTES + LINK_MOVE_BYTES * moves_in_per_slot))


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
                 method: str = "levels", parents: bool = False
                 ) -> tuple[BuildReport, np.ndarray, np.ndarray]:
    """Build (or resume) ``spec``'s tables in ``folder`` (made when missing; its parents
    too only with ``parents``); returns the report and the values and distances of every
    slot. ``method`` is "levels" (tables/levels.py: each
    position's moves generated twice) or "passes" (tables/sweep.py: once a pass, the
    reference)."""
    if method not in SOLVERS:
        raise GameSearchError(f"tables: method is one of {', '.join(SOLVERS)}, not "
                              f"{method!r}")
    folder = output_folder(Path(folder), "tables folder", parents=parents)
    lock = hold_folder_lock(folder, "tables folder")
    try:
        return _build(spec, folder, progress, SOLVERS[method])
    finally:
        import os

        os.close(lock)


def _build(spec: TableSpec, folder: Path, progress: Progress | None,
           solve: Callable[..., dict[str, int] | None]):
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
                info = solve(spec, values, dist, name, lo, n, buf, progress, number, stop)
                if info is None:  # Ctrl-C between two steps: this slice is redone
                    report.interrupted = True
                    break
                info["seconds"] = round(time.perf_counter() - slice_began, 3)
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


CHUNK = 1 << 18
"""Slots linked per compiled call: the unit of progress and of a stop request."""


def _solve_slice(spec: TableSpec, values: np.ndarray, dist: np.ndarray, name: str, lo: int,
                 n: int, buf: np.ndarray, progress: Progress | None,
                 number: int, stop: StopRequest) -> dict[str, int] | None:
    """Mark the ends, link the slice backwards (every move into it, as lists of
    predecessors) and decide it level by level (tables/levels.py); the number of levels
    and of moves into the slice (for the manifest), or None when asked to stop (the slice
    is left unfinished, and redone)."""
    sid = spec.slice_ids[name]
    code = spec.code
    hi = lo + n
    code.mark_ends(values, dist, spec.meta, sid, lo, hi, buf)
    inside = np.zeros(n, np.int16)
    npred = np.zeros(n, np.int32)
    sched = np.zeros(n, np.uint8)
    out_win = np.zeros(n, np.uint8)
    blocked = np.zeros(n, np.uint8)

    def abandon() -> None:
        values[lo:hi] = 0
        dist[lo:hi] = 0

    def chunks(step: str) -> Iterator[tuple[int, int]]:
        for a in range(lo, hi, CHUNK):
            yield a, min(a + CHUNK, hi)
            if progress is not None:
                progress(f"slice {name} {step} {min(a + CHUNK, hi) - lo:,}/{n:,}", number,
                         len(spec.slices))

    for a, b in chunks("moves out"):
        missing, too_long = code.link_out(values, dist, spec.meta, sid, lo, hi, a, b, buf,
                                          inside, npred, sched, out_win, blocked)
        if missing:
            raise GameSearchError(f"{spec.game} tables: slice {name} reaches positions of "
                                  "a slice not built yet (the build order is wrong)")
        if too_long:
            raise _too_long(spec, name)
        if stop.requested:
            abandon()
            return None
    start = np.zeros(n + 1, np.int64)
    np.cumsum(npred, out=start[1:])
    pred = np.empty(int(start[-1]), np.int32)
    npred[:] = 0
    for a, b in chunks("moves in"):
        code.link_in(values, spec.meta, sid, lo, a, b, buf, start, npred, pred)
        if stop.requested:
            abandon()
            return None
    del npred
    latest = code.seed_losses(values, lo, hi, inside, sched, out_win, blocked)
    frontier = np.empty(n, np.int32)
    level = 0
    while True:
        if latest == TOO_LONG:
            raise _too_long(spec, name)
        scheduled = code.decide_level(values, dist, lo, hi, level, start, pred, inside,
                                      sched, out_win, blocked, frontier)
        if scheduled == TOO_LONG:
            raise _too_long(spec, name)
        latest = max(latest, scheduled)
        if progress is not None:
            progress(f"slice {name} level {level}", number, len(spec.slices))
        if stop.requested:
            abandon()
            return None
        if level >= latest:
            break
        level += 1
    code.settle(values, lo, hi)
    return {"levels": level + 1, "moves_in": len(pred)}


def _sweep_slice(spec: TableSpec, values: np.ndarray, dist: np.ndarray, name: str, lo: int,
                 n: int, buf: np.ndarray, progress: Progress | None,
                 number: int, stop: StopRequest) -> dict[str, int] | None:
    """The forward passes of retrograde.py, the reference the level method is tested
    against (``method="passes"``). Mark the ends, then sweep until a pass decides nothing
    and every distance the slice's positions reach in other slices has been seen (a move
    to a loss in 30 decides nothing before pass 31); the number of passes, or None when
    asked to stop (the slice is left unfinished)."""
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
    return {"passes": k}


def _too_long(spec: TableSpec, name: str) -> GameSearchError:
    return GameSearchError(f"{spec.game} tables: slice {name} has a distance over "
                           f"{MAX_DISTANCE} plies (distances are one byte)")


SOLVERS = {"levels": _solve_slice, "passes": _sweep_slice}
