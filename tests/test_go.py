"""Go's readable rules (issue 18): the published numbers of legal positions, captures, ko
and superko, suicide, Tromp-Taylor scoring, notation, and the game protocol."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.games import load_game
from gamesearch.games.go.notation import parse_vertex, vertex
from gamesearch.games.go.rules import Go, area_score, every_chain_has_a_liberty
from gamesearch.testing import check_game


@pytest.mark.parametrize("size, legal", [(1, 1), (2, 57), (3, 12_675)])
def test_legal_positions_equal_tromp_and_farneback(size: int, legal: int) -> None:
    """Boards where every chain has a liberty: 1, 57, 12,675 (OEIS A094777; Tromp and
    Farnebäck, "Combinatorics of Go", 2006)."""
    count = sum(every_chain_has_a_liberty("".join(cells), size)
                for cells in itertools.product(".XO", repeat=size * size))
    assert count == legal


def play(game: Go, *moves: str):
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.string_to_action(state, move))
    return state


def test_a_stone_without_liberties_is_taken() -> None:
    g = Go(size=5)
    s = play(g, "C4", "B4", "pass", "C5", "pass", "D4", "pass", "C3")
    assert s[0][parse_vertex("C4", 5)] == "."  # Black's C4 surrounded by four White stones
    assert area_score(s[0], 5) == (0, 25)


KO = ("B3", "C3", "C4", "D4", "C2", "D2", "A1", "E3", "D3")
"""Black B3, C4, C2 round White's C3; White D4, D2, E3 round D3; Black D3 takes C3."""


def test_ko_is_forbidden_by_superko_and_playable_after_a_move_elsewhere() -> None:
    g = Go(size=5)
    taken = play(g, *KO)
    assert taken[0][parse_vertex("C3", 5)] == "."
    with pytest.raises(IllegalActionError, match="superko"):
        g.string_to_action(taken, "C3")  # retaking at once recreates the board
    later = play(g, *KO, "A5", "B1")  # a move each elsewhere: the board is new
    after = g.result(later, g.string_to_action(later, "C3"))
    assert after[0][parse_vertex("D3", 5)] == "."


def test_suicide_is_illegal_unless_asked_for() -> None:
    moves = ("A3", "B3", "pass", "B2", "pass", "A1")  # Black A2 would leave A3-A2 no liberty
    s = play(Go(size=3), *moves)
    with pytest.raises(IllegalActionError, match="suicide"):
        Go(size=3).string_to_action(s, "A2")
    assert parse_vertex("A2", 3) not in Go(size=3).actions(s)
    t = play(Go(size=3, suicide=True), *moves, "A2")
    assert t[0][parse_vertex("A2", 3)] == "." and t[0][parse_vertex("A3", 3)] == "."


def test_two_passes_end_the_game_and_area_counts() -> None:
    g = Go(size=3, komi=0.5)
    s = play(g, "B2", "pass", "pass")
    assert g.is_terminal(s) and area_score(s[0], 3) == (9, 0) and g.utilities(s) == (1, -1)
    w = play(Go(size=3, komi=9.5), "B2", "pass", "pass")
    assert w[0] == s[0] and Go(size=3, komi=9.5).utilities(w) == (-1, 1)


def test_every_game_ends_within_max_moves() -> None:
    g = Go(size=2, max_moves=7)
    s = g.initial_state()
    while not g.is_terminal(s):
        s = g.result(s, g.actions(s)[0])
    assert s[3] <= 7


def test_vertices_round_trip_and_skip_i() -> None:
    assert [vertex(p, 19) for p in (0, 18, 360 - 18, 361)] == ["A19", "T19", "A1", "pass"]
    assert all(parse_vertex(vertex(p, 9), 9) == p for p in range(82))
    assert "I" not in "".join(vertex(p, 19)[0] for p in range(19))


@pytest.mark.parametrize("text", ["I5", "Z1", "A0", "A10", "", "d", "pas", "A1x"])
def test_bad_vertices_are_one_clear_error(text: str) -> None:
    with pytest.raises(GameSearchError):
        parse_vertex(text, 9)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_the_vertex_and_board_parsers_only_raise_our_error(text: str) -> None:
    g = Go(size=9)
    with contextlib.suppress(GameSearchError):
        parse_vertex(text, 9)
    with contextlib.suppress(GameSearchError):
        g.state_from_string(text)


def test_a_board_string_round_trips() -> None:
    g = load_game("go:size=5")
    s = play(g, "C3", "D4", "B2")
    back = g.state_from_string(g.state_to_string(s))
    assert back[0] == s[0] and back[1] == s[1]
    with pytest.raises(GameSearchError, match="liberty"):
        g.state_from_string("XO.../OO.../...../...../..... b")


@pytest.mark.parametrize("spec", ["go:size=19,komi=400.5", "go:size=20", "go:komi=0.3"])
def test_bad_game_options_are_refused(spec: str) -> None:
    with pytest.raises(GameSearchError):
        load_game(spec)


def test_go_keeps_the_game_protocol() -> None:
    check_game(load_game("go:size=4"), playouts=10, seed=1)
