"""AlphaZero-style training (Silver et al. 2017/2018) for any two-player game of the protocol.

    repeat:
        games  <- self-play with PUCT (priors and values from the current network,
                  Dirichlet noise at the root, temperature 1 for the first moves)
        buffer <- buffer + (state, visit distribution, final outcome for the mover)
        train the network on minibatches from the buffer (cross-entropy + squared error)
        every few rounds: the new network plays the best one; it becomes best if it wins
                          at least ``gate`` of the games

A :class:`Problem` says how a game meets the network: ``encode(state)`` (a vector) and
the fixed list of ``actions`` the policy head scores. Self-play games go through
:func:`gamesearch.learn.selfplay.play_games` with any ``map``. A run checkpoints the
networks, the optimizer state, the replay buffer and its counters; round ``k`` seeds its
own generators from ``(seed, k)``, so a resumed run continues exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import output_folder
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.learn.checkpoint import load_checkpoint, open_log, save_checkpoint, sync_log
from gamesearch.learn.policy_value import PolicyValueNetwork
from gamesearch.learn.puct import PUCT, visit_policy
from gamesearch.learn.selfplay import MapLike, Score, play_games

CHECKPOINT_KIND = "alphazero checkpoint"


@dataclass(frozen=True)
class Problem:
    """How a game meets a policy-value network."""

    game: Game
    encode: Callable[[State], np.ndarray]
    actions: tuple
    """Every action the policy head scores, in its order (legal ones are picked out)."""


def make_evaluator(problem: Problem, net: PolicyValueNetwork):
    """``evaluator(state) -> ({legal action: prior}, value for the player to move)``."""
    index = {a: i for i, a in enumerate(problem.actions)}

    def evaluate(state: State) -> tuple[dict[Any, float], float]:
        policy, value = net.predict(problem.encode(state))
        legal = problem.game.actions(state)
        priors = np.array([policy[0, index[a]] for a in legal])
        total = priors.sum()
        priors = priors / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
        return dict(zip(legal, priors.tolist())), float(value[0])

    return evaluate


class SelfPlayGame:
    """``SelfPlayGame(...)(seed)``: one self-play game; returns its training records
    (inputs, visit distributions, outcomes for the player to move). Picklable."""

    def __init__(self, problem: Problem, net: PolicyValueNetwork, simulations: int,
                 seed: int, noise: tuple[float, float] = (1.0, 0.25),
                 explore_moves: int = 8) -> None:
        self.problem, self.net, self.simulations = problem, net, simulations
        self.seed, self.noise, self.explore_moves = seed, noise, explore_moves

    def __call__(self, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        problem, game = self.problem, self.problem.game
        rng = np.random.default_rng([self.seed, index])
        search = PUCT(game, make_evaluator(problem, self.net))
        xs, pis, movers = [], [], []
        state, ply = game.initial_state(), 0
        while not game.is_terminal(state):
            visits = search.search(state, self.simulations, self.noise, rng)
            policy = visit_policy(visits, 1.0 if ply < self.explore_moves else 0.0)
            target = np.zeros(len(problem.actions))
            total = sum(visits.values())
            for i, a in enumerate(problem.actions):
                target[i] = visits.get(a, 0) / total
            xs.append(problem.encode(state))
            pis.append(target)
            movers.append(game.to_move(state))
            actions = list(policy)
            action = actions[rng.choice(len(actions), p=np.array(list(policy.values())))]
            state = game.result(state, action)
            ply += 1
        u = game.utilities(state)
        z = np.array([float(np.sign(u[m])) for m in movers])
        return np.array(xs, dtype=np.float32), np.array(pis, dtype=np.float32), z


class MatchPUCT:
    """``MatchPUCT(problem, a, b, simulations, seed)(index)``: a game between two networks
    searching greedily (no noise), seats swapped on odd indices; +1/0/-1 for ``a``."""

    def __init__(self, problem: Problem, a: PolicyValueNetwork, b: PolicyValueNetwork,
                 simulations: int, seed: int, explore_moves: int = 2) -> None:
        self.problem, self.a, self.b = problem, a, b
        self.simulations, self.seed, self.explore_moves = simulations, seed, explore_moves

    def __call__(self, index: int) -> int:
        game = self.problem.game
        rng = np.random.default_rng([self.seed, index])
        searches = [PUCT(game, make_evaluator(self.problem, net)) for net in (self.a, self.b)]
        if index % 2:
            searches.reverse()
        state, ply = game.initial_state(), 0
        while not game.is_terminal(state):
            visits = searches[game.to_move(state)].search(state, self.simulations)
            policy = visit_policy(visits, 1.0 if ply < self.explore_moves else 0.0)
            actions = list(policy)
            state = game.result(state, actions[rng.choice(len(actions),
                                                          p=np.array(list(policy.values())))])
            ply += 1
        u = game.utilities(state)[1 if index % 2 else 0]
        return int(np.sign(u))


DEFAULTS = {"hidden": 128, "simulations": 50, "games_per_round": 20, "batch": 128,
            "steps_per_round": 50, "lr": 1e-3, "l2": 1e-4, "buffer": 20000, "seed": 0,
            "eval_every": 5, "eval_games": 20, "gate": 0.55, "dirichlet": 1.0,
            "explore_moves": 8}


class AlphaZeroTraining:
    """A resumable AlphaZero run in ``folder`` (``checkpoint.npz``, ``log.jsonl``)."""

    def __init__(self, problem: Problem, folder: str | Path, resume: bool = False,
                 force: bool = False, executor_map: MapLike = map, **settings: Any) -> None:
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise GameSearchError(f"unknown AlphaZero settings: {', '.join(sorted(unknown))}")
        self.problem, self.executor_map = problem, executor_map
        self.folder = Path(folder)
        self.checkpoint = self.folder / "checkpoint.npz"
        self.curve: list[dict] = []
        self.rounds = self.games = 0
        self.seconds = 0.0
        inputs = len(problem.encode(problem.game.initial_state()))
        if resume:
            arrays, meta = load_checkpoint(self.checkpoint, CHECKPOINT_KIND)
            self.settings = meta["settings"]
            self.net = PolicyValueNetwork.from_arrays(arrays, "net_")
            self.best = PolicyValueNetwork.from_arrays(arrays, "best_")
            self.buffer = [arrays["buffer_x"], arrays["buffer_pi"], arrays["buffer_z"]]
            self.rounds, self.games = meta["rounds"], meta["games"]
            self.seconds, self.curve = meta["seconds"], meta["curve"]
        else:
            if self.checkpoint.exists() and not force:
                raise GameSearchError(f"{str(self.folder)!r} holds a run already: add "
                                      "--resume to continue it or --force to start afresh")
            self.settings = {**DEFAULTS, **settings}
            for key in ("hidden", "simulations", "games_per_round", "batch", "buffer",
                        "eval_every", "eval_games"):
                if int(self.settings[key]) < 1:
                    raise GameSearchError(f"{key} must be at least 1, got "
                                          f"{self.settings[key]}")
            self.net = PolicyValueNetwork(inputs, len(problem.actions),
                                          self.settings["hidden"], self.settings["seed"])
            self.best = self.net.copy()
            self.buffer = [np.zeros((0, inputs), np.float32),
                           np.zeros((0, len(problem.actions)), np.float32), np.zeros(0)]
            output_folder(self.folder, "--out folder")
        self.log = open_log(self.folder / "log.jsonl", "alphazero log",
                            force=force and not resume)
        sync_log(self.log, self.curve)

    def round(self) -> dict:
        """One round: self-play games by the best network, training steps, maybe a gate."""
        s = self.settings
        began = time.monotonic()
        play = SelfPlayGame(self.problem, self.best, s["simulations"],
                            seed=s["seed"] * 1_000_003 + self.rounds,
                            noise=(s["dirichlet"], 0.25), explore_moves=s["explore_moves"])
        for x, pi, z in play_games(play, range(s["games_per_round"]), self.executor_map):
            self.buffer = [np.concatenate([b, new])[-s["buffer"]:]
                           for b, new in zip(self.buffer, (x, pi, z))]
        self.games += s["games_per_round"]
        rng = np.random.default_rng([s["seed"], self.rounds, 1])
        parts = {"loss": 0.0, "policy": 0.0, "value": 0.0}
        n = len(self.buffer[2])
        for _ in range(s["steps_per_round"]):
            pick = rng.integers(0, n, size=min(s["batch"], n))
            out = self.net.train_step(self.buffer[0][pick].astype(float),
                                      self.buffer[1][pick].astype(float), self.buffer[2][pick],
                                      s["lr"], s["l2"])
            for k in parts:
                parts[k] += out[k] / s["steps_per_round"]
        self.rounds += 1
        record = {"round": self.rounds, "games": self.games, "positions": n,
                  **{k: round(v, 5) for k, v in parts.items()}}
        if self.rounds % s["eval_every"] == 0:
            score = self.evaluate_against_best()
            record.update({"vs_best": score.rate, "ci_low": score.interval()[0],
                           "ci_high": score.interval()[1], "promoted": score.rate >= s["gate"]})
            if score.rate >= s["gate"]:
                self.best = self.net.copy()
        self.seconds += time.monotonic() - began
        record["seconds"] = round(self.seconds, 1)
        self.curve.append(record)
        return record

    def evaluate_against_best(self) -> Score:
        """The current network against the best one (draws count half a win)."""
        s = self.settings
        match = MatchPUCT(self.problem, self.net, self.best, s["simulations"],
                          seed=s["seed"] + 104729 * self.rounds)
        results = play_games(match, range(s["eval_games"]), self.executor_map)
        wins = sum(r > 0 for r in results) + 0.5 * sum(r == 0 for r in results)
        return Score(len(results), int(round(wins)), float(sum(results)))

    def run(self, target_rounds: int, stop: Callable[[], bool] = lambda: False,
            progress: Callable[[AlphaZeroTraining], None] | None = None) -> None:
        """Train until ``target_rounds`` rounds (or ``stop()``), checkpointing each round."""
        while self.rounds < target_rounds and not stop():
            self.round()
            self.save()
            if progress is not None:
                progress(self)

    def save(self) -> None:
        """Write the checkpoint atomically, then the log lines it adds."""
        arrays = {**self.net.arrays("net_"), **self.best.arrays("best_"),
                  "buffer_x": self.buffer[0], "buffer_pi": self.buffer[1],
                  "buffer_z": self.buffer[2]}
        meta = {"settings": self.settings, "rounds": self.rounds, "games": self.games,
                "seconds": self.seconds, "curve": self.curve}
        save_checkpoint(self.checkpoint, CHECKPOINT_KIND, arrays, meta)
        sync_log(self.log, self.curve)

    def close(self) -> None:
        """Release the log."""
        self.log.close()
