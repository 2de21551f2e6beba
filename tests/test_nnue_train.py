"""The chess network's trainer (engines/chess/nnue/train.py, ``gamesearch train nnue``):
its forward pass is the specification's, it learns, and a resumed run ends where an
unbroken one does.

Needs the optional ``[gpu]`` extra (JAX, optax); skipped without it. CI runs it in the
extra's step (.ci/run)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import numpy as np
import pytest

from chess_positions import random_board

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

from gamesearch.engines.chess.nnue import network as N  # noqa: E402
from gamesearch.engines.chess.nnue import train as T  # noqa: E402
from gamesearch.engines.chess.nnue.dataset import Positions, read_positions  # noqa: E402
from gamesearch.errors import GameSearchError  # noqa: E402
from gamesearch.learn.checkpoint import load_checkpoint  # noqa: E402

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 320, chess.ROOK: 500,
          chess.QUEEN: 900, chess.KING: 0}


def _write_data(path: Path, count: int, seed: int = 0) -> None:
    """Random positions scored by material for the side to move (a target a network can
    learn from the inputs alone), games of 10 positions."""
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        board = random_board(rng, rng.randrange(4, 90))
        material = sum(VALUES[p.piece_type] * (1 if p.color == board.turn else -1)
                       for p in board.piece_map().values())
        lines.append(json.dumps({"game": i // 10, "fen": board.fen(), "score": material,
                                 "result": 0.5}) + "\n")
    path.write_text("".join(lines))


@pytest.fixture(scope="module")
def data_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nnue") / "data.jsonl"
    _write_data(path, 2000)
    return path


def test_the_jax_forward_is_the_specifications(data_file: Path) -> None:
    data = read_positions(data_file, limit=40)
    boards = [chess.Board(json.loads(line)["fen"])
              for line in data_file.read_text().splitlines()[:40]]
    for seed in range(3):
        net = N.random_network(hidden=32, l1=16, l2=8, seed=seed)
        got = np.asarray(T.forward(T.params_of(net), jnp.asarray(data.us),
                                   jnp.asarray(data.them)))
        want = np.array([N.forward(net, board) for board in boards])
        assert np.abs(want).max() > 0.01  # not all clipped to nothing
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    # a factoriser (one row per piece, shared by its squares) is folded into the file's rows
    params = T.params_of(N.random_network(hidden=32, l1=16, l2=8, seed=7), factor=True)
    params["ft_f"] = jnp.asarray(np.random.default_rng(1).normal(0, 0.1, (12, 32)), jnp.float32)
    got = np.asarray(T.forward(params, jnp.asarray(data.us), jnp.asarray(data.them)))
    folded = T.network_of(params, 400.0)
    assert not np.allclose(folded.ft_w, np.asarray(params["ft_w"]))
    want = np.array([N.forward(folded, board) for board in boards])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_mirrored_positions_are_the_mirrored_boards_features(data_file: Path) -> None:
    from gamesearch.engines.chess.nnue.dataset import PAD, fen_features

    data = read_positions(data_file, limit=30)
    doubled = T._with_mirrors(data)
    assert len(doubled) == 60
    for i, line in enumerate(data_file.read_text().splitlines()[:30]):
        board = chess.Board(json.loads(line)["fen"]).transform(chess.flip_horizontal)
        us, them = fen_features(board.fen())
        assert sorted(f for f in doubled.us[30 + i] if f != PAD) == us
        assert sorted(f for f in doubled.them[30 + i] if f != PAD) == them
        assert doubled.score[30 + i] == data.score[i]


def test_a_few_hundred_steps_reduce_the_loss(data_file: Path, tmp_path: Path) -> None:
    data = read_positions(data_file)
    run = T.NnueTraining(data, tmp_path, T.NnueSettings(hidden=16, l1=8, l2=8, batch=64,
                                                        lr=3e-3, holdout=5))
    before, before_val = run.loss_of(run.train_set), run.loss_of(run.val_set)
    run.run(6)  # 50 steps an epoch (mirrored): 300 steps
    assert run.steps == 6 * run.steps_per_epoch >= 300
    after = run.loss_of(run.train_set)
    assert after < 0.5 * before
    assert run.curve[-1]["train_loss"] < run.curve[0]["train_loss"]
    assert run.loss_of(run.val_set) < 0.9 * before_val  # and it generalises
    # the shipped file is the network trained, and evaluates as the trainer does
    net = N.load(tmp_path / "nnue.npz")
    # trained on the compiled inference's grid: the file's feature rows are its integers
    assert run.settings.ft_grid == 127
    np.testing.assert_allclose(net.ft_w * 127, np.round(net.ft_w * 127), atol=1e-3)
    np.testing.assert_allclose(net.ft_b * 127, np.round(net.ft_b * 127), atol=1e-3)
    board = chess.Board(json.loads(data_file.read_text().splitlines()[0])["fen"])
    v = float(T.forward(T.params_of(net), jnp.asarray(data.us[:1]), jnp.asarray(data.them[:1]))[0])
    assert N.forward(net, board) == pytest.approx(v, abs=1e-5)
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert len(curve["curve"]) == 6 and curve["validation_positions"] == len(run.val_set)


def test_a_run_can_start_from_a_network(data_file: Path, tmp_path: Path) -> None:
    data = read_positions(data_file, limit=300)
    start = N.random_network(hidden=16, l1=8, l2=8, seed=11)
    run = T.NnueTraining(data, tmp_path / "a", T.NnueSettings(hidden=16, l1=8, l2=8,
                                                              batch=32, ft_grid=0), init=start)
    for name in N.ARRAYS:  # the factoriser starts at zero: the network is the one given
        np.testing.assert_array_equal(getattr(run.network(), name), getattr(start, name))
    assert run.loss_of(run.val_set) == pytest.approx(float(np.mean([
        (1 / (1 + np.exp(-N.forward(start, chess.Board(json.loads(line)["fen"]))))
         - 1 / (1 + np.exp(-json.loads(line)["score"] / 400))) ** 2
        for line in data_file.read_text().splitlines()[:300]
        if json.loads(line)["game"] % 10 == 9])), rel=1e-4)
    with pytest.raises(GameSearchError, match="starting network"):
        T.NnueTraining(data, tmp_path / "b", T.NnueSettings(hidden=32, batch=32), init=start)


def test_kill_and_resume_ends_with_the_unbroken_weights(data_file: Path,
                                                        tmp_path: Path) -> None:
    data = read_positions(data_file)
    settings = T.NnueSettings(hidden=16, l1=8, l2=8, batch=50, holdout=4, save_every=3,
                              anneal=2)  # the schedule's step count is resumed too
    whole = T.NnueTraining(data, tmp_path / "whole", settings)
    whole.run(3)
    broken = T.NnueTraining(data, tmp_path / "broken", settings)
    assert not broken.run(3, stop=lambda: broken.steps >= 13)  # mid-epoch
    _, meta = load_checkpoint(tmp_path / "broken" / "checkpoint.npz", T.KIND)
    assert meta["steps"] == 13
    # the data file grew meanwhile: the resumed run reads the first rows as before
    grown = read_positions(data_file)
    resumed = T.NnueTraining(grown, tmp_path / "broken", T.NnueSettings(), resume=True)
    assert resumed.settings == settings and resumed.steps == 13
    assert resumed.run(3)
    for name in N.ARRAYS:
        np.testing.assert_array_equal(np.asarray(resumed.params[name]),
                                      np.asarray(whole.params[name]))
    # the same count of positions in another order (files given in another order): refused
    shuffled = Positions(data.us[::-1], data.them[::-1], data.score[::-1],
                         data.result[::-1], data.game[::-1])
    with pytest.raises(GameSearchError, match="not the ones the run was trained on"):
        T.NnueTraining(shuffled, tmp_path / "broken", T.NnueSettings(), resume=True)
    assert resumed.curve == [{**c, "seconds": r["seconds"]}
                             for c, r in zip(whole.curve, resumed.curve)]


def test_the_command_trains_resumes_and_refuses_bad_input(cli, data_file: Path,
                                                          tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    code, stdout, err = cli("train", "nnue", "--data", str(data_file), "--epochs", "2",
                            "--batch", "64", "--hidden", "16", "--l1", "8", "--l2", "8",
                            "--out", out, "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["epochs"] == 2 and summary["game"] == "chess"
    assert N.load(Path(out) / "nnue.npz").widths == (16, 8, 8)
    code, stdout, _ = cli("train", "nnue", "--data", str(data_file), "--epochs", "3",
                          "--out", out, "--resume", "--json")
    assert code == 0 and json.loads(stdout)["epochs"] == 3
    more = tmp_path / "more.jsonl"
    _write_data(more, 300, seed=1)
    code, stdout, err = cli("train", "nnue", "--data", str(data_file), "--data", str(more),
                            "--epochs", "1", "--batch", "64", "--hidden", "16", "--l1", "8",
                            "--l2", "8", "--out", str(tmp_path / "two"), "--json")
    assert code == 0, err
    read = json.loads(stdout)["positions"]  # both files, read as one set
    assert read == len(read_positions([data_file, more])) > 2000
    for args in (["--data", str(tmp_path / "missing.jsonl")],
                 ["--data", str(data_file), "--data", str(tmp_path / "missing.jsonl")],
                 ["--data", str(data_file), "--lr", "-1"],
                 ["--data", str(data_file), "--lambda", "2"],
                 ["--data", str(data_file), "--hidden", "0"],
                 ["--data", str(data_file), "--epochs", "0"],
                 ["--data", str(data_file), "--init-from", str(data_file)],  # not a network
                 ["--data", str(data_file), "--out", out]):  # exists: no --resume/--force
        code, _, err = cli("train", "nnue", *args)
        assert code == 2, args
        assert err.strip().count("\n") == 0 and "Traceback" not in err, err
