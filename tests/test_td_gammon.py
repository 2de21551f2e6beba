"""TD-Gammon and pubeval: encodings by hand, pubeval's strength, the depth-2 search against
the readable Star2 expectiminimax, a tiny training run that measurably improves, exact
resume after kill -9, and the agents in the game protocol."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from gamesearch.agents import make_agent
from gamesearch.engines.backgammon.td import (
    CHECKPOINT_KIND,
    INPUTS,
    Chooser,
    MatchGame,
    NetChooser,
    PubevalChooser,
    encode,
    load_network,
    mirror,
    pubeval_inputs,
    pubeval_scores,
    start_board,
)
from gamesearch.engines.backgammon.td_kernel import hit_chance
from gamesearch.engines.backgammon.training import (
    TDGammonTraining,
    average_snapshots,
    compiled_train_game,
    game_dice,
    scheduled_alpha,
    train_game,
)
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.games.backgammon import Backgammon
from gamesearch.learn.checkpoint import load_checkpoint
from gamesearch.learn.network import ValueNetwork
from gamesearch.learn.selfplay import play_games
from gamesearch.learn.td import TDLambda


class RandomChooser(Chooser):
    """A uniformly random play (the floor every learner must clear)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, rows, my, opp) -> int:
        return self.rng.randrange(rows.shape[0])


def start_row() -> np.ndarray:
    my, opp = start_board()
    return np.concatenate([my, opp])[None, :]


def test_tesauro_encoding_of_the_start() -> None:
    x = encode(start_row())[0]
    assert x.shape == (INPUTS,)
    units = x[:96].reshape(24, 4)  # the mover's points 1..24
    assert list(units[23]) == [1, 1, 0, 0]  # two on the 24 point
    assert list(units[12]) == [1, 1, 1, 1.0]  # five on the 13 point: (5 - 3) / 2
    assert list(units[7]) == [1, 1, 1, 0]  # three on the 8 point
    assert not units[0].any()
    theirs = x[98:194].reshape(24, 4)  # the opponent's 24 point is our 1 point
    assert list(theirs[0]) == [1, 1, 0, 0]
    assert x[96] == x[97] == x[194] == x[195] == 0
    assert x.sum() == pytest.approx(2 * (2 + 4 + 3 + 4))  # 24, 13, 8, 6 points


def test_the_expert_features_of_the_start() -> None:
    x = encode(start_row(), features=True)[0]
    assert x.shape == (200,)
    np.testing.assert_array_equal(x[:INPUTS], encode(start_row())[0])
    assert list(x[INPUTS:]) == [1.67, 1.67, 0.0, 0.0]  # 167 pips each, no blot, contact


def test_hit_chance_by_hand() -> None:
    """A blot on the mover's 6 point, one opposing checker on the 1 point (5 away): any 5
    (11 rolls) or 1-4, 4-1, 2-3, 3-2 (4 rolls): 15 of 36. Holding the 2 and 5 points
    blocks 1-4 and 4-1 (both points stepped on are held), not 2-3."""
    row = np.zeros(52, dtype=np.int64)
    row[6], row[26 + 1], row[0], row[26] = 1, 1, 14, 14
    assert hit_chance(row) == pytest.approx(15 / 36)
    row[2] = row[5] = 2
    row[0] = 10
    assert hit_chance(row) == pytest.approx(13 / 36)
    # from the bar (point 0), 6 away: 6s, 5-1 (via the 1), 4-2 (via the 4), 3-3; not 2-2
    # (the held 2 point), nor 1-1 (four steps make only 4)
    row[26 + 1], row[51] = 0, 1
    assert hit_chance(row) == pytest.approx((11 + 2 + 2 + 1) / 36)


@pytest.mark.parametrize("features", [False, True])
def test_the_compiled_game_makes_the_weights_of_the_readable_one(features) -> None:
    """From the same weights and dice, several games of the compiled self-play kernel
    leave the weights of the readable numpy ``train_game`` (to rounding)."""
    from gamesearch.games import backgammon_kernel as kernel

    work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    readable = ValueNetwork(200 if features else INPUTS, 7, seed=1, scale=0.5)
    compiled = readable.copy()
    td_readable, td_compiled = TDLambda(readable, 0.1, 0.7), TDLambda(compiled, 0.1, 0.7)
    for game in range(4):
        td_readable.alpha = td_compiled.alpha = scheduled_alpha(0.1, 2, game)
        first, dice = game_dice(np.random.default_rng([9, game]))
        plays = train_game(td_readable, first, dice, work, dies, features)
        assert compiled_train_game(td_compiled, first, dice, work, dies, features) == plays
        for a, b in zip(readable.params, compiled.params):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)
    assert not np.allclose(readable.params[0], ValueNetwork(readable.inputs, 7, seed=1,
                                                            scale=0.5).params[0])


def test_a_game_longer_than_the_short_dice_is_replayed_with_all(tmp_path, monkeypatch) -> None:
    """Training draws the dice of SHORT_GAME plays; a longer game is played again from the
    same weights with all its dice: the weights are those of the readable game."""
    from gamesearch.engines.backgammon import training as backgammon_training
    from gamesearch.games import backgammon_kernel as kernel

    monkeypatch.setattr(backgammon_training, "SHORT_GAME", 5)
    run = TDGammonTraining(tmp_path / "run", hidden=5, seed=2, eval_every=10**6)
    start = run.net.copy()
    run.run(2)
    run.close()
    td = TDLambda(start, 0.1, 0.7)
    work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    plays = 0
    for game in range(2):
        first, dice = game_dice(np.random.default_rng([2, game]))
        plays += train_game(td, first, dice, work, dies)
    assert run.plays == plays > 10
    for a, b in zip(start.params, run.net.params):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)


def test_the_learning_rate_schedule() -> None:
    assert scheduled_alpha(0.1, 0, 10**6) == 0.1
    assert scheduled_alpha(0.1, 1000, 0) == 0.1
    assert scheduled_alpha(0.1, 1000, 1000) == pytest.approx(0.05)
    assert scheduled_alpha(0.1, 1000, 2000) == pytest.approx(0.1 / 3)


def test_pubeval_inputs_follow_tesauros_layout() -> None:
    """Block k of five covers the mover's point 24 - k (Tesauro's setx)."""
    my, opp = start_board()
    my[25], opp[25], my[0] = 1, 2, 0  # a checker of each on the bar (counts need not add)
    x = pubeval_inputs(np.concatenate([my, opp])[None, :])[0]
    blocks = x[:120].reshape(24, 5)
    assert list(blocks[0]) == [0, 0, 1, 0, 0]  # point 24: two of ours
    assert list(blocks[11]) == [0, 0, 1, 0, 1.0]  # point 13: five of ours
    assert list(blocks[16]) == [0, 0, 1, 1, 0]  # point 8: three
    assert x[120] == 1.0 and x[121] == 0.0  # opponent's bar / 2
    # a bear-off of all fifteen scores highest, as in Tesauro's code
    done = start_row().copy()
    done[0, 0] = 15
    assert pubeval_scores(done, race=True)[0] > 1e6


def test_pubeval_crushes_a_random_player() -> None:
    """An outside fact: pubeval is a decent player, far above random moves."""
    points = play_games(MatchGame(PubevalChooser(), RandomChooser(1), seed=3), range(20))
    assert sum(p > 0 for p in points) >= 17


def test_depth2_equals_the_readable_star2_search() -> None:
    """The batched depth-2 search of td-gammon gives the same values as the readable
    expectiminimax with Star2 pruning, evaluating leaves with the same network."""
    from gamesearch.search.chance import expectiminimax

    game = Backgammon()
    net = ValueNetwork(INPUTS, 8, seed=5, scale=0.5)
    chooser = NetChooser(net, depth=2)

    def evaluate(s, player: int) -> float:
        # the state after a play: its mover is the one not to move now
        from gamesearch.games.backgammon_kernel import arrays

        my, opp = arrays(s)  # the next mover's view; mirror back to the player who moved
        row = np.concatenate([my, opp])
        prev_my, prev_opp = mirror(row)
        p = float(net.values(encode(np.concatenate([prev_my, prev_opp])[None, :]))[0])
        value = 2 * p - 1  # for the player who just moved
        return value if player != s.player else -value

    state = game.initial_state()
    rng = random.Random(2)
    for _ in range(7):  # a few plies into a game
        state = game.result(state, rng.choice(list(game.actions(state))))
    while game.to_move(state) == CHANCE:
        state = game.result(state, rng.choice(list(game.actions(state))))
    star = expectiminimax(game, state, depth=2, evaluate=evaluate, pruning="star2")
    from gamesearch.games import backgammon_kernel as kernel

    my, opp = kernel.arrays(state)
    work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    n = kernel.generate(my, opp, max(state.dice), min(state.dice), work, dies)
    values = chooser.values(work[:n].copy())
    assert 2 * values.max() - 1 == pytest.approx(star.value, abs=1e-9)


def test_a_tiny_training_run_beats_random_more_than_the_untrained_net(tmp_path) -> None:
    untrained = ValueNetwork(INPUTS, 10, seed=0)  # the run's starting weights
    run = TDGammonTraining(tmp_path / "run", hidden=10, seed=0, eval_every=10**6)
    run.run(300)
    run.close()

    def wins(net: ValueNetwork) -> int:
        points = play_games(MatchGame(NetChooser(net), RandomChooser(4), seed=11), range(60))
        return sum(p > 0 for p in points)

    before, after = wins(untrained), wins(run.net)
    assert after >= 30 and after >= before + 12, (before, after)  # measured: 15 -> 34 of 60


def test_resume_is_exact(tmp_path) -> None:
    settings = {"hidden": 6, "seed": 3, "eval_every": 10, "eval_games": 4,
                "alpha_halflife": 7, "encoding": "features"}
    whole = TDGammonTraining(tmp_path / "whole", **settings)
    whole.run(20)
    whole.close()
    part = TDGammonTraining(tmp_path / "part", **settings)
    part.run(13)
    part.close()
    again = TDGammonTraining(tmp_path / "part", resume=True)
    again.run(20)
    again.close()
    for a, b in zip(whole.net.params, again.net.params):
        np.testing.assert_array_equal(a, b)
    def untimed(curve: list[dict]) -> list[dict]:
        return [{k: v for k, v in p.items() if k != "seconds"} for p in curve]

    assert untimed(again.curve) == untimed(whole.curve)
    lines = (tmp_path / "part" / "log.jsonl").read_text().splitlines()
    assert len(lines) == 3  # the header and two evaluations, each once


def test_snapshots_are_the_run_at_their_games_and_survive_a_resume(tmp_path) -> None:
    settings = {"hidden": 5, "seed": 4, "eval_every": 10**6, "encoding": "features"}
    run = TDGammonTraining(tmp_path / "run", keep_every=4, **settings)
    run.run(6)
    run.close()
    run = TDGammonTraining(tmp_path / "run", resume=True, keep_every=4)
    run.run(9)
    run.close()
    kept = sorted(p.name for p in (tmp_path / "run" / "snapshots").iterdir())
    assert kept == ["games-4.npz", "games-8.npz"]
    for games in (4, 8):
        alone = TDGammonTraining(tmp_path / f"alone{games}", **settings)
        alone.run(games)
        alone.close()
        snapshot = run.snapshot_path(games)
        assert load_checkpoint(snapshot, CHECKPOINT_KIND)[1]["games"] == games
        for a, b in zip(load_network(snapshot).params, alone.net.params):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(GameSearchError, match="keep-every"):
        TDGammonTraining(tmp_path / "bad", keep_every=-1)


def test_averaged_snapshots_are_the_mean_of_their_weights(tmp_path) -> None:
    run = TDGammonTraining(tmp_path / "run", hidden=4, seed=2, eval_every=10**6,
                           keep_every=3, encoding="features")
    run.run(6)
    run.close()
    paths = [run.snapshot_path(3), run.snapshot_path(6)]
    net = average_snapshots(paths, tmp_path / "mean.npz")
    a, b = (load_network(p) for p in paths)
    assert not np.array_equal(a.params[0], b.params[0])
    for i in range(4):
        np.testing.assert_allclose(net.params[i], (a.params[i] + b.params[i]) / 2)
        np.testing.assert_array_equal(load_network(tmp_path / "mean.npz").params[i],
                                      net.params[i])
    assert load_checkpoint(tmp_path / "mean.npz", CHECKPOINT_KIND)[1]["averaged"] == [3, 6]
    other = TDGammonTraining(tmp_path / "other", hidden=5, eval_every=10**6, keep_every=1)
    other.run(1)
    other.close()
    with pytest.raises(GameSearchError, match="different networks"):
        average_snapshots([paths[0], other.snapshot_path(1)], tmp_path / "bad.npz")


@pytest.mark.slow  # two CLI start-ups (about 20 s on a busy machine)
def test_kill_nine_then_resume_matches_an_unbroken_run(tmp_path) -> None:
    TOTAL = 300  # noqa: N806  enough games that the kill lands mid-run
    def command(folder, *extra: str) -> list[str]:
        return [sys.executable, "-m", "gamesearch", "train", "td", "backgammon", "--total",
                str(TOTAL), "--hidden", "5", "--eval-every", "1000", "--checkpoint-every", "0",
                "--out", str(folder), "--json", *extra]

    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command(tmp_path / "whole"), capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    victim = subprocess.Popen(command(tmp_path / "killed"), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=env)
    checkpoint = tmp_path / "killed" / "checkpoint.npz"
    deadline = time.monotonic() + 120
    while not checkpoint.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)  # at once: a fast machine finishes in a second
    victim.wait()
    _, meta = load_checkpoint(checkpoint, "td-gammon checkpoint")
    assert 0 < meta["games"] < TOTAL  # killed mid-run
    resumed = subprocess.run(command(tmp_path / "killed", "--resume"), capture_output=True,
                             text=True, env=env, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    a, _ = load_checkpoint(tmp_path / "whole" / "checkpoint.npz", "td-gammon checkpoint")
    b, meta = load_checkpoint(checkpoint, "td-gammon checkpoint")
    assert meta["games"] == TOTAL
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


def test_agents_play_legal_moves_through_the_protocol(tmp_path) -> None:
    run = TDGammonTraining(tmp_path / "run", hidden=4, eval_every=10**6)
    run.run(2)
    run.close()
    game = Backgammon()
    weights = str(tmp_path / "run" / "checkpoint.npz")
    for spec in ("pubeval", f"td-gammon:weights={weights}",
                 f"td-gammon:depth=2,weights={weights}"):
        agent = make_agent(spec)
        state = game.initial_state()
        rng = random.Random(0)
        for _ in range(6):
            while game.to_move(state) == CHANCE:
                state = game.result(state, rng.choice(list(game.actions(state))))
            action = agent(game, state).action
            assert action in game.actions(state)
            state = game.result(state, action)


def test_a_run_from_before_the_encoding_setting_resumes(tmp_path) -> None:
    """Checkpoints written before ``encoding`` and ``alpha_halflife`` were settings (the
    weights shipped first, for one) load as Tesauro's encoding at a constant alpha."""
    from gamesearch.learn.checkpoint import save_checkpoint

    folder = tmp_path / "old"
    folder.mkdir()
    net = ValueNetwork(INPUTS, 3, seed=0)
    settings = {"hidden": 3, "alpha": 0.1, "lam": 0.7, "seed": 0, "eval_every": 1000,
                "eval_games": 4}
    save_checkpoint(folder / "checkpoint.npz", "td-gammon checkpoint", net.arrays(),
                    {"settings": settings, "games": 5, "plays": 300, "seconds": 1.0,
                     "curve": []})
    run = TDGammonTraining(folder, resume=True)
    assert run.settings["encoding"] == "tesauro" and run.settings["alpha_halflife"] == 0
    run.run(7)
    run.close()
    assert run.games == 7
    agent = make_agent(f"td-gammon:weights={folder / 'checkpoint.npz'}")
    assert agent.chooser.net.inputs == INPUTS


def test_bad_weights_are_one_line_errors(tmp_path) -> None:
    from gamesearch.errors import GameSearchError

    (tmp_path / "w.npz").write_bytes(b"junk")
    with pytest.raises(GameSearchError, match="not a td-gammon checkpoint"):
        make_agent(f"td-gammon:weights={tmp_path / 'w.npz'}")
    with pytest.raises(GameSearchError, match="no checkpoint"):
        make_agent(f"td-gammon:weights={tmp_path / 'missing.npz'}")
    with pytest.raises(GameSearchError, match="depth 0 or 2"):
        NetChooser(ValueNetwork(INPUTS, 2), depth=1)
