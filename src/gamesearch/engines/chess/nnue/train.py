"""Train the chess network on Stockfish-scored positions, in JAX with optax (the ``gpu``
extra), on the CPU or an accelerator.

The forward pass is ``network.forward``'s, batched: the feature transformer as a
gather-sum over each perspective's feature indices (``dataset.py``; the padding index
reads a row of zeros that is not a weight), the side to move's accumulator first, clipped
ReLUs, two dense layers, one output ``v``. The loss is the squared distance of win chances,

    (sigmoid(v) - target)^2,   target = (1 - lambda) sigmoid(cp / scale) + lambda result,

``cp`` Stockfish's score and ``result`` the game's (1, 0.5, 0) for the side to move, so
``v * scale`` is a centipawn score as the network file says. Adam (AdamW with ``decay``;
the rate annealed to 0 over ``anneal`` epochs), minibatches of a shuffled epoch (epoch
``e``'s order drawn from ``(seed, e)``; the last partial batch is left out, so every step
has one shape). With ``mirror`` the training positions are doubled by their mirror images
(files a-h swapped).

A run lives in a folder: ``checkpoint.npz`` (weights, Adam's state, counters, the curve;
written atomically through :mod:`gamesearch.learn.checkpoint` every ``save_every`` steps,
at each epoch's end and on a stop), ``nnue.npz`` (the network, ``network.save``) and
``curve.json`` (train and validation loss per epoch). The checkpoint records how many
positions the run reads, so a resumed run reads the same first rows of a data file that a
generator may still be appending to, and ends with the weights an unbroken run has.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from gamesearch.durable import atomic_write, output_folder
from gamesearch.engines.chess.nnue import network as N
from gamesearch.engines.chess.nnue.dataset import PAD, Positions
from gamesearch.engines.chess.nnue.features import FEATURES
from gamesearch.errors import GameSearchError
from gamesearch.learn.checkpoint import checkpoint_is_ours, load_checkpoint, save_checkpoint
from gamesearch.learn.split import held_out

KIND = "chess-nnue checkpoint"
EVAL_CHUNK = 4096
"""Positions per compiled call when measuring a loss (the last chunk is padded)."""


@dataclass(frozen=True)
class NnueSettings:
    """A run's settings (fixed when it starts; a resume keeps them)."""

    hidden: int = 128
    l1: int = 32
    l2: int = 32
    batch: int = 1024
    lr: float = 5e-4
    lam: float = 0.0
    """The weight of the game result in the target (0: Stockfish's score alone)."""
    scale: float = N.DEFAULT_SCALE
    logistic: float = 0.0
    """The loss's logistic in centipawns: win chance ``sigmoid(cp / logistic)`` (0: the
    network's ``scale``; 173.7 is ``bench/chess_tune.py``'s ``1 / (1 + 10^(-cp/400))``).
    The file's ``v * scale`` stays the centipawn score whatever this is."""
    seed: int = 0
    holdout: int = 10
    """Every ``holdout``-th game is validation (0: none)."""
    save_every: int = 500
    """Steps between checkpoints within an epoch."""
    decay: float = 0.0
    """AdamW's weight decay (0: plain Adam)."""
    anneal: int = 0
    """Epochs over which the learning rate falls to 0 along a half cosine (0: constant)."""
    factor: bool = True
    """Train a factoriser beside ``ft_w``: one row per piece, shared by its 64 squares (the
    piece's worth anywhere, learnt from every position it is in), folded into ``ft_w`` in
    the file: the network is the specification's, it learns faster from few positions."""
    ft_init: float = 0.1
    """The starting ``ft_w`` is ``network.random_network``'s times this."""
    ft_grid: int = 127
    """Train with the feature transformer rounded to multiples of ``1 / ft_grid`` (0: not):
    127, the default, is the compiled inference's scale (an activation of 1.0), so the
    file's rows are the integers it uses and the search evaluates what the trainer fitted
    (measured on the shipped network: 1.9 centipawns mean difference from the float pass,
    against 9 when trained without it; docs/BENCHMARKS.md)."""
    mirror: bool = True
    """Train on each position and its mirror image (files a-h swapped), which scores the
    same but for castling rights: twice the positions for the same data."""

    def checked(self) -> NnueSettings:
        """The settings when they make sense; GameSearchError (one line) when not."""
        for name in ("hidden", "l1", "l2"):
            if not 1 <= getattr(self, name) <= N.MAX_WIDTH:
                raise GameSearchError(f"--{name} must be in 1..{N.MAX_WIDTH}, "
                                      f"got {getattr(self, name)}")
        if not 1 <= self.batch <= 1 << 20:
            raise GameSearchError(f"--batch must be in 1..{1 << 20}, got {self.batch}")
        if not 0 < self.lr < 1:
            raise GameSearchError(f"--lr must be in (0, 1), got {self.lr}")
        if not 0 <= self.lam <= 1:
            raise GameSearchError(f"--lambda must be in [0, 1], got {self.lam}")
        if self.logistic != 0 and not 1 <= self.logistic <= 10_000:
            raise GameSearchError(f"--logistic must be 0 or in 1..10000, got {self.logistic}")
        if not 1 <= self.scale <= 10_000:
            raise GameSearchError(f"--scale must be in 1..10000, got {self.scale}")
        if not 0 <= self.holdout <= 1000 or self.holdout == 1:
            raise GameSearchError(f"--holdout must be 0 or 2..1000, got {self.holdout}")
        if not 0 <= self.ft_init <= 10:
            raise GameSearchError(f"--ft-init must be in [0, 10], got {self.ft_init}")
        if not 0 <= self.ft_grid <= 32767:
            raise GameSearchError(f"--ft-grid must be in 0..32767, got {self.ft_grid}")
        if not 0 <= self.anneal <= 100_000:
            raise GameSearchError(f"--anneal must be in 0..100000, got {self.anneal}")
        if not 0 <= self.decay < 1:
            raise GameSearchError(f"--decay must be in [0, 1), got {self.decay}")
        if self.seed < 0 or self.save_every < 1:
            raise GameSearchError("--seed must be 0 or more and save_every positive")
        return self


def params_of(net: N.Network, factor: bool = False) -> dict[str, jax.Array]:
    """A network's arrays as the trainer's parameters; with ``factor`` also ``ft_f``, the
    factoriser's rows (zero), one per piece of either colour whatever its square."""
    params = {name: jnp.asarray(getattr(net, name)) for name in N.ARRAYS}
    if factor:
        params["ft_f"] = jnp.zeros((FEATURES // 64, net.hidden), jnp.float32)
    return params


def on_grid(x: jax.Array, grid: int) -> jax.Array:
    """``x`` rounded to multiples of ``1 / grid`` in the forward pass, unrounded in the
    gradient (the straight-through estimator); ``x`` itself when ``grid`` is 0."""
    if not grid:
        return x
    return x + jax.lax.stop_gradient(jnp.round(x * grid) / grid - x)


def feature_table(params: dict[str, Any], grid: int = 0) -> jax.Array:
    """The feature transformer's rows as the network file holds them: ``ft_w``, plus with
    a factoriser each feature's piece row (features ``64 p .. 64 p + 63`` share ``ft_f[p]``),
    on the ``grid`` (see :func:`on_grid`)."""
    table = params["ft_w"]
    if "ft_f" in params:
        table = table + jnp.repeat(params["ft_f"], 64, axis=0)
    return on_grid(table, grid)


def load_network(path: str | Path) -> N.Network:
    """A network file (``network.load``: NetworkError in one line for a bad one)."""
    return N.load(path)


def network_of(params: dict[str, Any], scale: float, grid: int = 0) -> N.Network:
    """The trainer's parameters as a network (float32 numpy arrays; a factoriser folded
    into ``ft_w``; the feature transformer on the ``grid``, as the trainer saw it)."""
    arrays = {name: np.asarray(params[name], np.float32) for name in N.ARRAYS}
    arrays["ft_w"] = np.asarray(feature_table(params, grid), np.float32)
    arrays["ft_b"] = np.asarray(on_grid(params["ft_b"], grid), np.float32)
    return N.Network(**arrays, scale=float(scale))


def forward(params: dict[str, jax.Array], us: jax.Array, them: jax.Array,
            grid: int = 0) -> jax.Array:
    """``v`` for a batch of positions given their feature indices (n x 32 each, side to
    move first): ``network.forward``, batched (the feature transformer on ``grid``)."""
    rows = feature_table(params, grid)
    table = jnp.concatenate([rows, jnp.zeros((1, rows.shape[1]), rows.dtype)])
    bias = on_grid(params["ft_b"], grid)
    acc_us = bias + table[us].sum(axis=1)
    acc_them = bias + table[them].sum(axis=1)
    x = jnp.clip(jnp.concatenate([acc_us, acc_them], axis=1), 0.0, 1.0)
    x = jnp.clip(x @ params["l1_w"] + params["l1_b"], 0.0, 1.0)
    x = jnp.clip(x @ params["l2_w"] + params["l2_b"], 0.0, 1.0)
    return (x @ params["out_w"] + params["out_b"])[:, 0]


def targets(score: jax.Array, result: jax.Array, scale: float, lam: float) -> jax.Array:
    """The win chance each position is fitted to (``scale``: the logistic's centipawns)."""
    return (1.0 - lam) * jax.nn.sigmoid(score / scale) + lam * result


def losses(params: dict[str, jax.Array], us: jax.Array, them: jax.Array, score: jax.Array,
           result: jax.Array, scale: float, lam: float, logistic: float | None = None,
           grid: int = 0) -> jax.Array:
    """Each position's squared win-chance error; the win chance of ``c`` centipawns is
    ``sigmoid(c / logistic)`` (``logistic`` is ``scale`` unless given)."""
    logistic = scale if logistic is None else logistic
    return (jax.nn.sigmoid(forward(params, us, them, grid) * (scale / logistic))
            - targets(score, result, logistic, lam)) ** 2


class NnueTraining:
    """One training run: its data, settings, weights, optimiser state and curve."""

    def __init__(self, data: Positions, folder: str | Path, settings: NnueSettings,
                 resume: bool = False, force: bool = False,
                 init: N.Network | None = None) -> None:
        """A new run (from ``random_network`` or from the network ``init``, whose widths it
        takes) or, with ``resume``, the run of ``folder``'s checkpoint (its settings and
        its first positions of ``data``)."""
        self.folder = output_folder(Path(folder), "--out folder")
        self.checkpoint = self.folder / "checkpoint.npz"
        if self.checkpoint.exists() and not checkpoint_is_ours(self.checkpoint, KIND):
            raise GameSearchError(f"{str(self.checkpoint)!r} exists and is not a {KIND}; "
                                  "gamesearch never overwrites a file it did not make")
        if self.checkpoint.exists() and not resume and not force:
            raise GameSearchError(f"{str(self.checkpoint)!r} exists: add --resume to go on "
                                  "or --force to start afresh")
        meta: dict[str, Any] | None = None
        arrays: dict[str, np.ndarray] = {}
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, KIND)
            names = {f.name for f in fields(NnueSettings)}
            try:
                settings = NnueSettings(**{k: v for k, v in meta["settings"].items()
                                           if k in names})
                int(meta["positions"]), int(meta["epoch"]), int(meta["steps"])
            except (KeyError, TypeError, ValueError, AttributeError):
                raise GameSearchError(f"{str(self.checkpoint)!r}: damaged checkpoint "
                                      "(its settings or counters)") from None
            if len(data) < meta["positions"]:
                raise GameSearchError(f"the data holds {len(data):,} positions; the run "
                                      f"was trained on {meta['positions']:,}")
            data = _first(data, meta["positions"])
        self.data_digest = data.digest()
        if meta is not None and meta.get("data_digest", self.data_digest) != self.data_digest:
            raise GameSearchError(f"the data's first {len(data):,} positions are not the "
                                  "ones the run was trained on (the files, their order, or a "
                                  "file other than the last changed)")  # older runs: no digest
        self.settings = settings.checked()
        self.data = data
        test = held_out(data.game, settings.holdout)
        self.train_set, self.val_set = data.subset(~test), data.subset(test)
        if settings.mirror:
            self.train_set = _with_mirrors(self.train_set)
        if len(self.train_set) < settings.batch:
            raise GameSearchError(f"{len(self.train_set):,} training positions are fewer "
                                  f"than one batch ({settings.batch:,})")
        rate: float | optax.Schedule = settings.lr
        if settings.anneal:
            rate = optax.cosine_decay_schedule(
                settings.lr, settings.anneal * (len(self.train_set) // settings.batch))
        self.optimizer = optax.adamw(rate, weight_decay=settings.decay)
        s = settings
        logistic = s.logistic or s.scale
        self._step = jax.jit(self._make_step(s.scale, s.lam, logistic, s.ft_grid))
        self._loss = jax.jit(lambda p, u, t, c, r, m: (
            losses(p, u, t, c, r, s.scale, s.lam, logistic, s.ft_grid) * m).sum())
        self._train = tuple(jnp.asarray(a) for a in (self.train_set.us, self.train_set.them,
                                                     self.train_set.score,
                                                     self.train_set.result))
        if meta is None and init is not None and (init.widths != (s.hidden, s.l1, s.l2)
                                                  or init.scale != s.scale):
            raise GameSearchError(f"the starting network is {init.widths} at scale "
                                  f"{init.scale:g}; the run asks for "
                                  f"{(s.hidden, s.l1, s.l2)} at {s.scale:g}")
        if meta is None:
            start = init or N.random_network(s.hidden, s.l1, s.l2, s.seed, s.scale)
            if init is None and s.ft_init != 1.0:
                start = replace(start, ft_w=(start.ft_w * s.ft_init).astype(np.float32))
            self.params = params_of(start, s.factor)
            self.opt_state = self.optimizer.init(self.params)
            self.epoch = self.step_in_epoch = self.steps = 0
            self.sum_loss = 0.0
            self.curve: list[dict] = []
            self.seconds = 0.0
        else:
            self.params = {key[2:]: jnp.asarray(value) for key, value in arrays.items()
                           if key.startswith("p/")}
            leaves, tree = jax.tree_util.tree_flatten(self.optimizer.init(self.params))
            self.opt_state = jax.tree_util.tree_unflatten(
                tree, [jnp.asarray(arrays[f"o/{i}"]) for i in range(len(leaves))])
            self.epoch, self.step_in_epoch = meta["epoch"], meta["step_in_epoch"]
            self.steps, self.sum_loss = meta["steps"], meta["sum_loss"]
            self.curve, self.seconds = meta["curve"], meta["seconds"]

    @property
    def steps_per_epoch(self) -> int:
        """Full batches in one pass over the training positions."""
        return len(self.train_set) // self.settings.batch

    def _make_step(self, scale: float, lam: float, logistic: float,
                   grid: int) -> Callable[..., Any]:
        optimizer = self.optimizer

        def step(params: dict, opt_state: Any, us: jax.Array, them: jax.Array,
                 score: jax.Array, result: jax.Array) -> tuple[dict, Any, jax.Array]:
            def mean_loss(p: dict) -> jax.Array:
                return losses(p, us, them, score, result, scale, lam, logistic, grid).mean()

            value, grads = jax.value_and_grad(mean_loss)(params)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, value

        return step

    def order(self, epoch: int) -> np.ndarray:
        """The training positions' order in ``epoch`` (from the seed and the epoch alone)."""
        rng = np.random.default_rng([self.settings.seed, epoch])
        return rng.permutation(len(self.train_set))

    def loss_of(self, data: Positions) -> float | None:
        """The mean loss of the current weights over ``data`` (None when it is empty)."""
        n = len(data)
        if n == 0:
            return None
        total = 0.0
        for at in range(0, n, EVAL_CHUNK):
            part = slice(at, min(n, at + EVAL_CHUNK))
            size = part.stop - part.start
            pad = EVAL_CHUNK - size

            def padded(a: np.ndarray, fill: float, pad: int = pad) -> jax.Array:
                return jnp.asarray(np.concatenate([a, np.full((pad, *a.shape[1:]), fill,
                                                              a.dtype)]))

            mask = np.zeros(EVAL_CHUNK, np.float32)
            mask[:size] = 1.0
            total += float(self._loss(self.params, padded(data.us[part], 0),
                                      padded(data.them[part], 0), padded(data.score[part], 0),
                                      padded(data.result[part], 0), jnp.asarray(mask)))
        return total / n

    def run(self, epochs: int, stop: Callable[[], bool] = lambda: False,
            progress: Callable[[NnueTraining], None] | None = None) -> bool:
        """Train until ``epochs`` epochs are done or ``stop()``; save; whether it finished."""
        batch = self.settings.batch
        started = time.perf_counter()
        done = True
        while self.epoch < epochs:
            order = self.order(self.epoch)
            while self.step_in_epoch < self.steps_per_epoch:
                if stop():
                    done = False
                    break
                take = jnp.asarray(order[self.step_in_epoch * batch:
                                         (self.step_in_epoch + 1) * batch])
                self.params, self.opt_state, value = self._step(
                    self.params, self.opt_state, *(a[take] for a in self._train))
                self.sum_loss += float(value)
                self.step_in_epoch += 1
                self.steps += 1
                if progress is not None:
                    progress(self)
                if self.step_in_epoch % self.settings.save_every == 0:
                    self.seconds += time.perf_counter() - started
                    started = time.perf_counter()
                    self.save()
            if not done:
                break
            self.curve.append({"epoch": self.epoch + 1, "steps": self.steps,
                               "train_loss": self.sum_loss / self.steps_per_epoch,
                               "validation_loss": self.loss_of(self.val_set),
                               "seconds": round(self.seconds + time.perf_counter() - started,
                                                1)})
            self.epoch += 1
            self.step_in_epoch = 0
            self.sum_loss = 0.0
            if progress is not None:
                progress(self)
            self.seconds += time.perf_counter() - started
            started = time.perf_counter()
            self.save()
        self.seconds += time.perf_counter() - started
        self.save()
        return done

    def network(self) -> N.Network:
        """The current weights as a network."""
        return network_of(self.params, self.settings.scale, self.settings.ft_grid)

    def save(self) -> None:
        """Write the checkpoint, the network and the curve (each atomically)."""
        arrays = {f"p/{name}": np.asarray(value) for name, value in self.params.items()}
        for i, leaf in enumerate(jax.tree_util.tree_leaves(self.opt_state)):
            arrays[f"o/{i}"] = np.asarray(leaf)
        meta = {"settings": asdict(self.settings), "positions": len(self.data),
                "data_digest": self.data_digest, "epoch": self.epoch,
                "step_in_epoch": self.step_in_epoch,
                "steps": self.steps, "sum_loss": self.sum_loss, "curve": self.curve,
                "seconds": self.seconds}
        save_checkpoint(self.checkpoint, KIND, arrays, meta)
        N.save(self.network(), self.folder / "nnue.npz")
        atomic_write(self.folder / "curve.json", json.dumps(
            {"gamesearch": "chess-nnue curve", "settings": asdict(self.settings),
             "positions": len(self.data), "train_positions": len(self.train_set),
             "validation_positions": len(self.val_set), "curve": self.curve}, indent=1)
            + "\n")


def _with_mirrors(data: Positions) -> Positions:
    """``data`` followed by its positions mirrored a-h (a feature's square ``^ 7``; the
    padding stays), with the same scores and results."""
    def flip(rows: np.ndarray) -> np.ndarray:
        return np.where(rows == PAD, PAD, rows ^ 7).astype(np.int32)

    return Positions(np.concatenate([data.us, flip(data.us)]),
                     np.concatenate([data.them, flip(data.them)]),
                     np.concatenate([data.score, data.score]),
                     np.concatenate([data.result, data.result]),
                     np.concatenate([data.game, data.game]))


def _first(data: Positions, n: int) -> Positions:
    """The first ``n`` positions."""
    keep = np.zeros(len(data), bool)
    keep[:n] = True
    return data.subset(keep)


__all__ = ["KIND", "NnueSettings", "NnueTraining", "feature_table", "forward",
           "load_network", "losses", "network_of", "on_grid", "params_of", "targets"]
