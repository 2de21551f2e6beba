"""Training TD-Gammon by self-play: a resumable long job (``gamesearch train td backgammon``).

Each game is played greedily by the network against itself; after every play the
prediction made after the previous play moves towards the new one by TD(lambda)
(:class:`gamesearch.learn.td.TDLambda`), the last towards the outcome. Predictions are kept
from the side of the game's first mover (``1 - v`` for the other side's positions).

Game ``k`` draws its dice from a generator seeded by ``(seed, k)`` and the traces are reset
between games, so a checkpoint taken between games (the weights, the counters, the curve)
resumes exactly: the run killed and resumed makes the same weights as the run never
stopped. Every ``eval_every`` games the network plays ``eval_games`` games against pubeval
(a point of the learning curve, logged as one JSON line).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamesearch.catalog.backgammon_td import (
    CHECKPOINT_KIND,
    INPUTS,
    MatchGame,
    NetChooser,
    PubevalChooser,
    _kernel,
    encode,
    mirror,
    start_board,
)
from gamesearch.durable import hold_folder_lock
from gamesearch.errors import GameSearchError
from gamesearch.learn.checkpoint import (
    checkpoint_is_ours,
    load_checkpoint,
    open_log,
    save_checkpoint,
    sync_log,
)
from gamesearch.learn.network import ValueNetwork
from gamesearch.learn.selfplay import Score, play_games
from gamesearch.learn.td import TDLambda


def train_game(td: TDLambda, rng: np.random.Generator, work: np.ndarray,
               dies: np.ndarray) -> int:
    """One game of greedy self-play with TD(lambda) updates; returns the number of plays."""
    generate = _kernel().generate
    net = td.net
    td.reset()
    my, opp = start_board()
    while True:
        d1, d2 = rng.integers(1, 7, size=2)
        if d1 != d2:
            break
    first = mover = 0 if d1 > d2 else 1
    previous: tuple[np.ndarray, bool] | None = None
    for plays in range(1, 10_001):
        n = generate(my, opp, max(d1, d2), min(d1, d2), work, dies)
        rows = work[:n]
        x = encode(rows)
        values = net.values(x)
        done = rows[:, 0] == 15
        values[done] = 1.0
        i = int(np.argmax(values))
        flip = mover != first
        # the next prediction, from the first mover's side (the outcome when the game ends:
        # a finished play's value is 1 for the player who made it)
        target = 1.0 - values[i] if flip else values[i]
        if previous is not None:
            td.step(previous[0], target, flip=previous[1])
        if done[i]:
            return plays
        previous = (x[i].copy(), flip)
        my, opp = mirror(rows[i])
        mover = 1 - mover
        d1, d2 = rng.integers(1, 7, size=2)
    raise GameSearchError("a self-play game did not end in 10,000 plays")


class TDGammonTraining:
    """A training run in ``folder``: ``checkpoint.npz``, ``log.jsonl`` (and the CLI's
    ``curve.png``). ``resume`` continues the checkpoint there (settings come from it)."""

    def __init__(self, folder: str | Path, hidden: int = 40, alpha: float = 0.1,
                 lam: float = 0.7, seed: int = 0, eval_every: int = 1000,
                 eval_games: int = 200, resume: bool = False, force: bool = False,
                 checkpoint_every: float = 60.0) -> None:
        self.folder = Path(folder)
        self.checkpoint = self.folder / "checkpoint.npz"
        self.checkpoint_every = checkpoint_every
        self.games, self.plays, self.seconds = 0, 0, 0.0
        self.curve: list[dict] = []
        if self.folder.exists() and not self.folder.is_dir():
            raise GameSearchError(f"{str(self.folder)!r} is a file, not a folder")
        if not self.folder.exists() and not resume:
            if not self.folder.parent.is_dir():
                raise GameSearchError(f"cannot make {str(self.folder)!r}: its parent folder "
                                      "does not exist")
            self.folder.mkdir()
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, CHECKPOINT_KIND)
            self.net = ValueNetwork.from_arrays(arrays)
            self.settings = meta["settings"]
            self.games, self.plays = meta["games"], meta["plays"]
            self.seconds, self.curve = meta["seconds"], meta["curve"]
        else:
            if self.checkpoint.exists() and not force and not checkpoint_is_ours(
                    self.checkpoint, CHECKPOINT_KIND):
                raise GameSearchError(f"{str(self.checkpoint)!r} exists and is not a "
                                      "TD-Gammon checkpoint; choose another --out")
            if self.checkpoint.exists() and not force:
                raise GameSearchError(f"{str(self.folder)!r} holds a run already: add "
                                      "--resume to continue it or --force to start afresh")
            for name, value in (("hidden", hidden), ("eval-every", eval_every),
                                ("eval-games", eval_games)):
                if value < 1:
                    raise GameSearchError(f"--{name} must be at least 1, got {value}")
            self.settings = {"hidden": hidden, "alpha": alpha, "lam": lam, "seed": seed,
                             "eval_every": eval_every, "eval_games": eval_games}
            self.net = ValueNetwork(INPUTS, hidden, seed=seed)
        self.td = TDLambda(self.net, self.settings["alpha"], self.settings["lam"])
        self._lock: int | None = hold_folder_lock(self.folder, "training folder")
        self.log = open_log(self.folder / "log.jsonl", "td-gammon log", force=force and not resume)
        sync_log(self.log, self.curve)
        kernel = _kernel()
        self._work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
        self._dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)

    def evaluate(self, games: int | None = None, executor_map=map) -> Score:
        """The network (0-ply) against pubeval over ``games`` seeded games."""
        games = games or self.settings["eval_games"]
        match = MatchGame(NetChooser(self.net.copy()), PubevalChooser(),
                          seed=self.settings["seed"] + 7919)
        points = play_games(match, range(games), executor_map)
        return Score(games, sum(p > 0 for p in points), float(sum(points)))

    def run(self, target_games: int, stop: Callable[[], bool] = lambda: False,
            progress: Callable[[TDGammonTraining], None] | None = None) -> None:
        """Train until ``target_games`` games are done (or ``stop()``), checkpointing every
        ``checkpoint_every`` seconds and after each evaluation."""
        every = self.settings["eval_every"]
        last_save = time.monotonic()
        while self.games < target_games and not stop():
            began = time.monotonic()
            rng = np.random.default_rng([self.settings["seed"], self.games])
            self.plays += train_game(self.td, rng, self._work, self._dies)
            self.games += 1
            self.seconds += time.monotonic() - began
            if self.games % every == 0:
                score = self.evaluate()
                lo, hi = score.interval()
                self.curve.append({"games": self.games, "seconds": round(self.seconds, 1),
                                   "vs_pubeval": score.rate, "ci_low": lo, "ci_high": hi,
                                   "eval_games": score.games,
                                   "points_per_game": score.points / score.games})
                self.save()
                last_save = time.monotonic()
            elif time.monotonic() - last_save >= self.checkpoint_every:
                self.save()
                last_save = time.monotonic()
            if progress is not None:
                progress(self)
        self.save()

    def save(self) -> None:
        """Write the checkpoint atomically, then the log lines it adds."""
        meta = {"settings": self.settings, "games": self.games, "plays": self.plays,
                "seconds": self.seconds, "curve": self.curve}
        save_checkpoint(self.checkpoint, CHECKPOINT_KIND, self.net.arrays(), meta)
        sync_log(self.log, self.curve)

    def close(self) -> None:
        """Release the files."""
        self.log.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
