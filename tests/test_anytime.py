"""The one anytime driver (gamesearch.anytime): a fake step shows each of its promises, and
every engine on it answers a 1 ms budget with a legal move searched to depth 1 at least
(issue #38)."""

from __future__ import annotations

import threading
import time

import pytest

from budget import load_factor
from gamesearch.anytime import Budget, Pace, deepen, iterations
from gamesearch.result import Limit, SearchResult, SearchStats


class FakeStep:
    """Depth d costs ``cost(d)`` seconds of sleeping, checked against its budget every
    millisecond; it visits 10**d nodes in all so far. Records what it was given."""

    def __init__(self, cost=lambda d: 0.0, nodes=lambda d: 10 ** d, during=None) -> None:
        self.cost, self.nodes, self.during = cost, nodes, during
        self.budgets: dict[int, Budget] = {}

    def __call__(self, depth: int, budget: Budget) -> SearchResult | None:
        self.budgets[depth] = budget
        if self.during is not None:
            self.during(depth)
        ends = time.perf_counter() + self.cost(depth)
        while time.perf_counter() < ends:
            if budget.expired():
                return None
            time.sleep(0.001)
        return SearchResult(float(depth), f"move{depth}", [f"move{depth}"],
                            SearchStats(nodes=self.nodes(depth), depth=depth))


def test_depth_one_completes_under_a_deadline_already_passed() -> None:
    step = FakeStep(cost=lambda d: 0.02)
    result = deepen(step, Limit(time=1e-9))
    assert result.action == "move1" and result.stats.depth == 1
    assert result.stopped_by == "time"
    assert not step.budgets[1].limited  # nothing could cut depth 1
    assert 2 not in step.budgets or step.budgets[2].deadline is not None


def test_the_hard_deadline_is_armed_from_depth_two_on() -> None:
    step = FakeStep(cost=lambda d: 0.0 if d < 3 else 5.0)
    began = time.perf_counter()
    result = deepen(step, Limit(time=0.1))
    # depth 3 (5 s) was cut at the 0.1 s deadline; a loaded machine wakes the sleeper late
    assert time.perf_counter() - began < 0.1 + 0.9 * load_factor()
    assert result.stats.depth == 2 and result.stopped_by == "time"
    assert step.budgets[2].deadline == step.budgets[3].deadline is not None
    assert step.budgets[3].deadline - began < 0.1 + 0.1 * load_factor()


@pytest.mark.parametrize("as_event", [False, True])
def test_a_stop_set_mid_iteration_ends_it_and_returns_the_previous_depth(as_event) -> None:
    flag = threading.Event()
    stop = flag if as_event else flag.is_set
    timer = threading.Timer(0.15, flag.set)

    def during(depth: int) -> None:
        if depth == 3:
            timer.start()  # lands inside depth 3, which would take 5 s

    step = FakeStep(cost=lambda d: 5.0 if d == 3 else 0.0, during=during)
    began = time.perf_counter()
    result = deepen(step, Limit(time=60), stop=stop)
    assert time.perf_counter() - began < 2.0
    assert result.stats.depth == 2 and result.action == "move2"
    assert result.stopped_by == "stop"


def test_a_stop_during_depth_one_waits_for_it() -> None:
    flag = threading.Event()
    step = FakeStep(cost=lambda d: 0.05, during=lambda d: flag.set())
    result = deepen(step, Limit(time=60), stop=flag)
    assert result.stats.depth == 1 and result.stopped_by == "stop"
    assert list(step.budgets) == [1]


def test_the_soft_budget_refuses_an_iteration_predicted_to_overrun() -> None:
    # depths cost 0, 0, 40 ms; growth 10 predicts 400 ms for depth 4: it must not start
    step = FakeStep(cost=lambda d: (0.0, 0.0, 0.0, 0.04, 0.4)[d])
    result = deepen(step, Limit(time=0.3), pace=Pace(growth=10.0))
    assert result.stats.depth == 3 and result.stopped_by == "time"
    assert 4 not in step.budgets
    # without a prediction the same budget starts depth 4 and the deadline cuts it
    step = FakeStep(cost=lambda d: (0.0, 0.0, 0.0, 0.04, 0.4)[d])
    result = deepen(step, Limit(time=0.3), pace=Pace(growth=0.0))
    assert result.stats.depth == 3 and 4 in step.budgets


def test_the_soft_share_ends_the_search_before_the_time_limit() -> None:
    step = FakeStep(cost=lambda d: 0.03)
    result = deepen(step, Limit(time=0.2), pace=Pace(soft=0.25))
    assert result.stopped_by == "time"
    # stopped at the soft 50 ms, not at 200 ms (the fake sleeps: a busy machine wakes it late)
    assert 0.05 <= result.stats.seconds < 0.05 + 0.1 * load_factor()


def test_the_callback_sees_every_completed_depth_in_order() -> None:
    seen: list[int] = []
    step = FakeStep()
    result = deepen(step, Limit(depth=6), on_iteration=lambda r: seen.append(r.stats.depth))
    assert seen == [1, 2, 3, 4, 5, 6]
    assert result.stats.depth == 6 and result.stopped_by == "depth"


def test_a_true_answer_from_the_callback_stops_there() -> None:
    step = FakeStep()
    result = deepen(step, Limit(depth=9), on_iteration=lambda r: r.stats.depth == 3)
    assert result.stats.depth == 3 and result.stopped_by == "stop"
    assert 4 not in step.budgets


def test_a_node_limit_ends_the_search_and_reaches_the_step() -> None:
    step = FakeStep()
    result = deepen(step, Limit(nodes=5_000))
    assert result.stats.depth == 4 and result.stopped_by == "nodes"  # 10**4 >= 5,000
    assert step.budgets[2].nodes == 5_000 and step.budgets[1].nodes is None


def test_a_step_that_proves_its_value_ends_the_search() -> None:
    def step(depth: int, budget: Budget) -> SearchResult:
        return SearchResult(1.0, "win", ["win"], SearchStats(depth=depth), exact=depth == 3,
                            stopped_by="end" if depth == 3 else None)

    results = list(iterations(step, Limit(depth=10)))
    assert [r.stats.depth for r in results] == [1, 2, 3]
    assert results[-1].stopped_by == "end" and results[-1].exact


def test_iterations_yield_each_depth_then_the_answer_once_more_on_time() -> None:
    step = FakeStep(cost=lambda d: 0.0 if d < 4 else 5.0)
    results = list(iterations(step, Limit(time=0.1)))
    assert [r.stats.depth for r in results] == [1, 2, 3, 3]
    assert [r.stopped_by for r in results] == [None, None, None, "time"]


def test_a_search_that_starts_deeper_is_never_cut_there() -> None:
    step = FakeStep(cost=lambda d: 0.05)
    result = deepen(step, Limit(depth=5, time=1e-9), depths=[5])
    assert list(step.budgets) == [5] and result.stats.depth == 5
    assert result.stopped_by == "depth"


def test_skipped_depths_are_not_searched() -> None:
    seen: list[int] = []
    step = FakeStep()
    result = deepen(step, Limit(depth=6), depths=range(1, 10, 2),
                    on_iteration=lambda r: seen.append(r.stats.depth))
    assert seen == [1, 3, 5] and result.stopped_by == "depth"


def test_a_bad_pace_is_refused() -> None:
    with pytest.raises(ValueError, match="pace"):
        Pace(growth=-1.0)
    with pytest.raises(ValueError, match="pace"):
        Pace(soft=0.0)


# --- every engine on the driver answers a 1 ms budget with a searched legal move ----------

BUDGET = 0.001


def test_chess_engine_answers_a_millisecond_budget() -> None:
    chess = pytest.importorskip("chess")
    from gamesearch.engines.chess.engine import ChessAgent

    agent = ChessAgent(time=BUDGET, hash_mb=1)
    agent.prepare(None)
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    result = agent(None, fen)
    assert chess.Move.from_uci(result.action) in chess.Board(fen).legal_moves
    assert result.stats.depth >= 1 and result.stats.nodes > 0
    assert result.stopped_by in ("time", "depth")


def test_checkers_engine_answers_a_millisecond_budget() -> None:
    from gamesearch.engines.checkers.engine import CheckersAgent
    from gamesearch.games import load_game

    game = load_game("checkers")
    agent = CheckersAgent(time=BUDGET, hash_mb=1)
    agent.prepare(game)
    state = game.initial_state()
    result = agent(game, state)
    assert result.action in game.actions(state)
    assert result.stats.depth >= 1 and result.stats.nodes > 0


def test_othello_engine_answers_a_millisecond_budget() -> None:
    from gamesearch.engines.othello.engine import OthelloAgent
    from gamesearch.games import load_game

    game = load_game("othello")
    agent = OthelloAgent(time=BUDGET)
    agent.prepare(game)
    state = game.initial_state()
    result = agent(game, state)
    assert result.action in game.actions(state)
    assert result.stats.depth >= 1 and result.stats.nodes > 0


def test_kernel_search_on_connect4_answers_a_millisecond_budget() -> None:
    from gamesearch.games import load_game
    from gamesearch.kernels.search import KernelTable, kernel_alphabeta

    game = load_game("connect4")
    state = game.initial_state()
    kernel_alphabeta(game, state, depth=1, table=KernelTable(1))  # compiled before the clock
    result = kernel_alphabeta(game, state, time=BUDGET, table=KernelTable(1))
    assert result.action in game.actions(state)
    assert result.stats.depth >= 1 and result.stats.nodes > 0
    assert result.stopped_by == "time"


def test_readable_alphabeta_answers_a_millisecond_budget() -> None:
    from gamesearch.games import load_game
    from gamesearch.search import alphabeta

    game = load_game("connect4")
    state = game.initial_state()
    result = alphabeta(game, state, time=BUDGET)
    assert result.action in game.actions(state) and result.value is not None
    assert result.stats.depth >= 1 and result.stats.nodes > 0
    assert result.stopped_by == "time"
