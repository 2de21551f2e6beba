"""Othello's exact endgame solver against exhaustive minimax on the readable rules, and
against the published FFO scores (tests/data/othello_ffo_40_59.txt, from Edax's files)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from gamesearch.engines.othello.solver import Table, solve_entry, solve_position
from gamesearch.errors import GameSearchError
from gamesearch.games import game_entry, load_game
from gamesearch.games.othello.kernel import decode_action, encode_state

FFO = Path(__file__).parent / "data" / "othello_ffo_40_59.txt"


def exact(game, state) -> int:
    """The final disc difference for the side to move, by plain minimax over the rules."""
    if game.is_terminal(state):
        score = game.final_score(state)
        return score if game.to_move(state) == 0 else -score
    return max(-exact(game, game.result(state, a)) for a in game.actions(state))


def random_position(game, empties: int, rng: random.Random):
    state = game.initial_state()
    while state[0].count("-") > empties and not game.is_terminal(state):
        state = game.result(state, rng.choice(game.actions(state)))
    return state


@pytest.mark.parametrize("size, empties, seed", [(8, 7, s) for s in range(6)] +
                         [(6, 8, s) for s in range(3)])
def test_solver_equals_minimax_over_the_rules(size: int, empties: int, seed: int) -> None:
    game = load_game(f"othello:size={size}")
    state = random_position(game, empties, random.Random(seed))
    want = exact(game, state)
    got = solve_entry(game, state, {})
    assert got["value"] == want
    if not game.is_terminal(state):  # the move named is a best one
        move = game.string_to_action(state, got["best_move"])
        assert -exact(game, game.result(state, move)) == want
    me, opp, _ = encode_state(state, size)
    for alpha, beta in ((-64, want - 1), (want + 1, 64)):  # fail-soft bounds hold
        if alpha < beta:
            score = solve_position(int(me), int(opp), size, Table(12), alpha, beta)[0]
            assert (score <= want) if beta <= want else (score >= want)
    for guess in (-64, want - 6, want + 2, 64):  # any first probe finds the same score
        assert solve_position(int(me), int(opp), size, Table(12), guess=guess)[0] == want


def ffo_positions() -> list[tuple[str, int, list[str]]]:
    rows = []
    for line in FFO.read_text().splitlines():
        if line.startswith("#") and line[1].isdigit():
            number, board, side = line.split()[:3]
            fields = [f.strip() for f in line.split(";")[1:] if f.strip()]
            best = int(fields[0].split(":")[1])
            moves = [f.split(":")[0].lower() for f in fields if int(f.split(":")[1]) == best]
            rows.append((f"{board} {side.rstrip(';')}", best, moves))
    return rows


def test_ffo_file_holds_the_twenty_positions() -> None:
    rows = ffo_positions()
    assert len(rows) == 20 and rows[0][1] == 38 and rows[-1][1] == 64
    game = load_game("othello")
    assert [game.state_from_string(b)[0].count("-") for b, _, _ in rows][:3] == [20, 22, 22]


def test_ffo_40_after_its_best_moves() -> None:
    """#40 is +38 for black after a2; two plies later (a2 b1, a solved line of Edax's
    principal variation) the score is still 38: a 18-empty solve, fast."""
    game = load_game("othello")
    board, best, moves = ffo_positions()[0]
    state = game.state_from_string(board)
    after = game.result(state, game.string_to_action(state, "a2"))
    assert solve_entry(game, after, {})["value"] == -best
    after = game.result(after, game.string_to_action(after, "b1"))
    assert solve_entry(game, after, {})["value"] == best


@pytest.mark.slow
def test_ffo_40_exact() -> None:
    game = load_game("othello")
    board, best, moves = ffo_positions()[0]
    got = solve_entry(game, game.state_from_string(board), {"table": 22})
    assert got["value"] == best and got["best_move"] in moves


def test_the_first_guess_is_a_shallow_search_near_the_score() -> None:
    """The exact solve's first probe (engine.first_guess): the pattern search's value,
    even, near FFO #40's +38 (33.6-34.6 at depths 6-10); 0 below 14 empties."""
    from gamesearch.engines.othello.engine import first_guess

    game = load_game("othello")
    board, best, _ = ffo_positions()[0]
    me, opp, _ = encode_state(game.state_from_string(board), 8)
    guess = first_guess(int(me), int(opp))
    assert guess % 2 == 0 and abs(guess - best) <= 8
    state = random_position(game, 12, random.Random(1))
    me, opp, _ = encode_state(state, 8)
    assert first_guess(int(me), int(opp)) == 0


def test_solve_refuses_an_opening_position_and_is_registered() -> None:
    game = load_game("othello")
    assert game_entry("othello").solver is not None
    with pytest.raises(GameSearchError, match="empty squares"):
        solve_entry(game, game.initial_state(), {})


@pytest.mark.parametrize("size", [8, 6])
def test_flips_and_mobility_equal_the_kernels(size: int) -> None:
    """The solver's ray-mask flips and written-out move generation against the kernel's
    direction walks, on positions from random games (both sides to move)."""
    from gamesearch.engines.othello.solver import compiled
    from gamesearch.games.othello import kernel as K

    game, prims, ns = load_game(f"othello:size={size}"), K.primitives(size), compiled(size)
    rng = random.Random(size)
    for _ in range(40):
        state = random_position(game, rng.randrange(0, size * size - 4), rng)
        me, opp, _ = encode_state(state, size)
        for a, b in ((me, opp), (opp, me)):
            assert ns.mobility(a, b) == prims.moves_of(a, b)
            for sq in range(64):
                if (int(K.valid_mask(size)) >> sq) & 1 and not (int(a | b) >> sq) & 1:
                    assert ns.flips(a, b, sq) == prims.flips_of(a, b, sq), sq


def kernel_negamax(prims, me, opp, passed: bool = False) -> int:
    """Plain negamax over the kernel's primitives: the exact score for ``me``."""
    moves = int(prims.moves_of(me, opp))
    if not moves:
        if passed:
            return int(prims.disc_margin(me, opp))
        return -kernel_negamax(prims, opp, me, True)
    best = -100
    while moves:
        sq = (moves & -moves).bit_length() - 1
        moves &= moves - 1
        f = prims.flips_of(me, opp, sq)
        best = max(best, -kernel_negamax(prims, opp ^ f, me | f | np.uint64(1 << sq)))
    return best


@pytest.mark.parametrize("size", [8, 6])
def test_last_empties_equal_plain_negamax(size: int) -> None:
    """1-8 empties (the root's children reach the unrolled code for the last six, passes
    and ends of game among them), with full and null windows."""
    from gamesearch.games.othello import kernel as K

    game, prims = load_game(f"othello:size={size}"), K.primitives(size)
    rng = random.Random(17 + size)
    for i in range(60):
        state = random_position(game, 1 + i % 8, rng)
        me, opp, _ = encode_state(state, size)
        want = kernel_negamax(prims, me, opp)
        assert solve_position(int(me), int(opp), size, Table(10))[0] == want
        for alpha in (want - 1, want):  # null windows on both sides of the score
            got = solve_position(int(me), int(opp), size, Table(10), alpha, alpha + 1)[0]
            assert (got > alpha) == (want > alpha)


def test_a_solve_with_a_deadline_is_abandoned_or_equals_the_plain_solve() -> None:
    """``solve_by`` reads the clock inside the search: a deadline already passed abandons
    a 20-empty solve (None) within a few thousand nodes' time; without one, and with a
    deadline far off, it gives the plain solve's score; a win/loss/draw solve (-1..1) has
    the exact score's sign and, for a win, a move whose exact score is a win."""
    import time

    from gamesearch.engines.othello.solver import solve_by

    game = load_game("othello")
    board, best, moves = ffo_positions()[0]  # 20 empties, +38
    me, opp, _ = encode_state(game.state_from_string(board), 8)
    assert solve_by(int(me), int(opp), time.perf_counter() - 1.0, table=Table(16)) is None
    # timed again once compiled (or loaded from numba's cache), in this process's processor
    # time: a busy machine's wall clock measured a neighbour's work too (0.53 s once)
    began = time.process_time()
    assert solve_by(int(me), int(opp), time.perf_counter() - 1.0, table=Table(16)) is None
    assert time.process_time() - began < 0.5
    state = game.state_from_string(board)
    after = game.result(state, game.string_to_action(state, "a2"))
    after = game.result(after, game.string_to_action(after, "b1"))  # 18 empties, +38
    me, opp, _ = encode_state(after, 8)
    plain = solve_position(int(me), int(opp), table=Table(18))
    far = solve_by(int(me), int(opp), time.perf_counter() + 600, table=Table(18))
    assert far is not None and far[0] == plain[0] == best
    wld = solve_by(int(me), int(opp), None, table=Table(18), alpha=-1, beta=1)
    assert wld is not None and wld[0] >= 1
    child = game.result(after, decode_action(wld[1], 8))
    cme, copp, _ = encode_state(child, 8)
    assert -solve_position(int(cme), int(copp), table=Table(18))[0] > 0


def line_full(cells: int, size: int, sq: int, dr: int, dc: int) -> bool:
    """Whether the whole line through ``sq`` in direction ``(dr, dc)`` holds discs."""
    r, c = divmod(sq, 8)
    while 0 <= r - dr < size and 0 <= c - dc < size:
        r, c = r - dr, c - dc
    while 0 <= r < size and 0 <= c < size:
        if not (cells >> (r * 8 + c)) & 1:
            return False
        r, c = r + dr, c + dc
    return True


@pytest.mark.parametrize("size", [8, 6])
def test_full_lines_and_the_stability_bound(size: int) -> None:
    """``full_lines`` against a walk along each line; ``stable_bound`` holds the discs of
    ``stable_discs`` (the evaluation's) and never a disc that a random continuation of the
    game flips (its discs bound the solver's score)."""
    from gamesearch.engines.othello.solver import compiled
    from gamesearch.games.othello import kernel as K

    game, prims, ns = load_game(f"othello:size={size}"), K.primitives(size), compiled(size)
    rng = random.Random(41 + size)
    grew = 0
    for _ in range(60):
        state = random_position(game, rng.randrange(0, 16), rng)
        me, opp, _ = encode_state(state, size)
        disc = int(me | opp)
        lines = [int(x) for x in ns.full_lines(me | opp)]
        for sq in range(64):
            if (disc >> sq) & 1:
                for k, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
                    assert bool((lines[k] >> sq) & 1) == line_full(disc, size, sq, dr, dc)
        for a, b in ((me, opp), (opp, me)):
            stable, old = int(ns.stable_bound(a, b)), int(ns.stable_discs(a, b))
            assert stable & old == old and stable & ~int(a) == 0
            grew += stable != old
            for _ in range(5):  # random continuations: a stable disc keeps its colour
                x, y, a_moves = a, b, True  # x: the side to move
                while True:
                    moves = int(prims.moves_of(x, y))
                    if not moves:
                        if not int(prims.moves_of(y, x)):
                            break
                        x, y, a_moves = y, x, not a_moves
                        continue
                    sq = rng.choice([s for s in range(64) if (moves >> s) & 1])
                    f = prims.flips_of(x, y, sq)
                    x, y, a_moves = y ^ f, x | f | np.uint64(1 << sq), not a_moves
                    assert int(x if a_moves else y) & stable == stable
    assert grew > 0  # the full lines add discs somewhere


@pytest.mark.parametrize("score", [-64, -38, -12, -1, 0, 2, 6, 38, 64])
def test_the_probe_driver_finds_the_score_from_null_windows(score: int) -> None:
    """``probe_driver`` over a fake fail-soft search (each answer a random bound on the
    right side of its null window, or the score itself): the score inside the window, a
    bound on the right side outside it, and the move of a probe that reached its bound."""
    from gamesearch.engines.othello.solver import probe_driver

    rng = random.Random(score)

    def search(a: int, b: int) -> tuple[int, int, int]:
        if score >= b:
            return rng.randint(b, score), 1, 1
        return rng.randint(score, a), 2, 1

    windows = ((-64, 64), (-65, 65), (-10, 10), (score - 1, score + 1))
    for (alpha, beta), guess in itertools.product(windows, (0, -64, -20, 20, 64, 100)):
        got = probe_driver(search, alpha, beta, guess)
        assert got is not None
        value, move, nodes = got
        if alpha < score < beta:
            assert value == score and nodes >= 1
            assert move == 1  # from a probe that reached its bound
        elif score <= alpha:
            assert value <= alpha and value >= score
        else:
            assert value >= beta and value <= score
    assert probe_driver(lambda a, b: None, -64, 64) is None  # a deadline passed: no value


@pytest.mark.parametrize("seed", range(4))
def test_the_evaluation_order_changes_nodes_not_scores(seed: int) -> None:
    """At ``ORDER_MIN`` empties or more the moves are ordered by the pattern evaluation
    (a one-ply search's at ``ORDER_DEEP``): the score, and the move's worth, are those of
    the solve ordered by mobility alone, and the ordering is really used (the node count
    differs somewhere)."""
    from gamesearch.engines.othello import solver as S

    if S.ordering_tables(8) is S.NO_TABLES:
        pytest.skip("no pattern weights shipped")
    game = load_game("othello")
    rng = random.Random(100 + seed)
    differ = False
    for empties in (S.ORDER_MIN, S.ORDER_DEEP):  # the evaluation, the one-ply search
        state = random_position(game, empties, rng)
        if game.is_terminal(state):
            continue
        me, opp, _ = encode_state(state, 8)
        plain = solve_position(int(me), int(opp), table=Table(18), ordering=False)
        ordered = solve_position(int(me), int(opp), table=Table(18))
        assert ordered[0] == plain[0]
        differ |= ordered[2] != plain[2]
        child = game.result(state, decode_action(ordered[1], 8))
        cme, copp, _ = encode_state(child, 8)
        assert -solve_position(int(cme), int(copp), table=Table(18), ordering=False)[0] == plain[0]
    assert differ


def test_a_6x6_solve_has_no_evaluation_order() -> None:
    """The pattern tables are 8x8's: a 6x6 solve gets the 1x1 stand-in and still solves."""
    from gamesearch.engines.othello import solver as S

    assert S.ordering_tables(6) is S.NO_TABLES
    game = load_game("othello:size=6")
    state = random_position(game, 9, random.Random(5))
    me, opp, _ = encode_state(state, 6)
    assert solve_position(int(me), int(opp), 6, Table(12))[0] == exact(game, state)
