"""Batched AlphaZero in JAX (learn/jax_alphazero.py, engines/connect4/jax_rules.py), checked
against the readable rules, the numpy network and hand computations.

Needs the optional ``[gpu]`` extra (JAX, optax, mctx); skipped without it. CI installs it
in a step of its own after the default suite (.ci/run)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import asdict

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("mctx")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

from gamesearch.engines.connect4.alphazero import Connect4Encoder, load_labelled  # noqa: E402
from gamesearch.engines.connect4.jax_rules import CONNECT4, initial, legal, observe, step  # noqa: E402
from gamesearch.errors import GameSearchError  # noqa: E402
from gamesearch.games.connect4 import ConnectFour  # noqa: E402
from gamesearch.learn.checkpoint import load_checkpoint  # noqa: E402
from gamesearch.learn.jax_alphazero import (  # noqa: E402
    JaxAlphaZeroTraining,
    JaxSettings,
    forward,
    init_params,
    policy_accuracy,
    to_numpy_network,
    value_targets,
)
from gamesearch.learn.policy_value import PolicyValueNetwork  # noqa: E402

SMALL = JaxSettings(batch=16, simulations=4, hidden=16, minibatch=128, seed=3)


def test_the_jax_rules_play_random_games_as_the_readable_rules_do() -> None:
    game, encode = ConnectFour(), Connect4Encoder(ConnectFour())
    jstep = jax.jit(step)
    rng = random.Random(7)
    for _ in range(40):
        state, jstate = game.initial_state(), initial()
        while True:
            assert np.array_equal(np.asarray(observe(jstate)), encode(state))
            assert not bool(jstate.done)
            assert [c for c in range(7) if legal(jstate)[c]] == list(game.actions(state))
            column = rng.choice(game.actions(state))
            mover = game.to_move(state)
            state = game.result(state, column)
            jstate, reward = jstep(jstate, jnp.int32(column))
            if game.is_terminal(state):
                assert bool(jstate.done)
                assert float(reward) == np.sign(game.utilities(state)[mover])  # win 1, draw 0
                break
            assert float(reward) == 0.0


def test_a_full_column_loses_and_a_finished_game_stays_put() -> None:
    s = initial()
    for _ in range(6):
        s, r = step(s, jnp.int32(2))
    assert not bool(s.done) and not bool(legal(s)[2])
    s2, r = step(s, jnp.int32(2))
    assert bool(s2.done) and float(r) == -1.0
    s3, r = step(s2, jnp.int32(0))
    assert float(r) == 0.0 and np.array_equal(np.asarray(s3.mine), np.asarray(s2.mine))


def test_the_exported_network_computes_what_the_jax_one_does() -> None:
    params = init_params(jax.random.PRNGKey(0), 84, 7, 24)
    x = np.random.default_rng(1).integers(0, 2, (9, 84)).astype(np.float32)
    logits, v = forward(params, jnp.asarray(x))
    net = to_numpy_network(params)
    assert isinstance(net, PolicyValueNetwork)
    p, v2 = net.predict(x.astype(float))
    expected = np.exp(logits - logits.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    assert np.allclose(p, expected, atol=1e-5) and np.allclose(v2, v, atol=1e-5)


def test_value_targets_alternate_back_from_each_end() -> None:
    # two games side by side, five moves: game 0 is won by the 3rd move's mover, then a new
    # game runs unfinished; game 1 is drawn at move 5 (reward 0)
    reward = jnp.array([[0, 0], [0, 0], [1, 0], [0, 0], [0, 0]], jnp.float32)
    done = jnp.array([[0, 0], [0, 0], [1, 0], [0, 0], [0, 1]], bool)
    z, known = value_targets(reward, done)
    assert np.array_equal(np.asarray(z[:, 0]), [1, -1, 1, 0, 0])
    assert np.array_equal(np.asarray(known[:, 0]), [1, 1, 1, 0, 0])
    assert np.array_equal(np.asarray(z[:, 1]), [0, 0, 0, 0, 0])
    assert np.asarray(known[:, 1]).all()


def test_policy_accuracy_counts_best_scoring_legal_moves() -> None:
    params = init_params(jax.random.PRNGKey(0), 84, 7, 8)
    params = {**params, "wp": jnp.zeros((7, 8)), "bp": jnp.arange(7.0)}  # prefers column 7
    x = jnp.zeros((3, 84))
    legal_ = jnp.array([[True] * 7, [True] * 6 + [False], [True] * 7])
    scores = jnp.array([[0, 0, 0, 0, 0, 0, 1], [0] * 5 + [1, -9], [1, 0, 0, 0, 0, 0, -1]])
    assert float(policy_accuracy(params, x, legal_, scores)) == pytest.approx(2 / 3)


def test_a_resumed_run_repeats_an_unbroken_one_and_exports_playable_weights(tmp_path) -> None:
    whole = JaxAlphaZeroTraining(CONNECT4, tmp_path / "a", SMALL)
    whole.run(iterations=2)
    whole.close()
    first = JaxAlphaZeroTraining(CONNECT4, tmp_path / "b", SMALL)
    first.run(iterations=1)
    first.close()
    again = JaxAlphaZeroTraining(CONNECT4, tmp_path / "b", resume=True)
    again.run(iterations=2)
    again.close()
    for k in whole.params:
        assert np.allclose(np.asarray(whole.params[k]), np.asarray(again.params[k]),
                           atol=1e-6), k
    assert whole.curve[-1]["positions"] == again.curve[-1]["positions"] == 2 * 16 * 42
    lines = (tmp_path / "b" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["iteration"] for x in lines[1:]] == [1, 2]
    from gamesearch.engines.connect4.alphazero import load_policy_value

    net = load_policy_value(tmp_path / "b" / "weights.npz")
    assert net.params["w1"].shape == (16, 84)
    with pytest.raises(GameSearchError, match="holds a run already"):
        JaxAlphaZeroTraining(CONNECT4, tmp_path / "b", SMALL)


def test_more_epochs_reuse_the_same_positions_and_log_the_first_pass(tmp_path) -> None:
    """--epochs N: the same self-play (positions counted once), N passes of Adam over it:
    the weights move further, and the logged losses are those of the first pass."""
    runs = {}
    for epochs in (1, 3):
        settings = JaxSettings(**{**asdict(SMALL), "epochs": epochs})
        run = JaxAlphaZeroTraining(CONNECT4, tmp_path / f"e{epochs}", settings)
        start = {k: np.asarray(v) for k, v in run.params.items()}
        run.run(iterations=1)
        run.close()
        moved = sum(float(np.abs(np.asarray(run.params[k]) - start[k]).sum()) for k in start)
        runs[epochs] = (run.curve[-1], moved)
    (one, moved_one), (three, moved_three) = runs[1], runs[3]
    assert one["positions"] == three["positions"] == 16 * 42
    assert (one["policy"], one["value"]) == (three["policy"], three["value"])
    assert moved_three > 1.5 * moved_one


def test_training_learns_to_win_against_random_play(tmp_path) -> None:
    """A few seconds of batched self-play make a policy that beats uniform random play."""
    settings = JaxSettings(batch=64, simulations=8, hidden=64, minibatch=512, seed=1)
    run = JaxAlphaZeroTraining(CONNECT4, tmp_path / "run", settings)
    net_before = to_numpy_network(run.params)
    run.run(iterations=25)
    run.close()
    net_after = to_numpy_network(run.params)
    game, encode = ConnectFour(), Connect4Encoder(ConnectFour())

    def score(net: PolicyValueNetwork, games: int = 60) -> float:
        rng = random.Random(5)
        total = 0.0
        for g in range(games):
            state, seat = game.initial_state(), g % 2
            while not game.is_terminal(state):
                moves = game.actions(state)
                if game.to_move(state) == seat:
                    p, _ = net.predict(encode(state))
                    column = max(moves, key=lambda c: p[0, c])
                else:
                    column = rng.choice(moves)
                state = game.result(state, column)
            total += (game.utilities(state)[seat] + 1) / 2
        return total / games

    before, after = score(net_before), score(net_after)
    assert after >= 0.85 and after > before + 0.15, (before, after)


def test_labelled_positions_load_and_bad_files_are_one_line(tmp_path) -> None:
    good = tmp_path / "labels.jsonl"
    good.write_text(json.dumps({"moves": "444444", "set": "t",
                                "scores": [0, 0, 1, None, 0, -1, 0]}) + "\n")
    x, legal_, scores = load_labelled(good)
    assert x.shape == (1, 84) and legal_[0].tolist() == [1, 1, 1, 0, 1, 1, 1]
    assert scores[0].tolist() == [0, 0, 1, -9, 0, -1, 0]
    for text in ("not json\n", '{"moves": "9", "scores": []}\n', ""):
        bad = tmp_path / "bad.jsonl"
        bad.write_text(text)
        with pytest.raises(GameSearchError):
            load_labelled(bad)


def test_settings_out_of_range_are_one_line() -> None:
    for bad in (JaxSettings(batch=0), JaxSettings(batch=10**6),
                JaxSettings(batch=2, minibatch=4096), JaxSettings(lr=0.0),
                JaxSettings(considered=0), JaxSettings(epochs=0), JaxSettings(epochs=65)):
        with pytest.raises(GameSearchError):
            bad.checked(CONNECT4)


def test_the_cli_trains_resumes_and_refuses_bad_input(tmp_path) -> None:
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gamesearch", "train", "alphazero-jax",
                               *args], capture_output=True, text=True, timeout=300)

    out = tmp_path / "run"
    small = ["--batch", "8", "--simulations", "2", "--hidden", "8", "--minibatch", "64"]
    done = cli("connect4", "--iterations", "1", "--out", str(out), "--json", *small)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["iterations"] == 1
    assert load_checkpoint(out / "weights.npz", "alphazero checkpoint")[0]
    assert not (out / "snapshots").exists()  # none asked for
    again = cli("connect4", "--iterations", "3", "--out", str(out), "--resume", "--json",
                "--snapshots", "2")
    assert again.returncode == 0 and json.loads(again.stdout)["iterations"] == 3
    kept = sorted((out / "snapshots").iterdir())  # iteration 2 only: every 2nd
    assert [p.name for p in kept] == ["weights-00002.npz"]
    meta = load_checkpoint(kept[0], "alphazero checkpoint")[1]
    assert meta["iterations"] == 2 and meta["positions"] < json.loads(again.stdout)["positions"]
    for args in (["chess"], ["connect4", "--batch", "0", "--out", str(tmp_path / "x")],
                 ["connect4", "--snapshots", "-1", "--out", str(tmp_path / "z")],
                 ["connect4", "--out", str(out)],
                 ["connect4", "--labels", str(tmp_path / "missing"), "--out",
                  str(tmp_path / "y")]):
        bad = cli(*args)
        assert bad.returncode == 2, (args, bad.stderr)
        assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_a_new_run_can_start_from_another_runs_weights(tmp_path) -> None:
    first = JaxAlphaZeroTraining(CONNECT4, tmp_path / "a", SMALL)
    first.run(iterations=1)
    first.close()
    tuned = JaxAlphaZeroTraining(CONNECT4, tmp_path / "b", SMALL,
                                 init_from=tmp_path / "a" / "weights.npz")
    for k in first.params:
        assert np.allclose(np.asarray(first.params[k]), np.asarray(tuned.params[k]),
                           atol=1e-7), k
    tuned.run(iterations=1)
    tuned.close()
    assert load_checkpoint(tmp_path / "b" / "weights.npz",
                           "alphazero checkpoint")[1]["init_from"].endswith("weights.npz")
    wider = JaxSettings(batch=16, simulations=4, hidden=32, minibatch=128)
    with pytest.raises(GameSearchError, match="not a network of this shape"):
        JaxAlphaZeroTraining(CONNECT4, tmp_path / "c", wider,
                             init_from=tmp_path / "a" / "weights.npz")
