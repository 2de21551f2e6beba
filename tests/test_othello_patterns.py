"""Othello's pattern evaluation (issue #41): the readable index specification against the
numpy and compiled versions, the eight symmetries, a tiny fit, the self-play labels, and
bad options."""

from __future__ import annotations

import random
import subprocess

import numpy as np
import pytest

from gamesearch.agents import make_agent
from gamesearch.engines.othello import engine as E
from gamesearch.engines.othello import pattern_fit as F
from gamesearch.engines.othello import patterns as P
from gamesearch.engines.othello.selfplay import generate, load
from gamesearch.engines.othello.solver import solve_position
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.othello.kernel import encode_state


def positions(n: int, seed: int, empties: tuple[int, int] = (1, 59)) -> list[tuple[int, int]]:
    """Random positions from random games (side to move, opponent)."""
    game = load_game("othello")
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = game.initial_state()
        stop = rng.randint(*empties)
        while state[0].count("-") > stop and not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        me, opp, _ = encode_state(state, 8)
        out.append((int(me), int(opp)))
    return out


def random_tables(seed: int) -> np.ndarray:
    return P.expand(np.random.default_rng(seed).normal(size=(P.N_STAGES, P.n_columns())))


def transform(board: int, sym) -> int:
    out = 0
    for sq in range(64):
        if board >> sq & 1:
            r, c = sym(sq // 8, sq % 8)
            out |= 1 << (r * 8 + c)
    return out


def test_the_pattern_set_is_logistellos() -> None:
    squares, lengths, offsets, canon, size = P.layout()
    counts = {name: 0 for name, _ in P.PATTERNS}
    for off in offsets:
        counts[P.PATTERNS[int(np.searchsorted(np.unique(offsets), off))][0]] += 1
    assert counts == {"edge+2X": 4, "corner 2x5": 8, "corner 3x3": 4, "row 2": 4, "row 3": 4,
                      "row 4": 4, "diagonal 8": 2, "diagonal 7": 4, "diagonal 6": 4,
                      "diagonal 5": 4, "diagonal 4": 4}
    assert size == 2 * 3 ** 10 + 3 ** 9 + 4 * 3 ** 8 + 3 ** 7 + 3 ** 6 + 3 ** 5 + 3 ** 4
    # each instance's squares are distinct and on the board
    for row, n in zip(squares, lengths):
        assert len(set(row[:n])) == n and (row[:n] >= 0).all() and (row[n:] == -1).all()
    # an edge read backwards is the same edge: its configurations pair up
    edge = canon[:3 ** 10]
    assert edge[P.instance_indices(1 << 0, 0)[0]] == edge[P.instance_indices(1 << 7, 0)[0]]


def test_specification_numpy_and_kernel_agree() -> None:
    tables = random_tables(1)
    boards = positions(60, seed=2)
    me = np.array([a for a, _ in boards], np.uint64)
    opp = np.array([b for _, b in boards], np.uint64)
    many = F.indices_many(me, opp)
    numpy_values = F.predict(me, opp, tables)
    kernel = P.compiled()
    for i, (a, b) in enumerate(boards):
        spec = P.instance_indices(a, b)
        assert np.array_equal(spec, many[i])
        value = P.evaluate_spec(a, b, tables)
        assert value == pytest.approx(numpy_values[i], abs=1e-9)
        assert value == pytest.approx(kernel.pattern_value(np.uint64(a), np.uint64(b), tables,
                                                          np.zeros(P.SCRATCH)),
                                      abs=1e-9)


def test_the_eight_symmetries_give_the_same_value() -> None:
    tables = random_tables(3)
    kernel = P.compiled()
    for a, b in positions(12, seed=4):
        values = {round(P.evaluate_spec(transform(a, s), transform(b, s), tables), 9)
                  for s in P.SYMMETRIES}
        compiled = {round(kernel.pattern_value(np.uint64(transform(a, s)),
                                               np.uint64(transform(b, s)), tables,
                                               np.zeros(P.SCRATCH)), 9)
                    for s in P.SYMMETRIES}
        assert len(values) == 1 and values == compiled
    # and the value is not symmetric by accident: tables without the folding differ
    raw = np.random.default_rng(3).normal(size=(P.N_STAGES, P.n_columns()))
    a, b = positions(1, seed=5, empties=(30, 40))[0]
    assert len({round(P.evaluate_spec(transform(a, s), transform(b, s), raw), 9)
                for s in P.SYMMETRIES}) > 1


def test_a_tiny_fit_recovers_known_weights() -> None:
    """Labels made by known weights: the fit returns them as far as the positions can
    tell them apart (their projection on the positions' row space: the least-norm
    solution), so every label is reproduced."""
    boards = positions(150, seed=6, empties=(30, 30))
    me = np.array([a for a, _ in boards], np.uint64)
    opp = np.array([b for _, b in boards], np.uint64)
    truth = np.random.default_rng(7).normal(size=P.n_columns())
    a = F.design(me, opp)
    labels = a @ truth
    stage = P.stage_of(30)
    fitted = F.fit(me, opp, labels, ridge=1e-12, spread=0, iterations=5000)[stage]
    dense = a.toarray()
    projected = dense.T @ np.linalg.solve(dense @ dense.T, dense @ truth)
    assert np.allclose(a @ fitted, labels, atol=1e-3)
    assert np.allclose(fitted, projected, atol=1e-3)
    assert not np.allclose(fitted, 0)


def test_selfplay_labels_are_exact_near_the_end_and_resume(tmp_path) -> None:
    whole = generate(tmp_path / "a.npz", games=3, seed=4)
    generate(tmp_path / "b.npz", games=1, seed=4)  # a first run, stopped after one game
    resumed = generate(tmp_path / "b.npz", games=3, seed=4)
    for key in ("me", "opp", "label", "game"):
        assert np.array_equal(whole[key], resumed[key])
    assert int(load(tmp_path / "b.npz")["games"]) == 3
    empties = F.empties_of(whole["me"], whole["opp"])
    near = np.flatnonzero((empties <= 12) & (empties >= 6))[:5]
    for i in near:  # the solver played these out: the label is the exact score
        assert solve_position(int(whole["me"][i]), int(whole["opp"][i]))[0] == whole["label"][i]
    with pytest.raises(GameSearchError, match="seed"):
        generate(tmp_path / "b.npz", games=4, seed=5)


def test_the_engine_searches_with_the_tables() -> None:
    """To the end of the game its value is exact whatever the tables; at one ply it is the
    best child's table value, negated (the specification's)."""
    from gamesearch.games.othello import kernel as K

    tables = random_tables(9)
    for a, b in positions(2, seed=8, empties=(9, 9)):
        _, value, _, _ = E.Engine(tables, 12, patterns=True).best(a, b, 12)
        assert value == 1000 * solve_position(a, b)[0]
    prims = K.primitives(8)
    checked = 0
    for a, b in positions(4, seed=10, empties=(40, 40)):
        children = []
        bits = int(prims.moves_of(np.uint64(a), np.uint64(b)))
        for sq in (sq for sq in range(64) if bits >> sq & 1):
            f = int(prims.flips_of(np.uint64(a), np.uint64(b), np.int64(sq)))
            me, opp = b ^ f, a | f | 1 << sq
            if not int(prims.moves_of(np.uint64(me), np.uint64(opp))):
                break  # a pass below: not the plain one-ply case
            children.append(-P.evaluate_spec(me, opp, tables))
        else:
            _, value, _, _ = E.Engine(tables, 12, patterns=True).best(a, b, 1)
            assert value == pytest.approx(max(children), abs=1e-4)  # float32 tables
            checked += 1
    assert checked >= 3


def test_missing_weights_and_bad_evaluations_are_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(P, "WEIGHTS_FILE", tmp_path / "none.npz")
    with pytest.raises(GameSearchError, match="no pattern weights"):
        make_agent("othello:evaluation=patterns")
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(GameSearchError, match="not an Othello pattern weights file"):
        P.load(tmp_path / "other.npz")
    from arena_runs import CLI

    done = subprocess.run([*CLI, "match", "othello", "othello:evaluation=tables", "random",
                           "--games", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "patterns" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_bench_refuses_a_file_not_its_own_in_one_line(tmp_path) -> None:
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parent.parent / "bench" / "othello_patterns.py"
    np.savez(tmp_path / "other.npz", me=np.zeros(2))
    for data in (tmp_path / "other.npz", tmp_path / "missing.npz"):
        done = subprocess.run([sys.executable, str(bench), "fit", "--data", str(data)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
