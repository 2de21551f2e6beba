"""The compiled Connect Four kernel against the pure-Python rules and search (the spec)."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import Clock
from gamesearch.games.connect4 import ConnectFour
from gamesearch.kernels.search import KernelTable, kernel_alphabeta, kernel_mcts
from gamesearch.search.alphabeta import alphabeta

GAME = ConnectFour()
KERNEL = GAME.kernel


def random_position(rng: random.Random, game: ConnectFour = GAME, stones: int | None = None,
                    live: bool = False):
    """A position reached by random moves; ``live``: only moves that do not end the game."""
    target = rng.randrange(game.cells + 1) if stones is None else stones
    s = game.initial_state()
    for _ in range(target):
        if game.is_terminal(s):
            break
        children = [game.result(s, a) for a in game.actions(s)]
        if live:
            children = [c for c in children if not game.is_terminal(c)]
            if not children:
                break
        s = rng.choice(children)
    return s


def test_primitives_match_the_pure_rules_on_thousands_of_positions():
    p = KERNEL.primitives
    out = np.zeros(7, np.int64)
    rng = random.Random(1)
    for _ in range(3000):
        s = random_position(rng)
        k = KERNEL.encode(s)
        assert bool(p.is_terminal(k)) == GAME.is_terminal(s)
        assert p.key(k) == s[0] + s[1]
        assert p.to_move(k) == GAME.to_move(s)
        if GAME.is_terminal(s):
            assert p.terminal_value(k) == GAME.utilities(s)[GAME.to_move(s)]
            continue
        assert p.evaluate(k) == pytest.approx(GAME.evaluate(s, GAME.to_move(s)), abs=1e-12)
        n = p.legal(k, out)
        assert list(out[:n]) == GAME.order_actions(s, GAME.actions(s))
        for a in GAME.actions(s):
            assert tuple(int(x) for x in p.play(k, a)) == KERNEL.encode(GAME.result(s, a))


def pure_child_values(s, depth):
    """The value of each move for the player to move, by the pure MAX/MIN alpha-beta
    (depth None: exact, with its table)."""
    me = GAME.to_move(s)
    values = {}
    for a in GAME.actions(s):
        child = GAME.result(s, a)
        if GAME.is_terminal(child):
            values[a] = GAME.utilities(child)[me]
        elif depth is None:
            values[a] = -alphabeta(GAME, child).value
        elif depth == 1:
            values[a] = GAME.evaluate(child, me)
        else:
            values[a] = -alphabeta(GAME, child, depth=depth - 1, tt=False).value
    return values


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**9), depth=st.integers(1, 3))
def test_depth_limited_values_and_unique_best_moves_match_pure_alphabeta(seed, depth):
    s = random_position(random.Random(seed), live=True)
    pure = alphabeta(GAME, s, depth=depth, tt=False)
    fast = kernel_alphabeta(GAME, s, depth=depth, tt=False, pvs=False)
    assert fast.value == pytest.approx(pure.value, abs=1e-12)
    values = pure_child_values(s, depth)
    best = max(values.values())
    winners = [a for a, v in values.items() if abs(v - best) < 1e-12]
    assert best == pytest.approx(pure.value, abs=1e-12)
    if len(winners) == 1:
        assert fast.action == winners[0]
    pvs = kernel_alphabeta(GAME, s, depth=depth, tt=True, pvs=True, table=KernelTable(1))
    assert pvs.value == pytest.approx(pure.value, abs=1e-12)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**9), stones=st.integers(33, 41))
def test_exact_values_near_the_end_match_pure_alphabeta(seed, stones):
    s = random_position(random.Random(seed), stones=stones, live=True)
    pure = alphabeta(GAME, s)
    fast = kernel_alphabeta(GAME, s, table=KernelTable(1))
    assert fast.value == pure.value
    values = pure_child_values(s, None)
    assert values[fast.action] == pure.value  # the chosen move keeps the value


def test_iterative_deepening_stops_when_the_value_is_proven():
    s = GAME.state_from_string("2252576253462244111563365343671351441")  # End-Easy line 1
    result = kernel_alphabeta(GAME, s, time=5)
    assert result.value == -1  # Pons' benchmark score
    assert result.stats.depth < 10


def test_compiled_mcts_takes_the_winning_move():
    s = GAME.state_from_string("445566")  # X wins at once with column 3 or 7
    result = kernel_mcts(GAME, s, simulations=20000, seed=3)
    assert result.action in (2, 6)
    assert result.stats.iterations == 20000
    assert sum(1 for _ in result.action_values) == 7


def test_time_budget_abandons_an_iteration_that_does_not_fit():
    """From the empty board no iteration proves the value: the clock ends the search inside
    an iteration, and what comes back is the deepest finished one, unchanged by the rest."""
    s = GAME.initial_state()
    kernel_alphabeta(GAME, s, depth=1)  # compile first (run alone, e.g. under xdist)
    clock = Clock()
    result = kernel_alphabeta(GAME, s, time=0.4)
    assert result.stats.extra["abandoned"]
    clock.kept(0.4, 0.4 + 0.3)  # by the wall clock, or the CPU time where it was starved
    fixed = kernel_alphabeta(GAME, s, depth=result.stats.depth)
    assert (result.value, result.action) == (fixed.value, fixed.action)


def test_deepening_yields_every_depth_and_a_stop_ends_it_inside_one():
    """The live view's generator: one result per completed depth, each worth what a search
    to that depth alone finds (the move may differ among equals: the table orders moves);
    a stop request ends the running depth within milliseconds (compiled code cannot poll
    Python: a watcher thread moves its deadline)."""
    from gamesearch.kernels.search import kernel_deepening

    s = GAME.initial_state()
    kernel_alphabeta(GAME, s, depth=1)  # compiled before the clock runs
    steps = list(kernel_deepening(GAME, s, depth=6, time=60))
    assert [r.stats.depth for r in steps] == [1, 2, 3, 4, 5, 6]
    assert steps[-1].stopped_by == "depth" and not steps[-1].exact
    for r in steps[2:]:
        alone = kernel_alphabeta(GAME, s, depth=r.stats.depth)
        assert r.value == alone.value
    # The request turns on only in the watcher's own poll (after 0.3 s), so it lands inside
    # a running depth: a flag set by a timer could land in the watcher's 10 ms poll gap
    # just as a depth finished, and the search then rightly stops between depths with
    # nothing abandoned (seen once, on a loaded machine).
    asked = threading.Event()

    def stop() -> bool:
        if threading.current_thread().name == "kernel-stop-watcher" \
                and time.perf_counter() - start > 0.3:
            asked.set()
        return asked.is_set()

    for _ in range(3):  # a depth that ended just as the watcher moved the deadline (CI, once)
        asked.clear()  # stops between depths with nothing abandoned: ask again
        start = time.perf_counter()
        clock = Clock()
        seen = list(kernel_deepening(GAME, s, time=30, stop=stop))
        if seen[-1].stats.extra["abandoned"]:
            break
    assert seen[-1].stopped_by == "stop" and seen[-1].stats.extra["abandoned"]
    clock.kept(0.3, 0.25)  # stopped inside a depth, not at the 30 s budget
    assert [r.stats.depth for r in seen[:-1]] == list(range(1, len(seen)))
    assert not [t for t in threading.enumerate() if t.name == "kernel-stop-watcher"]
