"""The checkers engine (issue 15): its evaluation equals the readable one, what it proves
agrees with the endgame databases, with databases loaded its values are exact and it
converts a won ending, Samuel-style learning resumes exactly, and bad parameters are one
line."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

from gamesearch.agents import make_agent
from gamesearch.engines.checkers import learn as L
from gamesearch.engines.checkers import search as S
from gamesearch.engines.checkers.engine import CheckersEngine
from gamesearch.engines.checkers.tables import Tables
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.checkers.evaluation import FEATURES, HAND_WEIGHTS, features
from gamesearch.games.checkers.kernel import encode_state
from gamesearch.result import Limit
from gamesearch.tables.retrograde import DRAW, LOSS, WIN

GAMESEARCH = [sys.executable, "-m", "gamesearch"]
SIGN = {WIN: 1, LOSS: -1, DRAW: 0}


@pytest.fixture(scope="module")
def game():
    return load_game("checkers")


@pytest.fixture(scope="module")
def tables(checkers_tables3) -> Tables:
    """The 3-piece tables, built once per run (conftest; test_checkers_tables reads them
    too)."""
    return Tables(checkers_tables3)


def random_positions(game, pieces: int, count: int, seed: int) -> list[tuple]:
    """Legal, unfinished positions of ``pieces`` pieces (men never on their crowning row)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        cells = ["."] * 32
        for square in rng.sample(range(32), pieces):
            piece = rng.choice("bBwW")
            if (piece == "b" and square >= 28) or (piece == "w" and square < 4):
                piece = piece.upper()
            cells[square] = piece
        text = "".join(cells)
        if not any(p in text for p in "bB") or not any(p in text for p in "wW"):
            continue
        state = (text, rng.randint(0, 1), 0)
        if not game.is_terminal(state):
            found.append(state)
    return found


def test_the_engine_evaluation_is_the_readable_one(game) -> None:
    code, w = S.compiled(), np.array(HAND_WEIGHTS)
    rng = random.Random(5)
    for _ in range(30):
        state = game.initial_state()
        for _ in range(rng.randint(0, 60)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        expected = sum(a * b for a, b in zip(HAND_WEIGHTS, features(state[0], state[1])))
        assert code.weighted(encode_state(state), w) == round(expected)


def test_what_the_search_proves_agrees_with_the_databases(game, tables) -> None:
    engine, proven = CheckersEngine(hash_mb=4), 0
    for state in random_positions(game, 3, 120, seed=1):
        report = engine.go(encode_state(state), Limit(depth=40, nodes=200_000))
        score = report.stats.extra["points"]
        if report is not None and abs(score) > S.TB_WIN - 1000:
            proven += 1
            value, _ = tables.probe(state)
            assert SIGN[value] == (1 if score > 0 else -1), state
    assert proven > 60


def test_with_databases_every_value_is_exact(game, tables) -> None:
    engine = CheckersEngine(hash_mb=4, tables=tables)
    assert tables.complete_pieces() == 3
    for state in random_positions(game, 3, 150, seed=2):
        report = engine.go(encode_state(state), Limit(depth=2))
        score = report.stats.extra["points"]
        value, _ = tables.probe(state)
        got = 0 if abs(score) < S.TB_WIN - 1000 else (1 if score > 0 else -1)
        assert got == SIGN[value], state
        assert report.stats.extra["table_hits"] > 0 or abs(score) > S.MATE - 100  # or mate in 1


def test_a_database_agent_converts_a_won_ending(game, tables) -> None:
    """Two kings against one: the database side wins within its distance, against the
    engine searching without databases."""
    state = game.state_from_string("B:WK32:BK1,K5")
    value, distance = tables.probe(state)
    assert value == WIN
    ours = make_agent(f"checkers-engine:depth=4,tables={tables.folder}")
    theirs = make_agent("checkers-engine:depth=6")
    plies = 0
    while not game.is_terminal(state):
        agent = ours if state[1] == 0 else theirs
        state = game.result(state, agent(game, state).action)
        plies += 1
    assert game.utilities(state)[0] == 1 and plies <= distance


def test_learning_resumes_exactly_after_a_stop(tmp_path) -> None:
    whole = L.train(tmp_path / "whole.npz", 6, depth=2, checkpoint_every=2, eval_every=0)
    asked = iter([False, False, False, True])
    L.train(tmp_path / "part.npz", 6, depth=2, checkpoint_every=2, eval_every=0,
            stop=lambda: next(asked, True))
    again = L.train(tmp_path / "part.npz", 6, depth=2, checkpoint_every=2, eval_every=0,
                    resume=True)
    assert again["games"] == 6 and again["weights"] == pytest.approx(whole["weights"])
    assert whole["weights"] != pytest.approx(list(HAND_WEIGHTS))  # it learned something


def test_the_shipped_learned_weights_load() -> None:
    """The file holds the six features it was learned with, by name; the features added
    since weigh 0."""
    agent = make_agent("checkers-engine:depth=2,weights=learned")
    assert len(agent.engine.w) == len(FEATURES) and agent.engine.w[0] > 0
    assert np.count_nonzero(agent.engine.w[6:]) == 0 and np.count_nonzero(agent.engine.w) == 6


def test_the_evaluation_sees_both_colours_alike(game) -> None:
    """Every feature of a position, turned round with the colours swapped, is the same for
    the other side (the shapes are written from each side's own end of the board)."""
    rng = random.Random(11)
    for _ in range(200):
        state = game.initial_state()
        for _ in range(rng.randint(0, 80)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        turned = "".join(reversed(state[0])).translate(str.maketrans("bwBW", "wbWB"))
        assert features(turned, 1 - state[1]) == pytest.approx(features(state[0], state[1]))


def test_the_classic_shapes_are_seen() -> None:
    """The bridge, the intact double corner, the cramp, trading down when ahead and the
    weaker side's king in a double corner, each on a position set up by hand."""
    def board(black: dict[int, str], white: dict[int, str]) -> str:
        cells = ["."] * 32
        for square, piece in (*black.items(), *white.items()):
            cells[square - 1] = piece
        return "".join(cells)

    named = dict(zip(FEATURES, features(board({1: "b", 3: "b", 5: "b", 20: "b"},
                                              {24: "w", 32: "w"}), 0)))
    # Black: bridge 1 and 3 (7), double corner 1 + 5, cramp 20 against 24; White: the
    # lone corner square 32 (1 in GUARD, its bit 0), no cramp, no double corner
    assert named["guard"] == 7 - 1 and named["double_corner"] == 1 and named["cramp"] == 1
    ahead = [dict(zip(FEATURES, features(board({1: "b", 2: "b", 3: "b"}, {32: "w"}), 0))),
             dict(zip(FEATURES, features(board({1: "b", 2: "b", 3: "b", 4: "b", 5: "b",
                                                6: "b"}, {32: "w", 31: "w", 30: "w",
                                                          29: "w"}), 0)))]
    # the same two men ahead weigh more with fewer pieces left
    assert ahead[0]["men"] == ahead[1]["men"] and ahead[0]["exchange"] > ahead[1]["exchange"]
    hiding = dict(zip(FEATURES, features(board({10: "b", 11: "b", 14: "b"}, {32: "W"}), 1)))
    assert hiding["hiding_king"] == 1 and hiding["edge_kings"] == 1


@pytest.mark.parametrize("spec, words", [
    ("checkers-engine:weights=1/2", "weights="),
    ("checkers-engine:weights=a/b/c/d/e/f", "weights="),
    ("checkers-engine:tables=/nonexistent", "no checkers tables"),
    ("checkers-engine:time=0", "time"),
])
def test_bad_engine_parameters_are_one_line(spec: str, words: str) -> None:
    out = subprocess.run([*GAMESEARCH, "match", "checkers", spec, "random", "--games", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_train_samuel_writes_weights_and_curve_and_refuses_foreign_files(tmp_path) -> None:
    out = tmp_path / "run"
    done = subprocess.run([*GAMESEARCH, "train", "samuel", "checkers", "--games", "4",
                           "--depth", "2", "--eval-every", "2", "--out", str(out), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4
    weights = json.loads((out / "weights.json").read_text())["weights"]
    assert len(weights) == len(FEATURES) and (out / "curve.png").stat().st_size > 1000
    agent = make_agent("checkers-engine:depth=2,weights=" + "/".join(map(str, weights)))
    assert list(agent.engine.w) == pytest.approx(weights)
    again = subprocess.run([*GAMESEARCH, "train", "samuel", "checkers", "--games", "4",
                            "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "--resume" in again.stderr
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "weights.json").write_text('{"my": "notes"}')
    refused = subprocess.run([*GAMESEARCH, "train", "samuel", "checkers", "--games", "1",
                              "--out", str(foreign)], capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2 and "not a gamesearch" in refused.stderr
    assert (foreign / "weights.json").read_text() == '{"my": "notes"}'
    wrong = subprocess.run([*GAMESEARCH, "train", "samuel", "chess"], capture_output=True,
                           text=True, timeout=120)
    assert wrong.returncode == 2 and "checkers only" in wrong.stderr


def test_time_is_a_wall_and_target_a_tournament_budget(game) -> None:
    """``time=T`` never takes more than T (the web page's clock relies on it: the engine
    overran a 1 s move there when T was a target); ``target=T`` may run to HARD_SHARE * T."""
    from budget import Clock
    from gamesearch.engines.checkers.engine import HARD_SHARE, SOFT_SHARE

    wall = make_agent("checkers-engine:time=0.3")
    tournament = make_agent("checkers-engine:target=0.3")
    assert wall.bound.time == pytest.approx(0.3)
    assert wall.soft == pytest.approx(0.3 * SOFT_SHARE / HARD_SHARE)
    assert tournament.bound.time == pytest.approx(0.3 * HARD_SHARE)
    assert tournament.soft == pytest.approx(0.3 * SOFT_SHARE)
    assert tournament.spec == "checkers-engine:target=0.3"
    wall.prepare(game)
    state = game.initial_state()
    for move in ("11-15", "23-19", "8-11", "22-17"):
        state = game.result(state, move)
    clock = Clock()
    result = wall(game, state)
    clock.kept(0.3, 0.15)
    assert result.action in game.actions(state)


def test_target_shares_are_options_and_bad_shares_one_line(game) -> None:
    """``soft=S,hard=H`` set the target's two shares (the simplech bench sets them so that
    both programs spend the same mean time a move); shares without a target, or a soft
    share above the hard one, are refused with one line (exit 2 from the CLI)."""
    tuned = make_agent("checkers-engine:target=0.2,soft=0.8,hard=2.2")
    assert tuned.bound.time == pytest.approx(0.2 * 2.2)
    assert tuned.soft == pytest.approx(0.2 * 0.8)
    assert tuned.spec == "checkers-engine:target=0.2,soft=0.8,hard=2.2"
    for bad, says in (("checkers-engine:soft=0.5", "give target"),
                      ("checkers-engine:target=0.1,soft=3,hard=2", "soft <= hard")):
        with pytest.raises(GameSearchError, match=says):
            make_agent(bad)
    refused = subprocess.run([*GAMESEARCH, "match", "checkers",
                              "checkers-engine:target=0.1,soft=0", "random"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "soft" in refused.stderr
    assert "Traceback" not in refused.stderr


@pytest.mark.parametrize("cells", ["....bw..w.w..b......b...........",
                                   ".............w...bw...w...bb...."])
def test_a_pending_capture_is_seen_past_the_horizon(game, cells: str) -> None:
    """Black to move, no capture anywhere: one of black's moves leaves a capture that white
    cannot escape. A depth-1 search that stopped at the horizon scores the best child's
    static evaluation; searching the reply to a pending capture finds the man won, as a
    deep search does."""
    state = (cells, 0, 0)
    kids = [game.result(state, a) for a in game.actions(state)]
    assert not any("x" in a for a in game.actions(state))
    code, w = S.compiled(), np.array(HAND_WEIGHTS)
    horizon = max(-code.weighted(encode_state(k), w) for k in kids)
    shallow = CheckersEngine().go(encode_state(state), Limit(depth=1)).stats.extra["points"]
    deep = CheckersEngine().go(encode_state(state), Limit(depth=8)).stats.extra["points"]
    assert shallow >= horizon + 80
    assert abs(deep - shallow) < 60
