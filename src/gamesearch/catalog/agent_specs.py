"""The game-specific agent kinds, registered into the agent registry (agents/ knows no game):
``solver`` (Connect Four), ``gammon`` (backgammon), ``pacman`` and ``ghost``, ``pig-optimal``.
Each factory imports its agent only when one is made."""

from __future__ import annotations

from gamesearch.agents import Agent, register_agent
from gamesearch.catalog.perfect import solver_agent

register_agent("solver", solver_agent,
               "perfect play from a game's exact solver (connect4; weak=true, seed=N)")


def _gammon(depth: int = 2, pruning: str = "star2", samples: int | None = None,
            seed: int | None = None, kernel: bool = True) -> Agent:
    from gamesearch.catalog.backgammon import GammonAgent

    return GammonAgent(depth=depth, pruning=None if pruning == "none" else pruning,
                       samples=samples, seed=seed, kernel=kernel)


register_agent("gammon", _gammon, "backgammon: depth-2 expectiminimax with the hand-written "
               "evaluation, compiled (kernel=false: Star2 in Python; pruning=, samples=K)")


def _pacman(algorithm: str = "expectimax", depth: int = 2, seed: int | None = None,
            pruning: str = "course") -> Agent:
    from gamesearch.catalog.pacman import PacmanAgent

    return PacmanAgent(algorithm=algorithm, depth=depth, seed=seed, pruning=pruning)


def _ghost(kind: str = "random", depth: int = 1, seed: int | None = None,
           chase: float = 0.8) -> Agent:
    from gamesearch.catalog.pacman import GhostAgent

    return GhostAgent(kind=kind, depth=depth, seed=seed, chase=chase)


register_agent("pacman", _pacman, "Pacman searching depth=N full rounds "
               "(algorithm=expectimax|minimax|alphabeta|greedy|random; alpha-beta "
               "pruning=course|fast)")
register_agent("ghost", _ghost, "a Pacman ghost: kind=random|directional|adversarial "
               "(depth=N rounds for adversarial, chase=P for directional)")


def _pig_optimal() -> Agent:
    from gamesearch.catalog.pig import PigOptimalAgent

    return PigOptimalAgent()


register_agent("pig-optimal", _pig_optimal, "Pig: optimal play from the solved table")


def _chess_engine(time: float = 1.0, depth: int | None = None, hash: int = 64) -> Agent:
    from gamesearch.catalog.chess import ChessAgent

    return ChessAgent(time=time, depth=depth, hash_mb=hash)


register_agent("chess-engine", _chess_engine, "chess: the compiled engine (PVS, TT, "
               "quiescence), time=T seconds a move or depth=N plies, hash=MB")


def _pubeval() -> Agent:
    from gamesearch.catalog.backgammon_td import pubeval_agent

    return pubeval_agent()


def _td_gammon(depth: int = 0, weights: str | None = None) -> Agent:
    from gamesearch.catalog.backgammon_td import td_gammon_agent

    return td_gammon_agent(depth=depth, weights=weights)


register_agent("pubeval", _pubeval, "backgammon: Tesauro's published linear evaluation, 0-ply "
               "(the yardstick of TD-Gammon replications)")
register_agent("td-gammon", _td_gammon, "backgammon: the TD(lambda) self-play network, depth=0 "
               "or 2 (expectiminimax over the 21 rolls); weights=FILE (default: shipped)")


def _alphazero(simulations: int = 800, weights: str | None = None, c: float = 1.5,
               policy: bool = False) -> Agent:
    from gamesearch.catalog.connect4_az import alphazero_agent

    return alphazero_agent(simulations=0 if policy else simulations, weights=weights, c=c)


register_agent("alphazero", _alphazero, "connect4: PUCT with the self-play policy-value "
               "network, simulations=N (policy=true: the policy alone, no search), "
               "weights=FILE, c=1.5")
