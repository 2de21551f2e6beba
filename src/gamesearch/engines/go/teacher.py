"""A teacher's games for the Go network's supervised start (issue 43): AlphaGo's first stage
learned its policy from strong players' moves before it learned from itself; ours learns
from GNU Go's (``bench/go_gnugo_games.py`` plays them, ``gamesearch train supervised go``
learns from them).

A games file is JSON lines: first the settings that made it (``kind`` is
:data:`TEACHER_KIND`), then one game a line with ``moves`` (GTP vertices and ``pass``),
``opening`` (how many of the first moves were random, not the teacher's) and ``margin``
(Black's area minus White's and komi). Each game is replayed by our rules (9x9, komi 7):
every position after the opening is one example, the network's input planes
(:func:`gamesearch.engines.go.net_agent.planes`), the teacher's move, and the game's result
for the player to move. A move our rules refuse, or a final score other than the recorded
one, is one line naming the file and line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gamesearch.errors import GameSearchError

TEACHER_KIND = "gamesearch go-gnugo games"
SIZE, KOMI = 9, 7.0
MAX_MOVES_TEXT = 4 * SIZE * SIZE + 2
"""Moves a game line may hold: our rules' cap, and the two passes."""
SHAPE = (SIZE, SIZE, 4)
"""The network's input: (rows, columns, planes) as ``net_agent.planes`` lays them out."""
ACTIONS = SIZE * SIZE + 1


@dataclass
class Examples:
    """Positions as arrays, one row each: ``x`` the input planes (uint8), ``legal`` the
    legal actions (uint8), ``action`` the teacher's move, ``z`` the game's result for the
    player to move (+1 won, -1 lost, 0 drawn) and ``game`` a number per game (the
    held-out games are picked by it); ``per_file`` the games read from each file."""

    x: np.ndarray
    legal: np.ndarray
    action: np.ndarray
    z: np.ndarray
    game: np.ndarray
    per_file: tuple[int, ...] = ()

    def __len__(self) -> int:
        return int(self.action.shape[0])


def square_symmetries(size: int) -> np.ndarray:
    """The eight symmetries of a square board as action maps, shape (8, size*size + 1):
    row ``s`` sends action ``a`` to ``s[a]`` (the pass, last, to itself)."""
    maps = []
    for turn in range(4):
        for flip in (False, True):
            grid = np.arange(size * size).reshape(size, size)
            moved = np.rot90(grid, turn)
            moved = moved[:, ::-1] if flip else moved
            forward = np.empty(size * size + 1, dtype=np.int32)
            forward[moved.reshape(-1)] = np.arange(size * size)
            forward[-1] = size * size
            maps.append(forward)
    return np.stack(maps)


SYMMETRIES = square_symmetries(SIZE)
"""The board's eight symmetries as action maps (the trainer draws one per minibatch)."""


def _line_error(path: Path, number: int, why: str) -> GameSearchError:
    return GameSearchError(f"{path}:{number}: {why}")


def _replay(game, moves: list, opening: int) -> tuple[list[tuple], float]:
    """Replay one game's ``moves`` by our rules: (planes, legal mask, move, mover) for each
    position from move ``opening`` on, and the final score; a move the rules refuse, or a
    game that does not end, is a GameSearchError saying which."""
    from gamesearch.engines.go.net_agent import planes
    from gamesearch.games.go.notation import parse_vertex

    state, kept = game.initial_state(), []
    for ply, move in enumerate(moves):
        if game.is_terminal(state):
            raise GameSearchError(f"move {ply + 1} comes after the game ended")
        try:
            action = game.pass_action if move == "pass" else parse_vertex(str(move), SIZE)
        except GameSearchError as err:
            raise GameSearchError(f"move {ply + 1}: {err}") from None
        legal = game.actions(state)
        if action not in legal:
            raise GameSearchError(f"move {ply + 1} ({move}) is illegal")
        if ply >= opening:
            mask = np.zeros(game.pass_action + 1, dtype=np.uint8)
            mask[legal] = 1
            kept.append((planes(state[0], state[1], legal).astype(np.uint8), mask, action,
                         state[1]))
        state = game.result(state, action)
    if not game.is_terminal(state):
        raise GameSearchError("the game does not end (two passes)")
    return kept, game.score(state)


def read_teacher_games(paths: list[str | Path], limit: int | None = None) -> Examples:
    """The examples of every game in ``paths`` (games numbered across the files in order);
    at most ``limit`` games when given."""
    from gamesearch.games.go.rules import Go
    from gamesearch.textinput import read_text

    game = Go(SIZE, KOMI)
    rows: list[tuple] = []
    zs: list[float] = []
    games: list[int] = []
    number = 0
    per_file: list[int] = []
    for path in map(Path, paths):
        first_number = number
        lines = read_text(path, "games file").splitlines()
        try:
            first = json.loads(lines[0]) if lines else None
        except ValueError:
            first = None
        if not isinstance(first, dict) or first.get("kind") != TEACHER_KIND:
            raise GameSearchError(f"{path} is not a games file of bench/go_gnugo_games.py")
        if first.get("size", SIZE) != SIZE or first.get("komi", KOMI) != KOMI:
            raise GameSearchError(f"{path}: games of size {first.get('size')} and komi "
                                  f"{first.get('komi')}; the network is 9x9 with komi 7")
        for at, text in enumerate(lines[1:], start=2):
            if limit is not None and number >= limit:
                break
            try:
                record = json.loads(text)
                moves, opening, margin = record["moves"], record["opening"], record["margin"]
            except (ValueError, KeyError, TypeError):
                raise _line_error(path, at, "not a game line (moves, opening, margin)") \
                    from None
            if not (isinstance(moves, list) and len(moves) <= MAX_MOVES_TEXT and
                    isinstance(opening, int) and 0 <= opening <= len(moves) and
                    isinstance(margin, int | float) and not isinstance(margin, bool)):
                raise _line_error(path, at, "a game's moves are a list of at most "
                                  f"{MAX_MOVES_TEXT} vertices, its opening a count of them")
            try:
                kept, final = _replay(game, moves, opening)
            except GameSearchError as err:
                raise _line_error(path, at, str(err)) from None
            if final != margin:
                raise _line_error(path, at, f"the moves score {final:+g} by our rules, the "
                                  f"line says {margin:+g}")
            black = float(np.sign(final))
            rows.extend(kept)
            zs.extend(black if row[3] == 0 else -black for row in kept)
            games.extend([number] * len(kept))
            number += 1
        per_file.append(number - first_number)
    if not rows:
        raise GameSearchError("no positions in the games files")
    xs, legals, actions, _ = zip(*rows, strict=True)
    return Examples(np.stack(xs), np.stack(legals), np.asarray(actions, dtype=np.int32),
                    np.asarray(zs, dtype=np.float32), np.asarray(games, dtype=np.int32),
                    tuple(per_file))
