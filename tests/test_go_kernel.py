"""Go's compiled board (issue 18) against the readable rules: the same boards after the
same moves, the same legal points (the rules may forbid more: positional superko), ko,
captures of big chains, and play-outs that end in legal, fully played positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamesearch.games.go import kernel as K
from gamesearch.games.go.rules import Go, every_chain_has_a_liberty


@pytest.mark.parametrize("size, seed", [(5, 1), (7, 2), (9, 3), (19, 4)])
def test_random_games_give_the_rules_boards_and_legal_points(size: int, seed: int) -> None:
    game, rng = Go(size=size, komi=0.5), random.Random(seed)
    np.random.seed(seed)
    for _ in range(4 if size < 19 else 1):
        B, state = K.new_board(size), game.initial_state()
        while not game.is_terminal(state):
            colour = K.BLACK if state[1] == 0 else K.WHITE
            kernel_legal = {K.to_point(p, size) for p in B[7][:B[9][K.N_EMPTY]]
                            if K.is_legal(B, p, colour)}
            rules_legal = set(game.actions(state)) - {game.pass_action}
            assert rules_legal <= kernel_legal  # superko may forbid more
            assert len(kernel_legal - rules_legal) <= 1  # only the ko retake, if any
            moves = sorted(rules_legal)
            point = rng.choice(moves) if moves and rng.random() < 0.97 else game.pass_action
            state = game.result(state, point)
            K.play(B, -1 if point == game.pass_action else K.from_point(point, size), colour)
            assert K.cells(B) == state[0]
            assert sorted(B[7][:B[9][K.N_EMPTY]]) == sorted(
                K.from_point(p, size) for p, c in enumerate(state[0]) if c == ".")


def test_ko_cannot_be_retaken_at_once() -> None:
    game = Go(size=5)
    B = K.new_board(5)
    state = game.initial_state()
    for move in ("B3", "C3", "C4", "D4", "C2", "D2", "A1", "E3", "D3"):
        point = game.string_to_action(state, move)
        K.play(B, K.from_point(point, 5), K.BLACK if state[1] == 0 else K.WHITE)
        state = game.result(state, point)
    c3 = K.from_point(game.string_to_action(game.initial_state(), "C3"), 5)
    assert B[9][K.KO] == c3 and not K.is_legal(B, c3, K.WHITE)


def test_play_outs_end_in_legal_positions_with_only_eyes_left() -> None:
    for size in (5, 9, 13):
        np.random.seed(size)
        B = K.new_board(size)
        first = np.zeros(B[0].shape[0], np.int8)
        score = K.playout(B, 3 * size * size, first)
        text = K.cells(B)
        assert every_chain_has_a_liberty(text, size)
        assert B[9][K.PASSES] == 2  # nothing but eyes left to play
        rules = Go(size=size, komi=0)
        assert score == rules.score((text, 0, 2, 0, frozenset()))  # area, as the rules count
        assert set(first[B[0] == K.BORDER]) == {0}


def test_a_big_chain_is_captured_and_its_liberties_given_back() -> None:
    game = Go(size=5)  # Black's four stones along the top, their last liberty E5
    state = game.state_from_string("XXXX./OOOOO/...../...../..... w")
    B = K.from_state(state, 5)
    e5 = K.from_point(game.string_to_action(state, "E5"), 5)
    assert K.play(B, e5, K.WHITE) == 4
    assert K.cells(B) == game.result(state, game.string_to_action(state, "E5"))[0]


def test_the_compiled_search_takes_a_big_chain_in_atari() -> None:
    from gamesearch.agents import make_agent

    game = Go(size=7, komi=0.5)
    # White's six stones on the second row have one liberty left, at G6; Black to move
    state = game.state_from_string("XXXXXXX/OOOOOO./XXXXXX./......./......./......./"
                                   "....... b")
    result = make_agent("go-mcts:playouts=3000,seed=1")(game, state)
    assert game.action_to_string(state, result.action) == "G6" and result.value > 0.5


def test_the_compiled_search_beats_random_play_and_keeps_to_its_budget() -> None:
    from gamesearch.agents import make_agent
    from gamesearch.arena.match import run_match

    result = run_match(Go(size=5, komi=0.5), "go-mcts:playouts=2000,seed=3", "random:seed=4",
                       games=4, seed=1)
    assert result.wins == 4
    agent = make_agent("go-mcts:playouts=512,seed=1")
    game = Go(size=9)
    assert agent(game, game.initial_state()).stats.iterations == 512


@pytest.mark.parametrize("size, seed", [(5, 11), (9, 12)])
def test_self_atari_agrees_with_the_rules(size: int, seed: int) -> None:
    """The play-outs' self-atari test, against the readable rules: after the move, the
    chain holding it has two or more stones, one liberty, and the move took nothing."""
    from gamesearch.games.go.rules import chain_and_liberties

    game, rng = Go(size=size, komi=0.5), random.Random(seed)
    checked = flagged = 0
    for _ in range(6):
        B, state = K.new_board(size), game.initial_state()
        while not game.is_terminal(state):
            colour = K.BLACK if state[1] == 0 else K.WHITE
            for point in set(game.actions(state)) - {game.pass_action}:
                after = game.play_stone(state[0], state[1], point)
                chain, liberties = chain_and_liberties(after, size, point)
                took = after.count(".") > state[0].count(".") - 1
                expected = len(chain) >= 2 and len(liberties) == 1 and not took
                assert K.self_atari(B, K.from_point(point, size), colour) == expected, \
                    (state[0], point)
                checked += 1
                flagged += expected
            moves = sorted(set(game.actions(state)) - {game.pass_action})
            point = rng.choice(moves) if moves and rng.random() < 0.97 else game.pass_action
            state = game.result(state, point)
            K.play(B, -1 if point == game.pass_action else K.from_point(point, size), colour)
    assert checked > 1000 and flagged > 20  # the test met real self-ataris


def test_the_tree_is_kept_for_the_next_move() -> None:
    """After our move and a reply the tree holds, the search starts from that reply's
    subtree: its visits are kept, every node keeps its move and its children's moves."""
    from gamesearch.engines.go.mcts import GoMCTSAgent

    game = Go(size=5, komi=0.5)
    agent = GoMCTSAgent(playouts=3000, seed=1)
    state = game.initial_state()
    first = agent(game, state)
    assert first.stats.extra["reused"] == 0
    tree, stats, ours = agent.tree, agent.stats, agent.kept[4]
    after = game.result(state, first.action)
    kids = range(tree[1][ours], tree[1][ours] + tree[2][ours])
    reply = max(kids, key=lambda c: stats[0][c])  # the reply we searched most
    expected = stats[0][reply]
    old = [(int(tree[0][c]), stats[0][c]) for c in range(tree[1][reply],
                                                          tree[1][reply] + tree[2][reply])]
    mover = agent._action(game, int(tree[0][reply]))
    second = agent(game, game.result(after, mover))
    assert second.stats.extra["reused"] == expected > 10
    new_tree, new_stats = agent.tree, agent.stats
    new = [int(new_tree[0][c]) for c in range(new_tree[1][0],
                                             new_tree[1][0] + new_tree[2][0])]
    assert new == [m for m, _ in old]  # the same children, in the same order
    assert new_stats[0][0] >= expected + 3000 - 1  # kept visits plus this move's
    fresh = GoMCTSAgent(playouts=3000, seed=1, reuse=False)
    fresh(game, state)
    assert fresh(game, game.result(after, mover)).stats.extra["reused"] == 0


def test_first_play_urgency_zero_lets_amaf_concentrate_the_search() -> None:
    """fpu=1 tries each of the ~80 children of a 9x9 node once before any twice; with fpu=0
    the AMAF values choose, so the most visited root move gets a larger share, and the
    capture above is still found."""
    from gamesearch.agents import make_agent
    from gamesearch.errors import GameSearchError

    game = Go(size=9)
    shares = {}
    for fpu in (1, 0):
        agent = make_agent(f"go-mcts:playouts=2000,seed=2,reuse=false,fpu={fpu}")
        _, visits, _, done = agent.search(game, game.initial_state(), playouts=2000)
        shares[fpu] = visits.max() / done
    assert shares[0] > 2 * shares[1], shares
    small = Go(size=7, komi=0.5)
    state = small.state_from_string("XXXXXXX/OOOOOO./XXXXXX./......./......./......./"
                                    "....... b")
    result = make_agent("go-mcts:playouts=3000,seed=1,fpu=0")(small, state)
    assert small.action_to_string(state, result.action) == "G6"
    with pytest.raises(GameSearchError, match="fpu"):
        make_agent("go-mcts:fpu=-1")


def _expected_prior(game: Go, cells: str, mover: int, p: int) -> tuple[float, float]:
    """The prior kernel.prior should give, worked out with the readable rules' chains."""
    from gamesearch.games.go.rules import chain_and_liberties, neighbours

    size = game.size
    own, other = "XO"[mover], "OX"[mover]
    after = game.play_stone(cells, mover, p)
    assert after is not None
    if after.count(other) < cells.count(other):
        return 1.0, 2.0  # a capture
    in_atari = any(cells[q] == own and len(chain_and_liberties(cells, size, q)[1]) == 1
                   for q in neighbours(size)[p])
    chain, liberties = chain_and_liberties(after, size, p)
    self_atari = len(chain) >= 2 and len(liberties) == 1
    if in_atari and not self_atari:
        return 1.0, 1.0
    if self_atari:
        return 0.0, 1.0
    B = K.from_state((cells, mover, 0, 0, frozenset()), size)
    if K.PATTERN_TABLE[K.pattern_code(B, K.from_point(p, size))]:
        return 0.8, 1.0
    r, c = divmod(p, size)
    if r in (0, size - 1) or c in (0, size - 1):
        near = [(r + dr, c + dc) for dr in range(-2, 3) for dc in range(-2, 3)
                if abs(dr) + abs(dc) <= 2]
        if all(cells[rr * size + cc] == "." for rr, cc in near
               if 0 <= rr < size and 0 <= cc < size):
            return 0.1, 1.0
    return 0.5, 0.0


def test_tree_prior_knowledge_matches_the_rules_chains() -> None:
    """kernel.prior (go-mcts's ``prior=N``) names captures, saves, self-ataris, patterns
    and empty first-line points as the readable rules' chains and liberties do, on every
    legal point of positions from random games."""
    game, rng = Go(size=9, komi=0.5), random.Random(18)
    seen: dict[tuple[float, float], int] = {}
    for _ in range(6):
        state = game.initial_state()
        for _ in range(rng.randrange(10, 90)):
            moves = [a for a in game.actions(state) if a != game.pass_action]
            if not moves or game.is_terminal(state):
                break
            state = game.result(state, rng.choice(moves))
        cells, mover = state[0], state[1]
        B = K.from_state(state, 9)
        colour = K.BLACK if mover == 0 else K.WHITE
        for p in range(81):
            kp = K.from_point(p, 9)
            if cells[p] != "." or not K.is_legal(B, kp, colour):
                continue
            got = K.prior(B, kp, colour)
            assert got == _expected_prior(game, cells, mover, p), (cells, mover, p)
            seen[got] = seen.get(got, 0) + 1
    assert len(seen) == 6, seen  # every kind met


def test_prior_knowledge_finds_the_capture_with_fewer_simulations() -> None:
    """With ``prior=20`` the capture that saves a big chain gets most of 300 simulations;
    a bad ``prior`` is one clear error."""
    from gamesearch.agents import make_agent
    from gamesearch.errors import GameSearchError

    small = Go(size=7, komi=0.5)
    state = small.state_from_string("XXXXXXX/OOOOOO./XXXXXX./......./......./......./"
                                    "....... b")
    shares = {}
    for prior in (0, 20):
        agent = make_agent(f"go-mcts:playouts=300,seed=3,reuse=false,prior={prior}")
        moves, visits, _, done = agent.search(small, state, playouts=300)
        g6 = K.from_point(small.string_to_action(state, "G6"), 7)
        shares[prior] = float(visits[list(moves).index(g6)]) / done
    assert shares[20] > 0.8 and shares[20] > shares[0], shares
    with pytest.raises(GameSearchError, match="prior"):
        make_agent("go-mcts:prior=-1")


def test_go_mcts_plays_on_in_a_lost_position_and_passes_to_end_a_won_game() -> None:
    """The pass has no AMAF statistics; its made-up AMAF value once made it the most
    visited move of every lost position (68% of the simulations here, a game against GNU
    Go level 10), and go-mcts passed while GNU Go took the board. Now the pass is judged by
    its own value, a lost position is played on, and a count won after the opponent's pass
    is ended at once."""
    from gamesearch.agents import make_agent

    game = Go(size=9, komi=7)
    lost = game.state_from_string(".XO....../XO.OX.O../OOO...O../XOOO.X..O/XXXXXXOO./"
                                  "...OOO..O/...OXXOO./...OX.XO./.....X..O b")
    agent = make_agent("go-mcts:playouts=2000,seed=1,reuse=false")
    moves, visits, _, done = agent.search(game, lost, playouts=2000)
    pass_share = float(visits[list(moves).index(-1)]) / done
    assert pass_share < 0.35, pass_share
    result = agent(game, lost)
    assert result.action != game.pass_action and result.value < -0.5
    small = Go(size=5, komi=0.5)
    state = small.result(small.initial_state(), small.string_to_action(
        small.initial_state(), "C3"))
    state = small.result(state, small.pass_action)  # White passes; Black owns the board
    result = make_agent("go-mcts:playouts=500,seed=1")(small, state)
    assert result.action == small.pass_action and result.value == 1.0


@pytest.mark.parametrize("size, legal", [(1, 1), (2, 57), (3, 12_675), (4, 24_318_165)])
def test_compiled_count_of_legal_positions_equals_tromp_and_farneback(size: int,
                                                                     legal: int) -> None:
    """OEIS A094777 (Tromp and Farnebäck, "Combinatorics of Go", 2006); 4x4 visits all
    43,046,721 boards (a few seconds)."""
    assert K.count_legal_positions(size) == legal


def test_the_count_refuses_boards_it_could_not_finish() -> None:
    with pytest.raises(ValueError, match="1..4"):
        K.count_legal_positions(5)


@pytest.mark.parametrize("size", [5, 9, 19])
def test_compiled_liberty_check_agrees_with_the_rules(size: int) -> None:
    rng = random.Random(size)
    stride = size + 2
    seen, stack = np.zeros(stride * stride, np.int64), np.empty(size * size, np.int64)
    verdicts = set()
    for stamp in range(1, 301):
        cells = "".join(rng.choice(".XO" if stamp % 2 else "..XO") for _ in range(size * size))
        B = K.new_board(size)
        colour = B[0].copy()
        for p, c in enumerate(cells):
            colour[K.from_point(p, size)] = ".XO".index(c)
        verdict = K._chains_breathe(colour, stride, seen, stamp, stack)
        assert verdict == every_chain_has_a_liberty(cells, size)
        verdicts.add(verdict)
    assert verdicts == {True, False}


def test_go_mcts_is_compiled_under_a_tag_that_covers_the_kernel() -> None:
    """numba keys a cached function on its own file: go-mcts's compiled search holds the Go
    kernel and its pattern table, so its cache tag hashes both, and an edit to the kernel
    alone gives it a new tag (a new cache entry, not the old kernel compiled in)."""
    import inspect

    from gamesearch.engines.go import mcts
    from gamesearch.games.go import patterns
    from gamesearch.kernels.specialize import source_tag

    tags = {f.py_func.specialize_tag for f in (mcts._expand, mcts._select, mcts.simulate,
                                               mcts.subtree)}
    assert tags == {"go_mcts_" + source_tag(*mcts.TEMPLATES, K, patterns)}
    edited = (K.__name__, inspect.getsource(K) + "\n# an edit\n")
    assert "go_mcts_" + source_tag(*mcts.TEMPLATES, edited, patterns) not in tags
    # the kernel itself holds the pattern table: its tag covers patterns.py
    assert {f.py_func.specialize_tag for f in (K.play, K.pattern_move, K.prior)} == \
        {"go_kernel_" + source_tag(*K.TEMPLATES, patterns)}
