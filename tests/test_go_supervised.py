"""``train supervised go`` (learn/jax_supervised.py): the network learns a teacher's rule,
a run stopped mid-epoch resumes to the weights of an unbroken one, its weights play as
``go-net`` and start a self-play run, and bad input is one line. Needs the gpu extra."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from gamesearch.engines.go.net_agent import planes  # noqa: E402
from gamesearch.engines.go.teacher import (  # noqa: E402
    ACTIONS,
    SHAPE,
    SYMMETRIES,
    Examples,
    read_teacher_games,
)
from gamesearch.errors import GameSearchError  # noqa: E402
from gamesearch.games.go.rules import Go  # noqa: E402
from gamesearch.learn.checkpoint import load_checkpoint  # noqa: E402
from gamesearch.learn.jax_supervised import SupervisedSettings, SupervisedTraining  # noqa: E402

CENTRE = 40
TEACHER = Path(__file__).resolve().parents[1] / "bench/records/go-net/teacher"
TINY = SupervisedSettings(blocks=1, channels=8, batch=32, lr=3e-3, holdout=5)


def centre_teacher(games: int, seed: int = 0) -> Examples:
    """Positions of random games; the teacher plays the centre when it may, else passes,
    and the result is Black's win (so the value is the colour to move)."""
    game, rng = Go(9, 7.0), random.Random(seed)
    xs, legals, actions, zs, numbers = [], [], [], [], []
    for g in range(games):
        state = game.initial_state()
        for _ in range(rng.randint(4, 40)):
            legal = game.actions(state)
            x = planes(state[0], state[1], legal)
            mask = np.zeros(ACTIONS, dtype=np.uint8)
            mask[legal] = 1
            xs.append(x.astype(np.uint8))
            legals.append(mask)
            actions.append(CENTRE if CENTRE in legal else game.pass_action)
            zs.append(1.0 if state[1] == 0 else -1.0)
            numbers.append(g)
            stones = [a for a in legal if a != game.pass_action]
            state = game.result(state, rng.choice(stones))
    return Examples(np.stack(xs), np.stack(legals), np.asarray(actions, dtype=np.int32),
                    np.asarray(zs, dtype=np.float32), np.asarray(numbers, dtype=np.int32))


def _weights(folder: Path) -> dict[str, np.ndarray]:
    return load_checkpoint(folder / "weights.npz", "alphazero checkpoint")[0]


def test_the_network_learns_the_teachers_rule_and_the_result(tmp_path: Path) -> None:
    ex = centre_teacher(60)
    run = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "run", TINY,
                             game="go", snapshots=2)
    before = run.validate()
    run.run(6)
    run.close()
    after = run.curve[-1]
    assert before["agreement"] < 0.9 < after["agreement"]
    assert after["validation_value"] < 0.5 < before["validation_value"]
    assert [r["epoch"] for r in run.curve] == list(range(1, 7))
    log = (tmp_path / "run" / "log.jsonl").read_text().splitlines()
    assert [json.loads(line)["epoch"] for line in log[1:]] == list(range(1, 7))
    # every second epoch's network is kept, placed at the positions it had seen
    kept = sorted((tmp_path / "run" / "snapshots").iterdir())
    assert [p.name for p in kept] == ["weights-00002.npz", "weights-00004.npz",
                                      "weights-00006.npz"]
    metas = [load_checkpoint(p, "alphazero checkpoint")[1] for p in kept]
    assert [m["positions"] for m in metas] == [
        2 * k * run.steps_per_epoch * TINY.batch for k in (1, 2, 3)]
    last, final = load_checkpoint(kept[-1], "alphazero checkpoint")[0], _weights(
        tmp_path / "run")
    assert all(np.array_equal(last[k], final[k]) for k in final)


def test_a_stopped_run_resumes_to_the_unbroken_runs_weights(tmp_path: Path) -> None:
    ex = centre_teacher(30, seed=3)
    whole = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "a", TINY,
                               game="go", snapshots=1)
    whole.run(3)
    whole.close()
    calls = {"n": 0}

    def stop_after_seven() -> bool:
        calls["n"] += 1
        return calls["n"] > 7

    part = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "b", TINY,
                              game="go", snapshots=1)
    part.run(3, stop=stop_after_seven)
    part.close()
    assert part.epoch < 3
    more = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "b", resume=True,
                              game="go", snapshots=1)
    more.run(3)
    more.close()
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_allclose(a[k], b[k], rtol=0, atol=1e-6)
    def timeless(curve: list[dict]) -> list[dict]:
        return [{k: v for k, v in point.items() if k != "seconds"} for point in curve]

    assert timeless(more.curve) == timeless(whole.curve)
    # the resumed run kept the same epochs' networks
    names = sorted(p.name for p in (tmp_path / "a" / "snapshots").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b" / "snapshots").iterdir())
    assert names == ["weights-00001.npz", "weights-00002.npz", "weights-00003.npz"]
    # resuming from other data, or starting over a run, is one line
    with pytest.raises(GameSearchError, match="other data"):
        SupervisedTraining(centre_teacher(5), SHAPE, ACTIONS, SYMMETRIES, tmp_path / "b",
                           resume=True, game="go")
    with pytest.raises(GameSearchError, match="holds a run already"):
        SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "b", TINY, game="go")


def test_the_weights_play_as_go_net_and_start_a_new_run(tmp_path: Path) -> None:
    from gamesearch.engines.go.net_agent import go_net_agent, load_network

    ex = centre_teacher(20, seed=4)
    run = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "a", TINY, game="go")
    run.run(8)
    run.close()
    net = load_network(tmp_path / "a" / "weights.npz")
    game = Go(9, 7.0)
    state = game.initial_state()
    prob, _ = net.predict(planes(state[0], 0, game.actions(state))[None, :])
    assert int(np.argmax(prob[0])) == CENTRE         # the rule, in numpy
    agent = go_net_agent(simulations=0, weights=str(tmp_path / "a" / "weights.npz"))
    assert agent(game, state).action == CENTRE
    again = SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "b", TINY,
                               game="go", init_from=tmp_path / "a" / "weights.npz")
    first = _weights(tmp_path / "a")
    for k, v in again.params.items():
        assert np.array_equal(np.asarray(v), first[f"best_{k}"])
    again.close()
    wider = SupervisedSettings(blocks=1, channels=16, batch=32)
    with pytest.raises(GameSearchError, match="not a network of this shape"):
        SupervisedTraining(ex, SHAPE, ACTIONS, SYMMETRIES, tmp_path / "c", wider, game="go",
                           init_from=tmp_path / "a" / "weights.npz")


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamesearch", "train", "supervised", "go",
                           *args], capture_output=True, text=True, timeout=600, cwd=cwd)


def test_the_command_trains_from_a_games_file_and_refuses_bad_input(tmp_path: Path) -> None:
    # the first 12 of the GNU Go games the shipped network learned from
    data = TEACHER / "gnugo-L10-s1.jsonl"
    done = _cli("--data", str(data), "--games", "12", "--epochs", "1", "--blocks", "1",
                "--channels", "4", "--batch", "16", "--out", "run", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["epochs"] == 1 and summary["last_epoch"]["agreement"] >= 0
    assert summary["positions"] == len(read_teacher_games([data], limit=12))
    assert (tmp_path / "run" / "weights.npz").exists()
    assert (tmp_path / "run" / "curve.png").exists()
    for args, words in [
        (["--data", str(tmp_path / "none.jsonl")], "none.jsonl"),
        (["--data", str(data), "--epochs", "0"], "--epochs"),
        (["--data", str(data), "--blocks", "0"], "blocks"),
        (["--data", str(data), "--out", "run"], "holds a run already"),
        (["--data", str(data), "--resume", "--init-from", "x.npz"], "--init-from"),
    ]:
        bad = _cli(*args, cwd=tmp_path)
        assert bad.returncode == 2, (args, bad.stderr)
        assert words in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
