"""Checkers (issue 15): the readable rules against published perft counts, the game
protocol, the compulsory-capture, multi-jump and crowning rules, PDN notation, bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.games import load_game
from gamesearch.games.checkers.notation import parse_fen, parse_move
from gamesearch.games.checkers.rules import DRAW_PLIES
from gamesearch.testing import check_game

# Move sequences from the start, by depth: Aart Bik's checkers perft (English draughts),
# as published with his move generator and reproduced by every checkers perft since.
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740}


def perft(game, state, depth: int) -> int:
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    return sum(perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


@pytest.fixture(scope="module")
def game():
    return load_game("checkers")


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start_equals_the_published_counts(game, depth: int) -> None:
    assert perft(game, game.initial_state(), depth) == PERFT[depth]


def test_the_game_keeps_the_protocol(game) -> None:
    report = check_game(game, max_moves=300)
    assert report.checks["evaluation"] > 0


def test_captures_are_compulsory_and_a_multi_jump_goes_on(game) -> None:
    # Black man on 9, white men on 14 and 23: 9x18x27 is the only move (the man must
    # jump, and from 18 jump again); the simple moves 9-13 are not legal.
    state = game.state_from_string("B:W14,23:B9")
    assert game.actions(state) == ["9x18x27"]
    after = game.result(state, "9x18x27")
    assert after[0][26] == "b" and after[0].count("w") == 0 and game.is_terminal(after)
    assert game.utilities(after) == (1.0, -1.0)  # white has no piece left: black wins
    assert game.string_to_action(state, "9x27") == "9x18x27"  # start and end only


def test_a_man_that_is_crowned_ends_its_move(game) -> None:
    # White man on 9 jumps 6 to land on 2 and is crowned; as a king it could jump 7 next,
    # but crowning ends the move.
    state = game.state_from_string("W:W9:B6,7")
    assert game.actions(state) == ["9x2"]
    after = game.result(state, "9x2")
    assert after[0][1] == "W" and after[0][6] == "b" and after[1] == 0


def test_a_king_jumps_backwards_and_a_man_does_not(game) -> None:
    king = game.state_from_string("B:W14:BK18")
    assert game.actions(king) == ["18x9"]
    man = game.state_from_string("B:W14:B18")
    assert all("x" not in a for a in game.actions(man))


def test_forty_moves_each_without_progress_is_a_draw(game) -> None:
    state = game.state_from_string("B:WK32:BK1")
    shuffle = ["1-6", "32-27", "6-1", "27-32"]  # two kings going back and forth, far apart
    for ply in range(DRAW_PLIES):
        assert not game.is_terminal(state), ply
        state = game.result(state, game.string_to_action(state, shuffle[ply % 4]))
    assert game.is_terminal(state) and game.utilities(state) == (0.0, 0.0)


def test_a_side_without_moves_loses(game) -> None:
    # Black's man on 4 is blocked: white on 8 with 11 behind it cannot be jumped.
    state = game.state_from_string("B:W8,11:B4")
    assert game.actions(state) == [] or game.is_terminal(state)
    assert game.utilities(state) == (-1.0, 1.0)


def test_fen_round_trips_and_reads_ranges(game) -> None:
    start = game.initial_state()
    assert game.state_to_string(start) == ("B:W21,22,23,24,25,26,27,28,29,30,31,32:"
                                           "B1,2,3,4,5,6,7,8,9,10,11,12")
    assert game.state_from_string("B:W21-32:B1-12") == start
    rng = random.Random(5)
    state = start
    for _ in range(60):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
        again = game.state_from_string(game.state_to_string(state))
        assert again[:2] == state[:2]


@pytest.mark.parametrize("text", ["", "B", "X:W1:B2", "B:W33:B1", "B:W1:B1", "B:W1,1:B2",
                                  "B:Wa:B1", "B:W4-1:B9", "B:B1:B2", "W:W21:B29",
                                  "B:W1:B" + "1" * 2000])
def test_bad_fens_are_one_clear_error(text: str) -> None:
    with pytest.raises(GameSearchError) as caught:
        parse_fen(text)
    assert "\n" not in str(caught.value)


@given(st.text(max_size=60))
def test_the_fen_parser_only_ever_raises_our_error(text: str) -> None:
    try:
        cells, mover = parse_fen(text)
    except GameSearchError:
        return
    assert len(cells) == 32 and mover in (0, 1)


@given(st.text(max_size=40))
def test_the_move_parser_only_ever_raises_our_error(text: str) -> None:
    try:
        path, _ = parse_move(text)
    except GameSearchError:
        return
    assert all(1 <= s <= 32 for s in path)


def test_illegal_and_malformed_moves_name_the_legal_ones(game) -> None:
    start = game.initial_state()
    for text in ("11-16x", "1-5", "21-17", "９-13", "11-15-19"):
        with pytest.raises(IllegalActionError, match="11-15|expected squares"):
            game.string_to_action(start, text)


# --- the compiled kernel ------------------------------------------------------------------
BIK = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]
"""Aart Bik's perft counts for depths 1-9 (the benchmark goes on to depth 12)."""


def test_kernel_perft_equals_the_published_counts(game) -> None:
    from gamesearch.games.checkers.kernel import kernel_perft

    assert [kernel_perft(game, game.initial_state(), d) for d in range(1, 10)] == BIK


def test_kernel_perft_equals_the_readable_rules_from_random_positions(game) -> None:
    from gamesearch.games.checkers.kernel import kernel_perft

    rng = random.Random(5)
    for _ in range(12):
        s = game.initial_state()
        for _ in range(rng.randrange(10, 60)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            assert kernel_perft(game, s, 3) == perft(game, s, 3), game.state_to_string(s)


def test_kernel_keeps_the_contract_and_the_readable_evaluation(game) -> None:
    from gamesearch.testing import check_kernel

    report = check_kernel(game, game.kernel, playouts=40, seed=3)
    assert report.checks["kernel-play"] > 1000 and report.checks["kernel-evaluate"] > 1000


@pytest.mark.parametrize("fen", ["W:WK1,K3,K11,K19:B6,7,14,15,22,23",  # kings with many paths
                                 "B:WK5,6,7,14,15,22,23:BK1,K18"])
def test_kernel_moves_equal_the_rules_where_kings_can_jump_many_ways(game, fen: str) -> None:
    import numpy as np

    k = game.kernel
    s = game.state_from_string(fen)
    out = np.zeros(k.max_actions, np.int64)
    n = k.primitives.legal(k.encode(s), out)
    assert sorted(k.decode(int(a)) for a in out[:n]) == sorted(game.actions(s))


def test_the_bulk_count_equals_the_generated_moves(game) -> None:
    """perft's last ply counts moves by whole-board shifts; it must equal the generator
    wherever there is no capture, and step aside (-1) wherever there is one."""
    import random

    import numpy as np

    k = game.kernel
    rng, out, seen = random.Random(7), np.zeros(k.max_actions, np.int64), {True: 0, False: 0}
    for _ in range(60):
        state = game.initial_state()
        while not game.is_terminal(state):
            black, white, kings, mover, _ = k.encode(state)
            n = k.primitives.generate(black, white, kings, mover, out)
            capture = n > 0 and bool(out[0] & (1 << 10))
            bulk = k.primitives.count_quiet(black, white, kings, mover)
            assert bulk == (-1 if capture else n), game.state_to_string(state)
            seen[capture] += 1
            state = game.result(state, rng.choice(game.actions(state)))
    assert seen[True] > 500 and seen[False] > 500


def test_a_kings_circular_capture_ends_on_its_start_square(game) -> None:
    """The 5-piece table build found it: a king that jumps four pieces round a loop lands
    where it began, and must still be on the board (the kernel once lost it)."""
    import numpy as np

    k = game.kernel
    s = game.state_from_string("B:WK9,K10,K17,K18:BK6")
    out = np.zeros(k.max_actions, np.int64)
    n = k.primitives.legal(k.encode(s), out)
    ends = []
    for a in out[:n]:
        move = k.decode(int(a))
        assert k.encode(game.result(s, move)) == tuple(k.primitives.play(k.encode(s), a))
        ends.append(move.split("x")[-1])
    assert "6" in ends  # the loop back to square 6 is one of the moves


def test_compiled_search_equals_the_readable_search(game) -> None:
    from gamesearch.kernels.search import kernel_alphabeta
    from gamesearch.search.alphabeta import alphabeta

    for fen in ("B:W21-32:B1-12", "W:W9:BK30", "B:W18,24,27,K30:B12,16,20"):
        s = game.state_from_string(fen)
        fast, slow = kernel_alphabeta(game, s, depth=5), alphabeta(game, s, depth=5)
        assert fast.value == pytest.approx(slow.value) and fast.action == slow.action, fen
