"""The fast paths of alpha-beta, tic-tac-toe and Connect Four agree with plain references.

Covers what the speed work changed: Connect Four's unrolled four-in-a-row test and its move
lists, tic-tac-toe's table-driven moves and its symmetric transposition key, and alpha-beta's
handling of a key that merges symmetric states (its stored move then only orders moves;
principal variations are rebuilt from the table's values and must stay legal and optimal).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import PREFERRED, SYMMETRY_TABLES, TicTacToe
from gamesearch.search import alphabeta, iterative_deepening, minimax, mtdf
from gamesearch.search.alphabeta import AlphaBeta
from gamesearch.search.tt import TranspositionTable

# --- Connect Four ------------------------------------------------------------------------------


def four_by_scan(game: ConnectFour, stones: int) -> bool:
    """Four in a row by looking at every cell and direction (the slow, obvious way)."""
    def has(c: int, r: int) -> bool:
        return 0 <= c < game.width and 0 <= r < game.height and stones >> (c * game.h1 + r) & 1

    return any(all(has(c + k * dc, r + k * dr) for k in range(4))
               for c in range(game.width) for r in range(game.height)
               for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))


@pytest.mark.parametrize("size", [(7, 6), (4, 4), (9, 8), (5, 7)])
def test_unrolled_four_in_a_row_matches_a_scan(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    cells = [c * game.h1 + r for c in range(game.width) for r in range(game.height)]
    rng = random.Random(size[0] * 10 + size[1])
    found = 0
    for _ in range(1500):
        stones = sum(1 << i for i in rng.sample(cells, rng.randint(0, len(cells) // 2)))
        expected = four_by_scan(game, stones)
        assert game.aligned(stones) == expected, (size, bin(stones))
        found += expected
    assert 100 < found < 1400  # both answers were exercised


def evaluate_by_windows(game: ConnectFour, state: tuple, player: int) -> float:
    """The evaluation's definition, window by window: open windows score 1/4/16/64."""
    current, mask, moves, _ = state
    mine = current if (moves & 1) == player else current ^ mask
    theirs = mine ^ mask
    score = 0
    for window in game.windows():
        a, b = (window & mine).bit_count(), (window & theirs).bit_count()
        if b == 0 and a:
            score += 4 ** (a - 1)
        elif a == 0 and b:
            score -= 4 ** (b - 1)
    return max(-0.99, min(0.99, score / 200))


@pytest.mark.parametrize("size", [(7, 6), (4, 4), (9, 8), (5, 7)])
def test_bitboard_evaluation_matches_the_window_definition(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    # windows of four in a row on a W x H board: W(H-3) + H(W-3) + 2(W-3)(H-3)
    w, h = size
    assert len(game.windows()) == w * (h - 3) + h * (w - 3) + 2 * (w - 3) * (h - 3)
    rng = random.Random(sum(size))
    values = set()
    for _ in range(400):
        state = game.initial_state()
        for _ in range(rng.randint(0, game.cells)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        for player in (0, 1):
            expected = evaluate_by_windows(game, state, player)
            assert game.evaluate(state, player) == expected
            values.add(expected)
    assert len(values) > 50  # many different scores were compared


def test_connect4_moves_and_centre_first_order() -> None:
    game = ConnectFour()
    rng = random.Random(3)
    for _ in range(300):
        state = game.initial_state()
        for _ in range(rng.randint(0, 41)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        open_columns = [c for c in range(7) if len([m for m in range(6)
                        if state[1] >> (c * 7 + m) & 1]) < 6]
        assert game.actions(state) == open_columns
        for subset in (open_columns, open_columns[::2]):
            ordered = game.order_actions(state, subset)
            assert sorted(ordered) == sorted(subset)
            assert ordered == sorted(subset, key=lambda c: (abs(c - 3), c))


# Pascal Pons' benchmark positions with their published scores ("Solving Connect 4: how to
# build a perfect AI", test sets Test_L3_R1 End-Easy, lines 1-12, and Test_L2_R1 Middle-Easy,
# lines 1-3): columns played from the empty board, and the exact score for the mover.
PONS_POSITIONS = [
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("71255763773133525731261364622167124446454", 0),
    ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0),
    ("3135151421347443544172316522225776773566", 0),
    ("562154564361751726662253737734213275114", 0),
    ("233377345754465174223731671122611552", 1),
    ("6763525635134453444361412671365712", -1),
    ("211376455663355325112113664364524722", 0),
    ("3146762114467714356347741621375222", -1),
    ("5554224333234511764415115", 4),
    ("52753311433677442422121", 8),
    ("1233722555341451114725221333", -1),
]


@pytest.mark.parametrize("moves,score", PONS_POSITIONS)
def test_connect4_solves_match_published_scores(moves: str, score: int) -> None:
    game = ConnectFour()
    state = game.state_from_string(moves)
    result = alphabeta(game, state)
    assert result.value == score
    for action in result.pv:  # the principal variation is a legal line that keeps the score
        assert action in game.actions(state)
        state = game.result(state, action)
    if game.is_terminal(state):
        assert game.utilities(state)[game.to_move(game.state_from_string(moves))] == score


def test_connect4_alphabeta_equals_minimax_at_fixed_depth() -> None:
    game = ConnectFour()
    zero = lambda s, p: 0  # noqa: E731  (the benchmark's cut-off evaluation)
    for moves in ("", "4455", "32164625", "5554224333234511764415115"):
        state = game.state_from_string(moves)
        expected = minimax(game, state, depth=4, evaluate=zero).value
        heuristic = minimax(game, state, depth=3).value
        for options in ({}, {"tt": False}, {"null_window": "pvs"}):
            assert alphabeta(game, state, depth=4, evaluate=zero, **options).value == expected
            assert alphabeta(game, state, depth=3, **options).value == heuristic


# --- tic-tac-toe -------------------------------------------------------------------------------


def all_positions(game: TicTacToe) -> set:
    seen, stack = set(), [game.initial_state()]
    while stack:
        s = stack.pop()
        if s not in seen:
            seen.add(s)
            if not game.is_terminal(s):
                stack.extend(game.result(s, a) for a in game.actions(s))
    return seen


GAME = TicTacToe()
POSITIONS = all_positions(GAME)


@cache
def x_value(state: tuple[int, int]) -> int:
    """Tic-tac-toe solved by plain memoized minimax: the value for X."""
    if GAME.is_terminal(state):
        return GAME.utilities(state)[0]
    values = [x_value(GAME.result(state, a)) for a in GAME.actions(state)]
    return max(values) if GAME.to_move(state) == 0 else min(values)


def test_tictactoe_moves_tables() -> None:
    for x, o in POSITIONS:
        free = [i for i in range(9) if not (x | o) >> i & 1]
        assert GAME.actions((x, o)) == free
        assert GAME.order_actions((x, o), free) == [a for a in PREFERRED if a in free]
        assert GAME.order_actions((x, o), free[1:]) == [a for a in PREFERRED if a in free[1:]]


def test_symmetric_key_counts_the_published_positions() -> None:
    # Wikipedia, "Tic-tac-toe" (Combinatorics): 5,478 legal positions; 765 essentially
    # different positions up to rotation and reflection, 138 of them terminal.
    assert len(POSITIONS) == 5478
    assert len({GAME.state_key(s) for s in POSITIONS}) == 765
    assert len({GAME.state_key(s) for s in POSITIONS if GAME.is_terminal(s)}) == 138
    for x, o in random.Random(5).sample(sorted(POSITIONS), 200):
        assert {GAME.state_key((t[x], t[o])) for t in SYMMETRY_TABLES} == {GAME.state_key((x, o))}


def pv_problem(state: tuple[int, int], result, complete: bool) -> str | None:
    """What is wrong with a search result, by the memoized solution (None: nothing)."""
    sign = 1 if GAME.to_move(state) == 0 else -1
    if result.value != sign * x_value(state):
        return "value"
    if result.action not in GAME.actions(state):
        return "action"
    for action in result.pv:
        if GAME.is_terminal(state) or action not in GAME.actions(state):
            return "illegal"
        state = GAME.result(state, action)
        if sign * x_value(state) != result.value:
            return "a PV move gives up value"
    if complete and not GAME.is_terminal(state):
        return "incomplete"
    return None


def test_symmetric_key_keeps_every_pv_legal_optimal_and_complete() -> None:
    """Each position solved with a fresh table: value, action and whole PV are right."""
    assert not AlphaBeta(GAME).trust_tt_action
    for state in sorted(s for s in POSITIONS if not GAME.is_terminal(s)):
        assert pv_problem(state, alphabeta(GAME, state), complete=True) is None, state


def shared_table_problems(trust: bool) -> list:
    """Solve every position, in random order, with one table (so stored moves often come
    from symmetric images); the problems found, by kind."""
    table = TranspositionTable()
    states = sorted(s for s in POSITIONS if not GAME.is_terminal(s))
    random.Random(1).shuffle(states)
    problems = []
    for state in states:
        searcher = AlphaBeta(GAME, tt=table)
        searcher.trust_tt_action = trust
        problems.append(pv_problem(state, searcher.search(state, None), complete=False))
    return [p for p in problems if p]


def test_symmetric_key_with_a_shared_table_stays_correct() -> None:
    assert shared_table_problems(trust=False) == []
    # The guard matters: trusting moves stored for symmetric images gives wrong lines.
    assert shared_table_problems(trust=True)


def test_symmetric_key_under_iterative_deepening_and_mtdf() -> None:
    for state in random.Random(9).sample(sorted(s for s in POSITIONS
                                                if not GAME.is_terminal(s)), 150):
        results = list(iterative_deepening(GAME, state))
        assert pv_problem(state, results[-1], complete=False) is None
        assert pv_problem(state, mtdf(GAME, state), complete=False) is None
        timed = alphabeta(GAME, state, time=0.5)
        assert timed.action in GAME.actions(state)


def test_a_stop_request_ends_iterative_deepening_inside_an_iteration():
    """The web app's "Move now" / closed view: ``stop`` is polled during the search, so the
    deepening ends inside the running iteration and yields the deepest finished one."""
    game = ConnectFour()
    seen = []

    def stop() -> bool:
        return len(seen) >= 5  # asked during depth 6 (thousands of nodes: polled)

    for result in iterative_deepening(game, game.initial_state(), stop=stop):
        seen.append(result)
    assert [r.stats.depth for r in seen] == [1, 2, 3, 4, 5, 5]  # the last: the final answer
    assert seen[-1].action == seen[-2].action and seen[-1].value == seen[-2].value
