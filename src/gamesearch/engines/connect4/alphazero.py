"""AlphaZero on Connect Four: the board encoding, the ``alphazero`` agent, and the policy's
accuracy against the perfect solver (the outside oracle).

The input is two planes of 42 cells (the mover's stones, the opponent's), read from the
bitboard; the policy head scores the seven columns.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamesearch.agents import Agent
from gamesearch.errors import GameSearchError
from gamesearch.learn.alphazero import CHECKPOINT_KIND, Problem, make_evaluator
from gamesearch.learn.policy_value import PolicyValueNetwork
from gamesearch.learn.puct import PUCT
from gamesearch.result import Clock, SearchResult, SearchStats
from gamesearch.shipped import shipped

SHIPPED_WEIGHTS = shipped("connect4", "alphazero.npz")


class Connect4Encoder:
    """The network's input for a Connect Four state: the mover's stones, then the
    opponent's, one unit per cell. A class, not a closure, so that self-play games can be
    sent to worker processes (pickled)."""

    def __init__(self, game) -> None:
        self.bits = np.array([c * game.h1 + r for c in range(game.width)
                              for r in range(game.height)], dtype=np.int64)

    def __call__(self, state) -> np.ndarray:
        current, mask = np.int64(state[0]), np.int64(state[1])
        mine = (current >> self.bits) & 1
        theirs = ((current ^ mask) >> self.bits) & 1
        return np.concatenate([mine, theirs]).astype(float)


def connect4_problem(game=None) -> Problem:
    """Connect Four (7x6 unless ``game`` says otherwise) for a policy-value network."""
    from gamesearch.games.connect4 import ConnectFour

    game = game or ConnectFour()
    return Problem(game, Connect4Encoder(game), tuple(range(game.width)))


def load_policy_value(path: str | Path | None = None) -> PolicyValueNetwork:
    """The best network of a training checkpoint, or the shipped one."""
    from gamesearch.learn.checkpoint import load_checkpoint

    path = Path(path) if path is not None else SHIPPED_WEIGHTS
    if path == SHIPPED_WEIGHTS and not path.exists():
        raise GameSearchError("no AlphaZero weights are shipped in this install; train some "
                              "with `gamesearch train alphazero connect4` and pass weights=FILE")
    arrays, _ = load_checkpoint(path, CHECKPOINT_KIND)
    return PolicyValueNetwork.from_arrays(arrays, "best_")


class AlphaZeroAgent(Agent):
    """PUCT with the network's priors and values; ``simulations=0`` plays the policy alone
    (the spec's ``policy=true``)."""

    def __init__(self, net: PolicyValueNetwork, simulations: int, c_puct: float = 1.5) -> None:
        if simulations < 0:
            raise GameSearchError(f"simulations must be >= 0, got {simulations}")
        self.net, self.simulations, self.c_puct = net, simulations, c_puct
        self.spec = "alphazero"

    def __call__(self, game, state) -> SearchResult:
        clock = Clock(None)
        problem = connect4_problem(game)
        evaluate = make_evaluator(problem, self.net)
        if self.simulations == 0:
            priors, value = evaluate(state)
            action = max(priors, key=priors.get)
            return SearchResult(value, action, [action], SearchStats(seconds=clock.elapsed()),
                                pov=game.to_move(state))
        search = PUCT(game, evaluate, self.c_puct)
        visits = search.search(state, self.simulations)
        action = max(visits, key=visits.get)
        # the chosen move's mean value in the search, for the player to move (as shown live)
        value = search.root.values[action] / max(1, visits[action])
        stats = SearchStats(nodes=self.simulations, iterations=self.simulations,
                            seconds=clock.elapsed())
        return SearchResult(value, action, [action], stats, pov=game.to_move(state))


def alphazero_agent(simulations: int = 800, weights: str | None = None,
                    c: float = 1.5) -> Agent:
    """The AlphaZero Connect Four player (shipped weights, or ``weights=FILE``)."""
    return AlphaZeroAgent(load_policy_value(weights), simulations, c)


def policy_accuracy(net: PolicyValueNetwork, positions: list[str], solver=None) -> dict:
    """How often the network's top policy move keeps the game-theoretic value (win, draw
    or loss, per the perfect solver) over the given positions (move strings, Pons' test
    set format). Positions already decided for every move count as correct."""
    from gamesearch.engines.connect4.solver import Connect4Solver
    from gamesearch.games.connect4 import ConnectFour

    game = ConnectFour()
    solver = solver or Connect4Solver()
    problem = connect4_problem(game)
    evaluate = make_evaluator(problem, net)
    good = 0
    for text in positions:
        state = game.state_from_string(text)
        scores = solver.analyze(game, state, weak=True)
        priors, _ = evaluate(state)
        choice = max(priors, key=priors.get)
        good += scores[choice] == max(scores.values())
    return {"positions": len(positions), "perfect_moves": good,
            "accuracy": good / len(positions) if positions else 0.0}


def load_labelled(path: str | Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions labelled by ``bench/connect4_labels.py`` as arrays for a policy's accuracy:
    the network inputs (n, 84), the legal columns (n, 7) and each column's score for the
    mover (n, 7; +1 win, 0 draw, -1 loss, -9 where the column is full)."""
    import json

    from gamesearch.games.connect4 import ConnectFour

    game = ConnectFour()
    encode = Connect4Encoder(game)
    xs, legal, scores = [], [], []
    try:
        from gamesearch.textinput import read_text

        lines = read_text(path, "positions file").splitlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            state = game.state_from_string(row["moves"])
            cols = row["scores"]
            if not isinstance(cols, list) or len(cols) != game.width:
                raise ValueError(f"line {number}: scores must list {game.width} columns")
            xs.append(encode(state))
            legal.append([c is not None for c in cols])
            scores.append([-9 if c is None else int(c) for c in cols])
    except (OSError, ValueError, KeyError, TypeError, GameSearchError) as err:
        raise GameSearchError(f"{str(path)!r}: not a labelled-positions file ({err})") from None
    if not xs:
        raise GameSearchError(f"{str(path)!r} holds no labelled positions")
    return (np.array(xs, np.float32), np.array(legal, bool), np.array(scores, np.int32))
