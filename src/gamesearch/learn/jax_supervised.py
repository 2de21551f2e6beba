"""Supervised learning of a residual policy-and-value network from a teacher's moves and
the games' results (AlphaGo's first stage; AlphaGo Zero's "supervised learning" baseline,
which also trained one network for both heads with a small weight on the value).

The examples (:class:`gamesearch.engines.go.teacher.Examples` or any with the same arrays)
are split by game: every ``holdout``-th game is held out, so that the validation figures
are on games the network never saw (positions of one game are alike). Each minibatch is
seen under one of the board's symmetries, drawn at random (``symmetries``: action maps;
the input planes move with the points). The loss is the policy's cross-entropy with the
teacher's move, plus ``value_weight`` times the value's squared error with the result,
plus L2 on the weights; Adam, with the learning rate annealed along a cosine over
``anneal`` epochs when given.

The run lives in a folder: ``checkpoint.npz`` (the weights, Adam's state and where in
which epoch the run is, written atomically every ``every`` seconds, at each epoch's end and
when stopped), ``weights.npz`` (the network in the format ``go-net`` and ``train
alphazero-jax --init-from`` read; its ``positions`` counts the training positions seen,
steps times batch), ``log.jsonl`` (an epoch a line: train and validation losses, the
policy's top-1 agreement with the teacher on held-out games) and, with ``snapshots=N``,
``snapshots/weights-NNNNN.npz`` every N epochs (the learning curve's points, read by
bench/go_net_curve.py as the self-play trainer's are). An epoch's order
and symmetries come from (seed, epoch), so a run resumed from any checkpoint ends with the
weights an unbroken run would have.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from gamesearch.durable import output_folder
from gamesearch.errors import GameSearchError
from gamesearch.learn.alphazero import CHECKPOINT_KIND as WEIGHTS_KIND
from gamesearch.learn.checkpoint import (
    load_checkpoint,
    open_log,
    save_checkpoint,
    save_snapshot,
    sync_log,
)
from gamesearch.learn.jax_resnet import ResNet
from gamesearch.learn.jax_tree import params_like, restore_tree, tree_arrays
from gamesearch.learn.resnet import saved_value_relu
from gamesearch.learn.split import held_out

CHECKPOINT_KIND = "supervised checkpoint"
EVAL_BATCH = 1024


@dataclass(frozen=True)
class SupervisedSettings:
    """A run's settings (fixed when it starts)."""

    blocks: int = 6
    channels: int = 64
    batch: int = 256
    lr: float = 1e-3
    l2: float = 1e-4
    value_weight: float = 0.25
    """The value's share of the loss: a game's positions share one result, so a full weight
    learns the games by heart (AlphaGo's problem, AlphaGo Zero's remedy)."""
    anneal: int = 0
    """Epochs over which the learning rate falls to a tenth along a cosine (0: constant)."""
    holdout: int = 10
    seed: int = 0

    def checked(self) -> SupervisedSettings:
        """These settings, or one line naming the bad one."""
        if not (1 <= self.blocks <= 40 and 1 <= self.channels <= 512):
            raise GameSearchError("blocks must be 1-40 and channels 1-512")
        if not 1 <= self.batch <= 65536:
            raise GameSearchError(f"batch must be 1-65536, got {self.batch}")
        if not (self.lr > 0 and self.l2 >= 0 and self.value_weight >= 0):
            raise GameSearchError("lr must be > 0, l2 and value weight >= 0")
        if self.anneal < 0 or not 2 <= self.holdout <= 1000:
            raise GameSearchError("anneal must be >= 0 and holdout 2-1000 (every Nth game)")
        return self


def _loss(net: ResNet, l2: float, value_weight: float, params: dict, x: jax.Array,
          action: jax.Array, z: jax.Array) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    logits, v = net.apply(params, x)
    policy = -jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1).mean()
    value = ((z - v) ** 2).mean()
    reg = l2 * sum((params[k] ** 2).sum() for k in net.decayed(params))
    return policy + value_weight * value + reg, (policy, value)


@partial(jax.jit, static_argnums=(0, 1, 2, 3))
def _step(net: ResNet, optimizer: optax.GradientTransformation, l2: float,
          value_weight: float, params: dict, opt_state: Any, x: jax.Array,
          action: jax.Array, z: jax.Array, points: jax.Array, forward: jax.Array):
    """One Adam step on a minibatch seen under one symmetry: the planes of point ``p``
    move to ``forward[p]`` (``points`` is that map's inverse), as does the move."""
    rows, cols, planes = net.shape
    x = x.astype(jnp.float32).reshape(-1, rows * cols, planes)[:, points, :]
    grad = jax.value_and_grad(partial(_loss, net, l2, value_weight), has_aux=True)
    (_, (p, v)), g = grad(params, x.reshape(x.shape[0], -1), forward[action], z)
    updates, opt_state = optimizer.update(g, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, jnp.stack([p, v])


@partial(jax.jit, static_argnums=(0,))
def _measure(net: ResNet, params: dict, x: jax.Array, legal: jax.Array, action: jax.Array,
             z: jax.Array) -> jax.Array:
    """Sums over a batch: policy cross-entropy, value squared error, top-1 agreement."""
    logits, v = net.apply(params, x.astype(jnp.float32))
    ce = -jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1).sum()
    best = jnp.argmax(jnp.where(legal > 0, logits, -jnp.inf), axis=1)
    return jnp.stack([ce, ((z - v) ** 2).sum(), (best == action).sum()])


class SupervisedTraining:
    """A resumable supervised run in ``folder``; see the module's docstring."""

    def __init__(self, examples: Any, shape: tuple[int, int, int], actions: int,
                 symmetries: np.ndarray, folder: str | Path,
                 settings: SupervisedSettings | None = None, resume: bool = False,
                 force: bool = False, init_from: str | Path | None = None,
                 game: str = "", every: float = 60.0, snapshots: int = 0) -> None:
        self.folder, self.game, self.every = Path(folder), game, every
        self.snapshots = snapshots
        self.checkpoint = self.folder / "checkpoint.npz"
        self.weights = self.folder / "weights.npz"
        self.symmetries = np.asarray(symmetries, dtype=np.int32)
        self.inverses = np.argsort(self.symmetries[:, :-1], axis=1).astype(np.int32)
        self.curve: list[dict] = []
        self.epoch = self.step_in_epoch = self.steps = 0
        self.sums = [0.0, 0.0]
        """The epoch so far's summed policy and value losses (its curve point's means)."""
        self.seconds = 0.0
        self.init_from: str | None = None
        meta: dict = {}
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, CHECKPOINT_KIND)
            if meta.get("game") != game or meta.get("examples") != len(examples):
                raise GameSearchError(f"{str(self.checkpoint)!r} was trained on other data "
                                      f"({meta.get('examples')} examples of "
                                      f"{meta.get('game')!r}); give the same --data")
            self.settings = SupervisedSettings(**meta["settings"])
        else:
            if self.checkpoint.exists() and not force:
                raise GameSearchError(f"{str(self.folder)!r} holds a run already: add "
                                      "--resume to continue it or --force to start afresh")
            self.settings = (settings or SupervisedSettings()).checked()
            output_folder(self.folder, "--out folder")
        s = self.settings
        self.net = ResNet(shape, actions, s.blocks, s.channels)
        held = held_out(examples.game, s.holdout)
        self.train_rows = np.flatnonzero(~held)
        self.val_rows = np.flatnonzero(held)
        if len(self.train_rows) < s.batch:
            raise GameSearchError(f"{len(self.train_rows)} training positions, fewer than one "
                                  f"batch of {s.batch}")
        self.data = examples
        self.steps_per_epoch = len(self.train_rows) // s.batch
        rate = (optax.cosine_decay_schedule(s.lr, s.anneal * self.steps_per_epoch, alpha=0.1)
                if s.anneal else s.lr)
        self.optimizer = optax.adam(rate)
        self.params = self.net.init(jax.random.PRNGKey(s.seed))
        if init_from is not None and not resume:
            self._start_from(init_from)
        self.opt_state = self.optimizer.init(self.params)
        if resume:
            self._restore(arrays, meta)
        self.log = open_log(self.folder / "log.jsonl", "supervised log",
                            force=force and not resume)
        sync_log(self.log, self.curve)

    def _start_from(self, path: str | Path) -> None:
        """Begin from another network of this shape (its weights; Adam starts afresh)."""
        arrays, meta = load_checkpoint(path, WEIGHTS_KIND)
        if saved_value_relu(meta):
            raise GameSearchError(f"{str(path)!r} has the old value head (a ReLU after its "
                                  "1x1 convolution); start from a network of the linear one")
        self.params = params_like(self.params, arrays, path)
        self.init_from = str(path)

    def _restore(self, arrays: dict[str, np.ndarray], meta: dict) -> None:
        self.params, self.opt_state = restore_tree((self.params, self.opt_state), arrays,
                                                   self.checkpoint)
        for key in ("epoch", "step_in_epoch", "steps", "seconds", "curve", "init_from", "sums"):
            setattr(self, key, meta[key])

    def _plan(self, epoch: int) -> tuple[np.ndarray, np.ndarray]:
        """Epoch ``epoch``'s minibatches (rows of the examples) and their symmetries."""
        rng = np.random.default_rng([self.settings.seed, epoch])
        order = rng.permutation(self.train_rows)[: self.steps_per_epoch * self.settings.batch]
        return (order.reshape(self.steps_per_epoch, self.settings.batch),
                rng.integers(0, len(self.symmetries), self.steps_per_epoch))

    def validate(self) -> dict:
        """Held-out policy cross-entropy, value squared error and top-1 agreement."""
        rows, total = self.val_rows, np.zeros(3)
        for lo in range(0, len(rows), EVAL_BATCH):
            pick = rows[lo:lo + EVAL_BATCH]
            d = self.data
            total += np.asarray(_measure(self.net, self.params, d.x[pick], d.legal[pick],
                                         d.action[pick], d.z[pick]))
        n = max(len(rows), 1)
        return {"validation_policy": round(total[0] / n, 5),
                "validation_value": round(total[1] / n, 5),
                "agreement": round(total[2] / n, 5)}

    def run(self, epochs: int, stop: Callable[[], bool] = lambda: False,
            progress: Callable[[SupervisedTraining], None] | None = None) -> None:
        """Train until the run holds ``epochs`` epochs or ``stop()``; checkpoint as said."""
        s, d = self.settings, self.data
        saved = time.monotonic()
        while self.epoch < epochs and not stop():
            began = time.monotonic()
            batches, turns = self._plan(self.epoch)
            while self.step_in_epoch < self.steps_per_epoch and not stop():
                k = self.step_in_epoch
                pick, t = batches[k], int(turns[k])
                self.params, self.opt_state, parts = _step(
                    self.net, self.optimizer, s.l2, s.value_weight, self.params,
                    self.opt_state, d.x[pick], d.action[pick], d.z[pick],
                    self.inverses[t], self.symmetries[t])
                self.sums = [a + float(b) for a, b in zip(self.sums, np.asarray(parts),
                                                          strict=True)]
                self.step_in_epoch += 1
                self.steps += 1
                if progress is not None:
                    progress(self)
                if time.monotonic() - saved >= self.every:
                    self.seconds += time.monotonic() - began
                    began = time.monotonic()
                    self.save()
                    saved = time.monotonic()
            self.seconds += time.monotonic() - began
            if self.step_in_epoch == self.steps_per_epoch:
                record = {"epoch": self.epoch + 1, "steps": self.steps,
                          "train_policy": round(self.sums[0] / self.steps_per_epoch, 5),
                          "train_value": round(self.sums[1] / self.steps_per_epoch, 5),
                          **self.validate(), "seconds": round(self.seconds, 1)}
                self.curve.append(record)
                self.epoch += 1
                self.step_in_epoch = 0
                self.sums = [0.0, 0.0]
            self.save()
            saved = time.monotonic()
            if progress is not None:
                progress(self)

    def save(self) -> None:
        """The checkpoint and the exported weights, atomically, then the log lines."""
        arrays = tree_arrays((self.params, self.opt_state))
        meta = {"game": self.game, "settings": asdict(self.settings),
                "examples": len(self.data), "epoch": self.epoch,
                "step_in_epoch": self.step_in_epoch, "steps": self.steps, "sums": self.sums,
                "seconds": self.seconds, "curve": self.curve, "init_from": self.init_from}
        save_checkpoint(self.checkpoint, CHECKPOINT_KIND, arrays, meta)
        net = {f"best_{k}": np.asarray(v, dtype=np.float32) for k, v in self.params.items()}
        settings = {"blocks": self.settings.blocks, "channels": self.settings.channels,
                    "value_relu": False}
        about = {"game": self.game, "trainer": "supervised", "settings": settings,
                 "epochs": self.epoch, "steps": self.steps,
                 "positions": self.steps * self.settings.batch,
                 "examples": len(self.data), "init_from": self.init_from}
        save_checkpoint(self.weights, WEIGHTS_KIND, net, about)
        if (self.snapshots and self.epoch and self.step_in_epoch == 0
                and self.epoch % self.snapshots == 0):
            save_snapshot(self.folder, self.epoch, WEIGHTS_KIND, net, about)
        sync_log(self.log, self.curve)

    def close(self) -> None:
        """Release the log."""
        self.log.close()
