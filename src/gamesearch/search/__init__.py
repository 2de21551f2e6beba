"""Search algorithms over any game of the protocol; each returns a SearchResult."""

from gamesearch.anytime import Budget, Pace, Target, deepen, iterations
from gamesearch.result import SearchResult, SearchStats
from gamesearch.search.alphabeta import AlphaBeta, alphabeta, iterative_deepening, mtdf
from gamesearch.search.minimax import minimax
from gamesearch.search.tt import TranspositionTable

__all__ = [
    "AlphaBeta",
    "Budget",
    "Pace",
    "SearchResult",
    "SearchStats",
    "Target",
    "TranspositionTable",
    "alphabeta",
    "deepen",
    "iterations",
    "iterative_deepening",
    "minimax",
    "mtdf",
]
from gamesearch.search.multiagent import (  # noqa: E402
    maxn,
    multi_agent_alphabeta,
    multi_agent_minimax,
    paranoid,
)

__all__ += ["maxn", "multi_agent_alphabeta", "multi_agent_minimax", "paranoid"]
from gamesearch.search.mcts import MCTS, mcts  # noqa: E402

__all__ += ["MCTS", "mcts"]
