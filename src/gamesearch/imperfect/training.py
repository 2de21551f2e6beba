"""A CFR training run that writes as it goes: the engine behind ``gamesearch train cfr``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from gamesearch.game import Game
from gamesearch.imperfect.best_response import expected_value, exploitability
from gamesearch.imperfect.cfr import CFRSolver
from gamesearch.imperfect.plot import plot_exploitability


class CFRTraining:
    """CFR iterations in chunks, the exploitability after each, and the files in ``folder``.

    ``checkpoint.npz`` (the regret and strategy sums), ``curve.csv`` (iterations,
    exploitability), ``strategy.json`` (the average strategy) and ``exploitability.png``.
    """

    def __init__(self, game: Game, folder: str | Path, plus: bool = False,
                 resume: bool = False) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.solver = CFRSolver(game, plus=plus)
        self.curve: list[tuple[int, float]] = []
        if resume and self.checkpoint.exists():
            self.solver.load(self.checkpoint)
            self.curve = read_curve(self.folder / "curve.csv")
        if not self.curve:
            self.curve = [(self.solver.iterations, self.exploitability())]

    @property
    def checkpoint(self) -> Path:
        return self.folder / "checkpoint.npz"

    def exploitability(self) -> float:
        return exploitability(self.solver.tree, self.solver.average())

    def value(self) -> float:
        """The first player's expected value under the average strategy."""
        return expected_value(self.solver.tree, self.solver.average())

    def step(self, iterations: int) -> float:
        """Run some iterations, record and return the exploitability."""
        self.solver.run(iterations)
        expl = self.exploitability()
        self.curve.append((self.solver.iterations, expl))
        return expl

    def finish(self) -> dict[str, Path]:
        """Write every file; safe to call after an interruption."""
        self.solver.save(self.checkpoint)
        files = {"checkpoint": self.checkpoint, "curve": self.folder / "curve.csv",
                 "strategy": self.folder / "strategy.json",
                 "plot": self.folder / "exploitability.png"}
        with open(files["curve"], "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["iterations", "exploitability"])
            writer.writerows(self.curve)
        files["strategy"].write_text(json.dumps(self.solver.average_strategy(), indent=1))
        title = f"{self.solver.algorithm} on {self.solver.tree.game.name}"
        plot_exploitability(self.curve, files["plot"], title)
        return files


def read_curve(path: Path) -> list[tuple[int, float]]:
    """The (iterations, exploitability) rows of a curve.csv, or [] if there is none."""
    if not path.exists():
        return []
    with open(path) as handle:
        rows = list(csv.reader(handle))[1:]
    return [(int(t), float(e)) for t, e in rows]
