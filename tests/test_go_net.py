"""The Go network: the numpy forward pass against the JAX one, the batched PUCT (virtual
loss, tree reuse, limits), the ``go-net`` agent, and a tiny training run of
``train alphazero-jax go`` that resumes and exports playable weights."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.games.go.rules import Go
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.learn.puct import PUCT, BatchedPUCT


def _uniform(game):
    def evaluate(states):
        return [({a: 1.0 / len(game.actions(s)) for a in game.actions(s)}, 0.0)
                for s in states]
    return evaluate


def test_batched_puct_finds_the_win_and_keeps_its_tree() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for a in (0, 3, 1, 4):          # X to move with 0, 1 taken: 2 wins at once
        state = game.result(state, a)
    search = BatchedPUCT(game, _uniform(game), batch=8)
    visits = search.search(state, simulations=400)
    assert max(visits, key=visits.get) == 2
    assert sum(visits.values()) == 400
    # a position one move down that is in the tree keeps its visits
    state2 = game.result(game.initial_state(), 4)
    s2 = BatchedPUCT(game, _uniform(game), batch=4)
    s2.search(game.initial_state(), simulations=300)
    kept = s2.root.children[4]
    before = sum(kept.visits.values())
    assert before > 0
    again = s2.search(state2, simulations=10)
    assert s2.root is kept and sum(again.values()) == before + 10


def test_batched_puct_agrees_with_plain_puct_at_batch_one() -> None:
    game = TicTacToe()
    state = game.result(game.initial_state(), 4)
    plain = PUCT(game, lambda s: _uniform(game)([s])[0]).search(state, 200)
    batched = BatchedPUCT(game, _uniform(game), batch=1).search(state, simulations=200)
    assert plain == batched


def test_a_time_limit_and_a_stop_end_the_search() -> None:
    game = TicTacToe()
    search = BatchedPUCT(game, _uniform(game), batch=4)
    visits = search.search(game.initial_state(), seconds=0.05)
    assert sum(visits.values()) > 0
    s2 = BatchedPUCT(game, _uniform(game), batch=4)
    assert sum(s2.search(game.initial_state(), stop=lambda: True).values()) == 0


def _tiny_net(seed: int = 0, blocks: int = 2, channels: int = 8, value_relu: bool = False):
    jax = pytest.importorskip("jax")
    from gamesearch.learn.jax_resnet import ResNet

    net = ResNet((9, 9, 4), 82, blocks, channels, value_relu)
    params = net.init(jax.random.PRNGKey(seed))
    # the zero-initialised second convolutions made non-zero, so every weight is tested
    keys = jax.random.split(jax.random.PRNGKey(seed + 1), len(params))
    params = {k: v + 0.05 * jax.random.normal(kk, v.shape) for (k, v), kk in
              zip(params.items(), keys)}
    return net, params


@pytest.mark.parametrize("value_relu", [False, True])
def test_the_numpy_forward_pass_is_the_jax_one(value_relu: bool) -> None:
    from gamesearch.learn.resnet import ResidualNetwork

    net, params = _tiny_net(value_relu=value_relu)
    x = np.random.default_rng(0).integers(0, 2, (5, 9 * 9 * 4)).astype(np.float32)
    logits, value = net.apply(params, x)
    numpy_net = ResidualNetwork.from_arrays({f"best_{k}": np.asarray(v)
                                             for k, v in params.items()},
                                            value_relu=value_relu)
    assert numpy_net.shape == (9, 9, 4) and numpy_net.blocks == 2
    n_logits, n_value = numpy_net.forward(x)
    assert np.allclose(n_logits, np.asarray(logits), atol=1e-4)
    assert np.allclose(n_value, np.asarray(value), atol=1e-5)
    assert np.std(n_value) > 0 and np.std(n_logits) > 0
    with pytest.raises(GameSearchError):
        ResidualNetwork.from_arrays({"best_w1": np.zeros(3)})


def test_the_value_head_stays_alive_where_its_plane_is_negative_everywhere() -> None:
    """The first device run's value plane went negative on every point: behind a ReLU the
    value is one constant whatever the board (the run's loss stayed at 0.99) and no
    gradient reaches the plane again; the linear head's gradient still flows, and one step
    down it tells boards apart again."""
    jax = pytest.importorskip("jax")
    x = np.random.default_rng(1).integers(0, 2, (6, 9 * 9 * 4)).astype(np.float32)
    for value_relu, alive in ((True, False), (False, True)):
        net, params = _tiny_net(value_relu=value_relu)
        params = {**params, "vc_w": 0 * params["vc_w"], "vc_b": params["vc_b"] - 1.0}
        _, value = net.apply(params, x)
        assert float(np.ptp(np.asarray(value))) == 0  # one value for every board
        grad = jax.grad(lambda p, n=net: (n.apply(p, x)[1] * np.arange(6)).sum())(params)
        assert (float(np.abs(np.asarray(grad["vc_w"])).sum()) > 0) == alive
        stepped = {k: v - 1e-3 * grad[k] for k, v in params.items()}
        _, value = net.apply(stepped, x)
        assert (float(np.ptp(np.asarray(value))) > 0) == alive


def test_weights_from_before_the_linear_value_head_keep_theirs(tmp_path) -> None:
    """A weights file whose settings do not say ``value_relu`` (the first runs', and the
    network shipped until session 34) is read with the old head; a new run's says False,
    as the shipped network (learned from GNU Go's games) does."""
    from gamesearch.engines.go.net_agent import load_network, shipped_weights
    from gamesearch.learn.checkpoint import load_checkpoint, save_checkpoint

    _, meta = load_checkpoint(shipped_weights(), "alphazero checkpoint")
    assert meta["settings"]["value_relu"] is False and not load_network().value_relu
    net, params = _tiny_net()
    arrays = {f"best_{k}": np.asarray(v) for k, v in params.items()}
    old = tmp_path / "old.npz"
    save_checkpoint(old, "alphazero checkpoint", arrays, {"settings": {"blocks": 2}})
    assert load_network(old).value_relu
    for flag in (False, True):
        path = tmp_path / f"w{flag}.npz"
        save_checkpoint(path, "alphazero checkpoint", arrays,
                        {"settings": {"blocks": 2, "value_relu": flag}})
        assert load_network(path).value_relu is flag


def test_a_run_from_an_old_head_network_keeps_its_trunk_and_starts_a_fresh_value(
        tmp_path) -> None:
    """``--init-from`` a network of the old value head (the dead H200 one): the trunk and
    the policy are taken, the value head is the new run's own initialisation; from a
    network of the same head everything is taken."""
    pytest.importorskip("pgx")
    from gamesearch.engines.go import TRAINERS
    from gamesearch.learn.checkpoint import save_checkpoint
    from gamesearch.learn.jax_alphazero import JaxAlphaZeroTraining, JaxSettings

    settings = JaxSettings(batch=4, simulations=2, blocks=2, channels=8, unroll=6,
                           minibatch=16, seed=5)
    _, params = _tiny_net(9)
    arrays = {f"best_{k}": np.asarray(v) for k, v in params.items()}
    game = TRAINERS["alphazero-jax"].make()
    for name, saved in (("old", {"blocks": 2}), ("same", {"blocks": 2, "value_relu": False})):
        path = tmp_path / f"{name}.npz"
        save_checkpoint(path, "alphazero checkpoint", arrays, {"settings": saved})
        run = JaxAlphaZeroTraining(game, tmp_path / f"run-{name}", settings, init_from=path)
        run.close()
        plain = JaxAlphaZeroTraining(game, tmp_path / f"plain-{name}", settings)
        plain.close()
        for k, v in run.params.items():
            took = name == "same" or k[:3] not in ("vc_", "vd_", "vo_")
            want = params[k] if took else plain.params[k]
            assert np.array_equal(np.asarray(v), np.asarray(want)), (name, k)


def test_the_go_net_agent_keeps_the_contract_and_plays_legal_games() -> None:
    from gamesearch.engines.go.net_agent import GoNetAgent
    from gamesearch.learn.resnet import ResidualNetwork
    from gamesearch.testing import check_agent

    net, params = _tiny_net(3)
    numpy_net = ResidualNetwork.from_arrays({f"best_{k}": np.asarray(v)
                                             for k, v in params.items()})
    game = Go()
    agent = GoNetAgent(numpy_net, time=None, simulations=24, batch=4)
    assert check_agent(game, agent, positions=2).checks["legal-move"] == 2
    state, rng = game.initial_state(), random.Random(1)
    for ply in range(12):
        if ply % 2:
            state = game.result(state, rng.choice(game.actions(state)[:-1]))
        else:
            result = agent(game, state)
            assert result.action in game.actions(state) and result.pov == state[1]
            state = game.result(state, result.action)
    policy = GoNetAgent(numpy_net, time=None, simulations=0)
    assert policy(game, state).stats.nodes == 1
    with pytest.raises(GameSearchError):
        GoNetAgent(numpy_net, time=None, simulations=-1)
    with pytest.raises(GameSearchError, match="plays 9x9"):
        agent(Go(size=7), Go(size=7).initial_state())


def test_the_shipped_network_loads_and_the_agent_is_registered() -> None:
    from gamesearch.agents import make_agent

    agent = make_agent("go-net:simulations=16")
    game = Go()
    assert agent(game, game.initial_state()).action in game.actions(game.initial_state())
    alone = make_agent("go-net:simulations=0")  # the policy alone: one evaluation a move
    assert alone(game, game.initial_state()).stats.nodes <= 1
    with pytest.raises(GameSearchError):
        make_agent("go-net:simulations=-1")
    with pytest.raises(GameSearchError):
        make_agent("go-net:weights=/nonexistent/file.npz")


def test_mix_blends_one_fast_play_out_into_the_networks_value() -> None:
    from gamesearch.agents import make_agent

    game = Go()
    # Black's stones everywhere but three empty points: every play-out ends with Black
    # ahead (White has nowhere to live)
    cells = list("X" * 81)
    for p in (0, 1, 9):
        cells[p] = "."
    won = ("".join(cells), 1, 0, 60, frozenset())
    agent = make_agent("go-net:simulations=8,mix=1")
    assert agent.spec.endswith("mix=1")
    assert make_agent("go-net:simulations=8").mix == 0.5      # AlphaGo's, by default
    assert "mix" not in make_agent("go-net:simulations=8").spec
    assert agent.rollout(game, won) == -1.0           # White to move: lost
    assert agent.rollout(game, (won[0], 0, 0, 60, frozenset())) == 1.0
    (_, value), = agent.evaluate(game, [won])
    assert value == -1.0                              # mix=1: the play-out alone
    half = make_agent("go-net:simulations=8,mix=0.5")
    plain = make_agent("go-net:simulations=8,mix=0")
    (_, v_half), = half.evaluate(game, [won])
    (_, v_net), = plain.evaluate(game, [won])
    assert v_half == pytest.approx(0.5 * v_net - 0.5)
    start = game.initial_state()
    assert half(game, start).action in game.actions(start) and half.rollouts >= 8
    assert plain.rollouts == 0
    for bad in ("go-net:mix=1.5", "go-net:mix=-1"):
        with pytest.raises(GameSearchError, match="mix"):
            make_agent(bad)


@pytest.mark.slow
def test_a_tiny_go_run_resumes_and_exports_playable_weights(tmp_path) -> None:
    """One iteration of ``train alphazero-jax go``'s trainer, then the resumed run holds
    what was saved (Connect Four's tests repeat a resumed run step for step; the code is
    shared) and its weights play."""
    pytest.importorskip("jax")
    pytest.importorskip("pgx")
    from gamesearch.engines.go import TRAINERS
    from gamesearch.engines.go.net_agent import GoNetAgent, load_network
    from gamesearch.learn.jax_alphazero import JaxAlphaZeroTraining, JaxSettings

    settings = JaxSettings(batch=4, simulations=2, blocks=1, channels=4, unroll=6,
                           minibatch=16, seed=2)
    game = TRAINERS["alphazero-jax"].make()
    run = JaxAlphaZeroTraining(game, tmp_path / "run", settings)
    run.run(iterations=1)
    run.close()
    again = JaxAlphaZeroTraining(game, tmp_path / "run", resume=True)
    again.close()
    assert again.iterations == 1 and again.positions == 4 * 6 and again.settings == settings
    assert not again.settings.value_relu and again.curve[0]["value_spread"] > 0
    for k in run.params:
        assert np.array_equal(np.asarray(run.params[k]), np.asarray(again.params[k])), k
    assert [r["iteration"] for r in again.curve] == [1]
    net = load_network(tmp_path / "run" / "weights.npz")
    assert net.blocks == 1 and net.shape == (9, 9, 4)
    go = Go()
    agent = GoNetAgent(net, time=None, simulations=8)
    assert agent(go, go.initial_state()).action in go.actions(go.initial_state())
