"""Chess rules over python-chess: the protocol, the formats and clear errors."""

import pytest

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.games import load_game
from gamesearch.testing import check_game


def test_chess_keeps_the_protocol():
    report = check_game(load_game("chess"), playouts=2, seed=3)
    assert report.playouts == 2


def test_start_has_twenty_moves_and_reads_san_and_uci():
    g = load_game("chess")
    s = g.initial_state()
    assert len(g.actions(s)) == 20
    assert g.string_to_action(s, "Nf3") == g.string_to_action(s, "g1f3") == "g1f3"
    s2 = g.state_from_string("e4 e5 Nf3")
    assert s2.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq")


def test_fools_mate_is_a_black_win():
    g = load_game("chess")
    s = g.state_from_string("f3 e5 g4 Qh4#")
    assert g.is_terminal(s) and g.utilities(s) == (-1.0, 1.0)


def test_stalemate_and_dead_position_are_draws():
    g = load_game("chess")
    stale = g.state_from_string("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert g.is_terminal(stale) and g.utilities(stale) == (0.0, 0.0)
    dead = g.state_from_string("8/8/4k3/8/8/3BK3/8/8 w - - 0 1")
    assert g.is_terminal(dead)
    fifty = g.state_from_string("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")
    assert g.is_terminal(fifty) and g.utilities(fifty) == (0.0, 0.0)


@pytest.mark.parametrize("fen", ["xx", "8/8/8/8/8/8/8/8 w - - 0 1",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                                 "k" * 500])
def test_malformed_fen_is_one_clear_error(fen):
    with pytest.raises(GameSearchError) as err:
        load_game("chess").state_from_string(fen + ("/" if "/" not in fen else ""))
    assert "\n" not in str(err.value)


def test_illegal_move_names_the_legal_ones():
    g = load_game("chess")
    with pytest.raises(IllegalActionError, match="legal moves"):
        g.string_to_action(g.initial_state(), "Ke2")


@pytest.mark.parametrize("text", ["--", "0000", "Z0"])
def test_the_null_move_is_not_a_move(text):
    """python-chess reads "--" and "0000" as a null move; a game has no such move (found by
    the parser fuzz in test_check_game)."""
    g = load_game("chess")
    with pytest.raises(IllegalActionError):
        g.string_to_action(g.initial_state(), text)


def test_game_from_a_fen_parameter():
    g = load_game("chess:fen=8/8/4k3/8/8/3RK3/8/8 w - - 0 1")
    assert g.to_move(g.initial_state()) == 0
    with pytest.raises(GameSearchError):
        load_game("chess:fen=nonsense")
