"""The protocol's own example runs, and the protocol's validation catches bad input."""

import re

import pytest

import gamesearch.game as game_module
from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game, check_chance_outcomes, legal_action
from gamesearch.search import alphabeta, minimax


def docstring_example_game() -> type:
    """Execute the TwoPileNim class written in game.py's module docstring."""
    doc = game_module.__doc__
    block = re.search(r"    class TwoPileNim\(Game\):\n(?:(?:        .*)?\n)+", doc).group(0)
    code = "\n".join(line[4:] for line in block.splitlines())
    namespace = {"Game": Game}
    exec(code, namespace)
    return namespace["TwoPileNim"]


def test_docstring_example_is_the_lectures_ii_nim() -> None:
    cls = docstring_example_game()
    game = cls()
    # The lectures: in II-Nim the second player (MIN) wins with best play.
    assert minimax(game, game.initial_state()).value == -1
    assert alphabeta(game, game.initial_state()).value == -1


def test_chance_outcomes_are_validated() -> None:
    assert check_chance_outcomes([("a", 0.5), ("b", 0.5)]) == [("a", 0.5), ("b", 0.5)]
    with pytest.raises(GameSearchError, match="sum to 0.9"):
        check_chance_outcomes([("a", 0.5), ("b", 0.4)])
    with pytest.raises(GameSearchError, match="invalid probability"):
        check_chance_outcomes([("a", -0.5), ("b", 1.5)])
    with pytest.raises(GameSearchError, match="invalid probability"):
        check_chance_outcomes([("a", float("nan")), ("b", 1.0)])
    with pytest.raises(GameSearchError, match="at least one"):
        check_chance_outcomes([])


def test_illegal_actions_are_named() -> None:
    from gamesearch.games.tictactoe import TicTacToe

    game = TicTacToe()
    state = game.result(game.initial_state(), 4)
    with pytest.raises(IllegalActionError, match="illegal move '5'"):
        legal_action(game, state, 4)
    with pytest.raises(IllegalActionError, match="taken"):
        game.string_to_action(state, "5")
    with pytest.raises(IllegalActionError, match="malformed"):
        game.string_to_action(state, "x")


def test_states_are_hashable_and_immutable() -> None:
    from gamesearch.games import load_game

    for name in ("tictactoe", "nim", "connect4", "tree"):
        game = load_game(name)
        s = game.initial_state()
        t = game.result(s, game.actions(s)[0])
        assert hash(s) != hash(t) or s != t
        assert game.initial_state() == s  # the transition did not mutate the start


def test_terminal_root_value_is_the_movers_in_every_search() -> None:
    """A finished game searched anyway: every search reports the mover's utility."""
    from gamesearch.games.tictactoe import TicTacToe
    from gamesearch.search.strict_alphabeta import alphabeta_strict

    game = TicTacToe()
    state = game.state_from_string("xxxoo....")  # X has a row; O would be to move
    assert game.is_terminal(state) and game.to_move(state) == 1
    assert minimax(game, state).value == -1
    assert alphabeta_strict(game, state).value == -1
