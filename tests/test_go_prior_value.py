"""Where a Go policy/value network plugs in: learn/puct.py's PUCT takes a prior and a value
function for any game of the protocol, Go included (AlphaGo's search; the compiled go-mcts
stays the network-free player). These tests drive it on Go boards with hand-made
evaluators, as a trained network would be driven."""

from __future__ import annotations

from gamesearch.games.go.rules import Go
from gamesearch.learn.puct import PUCT

# White's chain down the C file has one liberty, C1; Black to move captures four stones.
ATARI = "XXOX./.XOX./.XOX./.XOX./...X. b"


def area_value(game: Go):
    """Uniform prior over the legal moves, and the area score as it stands (the rules'
    evaluation) for the player to move: a value function with no search in it."""

    def evaluate(state):
        actions = game.actions(state)
        player = game.to_move(state)
        return {a: 1.0 / len(actions) for a in actions}, game.evaluate(state, player)

    return evaluate


def test_puct_with_a_value_function_captures_on_a_go_board() -> None:
    game = Go(size=5, komi=0.5)
    state = game.state_from_string(ATARI)
    capture = game.string_to_action(state, "C1")
    visits = PUCT(game, area_value(game)).search(state, 300)
    assert max(visits, key=visits.get) == capture


def test_the_prior_steers_the_search_where_values_are_equal() -> None:
    """With a flat value, the visits follow the prior: the network's policy decides."""
    game = Go(size=5, komi=0.5)
    state = game.initial_state()
    favourite = game.string_to_action(state, "B2")

    def evaluate(s):
        actions = game.actions(s)
        prior = {a: 0.9 if a == favourite else 0.1 / (len(actions) - 1) for a in actions}
        if favourite not in actions:
            prior = {a: 1.0 / len(actions) for a in actions}
        return prior, 0.0

    visits = PUCT(game, evaluate).search(state, 200)
    assert max(visits, key=visits.get) == favourite
    assert visits[favourite] > sum(visits.values()) / 2
