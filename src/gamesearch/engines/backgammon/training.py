"""Training TD-Gammon by self-play: a resumable long job (``gamesearch train td backgammon``).

Each game is played greedily by the network against itself; after every play the
prediction made after the previous play moves towards the new one by TD(lambda)
(:class:`gamesearch.learn.td.TDLambda`), the last towards the outcome. Predictions are kept
from the side of the game's first mover (``1 - v`` for the other side's positions).

Games are played by the compiled kernel (:func:`compiled_train_game`); :func:`train_game`
is its readable numpy specification. The learning rate may decay with the games played
(:func:`scheduled_alpha`), and the network may read Tesauro's encoding or the richer one
(``encoding``, a setting of the run, kept in the checkpoint).

Game ``k`` draws its dice from a generator seeded by ``(seed, k)`` and the traces are reset
between games, so a checkpoint taken between games (the weights, the counters, the curve)
resumes exactly: the run killed and resumed makes the same weights as the run never
stopped. Every ``eval_every`` games the network plays ``eval_games`` games against pubeval
(a point of the learning curve, logged as one JSON line). With ``keep_every`` the weights
are also kept every that many games (``snapshots/games-N.npz``): the curve's points are
too noisy to pick a network by, so snapshots are compared afterwards with more games.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamesearch.durable import hold_folder_lock, output_folder
from gamesearch.engines.backgammon.td import (
    CHECKPOINT_KIND,
    ENCODINGS,
    MatchGame,
    NetChooser,
    PubevalChooser,
    _kernel,
    _td_kernel,
    encode,
    mirror,
    start_board,
)
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

MAX_PLAYS_PER_GAME = 10_000
SHORT_GAME = 256  # plays whose dice are drawn up front; longer games draw the rest
OPENING_ROLLS = np.array([[a, b] for a in range(1, 7) for b in range(1, 7) if a != b],
                         dtype=np.int64)


def game_dice(rng: np.random.Generator, long: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A game's dice: the opening roll (two different dice, uniform over the 30) and the
    rolls after it, one row per play: the first ``SHORT_GAME`` rows, then (``long``) the
    rest up to the longest game allowed, drawn in that order. Drawing the short part alone
    saves time: almost every game ends within it."""
    first = OPENING_ROLLS[rng.integers(0, len(OPENING_ROLLS))]
    dice = rng.integers(1, 7, size=(SHORT_GAME, 2))
    if long:
        rest = rng.integers(1, 7, size=(MAX_PLAYS_PER_GAME - SHORT_GAME, 2))
        dice = np.concatenate([dice, rest])
    return first, dice


def train_game(td: TDLambda, first: np.ndarray, dice: np.ndarray, work: np.ndarray,
               dies: np.ndarray, features: bool = False) -> int:
    """One game of greedy self-play with TD(lambda) updates; returns the number of plays.
    The readable specification of :func:`compiled_train_game` (the same numbers)."""
    generate = _kernel().generate
    net = td.net
    td.reset()
    my, opp = start_board()
    d1, d2 = first
    first_mover = mover = 0 if d1 > d2 else 1
    previous: tuple[np.ndarray, bool] | None = None
    for plays in range(1, len(dice) + 2):
        n = generate(my, opp, max(d1, d2), min(d1, d2), work, dies)
        rows = work[:n]
        x = encode(rows, features)
        values = net.values(x)
        done = rows[:, 0] == 15
        values[done] = 1.0
        i = int(np.argmax(values))
        flip = mover != first_mover
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
        if plays > len(dice):
            break
        d1, d2 = dice[plays - 1]
    raise GameSearchError(f"a self-play game did not end in {len(dice) + 1} plays")


def compiled_train_game(td: TDLambda, first: np.ndarray, dice: np.ndarray,
                        work: np.ndarray, dies: np.ndarray, features: bool = False) -> int:
    """:func:`train_game` in one call of the compiled kernel (7-9 times the games/s)."""
    td.reset()
    w1, b1, w2, b2 = td.net.params
    e1, eb1, ew2, eb2 = td.traces
    plays = _td_kernel().train_game(w1, b1, w2, b2.reshape(1), e1, eb1, ew2, eb2.reshape(1),
                                    float(td.alpha), float(td.lam), first, dice, features,
                                    work, dies)
    if plays < 0:
        raise GameSearchError(f"a self-play game did not end in {len(dice) + 1} plays")
    return plays


def scheduled_alpha(alpha: float, halflife: int, games: int) -> float:
    """The learning rate for game ``games`` (counted from 0): ``alpha / (1 + games /
    halflife)``, halved after ``halflife`` games, a third after twice as many; constant
    when ``halflife`` is 0."""
    return alpha / (1.0 + games / halflife) if halflife > 0 else alpha


def average_snapshots(paths: list[str | Path], out: str | Path) -> ValueNetwork:
    """The mean of the weights of several snapshots of one run (``--keep-every``), written
    to ``out`` as a checkpoint file and returned. Late in a run the weights wander around
    a good region with the step noise of online TD; their average (Polyak-Ruppert
    averaging) sits nearer its middle. Snapshots of different shapes or encodings are
    refused; ``out``'s meta is the last snapshot's, with ``averaged`` listing the games of
    each one."""
    if not paths:
        raise GameSearchError("give at least one snapshot to average")
    loaded = [load_checkpoint(path, CHECKPOINT_KIND) for path in paths]
    nets = [ValueNetwork.from_arrays(arrays) for arrays, _ in loaded]
    encodings = {meta.get("settings", {}).get("encoding", "tesauro") for _, meta in loaded}
    shapes = {tuple(p.shape for p in net.params) for net in nets}
    if len(shapes) > 1 or len(encodings) > 1:
        raise GameSearchError("snapshots of different networks (shapes or encodings) "
                              "cannot be averaged")
    net = nets[0].copy()
    for i, p in enumerate(net.params):
        p[...] = np.mean([other.params[i] for other in nets], axis=0)
    meta = {**loaded[-1][1], "averaged": [m.get("games") for _, m in loaded]}
    save_checkpoint(out, CHECKPOINT_KIND, net.arrays(), meta)
    return net


class TDGammonTraining:
    """A training run in ``folder``: ``checkpoint.npz``, ``log.jsonl`` (and the CLI's
    ``curve.png``). ``resume`` continues the checkpoint there (settings come from it).
    ``keep_every`` (games; 0: never) keeps snapshots of the run in ``folder/snapshots``; it
    is not a setting of the run (it changes no weight), so a resumed run may change it."""

    def __init__(self, folder: str | Path, hidden: int = 40, alpha: float = 0.1,
                 lam: float = 0.7, seed: int = 0, eval_every: int = 1000,
                 eval_games: int = 200, resume: bool = False, force: bool = False,
                 checkpoint_every: float = 60.0, alpha_halflife: int = 0,
                 encoding: str = "tesauro", keep_every: int = 0) -> None:
        if keep_every < 0:
            raise GameSearchError(f"--keep-every must be >= 0 games, got {keep_every}")
        self.folder = Path(folder)
        self.checkpoint = self.folder / "checkpoint.npz"
        self.checkpoint_every = checkpoint_every
        self.keep_every = keep_every
        self.games, self.plays, self.seconds = 0, 0, 0.0
        self.curve: list[dict] = []
        if self.folder.exists() and not self.folder.is_dir():
            raise GameSearchError(f"{str(self.folder)!r} is a file, not a folder")
        if not self.folder.exists() and not resume:
            output_folder(self.folder, "--out folder")
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, CHECKPOINT_KIND)
            self.net = ValueNetwork.from_arrays(arrays)
            # runs from before the schedule and the encoding choice: constant alpha, Tesauro's
            self.settings = {"alpha_halflife": 0, "encoding": "tesauro", **meta["settings"]}
            if self.net.inputs != ENCODINGS.get(self.settings["encoding"]):
                raise GameSearchError(f"{str(self.checkpoint)!r}: {self.net.inputs} inputs "
                                      f"do not fit the encoding {self.settings['encoding']!r}")
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
            if alpha_halflife < 0:
                raise GameSearchError(f"--alpha-halflife must be >= 0, got {alpha_halflife}")
            if encoding not in ENCODINGS:
                raise GameSearchError(f"unknown encoding {encoding!r}: choose from "
                                      f"{', '.join(ENCODINGS)}")
            self.settings = {"hidden": hidden, "alpha": alpha, "lam": lam, "seed": seed,
                             "eval_every": eval_every, "eval_games": eval_games,
                             "alpha_halflife": alpha_halflife, "encoding": encoding}
            self.net = ValueNetwork(ENCODINGS[encoding], hidden, seed=seed)
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
            self.td.alpha = scheduled_alpha(self.settings["alpha"],
                                            self.settings["alpha_halflife"], self.games)
            self.plays += self._train_one(self.games)
            self.games += 1
            self.seconds += time.monotonic() - began
            if self.keep_every and self.games % self.keep_every == 0:
                self.keep()
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

    def _train_one(self, game: int) -> int:
        """Train on game number ``game`` (its dice seeded by (seed, game)); returns its plays.
        A game that outlasts the short dice is played again, from the same weights, with
        all of them."""
        features = self.settings["encoding"] == "features"
        first, dice = game_dice(np.random.default_rng([self.settings["seed"], game]),
                                long=False)
        before = [p.copy() for p in self.net.params]
        try:
            return compiled_train_game(self.td, first, dice, self._work, self._dies, features)
        except GameSearchError:
            for p, saved in zip(self.net.params, before):
                p[...] = saved
        first, dice = game_dice(np.random.default_rng([self.settings["seed"], game]))
        return compiled_train_game(self.td, first, dice, self._work, self._dies, features)

    def _write(self, path: Path) -> None:
        """The network and the run's counters as a checkpoint file at ``path`` (atomic)."""
        meta = {"settings": self.settings, "games": self.games, "plays": self.plays,
                "seconds": self.seconds, "curve": self.curve}
        save_checkpoint(path, CHECKPOINT_KIND, self.net.arrays(), meta)

    def save(self) -> None:
        """Write the checkpoint atomically, then the log lines it adds."""
        self._write(self.checkpoint)
        sync_log(self.log, self.curve)

    def snapshot_path(self, games: int) -> Path:
        """Where :meth:`keep` puts the snapshot taken at ``games`` games."""
        return self.folder / "snapshots" / f"games-{games}.npz"

    def keep(self) -> Path:
        """Write a snapshot of the run as it is now (a checkpoint file: ``load_network``
        and the ``td-gammon:weights=`` agent read it); returns its path."""
        path = self.snapshot_path(self.games)
        path.parent.mkdir(exist_ok=True)
        self._write(path)
        return path

    def close(self) -> None:
        """Release the files."""
        self.log.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
