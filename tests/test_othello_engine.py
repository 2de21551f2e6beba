"""Othello's midgame engine, its agents and the resumable fitting of the evaluation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from budget import Clock
from gamesearch.agents import make_agent
from gamesearch.arena.match import play_game
from gamesearch.engines.othello import engine as E
from gamesearch.engines.othello.solver import solve_position
from gamesearch.engines.othello.train import train
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.othello.kernel import encode_state


def test_search_to_the_end_equals_the_exact_solver() -> None:
    game = load_game("othello")
    rng = random.Random(3)
    for _ in range(3):
        state = game.initial_state()
        while state[0].count("-") > 8:
            state = game.result(state, rng.choice(game.actions(state)))
        if game.is_terminal(state):
            continue
        me, opp, _ = encode_state(state, 8)
        _, value, _, _ = E.Engine(E.HAND_WEIGHTS, 12).best(int(me), int(opp), 12)
        assert value == 1000 * solve_position(int(me), int(opp))[0]


def test_features_see_corners_and_mobility() -> None:
    game = load_game("othello")
    start = encode_state(game.initial_state(), 8)
    f = E.position_features(int(start[0]), int(start[1]))
    assert f[10] == 0 and f[15] == 1 and f[:10].sum() == 0  # symmetric start
    corner = "X" + "-" * 26 + "OX------XO" + "-" * 27 + " X"
    me, opp, _ = encode_state(game.state_from_string(corner), 8)
    assert E.position_features(int(me), int(opp))[0] == 1


def test_shipped_weights_are_learned_not_typed() -> None:
    w = E.load_weights()
    assert w.shape == (E.N_STAGES, E.N_FEATURES) and np.isfinite(w).all()
    assert not np.allclose(w, E.HAND_WEIGHTS)
    assert w[0, 12] > 0  # X-square beside an empty corner found costly (its feature is -1)


def test_agents_play_legal_games_and_the_engine_beats_random() -> None:
    game = load_game("othello")
    engine = make_agent("othello:depth=2")
    wins = 0
    for seat in (0, 1):
        seats = [engine, make_agent("random:seed=5")]
        seats = seats if seat == 0 else seats[::-1]
        final, moves = play_game(game, seats)
        wins += game.utilities(final)[seat] > 0
        assert game.is_terminal(final) and len(moves) >= 58
    assert wins == 2


def test_engine_refuses_other_sizes_and_bad_options() -> None:
    with pytest.raises(GameSearchError, match="learned or hand"):
        make_agent("othello:evaluation=magic")
    small = load_game("othello:size=6")
    with pytest.raises(GameSearchError, match="8x8 only"):
        make_agent("othello")(small, small.initial_state())


def test_training_resumes_exactly(tmp_path) -> None:
    whole = train(tmp_path / "a.npz", games=4, seed=7)
    train(tmp_path / "b.npz", games=2, seed=7)  # a first run, stopped after two games
    resumed = train(tmp_path / "b.npz", games=4, seed=7)
    assert np.allclose(whole, resumed)
    with np.load(tmp_path / "a.npz") as a, np.load(tmp_path / "b.npz") as b:
        assert np.array_equal(a["labels"], b["labels"]) and int(b["games"]) == 4
    with pytest.raises(GameSearchError, match="not a checkpoint of this job"):
        train(tmp_path / "a.npz", games=5, seed=8)


def test_a_time_budget_deepens_as_far_as_it_allows_and_is_kept() -> None:
    """``othello:time=T`` reports the depth it reached; a longer budget reaches deeper, and
    the move comes within the budget plus one iteration's overrun."""

    from gamesearch.agents import make_agent

    game = load_game("othello")
    state = game.initial_state()
    for move in ("f5", "d6", "c3", "d3", "c4"):
        state = game.result(state, game.string_to_action(state, move))
    for _ in range(3):  # a pair whose longer search was starved (a loaded machine gave it
        depths = []  # no more processor time than the short one: both depth 8) is played again
        for budget in (0.05, 0.6):
            agent = make_agent(f"othello:time={budget}")
            agent.prepare(game)
            clock = Clock()
            result = agent(game, state)
            assert result.action in game.actions(state)
            clock.kept(budget, 0.5)
            depths.append(result.stats.depth)
        if 1 <= depths[0] < depths[1]:
            break
    assert 1 <= depths[0] < depths[1], depths
    assert make_agent("othello").depth == 4 and make_agent("othello:depth=3").depth == 3


def _midgame() -> tuple[int, int, list[int]]:
    """A position after eight plies: both bitboards and its legal moves (kernel squares)."""
    game = load_game("othello")
    state = game.initial_state()
    for move in ("f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"):
        state = game.result(state, game.string_to_action(state, move))
    me, opp, _ = encode_state(state, 8)
    return int(me), int(opp), game.actions(state)


def test_the_compiled_search_abandons_an_iteration_at_its_deadline() -> None:
    """The compiled PVS reads the clock every CLOCK_EVERY nodes: a passed deadline stops it
    within that many nodes, and a depth far beyond a 50 ms deadline returns in about that
    time with its stop flag set (the driver then discards the iteration)."""
    import time

    me, opp, _ = _midgame()
    engine, ns = E.Engine(E.HAND_WEIGHTS, 16), E.compiled()
    engine.best(me, opp, 2)  # compiled before the clock

    def run(deadline_us: int, depth: int) -> np.ndarray:
        stats = np.zeros(E.N_STATS, np.int64)
        stats[E.DEADLINE] = deadline_us
        ns.search(np.uint64(me), np.uint64(opp), np.int64(depth), -1e9, 1e9, np.int64(0),
                  np.int64(0), engine.weights, engine.tkey, engine.tinfo, engine.buf,
                  engine.keys, engine.fbuf, engine.scratch, stats)
        return stats

    stats = run(1, 30)  # long past
    assert stats[E.STOP] == 1 and stats[E.NODES] <= E.CLOCK_EVERY
    clock = Clock()
    stats = run(int((time.perf_counter() + 0.05) * 1e6), 30)
    clock.kept(0.05, 0.5)
    assert stats[E.STOP] == 1 and stats[E.NODES] > E.CLOCK_EVERY
    assert run(0, 3)[E.STOP] == 0  # no deadline: the iteration completes


def test_a_stop_and_a_node_limit_cut_a_deep_iteration() -> None:
    """A stop asked while a depth runs reaches the compiled search (not only between
    depths), and a node limit ends the search near it; depth 1 is answered either way."""
    import threading

    from gamesearch.result import Limit

    me, opp, moves = _midgame()
    engine = E.Engine(E.HAND_WEIGHTS, 16)
    engine.best(me, opp, 2)
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    clock = Clock()
    timer.start()
    try:
        result = engine.search(me, opp, Limit(depth=40), stop=stop)
    finally:
        timer.cancel()
    clock.kept(0.3, 0.7)
    assert result.stopped_by == "stop" and result.stats.depth >= 1
    assert result.action in moves
    limited = engine.search(me, opp, Limit(depth=40, nodes=200_000))
    assert limited.stopped_by == "nodes" and limited.stats.depth >= 1
    assert limited.stats.nodes <= 200_000 + E.CLOCK_EVERY


def test_a_target_is_a_budget_under_its_cap_and_solves_early() -> None:
    """``othello:target=T`` spends about T a move and never more than its cap
    (``HARD_SHARE * T``) in the midgame; near the end it solves earlier than ``solve``
    empties where the solver's predicted time fits, playing a proven win as such."""
    import json
    from pathlib import Path

    from gamesearch.engines.othello.solver import Table

    game = load_game("othello")
    state = game.initial_state()
    for move in ("f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"):
        state = game.result(state, game.string_to_action(state, move))
    agent = make_agent("othello:target=0.2")
    agent.prepare(game)
    clock = Clock()
    result = agent(game, state)
    clock.kept(E.HARD_SHARE * 0.2, 0.3)
    assert result.action in game.actions(state) and result.stats.depth >= 4
    # a position of a recorded game at 18 empties: solved with the window -1..1
    record = json.loads((Path(__file__).parents[1] / "bench" / "records" / "othello-grhino"
                         / "L4_capped1.jsonl").read_text().splitlines()[0])
    state = game.initial_state()
    for text in record["opening"] + record["moves"]:
        if state[0].count("-") <= 18 and game.actions(state) != [-1]:
            break
        state = game.result(state, game.string_to_action(state, text))
    empties = state[0].count("-")
    assert E.solve_seconds(empties) <= E.SOLVE_SHARE * E.HARD_SHARE * 2.0
    me, opp, _ = encode_state(state, 8)
    exact = solve_position(int(me), int(opp), table=Table(18))[0]
    found = make_agent("othello:target=2")(game, state)
    assert found.stats.depth == empties  # solved, not searched (solve=14 by default)
    if exact >= 0:  # a proven win (a bound of the margin, fail-soft) or draw, and its move
        assert found.value == 0 if exact == 0 else E.FINISHED <= found.value <= \
            E.FINISHED * exact
        child = game.result(state, found.action)
        cme, copp, _ = encode_state(child, 8)
        assert -solve_position(int(cme), int(copp), table=Table(18))[0] >= min(exact, 1)


def test_target_and_solve_refuse_bad_values_in_one_line(cli) -> None:
    for spec, words in (("othello:target=0", "target"), ("othello:target=-1", "target"),
                        ("othello:solve=40", "solve"),
                        ("othello:time=1,target=1", "not both")):
        with pytest.raises(GameSearchError, match=words):
            make_agent(spec)
    code, _, err = cli("play", "othello", "--player1", "othello:target=-2", "--player2",
                       "random")
    assert code == 2 and "target" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
