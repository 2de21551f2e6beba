"""Ratings and SPRT checked on simulated players of known Elo (Bernoulli and trinomial
outcomes drawn from the logistic Elo curve), the target of issue #20."""

from __future__ import annotations

import numpy as np
import pytest

from gamesearch.arena.ratings import expected_score, fit_ratings
from gamesearch.arena.sprt import sprt
from gamesearch.errors import GameSearchError

TRUTH = np.array([-150.0, -60.0, 0.0, 40.0, 170.0]) - 2.0  # centred below


def simulate(rng: np.random.Generator, truth: np.ndarray, games: int,
             draw_rate: float) -> list[tuple[int, int, float]]:
    """A round robin of ``games`` games per pair: win p - d/2, draw d, loss 1 - p - d/2."""
    out = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            p = expected_score(truth[i] - truth[j])
            d = min(draw_rate, 2 * min(p, 1 - p))
            u = rng.random(games)
            scores = np.where(u < p - d / 2, 1.0, np.where(u < p + d / 2, 0.5, 0.0))
            out += [(i, j, float(s)) for s in scores]
    return out


@pytest.mark.parametrize("draw_rate,seed", [(0.0, 1), (0.4, 2)])
def test_intervals_cover_the_truth_in_95_percent_of_trials(draw_rate, seed):
    truth = TRUTH - TRUTH.mean()
    rng = np.random.default_rng(seed)
    players = [f"p{k}" for k in range(len(truth))]
    covered = total = 0
    widths = []
    for _ in range(400):
        r = fit_ratings(players, simulate(rng, truth, 40, draw_rate))
        for k in range(len(truth)):
            lo, hi = r.interval(k)
            covered += lo <= truth[k] <= hi
            total += 1
            widths.append(hi - lo)
    rate = covered / total
    assert rate >= 0.95, rate
    assert rate <= 0.985, rate  # not by intervals made too wide to miss
    assert np.mean(widths) < 200


def test_draws_narrow_the_intervals():
    rng = np.random.default_rng(3)
    truth = TRUTH - TRUTH.mean()
    plain = fit_ratings(list("abcde"), simulate(rng, truth, 200, 0.0))
    drawish = fit_ratings(list("abcde"), simulate(rng, truth, 200, 0.6))
    assert drawish.draws > 0 and plain.draws == 0
    assert drawish.error(2) < 0.85 * plain.error(2)


def test_two_players_match_the_logistic_formula():
    # 60 wins, 20 draws, 20 losses: score 0.7, difference -400 log10(1/0.7 - 1) = 147.2
    results = [(0, 1, 1.0)] * 60 + [(0, 1, 0.5)] * 20 + [(0, 1, 0.0)] * 20
    r = fit_ratings(["a", "b"], results)
    assert r.elo[0] - r.elo[1] == pytest.approx(147.2, abs=0.1)
    assert r.elo.sum() == pytest.approx(0, abs=1e-6)
    assert r.los(0, 1) > 0.999 and r.los(1, 0) < 0.001
    assert r.table()[0]["player"] == "a"


def test_perfect_score_gets_the_prior_and_a_note():
    r = fit_ratings(["a", "b", "c"], [(0, 1, 1.0)] * 5 + [(1, 2, 0.5)] * 4 + [(0, 2, 1.0)] * 3)
    assert r.notes and np.all(np.isfinite(r.elo))
    assert r.elo[0] > r.elo[1]


def test_bad_results_are_refused():
    with pytest.raises(GameSearchError):
        fit_ratings(["a"], [])
    with pytest.raises(GameSearchError):
        fit_ratings(["a", "b"], [(0, 2, 1.0)])


def _sprt_run(rng, true_elo, elo0=0.0, elo1=40.0, draw_rate=0.3):
    p = expected_score(true_elo)
    w = d = l = 0
    while True:
        x = rng.random()
        if x < p - draw_rate / 2:
            w += 1
        elif x < p + draw_rate / 2:
            d += 1
        else:
            l += 1
        verdict = sprt(w, d, l, elo0, elo1).verdict
        if verdict != "continue":
            return verdict


def test_sprt_error_rates_are_near_alpha_and_beta():
    rng = np.random.default_rng(5)
    at_h0 = [_sprt_run(rng, 0.0) for _ in range(300)]
    at_h1 = [_sprt_run(rng, 40.0) for _ in range(300)]
    assert at_h0.count("H1") / 300 <= 0.08  # alpha = 0.05
    assert at_h1.count("H0") / 300 <= 0.08  # beta = 0.05
    assert at_h1.count("H1") > 250


def test_sprt_bounds_and_input():
    r = sprt(0, 0, 0)
    assert r.verdict == "continue" and r.llr == 0
    assert r.lower == pytest.approx(np.log(0.05 / 0.95))
    assert r.upper == pytest.approx(np.log(0.95 / 0.05))
    assert sprt(900, 200, 600, 0, 10).verdict == "H1"
    assert sprt(600, 200, 900, 0, 10).verdict == "H0"
    with pytest.raises(GameSearchError):
        sprt(1, 1, 1, elo0=5, elo1=0)
    with pytest.raises(GameSearchError):
        sprt(-1, 0, 0)
