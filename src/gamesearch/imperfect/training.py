"""A CFR training run that writes as it goes: the engine behind ``gamesearch train cfr``.

Everything a resume needs (the regret and strategy sums, the iteration count and the
exploitability curve) lives in one checkpoint file, written atomically every
``checkpoint_every`` seconds and at the end, so kill -9 at any moment loses at most that
much work and a resume continues with the exact iteration count. Iterations run in short
compiled slices so that a stop request (Ctrl-C) is honoured within a fraction of a second.
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamesearch.durable import (
    OutputFileError,
    atomic_write,
    atomic_writer,
    hold_folder_lock,
    remove_stale_temps,
)
from gamesearch.errors import GameSearchError
from gamesearch.game import Game
from gamesearch.imperfect.best_response import expected_value, exploitability
from gamesearch.imperfect.cfr import CFRSolver, is_checkpoint
from gamesearch.imperfect.plot import plot_exploitability

FILES = {"checkpoint": "checkpoint.npz", "curve": "curve.csv", "strategy": "strategy.json",
         "plot": "exploitability.png"}
"""The files of a training folder, by role."""
SLICE_SECONDS = 0.2
"""How long one compiled slice of iterations should take (the stop-request latency)."""


class CFRTraining:
    """CFR iterations in chunks, the exploitability after each, and the files in ``folder``.

    ``checkpoint.npz`` (sums, iteration count and curve), ``curve.csv`` (iterations,
    exploitability), ``strategy.json`` (the average strategy) and ``exploitability.png``.
    A folder holding files of those names that are not ours is refused unless ``force``;
    so is a folder with a checkpoint when neither ``resume`` nor ``force`` is given, and
    a folder that another running training holds (locked until :meth:`finish`).
    """

    def __init__(self, game: Game, folder: str | Path, plus: bool = False,
                 resume: bool = False, force: bool = False,
                 checkpoint_every: float = 60.0) -> None:
        self.folder = prepare_folder(Path(folder), resume, force)
        self._lock: int | None = hold_folder_lock(self.folder, "training folder")
        try:
            for name in FILES.values():
                remove_stale_temps(self.folder / name)
            self.solver = CFRSolver(game, plus=plus)
            self.curve: list[tuple[int, float]] = []
            self.checkpoint_every = checkpoint_every
            if resume and self.checkpoint.exists():
                extra = self.solver.load(self.checkpoint)
                self.curve = _curve_from(extra.get("curve"), self.checkpoint)
            if not self.curve:
                self.curve = [(self.solver.iterations, self.exploitability())]
        except BaseException:
            self.close()
            raise
        self.saved_at = time.monotonic()
        self._per_iteration = 0.0

    def close(self) -> None:
        """Release the folder for other runs (``finish`` does it too)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    @property
    def checkpoint(self) -> Path:
        return self.folder / FILES["checkpoint"]

    def exploitability(self) -> float:
        return exploitability(self.solver.tree, self.solver.average())

    def value(self) -> float:
        """The first player's expected value under the average strategy."""
        return expected_value(self.solver.tree, self.solver.average())

    def step(self, iterations: int, stop: Callable[[], bool] | None = None) -> float | None:
        """Run some iterations in short slices, checkpointing when one is due; record and
        return the exploitability, or None when ``stop()`` cut the chunk short."""
        target = self.solver.iterations + iterations
        while True:
            if stop is not None and stop():
                return None
            self._run_slice(target - self.solver.iterations)
            done = self.solver.iterations >= target
            if done:  # the curve point goes into the checkpoint with the sums it belongs to
                expl = self.exploitability()
                self.curve.append((self.solver.iterations, expl))
            if time.monotonic() - self.saved_at >= self.checkpoint_every:
                self.save_checkpoint()
            if done:
                return expl

    def _run_slice(self, most: int) -> None:
        """At most ``most`` iterations, as many as fit in about SLICE_SECONDS."""
        if self._per_iteration <= 0:  # the first slice measures the speed
            n = min(most, 10)
        else:
            n = max(1, min(most, int(SLICE_SECONDS / self._per_iteration)))
        began = time.perf_counter()
        self.solver.run(n)
        self._per_iteration = max((time.perf_counter() - began) / n, 1e-9)

    def save_checkpoint(self) -> None:
        """Write the checkpoint atomically (the previous one stays until this one is whole)."""
        self.solver.save(self.checkpoint, curve=np.array(self.curve, dtype=float).reshape(-1, 2))
        self.saved_at = time.monotonic()

    def finish(self) -> dict[str, Path]:
        """Write every file, each atomically; safe to call after an interruption."""
        if self.curve[-1][0] != self.solver.iterations:  # stopped between curve points
            self.curve.append((self.solver.iterations, self.exploitability()))
        self.save_checkpoint()
        files = {role: self.folder / name for role, name in FILES.items()}
        text = io.StringIO(newline="")
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(["iterations", "exploitability"])
        writer.writerows(self.curve)
        atomic_write(files["curve"], text.getvalue())
        atomic_write(files["strategy"], json.dumps(self.solver.average_strategy(), indent=1))
        title = f"{self.solver.algorithm} on {self.solver.tree.game.name}"
        with atomic_writer(files["plot"]) as handle:
            plot_exploitability(self.curve, handle, title)
        self.close()
        return files


def prepare_folder(folder: Path, resume: bool, force: bool) -> Path:
    """The training folder, created if missing; refuse to clobber what is not ours."""
    if folder.exists() and not folder.is_dir():
        raise OutputFileError(f"--out {str(folder)!r} is a file; training writes a folder")
    if not folder.exists():
        parent = folder.parent if str(folder.parent) else Path(".")
        if not parent.is_dir():
            raise OutputFileError(f"cannot create {str(folder)!r}: folder {str(parent)!r} "
                                  "does not exist")
        folder.mkdir()
        return folder
    checkpoint = folder / FILES["checkpoint"]
    if force:
        return folder
    if checkpoint.exists():
        if resume:
            return folder  # loading it names what is wrong with it, if anything
        if not is_checkpoint(checkpoint):
            raise OutputFileError(f"{str(checkpoint)!r} exists and is not a gamesearch CFR "
                                  "checkpoint; choose another --out or add --force")
        raise OutputFileError(f"{str(folder)!r} holds a training run already; add --resume "
                              "to continue it or --force to start over")
    theirs = [name for name in FILES.values() if (folder / name).exists()]
    if theirs:
        raise OutputFileError(f"{str(folder)!r} has {', '.join(theirs)} but no gamesearch "
                              "checkpoint; choose another --out or add --force to overwrite")
    return folder


def _curve_from(array: np.ndarray | None, path: Path) -> list[tuple[int, float]]:
    """The curve saved in a checkpoint ([] for checkpoints from before it was saved there)."""
    if array is None:
        return read_curve(path.parent / FILES["curve"])
    if array.ndim != 2 or array.shape[1] != 2:
        raise GameSearchError(f"checkpoint {str(path)!r}: the curve has the wrong shape")
    return [(int(t), float(e)) for t, e in array]


def read_curve(path: Path) -> list[tuple[int, float]]:
    """The (iterations, exploitability) rows of a curve.csv, or [] if there is none."""
    if not path.exists():
        return []
    from gamesearch.textinput import read_input

    try:
        text = read_input(path, "curve file").decode("utf-8")  # regular files only
        rows = list(csv.reader(io.StringIO(text, newline="")))[1:]
        return [(int(t), float(e)) for t, e in rows]
    except (ValueError, UnicodeDecodeError):
        raise GameSearchError(f"{str(path)!r}: not a curve file (iterations,exploitability)"
                              ) from None
