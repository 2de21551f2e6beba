"""Fitting the Othello evaluation's weights by regression on self-play positions.

As Logistello fitted its patterns: play games from varied openings (random first moves,
then the engine at a shallow depth with a little noise), solve each game exactly once
``solve`` empties remain, and label every position of the game with that exact final disc
difference (from the side to move). Then least squares (ridge) per game stage gives the
weights. The job is resumable: every ``checkpoint_every`` games the positions gathered so
far go to the checkpoint (temporary file, fsync, rename), and each game is seeded by its
number, so a resumed run gathers exactly the positions an uninterrupted one would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamesearch.durable import atomic_writer
from gamesearch.engines.othello import engine as E
from gamesearch.engines.othello import solver as S
from gamesearch.games.othello import kernel as K
from gamesearch.games.othello.rules import Othello


def play_game(index: int, seed: int, weights: np.ndarray, depth: int = 2,
              opening: int = 8, noise: float = 0.1,
              solve: int = 14) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play game: ``(features, labels, stages)`` of its positions."""
    rng = random.Random(seed * 1_000_003 + index)
    game = Othello()
    engine = E.Engine(weights, log2_table=14)
    state = game.initial_state()
    seen: list[tuple[int, int, int]] = []  # (me, opp, mover)
    plies = 0
    while not game.is_terminal(state) and state[0].count("-") > solve:
        me, opp, mover = (int(x) for x in K.encode_state(state, 8))
        seen.append((me, opp, mover))
        actions = game.actions(state)
        if plies < opening or rng.random() < noise or actions == [-1]:
            action = rng.choice(actions)
        else:
            move, _, _, _ = engine.best(me, opp, depth)
            action = K.decode_action(move, 8)
        state = game.result(state, action)
        plies += 1
    me, opp, mover = (int(x) for x in K.encode_state(state, 8))
    if game.is_terminal(state):
        score = game.final_score(state) * (1 if mover == 0 else -1)
    else:
        score = S.solve_position(me, opp, table=S.Table(16))[0]
    black = score if mover == 0 else -score
    seen.append((me, opp, mover))
    feats = np.array([E.position_features(a, b) for a, b, _ in seen])
    labels = np.array([black if m == 0 else -black for _, _, m in seen], dtype=np.float64)
    stages = np.array([E.stage_of(64 - bin(a | b).count("1")) for a, b, _ in seen], np.int64)
    return feats, labels, stages


def save_atomic(path: Path, **arrays: np.ndarray) -> None:
    """Write an npz all or nothing (durable.atomic_writer: a temporary file in the same
    folder, fsync, rename), so a kill never leaves half a checkpoint."""
    with atomic_writer(path) as f:
        np.savez(f, **arrays)


def fit(feats: np.ndarray, labels: np.ndarray, stages: np.ndarray,
        ridge: float = 1.0) -> np.ndarray:
    """Least-squares weights per stage (ridge-regularised): stages x features."""
    weights = np.zeros((E.N_STAGES, E.N_FEATURES))
    for st in range(E.N_STAGES):
        rows = stages == st
        if rows.sum() < E.N_FEATURES:
            weights[st] = E.HAND_WEIGHTS[st]
            continue
        x, y = feats[rows], labels[rows]
        weights[st] = np.linalg.solve(x.T @ x + ridge * np.eye(E.N_FEATURES), x.T @ y)
    return weights


def train(checkpoint: Path, games: int, seed: int = 0, depth: int = 2,
          checkpoint_every: int = 20,
          progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Gather ``games`` self-play games (resuming ``checkpoint`` if it exists, which this
    job made) and return the fitted weights; the checkpoint holds positions and weights."""
    feats = np.zeros((0, E.N_FEATURES))
    labels = np.zeros(0)
    stages = np.zeros(0, np.int64)
    done = 0
    if checkpoint.exists():
        with np.load(checkpoint) as data:
            if int(data["seed"]) != seed or "labels" not in data:
                from gamesearch.errors import GameSearchError

                raise GameSearchError(f"{checkpoint.name} is not a checkpoint of this job "
                                      f"(seed {seed}); choose another file")
            feats, labels, stages = data["features"], data["labels"], data["stages"]
            done = int(data["games"])
    weights = E.HAND_WEIGHTS.copy()  # the games are played with the typed-in evaluation

    def save() -> None:
        save_atomic(checkpoint, features=feats, labels=labels, stages=stages,
                    games=np.int64(done), seed=np.int64(seed),
                    weights=fit(feats, labels, stages))

    try:
        while done < games:
            f, y, st = play_game(done, seed, weights, depth)
            feats, labels, stages = np.vstack([feats, f]), np.concatenate([labels, y]), \
                np.concatenate([stages, st])
            done += 1
            if progress:
                progress(done, games)
            if done % checkpoint_every == 0:
                save()
    finally:
        save()
    return fit(feats, labels, stages)
