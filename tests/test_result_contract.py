"""One result contract: a Score (value, viewpoint, exact), one Limit for every agent, and
the reason a search stopped. Facts checked: tic-tac-toe is a draw (value 0, exact)."""

from __future__ import annotations

import pytest

from gamesearch.agents import make_agent
from gamesearch.errors import SpecError
from gamesearch.games import load_game
from gamesearch.result import Limit, Score, SearchResult, SearchStats
from gamesearch.search.alphabeta import alphabeta
from gamesearch.search.mcts import mcts
from gamesearch.search.minimax import minimax

TTT = load_game("tictactoe")


def test_old_positional_construction_still_works() -> None:
    result = SearchResult(1.0, 3, [3], SearchStats(nodes=5))
    assert (result.value, result.action, result.pv, result.stats.nodes) == (1.0, 3, [3], 5)
    assert result.score == Score(1.0, None, False) and result.stopped_by is None


def test_a_solved_draw_is_exact_and_ended_by_the_game() -> None:
    for result in (alphabeta(TTT, TTT.initial_state()), minimax(TTT, TTT.initial_state())):
        assert result.score == Score(0, 0, True)
        assert result.stopped_by == "end"


def test_a_depth_limited_value_is_an_estimate_stopped_by_depth() -> None:
    result = alphabeta(TTT, TTT.initial_state(), depth=2)
    assert not result.exact and result.stopped_by == "depth" and result.stats.depth == 2
    assert result.score.pov == TTT.to_move(TTT.initial_state())


def test_score_from_the_other_side_is_negated() -> None:
    s = TTT.result(TTT.initial_state(), TTT.actions(TTT.initial_state())[0])
    score = alphabeta(TTT, s, depth=1).score
    assert score.for_player(score.pov) == score.value
    assert score.for_player(1 - score.pov) == -score.value
    assert Score((1, 2, 3), None).for_player(2) == 3


def test_mcts_says_which_budget_stopped_it() -> None:
    assert mcts(TTT, TTT.initial_state(), iterations=50, seed=1).stopped_by == "iterations"
    assert mcts(TTT, TTT.initial_state(), time=0.05, seed=1).stopped_by == "time"


def test_time_limited_deepening_reports_time() -> None:
    connect4 = load_game("connect4")
    result = alphabeta(connect4, connect4.initial_state(), time=0.05)
    assert result.stopped_by == "time" and result.action is not None


def test_one_limit_object_for_every_agent() -> None:
    agent = make_agent("alphabeta", limit=Limit(depth=2))
    assert agent.limit == Limit(depth=2) and agent.spec == "alphabeta:depth=2"
    assert agent(TTT, TTT.initial_state()).stats.depth == 2
    agent = make_agent("mcts:seed=1", limit=Limit(iterations=30))
    assert agent.limit == Limit(iterations=30)
    assert agent(TTT, TTT.initial_state()).stats.iterations == 30
    assert make_agent("alphabeta:depth=4,time=2").limit == Limit(depth=4, time=2.0)


def test_a_limit_an_agent_cannot_honour_is_refused() -> None:
    with pytest.raises(SpecError, match="cannot honour a time limit"):
        make_agent("minimax", limit=Limit(time=1.0))
    with pytest.raises(ValueError, match="positive"):
        Limit(depth=0)


def test_the_compiled_search_fills_the_same_contract() -> None:
    from gamesearch.kernels.search import kernel_alphabeta

    game = load_game("connect4:width=4,height=4")
    start = game.initial_state()
    solved, pure = kernel_alphabeta(game, start), alphabeta(game, start)
    assert solved.score == pure.score == Score(0, 0, True)  # 4x4 is a draw (both searches)
    assert solved.stopped_by == "end"
    shallow = kernel_alphabeta(game, start, depth=2)
    assert not shallow.exact and shallow.stopped_by == "depth" and shallow.score.pov == 0
