"""Labelled positions for the pattern evaluation: self-play games of our own engine with
randomness, each position labelled with its game's final disc difference, the last
``solve`` empties played out perfectly by the exact solver (so from there the labels are
exact; before it they are the result of the game as the noisy engine went on to play it).

A game: ``opening`` random plies (8-12, drawn per game), then the engine's move at a
shallow depth with the shipped learned evaluation, a random move with probability
``noise``; at ``solve`` empties or fewer the solver's best move to the end. The boards are
kept raw (side to move, opponent, as bitboards), so any evaluation's features can be
computed from them later. Positions where the side to move must pass are not kept (the
search never evaluates them).

The job is resumable: games are seeded by their number, the positions gathered so far go
to an atomic checkpoint every ``checkpoint_seconds`` (and on Ctrl-C), and the same
call goes on from the games the checkpoint holds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamesearch.durable import atomic_writer
from gamesearch.engines.othello import engine as E
from gamesearch.engines.othello import solver as S
from gamesearch.games.othello import kernel as K

KIND = "othello-selfplay"
"""The checkpoint's kind (its ``kind`` entry): a file without it is not ours."""


def _moves(me: int, opp: int) -> list[int]:
    """The kernel squares the side owning ``me`` may play."""
    bits = int(K.primitives(8).moves_of(np.uint64(me), np.uint64(opp)))
    return [sq for sq in range(64) if bits >> sq & 1]


def _play(me: int, opp: int, sq: int) -> tuple[int, int]:
    """The position after ``sq``, seen by the other side."""
    f = int(K.primitives(8).flips_of(np.uint64(me), np.uint64(opp), np.int64(sq)))
    return opp ^ f, me | f | (1 << sq)


def play_game(index: int, seed: int, engine: E.Engine, depth: int = 4, noise: float = 0.1,
              solve: int = 16, table: S.Table | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One game: ``(me, opp, label)`` of its positions, the label the final disc difference
    for the side to move there."""
    rng = random.Random(seed * 1_000_003 + index)
    opening = rng.randint(8, 12)
    table = table or S.Table(18)
    me, opp = 0x0000000810000000, 0x0000001008000000  # black to move
    mover = 0
    kept: list[tuple[int, int, int]] = []
    plies = 0
    while True:
        moves = _moves(me, opp)
        if not moves:
            if not _moves(opp, me):
                break
            me, opp, mover = opp, me, 1 - mover
            continue
        kept.append((me, opp, mover))
        empties = 64 - bin(me | opp).count("1")
        if empties <= solve:
            sq = S.solve_position(me, opp, table=table)[1]
        elif plies < opening or rng.random() < noise:
            sq = rng.choice(moves)
        else:
            sq = engine.best(me, opp, depth)[0]
        me, opp = _play(me, opp, sq)
        mover = 1 - mover
        plies += 1
    a, b = bin(me).count("1"), bin(opp).count("1")
    margin = a - b + (64 - a - b) * ((a > b) - (a < b))  # empties to the winner
    black = margin if mover == 0 else -margin
    mine = np.array([m for m, _, _ in kept], np.uint64)
    theirs = np.array([o for _, o, _ in kept], np.uint64)
    labels = np.array([black if w == 0 else -black for _, _, w in kept], np.int8)
    return mine, theirs, labels


def load(path: Path) -> dict[str, np.ndarray]:
    """A checkpoint's arrays (``me``, ``opp``, ``label``, ``game``: each position's game
    number, ``games``, ``seed``)."""
    from gamesearch.errors import GameSearchError

    if not path.is_file():
        raise GameSearchError(f"no self-play file {str(path)!r}")
    with np.load(path) as data:
        if "kind" not in data or str(data["kind"]) != KIND:
            raise GameSearchError(f"{path.name} is not a self-play file of this job; "
                                  "choose another file")
        return {k: data[k] for k in data.files}


def generate(path: Path, games: int, seed: int = 0, depth: int = 4, noise: float = 0.1,
             solve: int = 16, checkpoint_seconds: float = 120.0,
             progress: Callable[[int, int, int], None] | None = None) -> dict[str, np.ndarray]:
    """Play games until ``path`` holds ``games`` of them (resuming what it holds) and
    return its arrays; ``progress(games done, games, positions)`` after each game."""
    parts: list[tuple[np.ndarray, ...]] = []
    done = 0
    if path.exists():
        old = load(path)
        if int(old["seed"]) != seed:
            from gamesearch.errors import GameSearchError

            raise GameSearchError(f"{path.name} was made with seed {old['seed']}, not {seed}")
        parts.append((old["me"], old["opp"], old["label"], old["game"]))
        done = int(old["games"])
    engine = E.Engine(E.load_weights(), log2_table=16)
    table = S.Table(18)
    count = sum(len(p[0]) for p in parts)
    saved = [time.monotonic()]

    def save() -> None:
        arrays = [np.concatenate([p[i] for p in parts]) if parts else np.zeros(0, t)
                  for i, t in enumerate((np.uint64, np.uint64, np.int8, np.int32))]
        parts[:] = [tuple(arrays)]
        with atomic_writer(path) as f:
            np.savez_compressed(f, me=arrays[0], opp=arrays[1], label=arrays[2],
                                game=arrays[3], games=np.int64(done), seed=np.int64(seed),
                                kind=np.array(KIND))

    try:
        while done < games:
            mine, theirs, labels = play_game(done, seed, engine, depth, noise, solve, table)
            parts.append((mine, theirs, labels, np.full(len(labels), done, np.int32)))
            done += 1
            count += len(labels)
            if progress:
                progress(done, games, count)
            if time.monotonic() - saved[0] >= checkpoint_seconds:
                save()
                saved[0] = time.monotonic()
    finally:
        save()
    me, opp, label, game = parts[0]
    return {"me": me, "opp": opp, "label": label, "game": game}
