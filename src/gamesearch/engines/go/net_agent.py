"""``go-net``: Monte Carlo tree search guided by a policy-and-value network (AlphaGo's
row, learned by self-play as AlphaZero: ``train alphazero-jax go``, docs/GO.md).

PUCT (:class:`gamesearch.learn.puct.BatchedPUCT`): the network's policy is each new node's
prior and its value replaces the play-out; leaves are evaluated in batches under virtual
loss, the tree is kept between moves, and a search stops at ``time`` seconds or
``simulations`` simulations. The network runs in numpy
(:class:`gamesearch.learn.resnet.ResidualNetwork`): play needs no JAX. ``simulations=0``
plays the policy alone (one evaluation, no search). As go-mcts, it passes only when the
opponent has passed and the count is ours, or when every move left fills its own area:
an untrained policy would otherwise pass the game away.

The shipped weights (``data/go/go-net.npz``) are a 6 x 64 network learned on a CPU from
GNU Go's games (``train supervised go``, AlphaGo's first stage; docs/GO.md has its figures);
``weights=FILE`` plays another run's ``weights.npz``. ``mix=L`` blends one fast play-out
into each leaf's value, as AlphaGo did.
"""

from __future__ import annotations

import time as clock
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.agent import Agent
from gamesearch.engines.go.mcts import fills_own_territory
from gamesearch.errors import GameSearchError
from gamesearch.learn.puct import BatchedPUCT
from gamesearch.learn.resnet import ResidualNetwork
from gamesearch.result import Limit, SearchResult, SearchStats
from gamesearch.shipped import shipped

WEIGHTS_KIND = "alphazero checkpoint"
PLANES = 4
PV_PLIES = 8
DEFAULT_MIX = 0.5
"""``mix``'s default, AlphaGo's: half the network's value, half one play-out's result
(against GNU Go level 10 at 1 s a move it scored 61% of 40 games where the network's value
alone scored 35%; docs/GO.md)."""


def shipped_weights() -> Path:
    """Where the shipped network lies in the installed package."""
    return shipped("go", "go-net.npz")


def load_network(path: str | Path | None = None) -> ResidualNetwork:
    """The network of a ``weights.npz`` (a run of ``train alphazero-jax go``), or the
    shipped one."""
    path = Path(path) if path is not None else shipped_weights()
    if not path.exists():
        raise GameSearchError(f"no Go network at {str(path)!r}: train one with `gamesearch "
                              "train alphazero-jax go` and pass weights=FILE")
    return ResidualNetwork.load(path, WEIGHTS_KIND)


def planes(cells: str, mover: int, legal: list[int]) -> np.ndarray:
    """The network's input for a position (as engines/go/jax_rules.py's ``observe``): the
    mover's stones, the other's, the empty points the mover may not play, White to move.
    Written here too so that play needs no JAX (tests/test_go_net.py ties the two)."""
    board = np.frombuffer(cells.encode("ascii"), dtype=np.uint8)
    black, white = board == ord("X"), board == ord("O")
    mine, theirs = (black, white) if mover == 0 else (white, black)
    ok = np.zeros(board.size + 1, dtype=bool)
    ok[np.asarray(legal, dtype=np.int64)] = True
    banned = (board == ord(".")) & ~ok[:-1]
    colour = np.full(board.size, float(mover == 1))
    return np.stack([mine, theirs, banned, colour], axis=-1).astype(np.float32).reshape(-1)


class GoNetAgent(Agent):
    """PUCT guided by a residual network; see the module's docstring."""

    def __init__(self, net: ResidualNetwork, time: float | None = 1.0,
                 simulations: int | None = None, c: float = 1.5, batch: int = 8,
                 reuse: bool = True, spec: str = "go-net", mix: float = DEFAULT_MIX) -> None:
        if simulations is not None and simulations < 0:
            raise GameSearchError(f"go-net: simulations must be >= 0, got {simulations}")
        if simulations is None and not (time is not None and time > 0):
            raise GameSearchError("go-net: give time=T seconds (> 0) or simulations=N")
        if not 1 <= batch <= 256 or not c > 0:
            raise GameSearchError("go-net: batch is 1-256 and c > 0")
        if not 0.0 <= mix <= 1.0:
            raise GameSearchError(f"go-net: mix is 0-1, got {mix}")
        self.mix = mix
        """AlphaGo's leaf value: ``(1 - mix)`` the network's value plus ``mix`` one fast
        play-out's result (go-mcts's play-out policy, compiled); 0: the network alone."""
        self.rollouts = 0
        self.net, self.time, self.simulations = net, time, simulations
        self.c, self.batch, self.reuse = c, batch, reuse
        self.limit = (Limit(time=time) if simulations is None else
                      Limit(iterations=simulations) if simulations else Limit(nodes=1))
        self.spec = spec
        self.search: BatchedPUCT | None = None

    def reset(self) -> None:
        """A new game: forget the kept tree."""
        self.search = None

    def prepare(self, game: Any) -> None:
        """Compile (or load) the play-out before any clock runs, when it is used."""
        if self.mix > 0:
            self.prepare_rollout()

    @staticmethod
    def prepare_rollout() -> None:
        """Compile (or load from numba's cache) the fast play-out, on a small board."""
        from gamesearch.engines.go.mcts import rollout
        from gamesearch.games.go import kernel as K
        from gamesearch.games.go.rules import Go

        rollout(K.from_state(Go(size=5).initial_state(), 5), 0.0, 10, 1, True, True)

    def rollout(self, game: Any, state: Any) -> float:
        """One fast play-out from ``state``: its result for the player to move (+1, 0, -1)."""
        from gamesearch.engines.go.mcts import rollout
        from gamesearch.games.go import kernel as K

        board = K.from_state(state, game.size)
        cap = max(game.max_moves, int(state[3]) + 3 * game.size ** 2)
        self.rollouts += 1
        black = rollout(board, game.komi, cap, self.rollouts, True, True)
        return (2.0 * black - 1.0) * (1.0 if state[1] == 0 else -1.0)

    def evaluate(self, game: Any, states: list) -> list[tuple[dict[int, float], float]]:
        """Priors over the legal moves and the value for the player to move, per state."""
        if game.size * game.size * PLANES != int(np.prod(self.net.shape)):
            raise GameSearchError(f"go-net: this network plays {self.net.shape[0]}x"
                                  f"{self.net.shape[1]}, not {game.size}x{game.size}")
        legal = [game.actions(s) for s in states]
        x = np.stack([planes(s[0], s[1], m) for s, m in zip(states, legal)])
        logits, values = self.net.forward(x)
        out = []
        for state, row, moves, v in zip(states, logits, legal, values):
            z = row[moves] - row[moves].max()
            p = np.exp(z)
            p /= p.sum()
            value = float(v)
            if self.mix > 0:
                value = (1 - self.mix) * value + self.mix * self.rollout(game, state)
            out.append((dict(zip(moves, p.tolist())), value))
        return out

    def __call__(self, game: Any, state: Any) -> SearchResult:
        began = clock.perf_counter()
        mover = state[1]
        won = state[2] == 1 and game.score(state) * (1 if mover == 0 else -1) > 0
        if won or fills_own_territory(game, state):
            # the opponent passed and the count is ours (the pass wins now), or every move
            # left fills our own area: as go-mcts, the only times it passes
            return SearchResult(1.0 if won else 0.0, game.pass_action, [game.pass_action],
                                SearchStats(seconds=clock.perf_counter() - began), pov=mover)
        if self.simulations == 0:
            priors, value = self.evaluate(game, [state])[0]
            best = _best(priors, game.pass_action)
            return SearchResult(value, best, [best],
                                SearchStats(nodes=1, seconds=clock.perf_counter() - began),
                                pov=mover)
        if self.search is None or not self.reuse or self.search.game is not game:
            self.search = BatchedPUCT(game, lambda s: self.evaluate(game, s), self.c,
                                      self.batch)
        search = self.search
        reported = [0]

        def stop() -> bool:
            if self.on_progress is None or reported[0]:
                return False
            reported[0] = 1
            return bool(self.on_progress(self._answer(game, search, began)))

        left = None if self.time is None else max(0.0, self.time - (clock.perf_counter()
                                                                     - began))
        search.search(state, self.simulations, left, stop)
        if not self.reuse:
            self.search = None
        return self._answer(game, search, began)

    def _answer(self, game: Any, search: BatchedPUCT, began: float) -> SearchResult:
        """The most visited move other than the pass (the pass only when nothing else is
        legal), the search's line from it and its mean value (for the mover)."""
        root = search.root
        best = _best(root.visits, game.pass_action) if any(root.visits.values()) \
            else _best(root.priors, game.pass_action)
        line, node = [best], root.children.get(best)
        while node is not None and node.visits and len(line) < PV_PLIES:
            a = max(node.visits, key=node.visits.get)
            if node.visits[a] == 0:
                break
            line.append(a)
            node = node.children.get(a)
        n = root.visits.get(best, 0)
        value = root.values[best] / n if n else 0.0
        visits = sum(root.visits.values())
        stats = SearchStats(nodes=visits, iterations=visits, depth=len(line),
                            extra={"win_rate": round((value + 1) / 2, 4)})
        stats.seconds = clock.perf_counter() - began
        return SearchResult(value, best, line, stats, pov=root.player)


def _best(weights: dict[int, float], pass_action: int) -> int:
    """The move of most weight (visits or prior) other than the pass, if there is one."""
    moves = [a for a in weights if a != pass_action] or list(weights)
    return max(moves, key=weights.get)


def go_net_agent(time: float | None = None, simulations: int | None = None,
                 weights: str | None = None, c: float = 1.5, batch: int = 8,
                 reuse: bool = True, mix: float = DEFAULT_MIX) -> Agent:
    """The ``go-net`` player (shipped network, or ``weights=FILE``); time=1 s a move unless
    ``simulations`` is given."""
    if time is None and simulations is None:
        time = 1.0
    bound = f"simulations={simulations}" if simulations is not None else f"time={time:g}"
    spec = f"go-net:{bound}" + (f",weights={weights}" if weights else "") \
        + ("" if reuse else ",reuse=false") + (f",mix={mix:g}" if mix != DEFAULT_MIX else "")
    return GoNetAgent(load_network(weights), time, simulations, c, batch, reuse, spec, mix)
