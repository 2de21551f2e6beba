"""The learning library against hand computations: network gradient, TD(lambda) updates,
checkpoint round trip, the map seam of self-play, Wilson's interval."""

from __future__ import annotations

import math
from multiprocessing.dummy import Pool

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.learn.checkpoint import load_checkpoint, save_checkpoint
from gamesearch.learn.network import ValueNetwork, sigmoid
from gamesearch.learn.selfplay import Score, play_games
from gamesearch.learn.td import TDLambda


def tiny() -> ValueNetwork:
    """A 2-input, 1-hidden-unit network with hand-picked weights."""
    net = ValueNetwork(2, 1)
    net.params = [np.array([[0.5, -1.0]]), np.array([0.25]), np.array([2.0]), np.array(-0.5)]
    return net


def test_value_matches_hand_computation() -> None:
    x = np.array([1.0, 2.0])
    h = 1 / (1 + math.exp(-(0.5 - 2.0 + 0.25)))  # sigmoid(-1.25)
    v = 1 / (1 + math.exp(-(2.0 * h - 0.5)))
    assert tiny().value(x) == pytest.approx(v, abs=1e-12)


def test_gradient_matches_hand_computation_and_finite_differences() -> None:
    x = np.array([1.0, 2.0])
    net = tiny()
    v, grads = net.value_and_grad(x)
    h = float(sigmoid(np.array(-1.25)))
    dv = v * (1 - v)
    # by hand: dv/dw2 = v(1-v) h, dv/db2 = v(1-v), dv/dw1 = v(1-v) w2 h(1-h) x
    assert grads[2][0] == pytest.approx(dv * h)
    assert float(grads[3]) == pytest.approx(dv)
    assert grads[0][0] == pytest.approx(dv * 2.0 * h * (1 - h) * x)
    # and numerically, for every parameter of a random larger network
    big = ValueNetwork(5, 3, seed=4, scale=1.0)
    x5 = np.random.default_rng(1).normal(size=5)
    _, analytic = big.value_and_grad(x5)
    for p, g in zip(big.params, analytic):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for k in range(flat.size):
            old = flat[k]
            flat[k] = old + 1e-6
            up = big.value(x5)
            flat[k] = old - 1e-6
            down = big.value(x5)
            flat[k] = old
            assert gflat[k] == pytest.approx((up - down) / 2e-6, abs=1e-8)


def test_td_lambda_two_steps_by_hand() -> None:
    """Two updates: the trace decays by lambda and adds the new gradient; weights move by
    alpha * delta * trace."""
    alpha, lam = 0.5, 0.8
    net, ref = tiny(), tiny()
    td = TDLambda(net, alpha, lam)
    x1, x2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    v1, g1 = ref.value_and_grad(x1)
    delta1 = td.step(x1, 0.9)
    assert delta1 == pytest.approx(0.9 - v1)
    for p, r, g in zip(net.params, ref.params, g1):
        np.testing.assert_allclose(p, r + alpha * (0.9 - v1) * g)
    # second step, flipped: the prediction is 1 - v(x2), its gradient -grad v(x2)
    v2, g2 = net.value_and_grad(x2)
    after_first = [p.copy() for p in net.params]
    delta2 = td.step(x2, 0.0, flip=True)
    assert delta2 == pytest.approx(0.0 - (1 - v2))
    for p, before, a, b in zip(net.params, after_first, g1, g2):
        trace = lam * a - b
        np.testing.assert_allclose(p, before + alpha * delta2 * trace)
    td.reset()
    assert all(not e.any() for e in td.traces)


def test_td_lambda_learns_a_random_walk() -> None:
    """Sutton's (1988) five-state random walk: TD(lambda) learns the true values 1/6..5/6
    from episodes alone (one-hot inputs, so the network can represent them)."""
    net = ValueNetwork(5, 8, seed=0)
    td = TDLambda(net, alpha=0.2, lam=0.5)
    rng = np.random.default_rng(0)
    eye = np.eye(5)
    for episode in range(3000):
        td.alpha = 0.2 if episode < 1500 else 0.02  # a smaller step at the end: less noise
        td.reset()
        s = 2
        while True:
            s2 = s + (1 if rng.random() < 0.5 else -1)
            if s2 in (-1, 5):
                td.step(eye[s], 1.0 if s2 == 5 else 0.0)
                break
            td.step(eye[s], net.value(eye[s2]))
            s = s2
    learned = net.values(eye)
    np.testing.assert_allclose(learned, np.arange(1, 6) / 6, atol=0.05)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(GameSearchError):
        TDLambda(tiny(), alpha=0.1, lam=1.5)
    with pytest.raises(GameSearchError):
        TDLambda(tiny(), alpha=0.0)
    with pytest.raises(GameSearchError):
        ValueNetwork(0, 3)
    with pytest.raises(GameSearchError, match="NaN"):
        ValueNetwork.from_arrays({"param0": np.full((1, 2), np.nan), "param1": np.zeros(1),
                                  "param2": np.zeros(1), "param3": np.zeros(())})


def test_checkpoint_round_trip(tmp_path) -> None:
    net = ValueNetwork(3, 4, seed=2)
    save_checkpoint(tmp_path / "c.npz", "test kind", net.arrays(), {"games": 7})
    arrays, meta = load_checkpoint(tmp_path / "c.npz", "test kind")
    again = ValueNetwork.from_arrays(arrays)
    assert meta == {"games": 7}
    for a, b in zip(net.params, again.params):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(GameSearchError, match="not a other kind checkpoint"):
        load_checkpoint(tmp_path / "c.npz", "other kind")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(GameSearchError):
        load_checkpoint(tmp_path / "junk.npz", "test kind")


def test_play_games_takes_any_map() -> None:
    def square(seed: int) -> int:
        return seed * seed

    assert play_games(square, range(5)) == [0, 1, 4, 9, 16]
    with Pool(2) as pool:
        assert play_games(square, range(5), pool.map) == [0, 1, 4, 9, 16]


def test_wilson_interval() -> None:
    # Wilson's interval for 65/100 at 95%: 0.5525..0.7364 (standard tables)
    lo, hi = Score(100, 65).interval()
    assert lo == pytest.approx(0.5525, abs=1e-3)
    assert hi == pytest.approx(0.7364, abs=1e-3)
    assert Score(0, 0).interval() == (0.0, 1.0)
