"""Agents that report as they search (``Agent.on_progress``): the chess engine after each
depth, go-mcts a few times a second; a true return stops them with what they have."""

from __future__ import annotations

import chess

from gamesearch.engines.chess.engine import ChessAgent
from gamesearch.engines.go.mcts import GoMCTSAgent
from gamesearch.games import load_game
from gamesearch.games.go.rules import Go


def test_go_mcts_reports_a_legal_line_and_its_win_rate_then_stops_when_asked() -> None:
    game = Go(size=9)
    state = game.initial_state()
    agent = GoMCTSAgent(time=30.0, seed=1)
    agent.prepare(game)
    seen = []

    def report(so_far):
        seen.append(so_far)
        return len(seen) == 3  # the third report asks for the move now

    agent.on_progress = report
    result = agent(game, state)
    assert len(seen) == 3  # it stopped at once, long before its 30 s
    sims = [r.stats.iterations for r in seen]
    assert sims == sorted(sims) and sims[0] > 0
    for so_far in seen:
        cur = state
        for action in so_far.pv:  # every line is playable by the rules
            assert action in game.actions(cur)
            cur = game.result(cur, action)
        rate = so_far.stats.extra["win_rate"]
        assert 0.0 <= rate <= 1.0 and abs(so_far.value - (2 * rate - 1)) < 1e-3
        assert so_far.stats.depth == len(so_far.pv) and so_far.action == so_far.pv[0]
    assert result.stats.iterations >= sims[-1]
    assert 0.0 <= result.stats.extra["win_rate"] <= 1.0


def test_go_mcts_without_a_listener_reports_nothing_and_plays_as_before() -> None:
    game = Go(size=5)
    a, b = GoMCTSAgent(playouts=600, seed=3), GoMCTSAgent(playouts=600, seed=3)
    b.on_progress = lambda so_far: False  # listening changes no move
    state = game.initial_state()
    assert a(game, state).action == b(game, state).action


def test_go_mcts_reports_after_its_first_batch_so_a_deadline_always_has_a_move() -> None:
    """The web falls back to the first legal move (A9) when no report has come by its
    deadline; the first report comes after one batch of simulations, not a quarter second."""
    from gamesearch.engines.go.mcts import BATCH

    game = Go(size=9)
    agent = GoMCTSAgent(playouts=BATCH, seed=2)
    agent.prepare(game)
    seen = []
    agent.on_progress = lambda so_far: seen.append(so_far) and False
    agent(game, game.initial_state())
    assert [r.stats.iterations for r in seen] == [BATCH] and seen[0].action is not None


def test_the_chess_engine_reports_each_depth_in_order_and_stops_when_asked() -> None:
    game = load_game("chess")
    state = chess.STARTING_FEN
    agent = ChessAgent(time=30.0)
    agent.prepare(game)
    seen = []

    def report(so_far):
        seen.append(so_far)
        return so_far.stats.depth >= 5

    agent.on_progress = report
    result = agent(game, state)
    assert [r.stats.depth for r in seen] == list(range(1, 6))
    assert result.stats.depth == 5 and result.stats.seconds < 10  # not its 30 s
    board = chess.Board(state)
    for so_far in seen:
        assert so_far.action == so_far.pv[0]
        assert chess.Move.from_uci(so_far.action) in board.legal_moves
        assert so_far.stats.extra["score"].startswith("cp ")
