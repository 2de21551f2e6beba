"""One tournament budget (``anytime.Target``): the checkers ``target=T``, the Othello
``target=T`` and the chess clock each computed their soft and hard seconds by hand; they now
build them through the one type, and this file holds the three old formulas as the
specification: over a grid of inputs the new budgets are the same numbers, bit for bit."""

from __future__ import annotations

import types

import pytest

from gamesearch import anytime
from gamesearch.anytime import Target
from gamesearch.engines.checkers import engine as checkers
from gamesearch.engines.chess import engine as chess
from gamesearch.engines.othello import engine as othello
from gamesearch.errors import GameSearchError, SpecError
from gamesearch.result import Limit

TARGETS = (0.001, 0.05, 0.1, 0.2, 0.3, 1.0, 2.5, 7.0, 60.0)


def old_checkers(target: float, soft: float, hard: float) -> tuple[float, float]:
    """(hard, soft) seconds of ``checkers-engine:target=T,soft=S,hard=H`` before Target."""
    return hard * target, soft * target


def old_othello(target: float, spent: float) -> tuple[float, float]:
    """(hard, soft) of ``othello:target=T`` with ``spent`` seconds of the move gone (an
    early solve tried) before Target."""
    left = othello.HARD_SHARE * target - spent
    return max(left, 1e-3), min(othello.SOFT_SHARE * target, left)


def old_clock(time_left: float, increment: float, movestogo: int | None
              ) -> tuple[float, float]:
    """(soft, hard) of the chess ``clock_budget`` before Target."""
    left = max(0.0, time_left - 0.05 - min(increment, 0.5))
    togo = movestogo if movestogo else 30
    share = left / max(1, togo) + 0.75 * increment
    hard = min(3 * share, left / 3 if togo > 1 else left * 0.8)
    share = min(share, hard)
    return 0.6 * share, max(hard, 0.01)


@pytest.mark.parametrize("shares", [(checkers.SOFT_SHARE, checkers.HARD_SHARE), (0.7, 1.8),
                                    (0.8, 2.2), (1.0, 1.0), (0.1, 10.0)])
def test_checkers_target_is_the_old_formula(shares: tuple[float, float]) -> None:
    soft, hard = shares
    for target in TARGETS:
        agent = checkers.CheckersAgent(target=target, soft=soft, hard=hard, hash_mb=1)
        want_hard, want_soft = old_checkers(target, soft, hard)
        assert agent.bound == Limit(time=want_hard), (target, shares)
        assert agent.soft == want_soft, (target, shares)
    # a fixed depth or node count ignores the target, as it did
    fixed = checkers.CheckersAgent(target=0.3, depth=6, hash_mb=1)
    assert fixed.bound == Limit(depth=6) and fixed.soft is None


def test_othello_target_is_the_old_formula_with_the_time_already_spent(monkeypatch) -> None:
    began = 1000.0
    for target in TARGETS:
        agent = othello.OthelloAgent(target=target)
        for spent in (0.0, 1e-4, 0.01, 0.25, 1.0, 3 * target, 5.0, 200.0):
            now = began + spent
            clock = types.SimpleNamespace(perf_counter=lambda at=now: at)
            monkeypatch.setattr(anytime, "time", clock)
            limit, soft = agent.budget().bounds(Limit(depth=agent.depth), began)
            want_hard, want_soft = old_othello(target, now - began)
            assert limit == Limit(depth=60, time=want_hard), (target, spent)
            assert soft == want_soft, (target, spent)
    assert othello.OthelloAgent(depth=5).budget() is None


def test_the_chess_clock_is_the_old_formula() -> None:
    for left in (0.0, 0.01, 0.02, 0.05, 0.08, 0.12, 0.3, 0.55, 1.0, 5.0, 10.0, 60.0, 900.0):
        for inc in (0.0, 0.01, 0.1, 0.5, 1.0, 3.0):
            for togo in (None, 0, 1, 2, 3, 10, 40):
                budget = chess.clock_budget(left, inc, togo)
                want_soft, want_hard = old_clock(left, inc, togo)
                assert (budget.soft, budget.hard) == (want_soft, want_hard), (left, inc, togo)
                limit, soft = budget.bounds(Limit(depth=12, nodes=5000))
                assert limit == Limit(depth=12, nodes=5000, time=want_hard)
                assert soft == want_soft


def test_bounds_keep_depth_and_nodes_and_count_the_time_spent(monkeypatch) -> None:
    target = Target(1.0, 0.5, 2.0)
    assert (target.soft, target.hard) == (0.5, 2.0)
    limit, soft = target.bounds(Limit(depth=9, nodes=10**6, iterations=3))
    assert limit == Limit(depth=9, nodes=10**6, iterations=3, time=2.0) and soft == 0.5
    monkeypatch.setattr(anytime, "time", types.SimpleNamespace(perf_counter=lambda: 11.75))
    limit, soft = target.bounds(began=10.0)  # 1.75 s spent: soft never past hard
    assert limit.time == pytest.approx(0.25) and soft == pytest.approx(0.25)
    capped = Target(10.0, 0.1, 3.0, cap=4.0, floor=0.5)
    assert (capped.soft, capped.hard) == (1.0, 4.0)
    assert Target(10.0, 0.6, 3.0, cap=4.0).soft == 4.0  # the soft share, capped too
    assert Target(0.0, 0.6, 3.0, cap=0.0, floor=0.01).hard == 0.01


@pytest.mark.parametrize("args, says", [
    ((1.0, 0.0, 2.0), "0 < soft <= hard <= 10"), ((1.0, 3.0, 2.0), "soft=3, hard=2"),
    ((1.0, 1.0, 11.0), "hard <= 10"), ((1.0, float("nan"), 2.0), "soft=nan"),
    ((-1.0, 0.5, 1.0), "target=-1"), ((float("inf"), 0.5, 1.0), "target=inf"),
    ((float("nan"), 0.5, 1.0), "target=nan")])
def test_bad_budgets_are_refused_in_one_line(args: tuple, says: str) -> None:
    with pytest.raises(SpecError, match=says) as refused:
        Target(*args)
    assert "\n" not in str(refused.value)
    with pytest.raises(GameSearchError, match="cap=-1"):
        Target(1.0, 0.5, 1.0, cap=-1.0)
