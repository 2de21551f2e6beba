"""AlphaZero with batched self-play in JAX: thousands of games at once, on a GPU or the CPU.

The numpy trainer (:mod:`gamesearch.learn.alphazero`) searches one game at a time in
Python, one network call per simulation: about 3,500 simulations a second here, which
is why its network saw only 36,000 positions. This trainer writes the game as pure JAX
functions (:class:`JaxGame`), runs the tree search for a whole batch of games at once
with DeepMind's mctx (Gumbel MuZero's search, which improves the policy even with few
simulations: Danihelka et al., ICLR 2022), and compiles a whole iteration:

    repeat each iteration:                                   (one jitted call each)
        for t in 1..unroll: for all `batch` games at once:
            search `simulations` simulations from the current positions
            record (input, the search's improved policy, the mover)
            play the searched move (a uniformly random move during a game's first
            k plies, k ~ U{0..random_plies}, for variety); finished games restart
        value target of a position: the final result for its mover (positions of a game
            still running at the end of the iteration, and random-phase ones, get none)
        one pass of Adam over the iteration's positions in shuffled minibatches:
            loss = -pi . log p + (z - v)^2 + l2 |w|^2

The network (:func:`network_for`) is :class:`gamesearch.learn.policy_value.
PolicyValueNetwork`'s shape (two ReLU layers, a policy head and a tanh value head) for a
game whose input is a vector (Connect Four: the weights export to the numpy network that
the ``alphazero`` agent plays with), and a residual convolutional network
(:mod:`gamesearch.learn.jax_resnet`, ``blocks`` x ``channels``) for a game whose input is
a board of planes (``JaxGame.shape``: Go, whose ``go-net`` agent plays it in numpy). The
self-play, the loss, the checkpoints and the resume are the same for both. As in
AlphaZero (2018) there is no gate: self-play always uses the newest network.

A run lives in a folder: ``checkpoint.npz`` (weights, Adam's state, the games in
progress, counters; written atomically after every iteration, so a kill loses at most
one iteration and ``--resume`` continues from it), ``weights.npz`` (the network for
``alphazero:weights=FILE``) and ``log.jsonl``. Iteration ``i`` draws its randomness from
``(seed, i)``, so a resumed run repeats what an unbroken one does.

Needs the optional ``[gpu]`` extra: JAX, optax and mctx (and pgx for Go's rules).
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
import mctx
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
from gamesearch.learn.jax_tree import params_like, restore_tree, tree_arrays
from gamesearch.learn.policy_value import NAMES, PolicyValueNetwork
from gamesearch.learn.resnet import saved_value_relu

CHECKPOINT_KIND = "alphazero-jax checkpoint"


@dataclass(frozen=True)
class JaxGame:
    """A two-player, alternating, zero-sum game as pure functions of one (unbatched) state.

    ``step(state, action) -> (state, reward)``: the reward is for the player who moved
    (+1 won, 0 nothing yet or a draw, -1 for an illegal move, which ends the game); a
    finished state (``state.done``) stays as it is with reward 0."""

    name: str
    actions: int
    inputs: int
    max_moves: int
    initial: Callable[[], Any]
    legal: Callable[[Any], jax.Array]
    step: Callable[[Any, jax.Array], tuple[Any, jax.Array]]
    observe: Callable[[Any], jax.Array]
    shape: tuple[int, ...] | None = None
    """The input's (rows, columns, planes) where ``observe`` flattens a board of planes
    (a convolutional network reads it so), None for a plain vector."""


@dataclass(frozen=True)
class JaxSettings:
    """A run's settings (fixed when it starts)."""

    batch: int = 1024
    simulations: int = 32
    hidden: int = 512
    unroll: int = 0
    """Moves per game per iteration (0: the game's longest game)."""
    random_plies: int = 8
    minibatch: int = 4096
    lr: float = 1e-3
    anneal: int = 0
    """Iterations over which the learning rate falls to a tenth (cosine); 0: constant."""
    l2: float = 1e-4
    seed: int = 0
    blocks: int = 6
    """Residual blocks, for a game whose input is a board of planes (``JaxGame.shape``)."""
    channels: int = 64
    """Filters per convolution of those blocks."""
    considered: int = 16
    """Actions Gumbel's search considers at the root (its sequential halving), at most the
    game's; with 32 simulations, 16 of Go's 82 moves are each visited twice or more."""
    epochs: int = 1
    """Passes of Adam over each iteration's positions (several reuse scarce self-play)."""
    value_relu: bool = False
    """The residual network's old value head (:class:`~gamesearch.learn.jax_resnet.ResNet`);
    a run begun before the linear one resumes with it."""

    def checked(self, game: JaxGame) -> JaxSettings:
        """These settings with ``unroll`` filled in; one line for a bad value."""
        for key in ("batch", "simulations", "hidden", "minibatch", "blocks", "channels",
                    "considered", "epochs"):
            if getattr(self, key) < 1:
                raise GameSearchError(f"{key} must be at least 1, got {getattr(self, key)}")
        if self.unroll < 0 or self.random_plies < 0 or self.anneal < 0:
            raise GameSearchError("unroll, random_plies and anneal must be >= 0")
        if not (self.lr > 0 and self.l2 >= 0):
            raise GameSearchError("lr must be > 0 and l2 >= 0")
        if self.batch > 65536 or self.simulations > 4096 or self.hidden > 8192 or \
                self.blocks > 40 or self.channels > 512 or self.epochs > 64:
            raise GameSearchError("batch is at most 65,536, simulations 4,096, hidden "
                                  "8,192, blocks 40, channels 512 and epochs 64 (the search "
                                  "tree of every game is held at once)")
        unroll = self.unroll or game.max_moves
        samples = self.batch * unroll
        if samples < self.minibatch:
            raise GameSearchError(f"an iteration makes {samples} positions (batch x unroll), "
                                  f"fewer than one minibatch of {self.minibatch}")
        return JaxSettings(**{**asdict(self), "unroll": unroll})


# --- the network: PolicyValueNetwork's shape and arithmetic, in JAX ------------------------

def init_params(key: jax.Array, inputs: int, actions: int, hidden: int) -> dict:
    """He-initialised weights, named as :data:`gamesearch.learn.policy_value.NAMES`."""
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def he(k: jax.Array, rows: int, cols: int) -> jax.Array:
        return jax.random.normal(k, (rows, cols)) * jnp.sqrt(2.0 / cols)

    return {"w1": he(k1, hidden, inputs), "b1": jnp.zeros(hidden),
            "w2": he(k2, hidden, hidden), "b2": jnp.zeros(hidden),
            "wp": he(k3, actions, hidden) * 0.1, "bp": jnp.zeros(actions),
            "wv": he(k4, 1, hidden)[0] * 0.1, "bv": jnp.zeros(())}


def forward(params: dict, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Policy logits (n, actions) and values in [-1, 1] (n,) for inputs (n, inputs)."""
    h1 = jax.nn.relu(x @ params["w1"].T + params["b1"])
    h2 = jax.nn.relu(h1 @ params["w2"].T + params["b2"])
    return h2 @ params["wp"].T + params["bp"], jnp.tanh(h2 @ params["wv"] + params["bv"])


def loss(params: dict, x: jax.Array, pi: jax.Array, z: jax.Array, z_known: jax.Array,
         l2: float, net: Any = None) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    """AlphaZero's loss for ``net`` (default: the fully connected network); the value term
    averages over positions whose result is known."""
    apply, decayed = ((forward, ("w1", "w2", "wp", "wv")) if net is None
                      else (net.apply, net.decayed(params)))
    logits, v = apply(params, x)
    policy = -(pi * jax.nn.log_softmax(logits)).sum(axis=1).mean()
    value = ((z - v) ** 2 * z_known).sum() / jnp.maximum(z_known.sum(), 1.0)
    reg = l2 * sum((params[k] ** 2).sum() for k in decayed)
    return policy + value + reg, (policy, value)


def to_numpy_network(params: dict) -> PolicyValueNetwork:
    """The same network as a :class:`PolicyValueNetwork` (float64, no optimizer state)."""
    arrays = {k: np.asarray(params[k], dtype=float) for k in NAMES}
    return PolicyValueNetwork.from_arrays(arrays)


@dataclass(frozen=True)
class Mlp:
    """The fully connected network above (:func:`init_params`, :func:`forward`), as the
    trainer asks a network: ``init(key)``, ``apply(params, x)``, ``decayed(params)``."""

    inputs: int
    actions: int
    hidden: int

    def init(self, key: jax.Array) -> dict:
        return init_params(key, self.inputs, self.actions, self.hidden)

    def apply(self, params: dict, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return forward(params, x)

    def decayed(self, params: dict) -> list[str]:
        return ["w1", "w2", "wp", "wv"]


def network_for(game: JaxGame, settings: JaxSettings) -> Any:
    """The network a run trains: residual convolutions (``blocks`` x ``channels``) for a
    game whose input is a board of planes, else the fully connected ``hidden`` one."""
    if game.shape is not None:
        from gamesearch.learn.jax_resnet import ResNet

        return ResNet(game.shape, game.actions, settings.blocks, settings.channels,
                      settings.value_relu)
    return Mlp(game.inputs, game.actions, settings.hidden)


# --- one iteration: batched self-play, then training --------------------------------------

def _batched(game: JaxGame):
    return (jax.vmap(game.step), jax.vmap(game.legal), jax.vmap(game.observe))


def _recurrent_fn(game: JaxGame, net: Any):
    step, legal, observe = _batched(game)

    def recurrent(params, key, action, state):
        state, reward = step(state, action)
        logits, value = net.apply(params, observe(state))
        logits = jnp.where(legal(state), logits, -1e9)
        value = jnp.where(state.done, 0.0, value)
        # alternating zero-sum: the child's value is the other player's, so it is negated
        discount = jnp.where(state.done, 0.0, -1.0)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount,
                                      prior_logits=logits, value=value), state

    return recurrent


def fresh_games(game: JaxGame, settings: JaxSettings, key: jax.Array) -> tuple[Any, jax.Array]:
    """``batch`` new games and the number of random opening plies of each."""
    state = jax.vmap(lambda _: game.initial())(jnp.arange(settings.batch))
    plies = jax.random.randint(key, (settings.batch,), 0, settings.random_plies + 1)
    return state, plies


def value_targets(reward: jax.Array, done: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each position's final result for its mover, from the rewards and ends of ``(moves,
    games)`` trajectories of alternating moves (a finished game restarts at the next move):
    the move that ends a game earns its reward, each earlier move of that game the negation
    of the next one's. ``known`` is False for a game still running at the end."""

    def back(carry, item):
        v_next, known_next = carry
        r, d = item
        v = jnp.where(d, r, -v_next)
        known = d | known_next
        return (v, known), (v, known)

    games = reward.shape[1]
    start = (jnp.zeros(games, reward.dtype), jnp.zeros(games, bool))
    _, (z, known) = jax.lax.scan(back, start, (reward, done), reverse=True)
    return z, known


@partial(jax.jit, static_argnums=(0, 1))
def self_play(game: JaxGame, settings: JaxSettings, params: dict, state: Any,
              plies: jax.Array, key: jax.Array):
    """``unroll`` moves of every game; returns the games in progress and the samples
    ``(x, pi, z, z_known)``, flattened, the number of games finished, and the mean over
    moves of the network's root values' standard deviation across the games."""
    step, legal, observe = _batched(game)
    net = network_for(game, settings)
    recurrent = _recurrent_fn(game, net)
    fresh, _ = fresh_games(game, settings, key)

    def move(carry, k):
        state, plies = carry
        k_search, k_random, k_plies = jax.random.split(k, 3)
        ok = legal(state)
        logits, value = net.apply(params, observe(state))
        root = mctx.RootFnOutput(prior_logits=jnp.where(ok, logits, -1e9), value=value,
                                 embedding=state)
        out = mctx.gumbel_muzero_policy(params, k_search, root, recurrent,
                                        num_simulations=settings.simulations,
                                        invalid_actions=~ok,
                                        max_num_considered_actions=min(settings.considered,
                                                                       game.actions))
        random = jax.random.categorical(k_random, jnp.where(ok, 0.0, -1e9))
        opening = state.moves < plies
        action = jnp.where(opening, random, out.action)
        after, reward = step(state, action)
        sample = (observe(state), out.action_weights, reward, after.done, opening, value)
        new_plies = jax.random.randint(k_plies, plies.shape, 0, settings.random_plies + 1)
        restart = after.done
        after = jax.tree_util.tree_map(
            lambda f, a: jnp.where(restart.reshape((-1,) + (1,) * (a.ndim - 1)), f, a),
            fresh, after)
        return (after, jnp.where(restart, new_plies, plies)), sample

    keys = jax.random.split(key, settings.unroll)
    (state, plies), (x, pi, reward, done, opening, value) = jax.lax.scan(
        move, (state, plies), keys)

    z, known = value_targets(reward, done)
    z_known = (known & ~opening).astype(jnp.float32)
    flat = (x.reshape(-1, game.inputs), pi.reshape(-1, game.actions), z.reshape(-1),
            z_known.reshape(-1))
    # how far the network's values spread over a move's games (0: a value head gone dead)
    return state, plies, flat, done.sum(), value.std(axis=1).mean()


@partial(jax.jit, static_argnums=(0, 1, 2))
def train_pass(optimizer: optax.GradientTransformation, settings: JaxSettings, net: Any,
               params: dict, opt_state: Any, samples: tuple, key: jax.Array):
    """One shuffled pass of Adam over the samples; the mean policy and value losses."""
    n = samples[0].shape[0]
    steps = n // settings.minibatch
    order = jax.random.permutation(key, n)[: steps * settings.minibatch]
    order = order.reshape(steps, settings.minibatch)
    grad = jax.value_and_grad(loss, has_aux=True)

    def one(carry, idx):
        params, opt_state = carry
        x, pi, z, known = (a[idx] for a in samples)
        (_, (p, v)), g = grad(params, x, pi, z, known, settings.l2, net)
        updates, opt_state = optimizer.update(g, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), jnp.stack([p, v])

    (params, opt_state), parts = jax.lax.scan(one, (params, opt_state), order)
    return params, opt_state, parts.mean(axis=0)


@jax.jit
def policy_accuracy(params: dict, x: jax.Array, legal: jax.Array, scores: jax.Array):
    """How often the policy's top legal move has the best score (per an outside oracle)."""
    logits, _ = forward(params, x)
    choice = jnp.argmax(jnp.where(legal, logits, -jnp.inf), axis=1)
    picked = jnp.take_along_axis(scores, choice[:, None], axis=1)[:, 0]
    return (picked == jnp.where(legal, scores, -jnp.inf).max(axis=1)).mean()


# --- the run: checkpoints, log, resume -----------------------------------------------------

class JaxAlphaZeroTraining:
    """A resumable batched AlphaZero run in ``folder``.

    ``labelled``: optional ``(x, legal, scores)`` arrays of positions scored by an oracle
    (a perfect solver): the policy's accuracy on them is logged after every iteration."""

    def __init__(self, game: JaxGame, folder: str | Path, settings: JaxSettings | None = None,
                 resume: bool = False, force: bool = False,
                 labelled: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                 init_from: str | Path | None = None, snapshots: int = 0) -> None:
        self.game, self.folder = game, Path(folder)
        self.snapshots = snapshots
        """Every this many iterations the exported network is also kept as
        ``snapshots/weights-NNNNN.npz`` (0: never): the learning curve's points."""
        self.checkpoint = self.folder / "checkpoint.npz"
        self.weights = self.folder / "weights.npz"
        self.labelled = None if labelled is None else tuple(jnp.asarray(a) for a in labelled)
        self.curve: list[dict] = []
        self.iterations = self.positions = self.games = 0
        self.seconds = 0.0
        self.init_from: str | None = None
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, CHECKPOINT_KIND)
            self.init_from = meta.get("init_from")
            if meta.get("game") != game.name:
                raise GameSearchError(f"{str(self.checkpoint)!r} is a run of "
                                      f"{meta.get('game')!r}, not {game.name!r}")
            self.settings = JaxSettings(**{**meta["settings"],
                                           "value_relu": saved_value_relu(meta)})
            self._start()
            self._restore(arrays)
            for key in ("iterations", "positions", "games", "seconds", "curve"):
                setattr(self, key, meta[key])
        else:
            if self.checkpoint.exists() and not force:
                raise GameSearchError(f"{str(self.folder)!r} holds a run already: add "
                                      "--resume to continue it or --force to start afresh")
            self.settings = (settings or JaxSettings()).checked(game)
            output_folder(self.folder, "--out folder")
            self._start()
            if init_from is not None:
                self._start_from(init_from)
        self.log = open_log(self.folder / "log.jsonl", "alphazero-jax log",
                            force=force and not resume)
        sync_log(self.log, self.curve)

    def _start(self) -> None:
        s, g = self.settings, self.game
        root = jax.random.PRNGKey(s.seed)
        self.net = network_for(g, s)
        self.params = self.net.init(jax.random.fold_in(root, 1))
        steps = s.batch * s.unroll // s.minibatch * s.epochs
        rate = (optax.cosine_decay_schedule(s.lr, s.anneal * steps, alpha=0.1) if s.anneal
                else s.lr)
        self.optimizer = optax.adam(rate)
        self.opt_state = self.optimizer.init(self.params)
        self.state, self.plies = fresh_games(g, s, jax.random.fold_in(root, 2))

    def _start_from(self, path: str | Path) -> None:
        """Begin a new run from another run's ``weights.npz`` (fine-tuning: fresh Adam).

        A residual network saved with the other value head (``value_relu``; files from
        before the flag had the ReLU) gives its trunk and policy, and the value head starts
        fresh: the first device run's had died, and Adam with L2 had taken its weights to
        zero and its biases below it, so the head would stay dead behind either one."""
        from gamesearch.learn.jax_resnet import VALUE_HEAD

        arrays, meta = load_checkpoint(path, WEIGHTS_KIND)
        other_head = saved_value_relu(meta) != self.settings.value_relu
        fresh = (set(VALUE_HEAD) & set(self.params)
                 if self.game.shape is not None and other_head else set())
        self.params = params_like(self.params, arrays, path, keep=fresh)
        self.opt_state = self.optimizer.init(self.params)
        self.init_from = str(path)

    def _parts(self) -> dict[str, Any]:
        return {"params": self.params, "opt": self.opt_state, "state": self.state,
                "plies": self.plies}

    def _restore(self, arrays: dict[str, np.ndarray]) -> None:
        restored = restore_tree(self._parts(), arrays, self.checkpoint)
        self.params, self.opt_state = restored["params"], restored["opt"]
        self.state, self.plies = restored["state"], restored["plies"]

    def iteration(self) -> dict:
        """Self-play ``unroll`` moves of every game, then one training pass."""
        s = self.settings
        began = time.monotonic()
        key = jax.random.fold_in(jax.random.PRNGKey(s.seed), 1000 + self.iterations)
        k_play, k_train = jax.random.split(key)
        self.state, self.plies, samples, finished, spread = self_play(
            self.game, s, self.params, self.state, self.plies, k_play)
        first = None  # logged: the first pass's losses, on data not yet seen
        for epoch in range(s.epochs):  # the first pass keeps k_train: runs before --epochs
            self.params, self.opt_state, parts = train_pass(
                self.optimizer, s, self.net, self.params, self.opt_state, samples,
                jax.random.fold_in(k_train, epoch) if epoch else k_train)
            if first is None:
                first = parts
        parts = np.asarray(first)
        self.iterations += 1
        self.positions += s.batch * s.unroll
        self.games += int(finished)
        record = {"iteration": self.iterations, "positions": self.positions,
                  "games": self.games, "policy": round(float(parts[0]), 5),
                  "value": round(float(parts[1]), 5),
                  "value_spread": round(float(spread), 5)}
        if self.labelled is not None:
            record["accuracy"] = round(float(policy_accuracy(self.params, *self.labelled)), 5)
        self.seconds += time.monotonic() - began
        record["seconds"] = round(self.seconds, 1)
        self.curve.append(record)
        return record

    def run(self, iterations: int | None = None, seconds: float | None = None,
            stop: Callable[[], bool] = lambda: False,
            progress: Callable[[JaxAlphaZeroTraining], None] | None = None) -> None:
        """Train until the run holds ``iterations`` iterations, or ``seconds`` more seconds
        have passed, or ``stop()``; checkpoint after each iteration."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while not stop():
            if iterations is not None and self.iterations >= iterations:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            self.iteration()
            self.save()
            if progress is not None:
                progress(self)

    def save(self) -> None:
        """The checkpoint and the exported weights, atomically, then the log lines."""
        arrays = tree_arrays(self._parts())
        meta = {"game": self.game.name, "settings": asdict(self.settings),
                "iterations": self.iterations, "positions": self.positions,
                "games": self.games, "seconds": self.seconds, "curve": self.curve,
                "device": jax.devices()[0].platform, "init_from": self.init_from}
        save_checkpoint(self.checkpoint, CHECKPOINT_KIND, arrays, meta)
        net = {f"best_{k}": np.asarray(v, dtype=np.float32) for k, v in self.params.items()}
        about = {"game": self.game.name, "trainer": "jax", "settings": meta["settings"],
                 "init_from": self.init_from, "iterations": self.iterations,
                 "positions": self.positions, "seconds": self.seconds}
        save_checkpoint(self.weights, WEIGHTS_KIND, net, about)
        if self.snapshots and self.iterations % self.snapshots == 0:
            save_snapshot(self.folder, self.iterations, WEIGHTS_KIND, net, about)
        sync_log(self.log, self.curve)

    def close(self) -> None:
        """Release the log."""
        self.log.close()
