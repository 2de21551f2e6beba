"""Samuel's learning, done the modern way: the checkers evaluation's weights learned by
TD-leaf(lambda) self-play (learn/td_leaf.py has the update and its reference), with the
compiled engine at a fixed depth choosing every move.

Each game starts from a seeded random opening (two to four random moves, so the games
differ), then both sides play the engine with the current weights; ``epsilon`` of the
later moves are random (exploration). The leaf of each search's principal variation is
the position whose evaluation the search backed up: its features, from Black's side, give
the prediction ``P = x / (|x| + SCALE)`` with ``x = w . f`` and the gradient
``f * SCALE / (|x| + SCALE)^2``. A game ends by the rules (a side without a move loses,
the 40-move rule draws) or is called a draw after ``max_plies``.

The run is resumable: every ``checkpoint_every`` games the weights, the game count and
the curve go to the checkpoint (atomic), and every game is seeded by its number, so a
resumed run plays the games an uninterrupted one would. Every ``eval_every`` games the
current weights play a short match against the hand-written ones at equal depth, and that
score is the learning curve.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.arena.match import wilson_interval
from gamesearch.engines.checkers.engine import CheckersEngine
from gamesearch.games.checkers.evaluation import FEATURES, HAND_WEIGHTS, SCALE
from gamesearch.games.checkers.kernel import (
    MAX_ACTIONS,
    encode_state,
    primitives,
)
from gamesearch.learn.checkpoint import load_checkpoint, save_checkpoint
from gamesearch.learn.td_leaf import td_leaf_update
from gamesearch.result import Limit

KIND = "checkers-td-leaf"
WEIGHTS_MARK = "checkers-weights"
"""What ``weights.json``'s ``gamesearch`` field says: a weights file we wrote."""
START = encode_state(("bbbbbbbbbbbb........wwwwwwwwwwww", 0, 0))


def black_features(s: tuple) -> np.ndarray:
    """The features (evaluation.py) of kernel state ``s`` from Black's side."""
    prims = primitives()
    mine, theirs = np.zeros(len(FEATURES)), np.zeros(len(FEATURES))
    prims.side_features(s[0], s[1], s[2], 0, mine)
    prims.side_features(s[1], s[0], s[2], 1, theirs)
    return mine - theirs


def opening(rng: random.Random, plies: int) -> tuple:
    """The kernel state after ``plies`` random legal moves from the start."""
    prims = primitives()
    buf = np.zeros(MAX_ACTIONS, np.int64)
    s = START
    for _ in range(plies):
        n = prims.legal(s, buf)
        if n == 0:
            break
        s = prims.play(s, buf[rng.randrange(n)])
    return s


def outcome_of(s: tuple) -> float | None:
    """+1 Black won, -1 White won, 0 drawn by the 40-move rule; None if not over."""
    prims = primitives()
    if not prims.is_terminal(s):
        return None
    value = float(prims.terminal_value(s))  # for the side to move
    return value if s[3] == 0 else -value


def self_play(index: int, seed: int, weights: np.ndarray, depth: int, epsilon: float,
              max_plies: int) -> tuple[list[float], list[np.ndarray], float]:
    """One game of TD-leaf self-play: the predictions and gradients at its PV leaves and
    the outcome (Black's side)."""
    rng = random.Random(seed * 1_000_003 + index)
    prims = primitives()
    engine = CheckersEngine(hash_mb=4, weights=tuple(weights))
    s = opening(rng, rng.randint(2, 4))
    buf = np.zeros(MAX_ACTIONS, np.int64)
    predictions: list[float] = []
    gradients: list[np.ndarray] = []
    for _ in range(max_plies):
        result = outcome_of(s)
        if result is not None:
            return predictions, gradients, result
        report = engine.go(s, Limit(depth=depth))
        leaf = s
        for a in report.pv:
            leaf = prims.play(leaf, a)
        over = outcome_of(leaf)
        if over is not None:
            predictions.append(over)
            gradients.append(np.zeros(len(FEATURES)))
        else:
            f = black_features(leaf)
            x = float(weights @ f)
            predictions.append(x / (abs(x) + SCALE))
            gradients.append(f * SCALE / (abs(x) + SCALE) ** 2)
        if rng.random() < epsilon:
            n = prims.legal(s, buf)
            s = prims.play(s, buf[rng.randrange(n)])
        else:
            s = prims.play(s, report.pv[0])
    return predictions, gradients, 0.0


def match(a: np.ndarray, b: np.ndarray, pairs: int, depth: int, seed: int,
          max_plies: int = 300) -> tuple[float, int]:
    """Points of weights ``a`` against ``b`` over ``pairs`` seeded random openings, each
    played with both colours at equal depth (win 1, draw 1/2); and the games played."""
    prims = primitives()
    points = 0.0
    for i in range(pairs):
        rng = random.Random(seed * 7_919 + i)
        start = opening(rng, rng.randint(2, 4))
        for a_is_black in (True, False):
            engines = [CheckersEngine(hash_mb=4, weights=tuple(w))
                       for w in ((a, b) if a_is_black else (b, a))]
            s = start
            result = 0.0
            for _ in range(max_plies):
                over = outcome_of(s)
                if over is not None:
                    result = over
                    break
                report = engines[int(s[3])].go(s, Limit(depth=depth))
                s = prims.play(s, report.pv[0])
            mine = result if a_is_black else -result
            points += (mine + 1) / 2
    return points, 2 * pairs


def train(checkpoint: Path, games: int, seed: int = 0, depth: int = 4, alpha: float = 20.0,
          lam: float = 0.7, epsilon: float = 0.05, max_plies: int = 200,
          checkpoint_every: int = 100, eval_every: int = 1000, eval_pairs: int = 50,
          average_from: int = 2000, start: tuple[float, ...] = HAND_WEIGHTS,
          resume: bool = False, progress: Callable[[dict[str, Any]], None] | None = None,
          stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Run (or resume) TD-leaf self-play until ``games`` games; returns the run's record.

    The learned weights are the average of the weights after each game from game
    ``average_from`` on (Polyak-Ruppert averaging: TD steps keep the latest weights
    wandering around the answer; their mean settles). Before then, the latest weights."""
    if resume and Path(checkpoint).exists():
        arrays, meta = load_checkpoint(checkpoint, KIND)
        weights, total = arrays["weights"].astype(np.float64), arrays["total"]
        done, curve = int(meta["games"]), meta["curve"]
        history = arrays["history"].tolist()
    else:
        weights, done, curve, history = np.array(start, np.float64), 0, [], []
        total = np.zeros(len(FEATURES))
    settings = {"seed": seed, "depth": depth, "alpha": alpha, "lambda": lam,
                "epsilon": epsilon, "max_plies": max_plies, "average_from": average_from,
                "start": list(start)}

    def learned() -> np.ndarray:
        return total / (done - average_from) if done > average_from else weights

    def record() -> dict[str, Any]:
        return {"games": done, "weights": [float(w) for w in learned()],
                "latest": [float(w) for w in weights], "curve": curve, "history": history,
                **settings}

    def save() -> None:
        rows = np.array(history, np.float64).reshape(-1, 1 + len(FEATURES))
        save_checkpoint(checkpoint, KIND, {"weights": weights, "total": total, "history": rows},
                        {"games": done, "curve": curve, **settings})

    hand = np.array(HAND_WEIGHTS, np.float64)
    while done < games:
        if stop is not None and stop():
            break
        predictions, gradients, outcome = self_play(done, seed, weights, depth, epsilon,
                                                    max_plies)
        weights = np.array(td_leaf_update(list(weights), predictions,
                                          [list(g) for g in gradients], outcome, alpha, lam))
        done += 1
        if done > average_from:
            total = total + weights
        history.append([done, *map(float, weights)])
        if eval_every and done % eval_every == 0:
            points, played = match(learned(), hand, eval_pairs, depth, seed + 1)
            low, high = wilson_interval(points / played, played)
            curve.append({"games": done, "vs_hand": points / played, "ci_low": low,
                          "ci_high": high, "played": played})
        if done % checkpoint_every == 0 or done == games:
            save()
        if progress is not None:
            progress(record())
    save()
    return record()
