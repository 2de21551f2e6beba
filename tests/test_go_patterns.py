"""MoGo's 3x3 patterns: the compiled table against a readable matcher that turns the
board (not the pattern), and the play-outs' pattern move against the rules' boards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamesearch.games.go import kernel as K
from gamesearch.games.go.patterns import (
    ALLOWED,
    BLACK,
    EDGE,
    EMPTY,
    NEIGHBOURS,
    PATTERNS,
    TABLE,
    WHITE,
)
from gamesearch.games.go.rules import Go


def turns(grid: list[list[int]]) -> list[list[list[int]]]:
    """The 3x3 grid in its 8 orientations."""
    out = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]
        out += [grid, [row[::-1] for row in grid]]
    return out


def readable_match(grid: list[list[int]]) -> bool:
    """Whether some pattern, as drawn, matches some orientation of the grid or of the grid
    with its colours swapped."""
    swap = {BLACK: WHITE, WHITE: BLACK, EMPTY: EMPTY, EDGE: EDGE}
    grids = turns(grid) + turns([[swap[v] for v in row] for row in grid])
    return any(all(g[r][c] in ALLOWED[p[r][c]] for r in range(3) for c in range(3))
               for p in PATTERNS for g in grids)


def grid_of(code: int) -> list[list[int]]:
    grid = [[EMPTY] * 3 for _ in range(3)]
    for i, (r, c) in enumerate(NEIGHBOURS):
        grid[r][c] = (code >> (2 * i)) & 3
    return grid


def test_the_table_is_the_patterns_as_drawn() -> None:
    rng = random.Random(1)
    codes = [rng.randrange(4 ** 8) for _ in range(4000)]
    codes += [int(c) for c in np.flatnonzero(TABLE)[::40]]  # and many that match
    for code in codes:
        assert bool(TABLE[code]) == readable_match(grid_of(code)), grid_of(code)
    assert not TABLE[0]  # an empty neighbourhood is no shape


@pytest.mark.parametrize("rows, hit", [
    (["XOX", "...", "..."], True),       # the enclosing hane
    (["...", "...", "XOX"], True),       # turned upside down
    (["OXO", "...", "..."], True),       # colours swapped
    (["X.X", "...", "..."], False),
    (["X.?", "O.?", "   "], True),       # chase, on the edge
])
def test_known_shapes(rows: list[str], hit: bool) -> None:
    value = {"X": BLACK, "O": WHITE, ".": EMPTY, " ": EDGE, "?": EMPTY}
    grid = [[value[ch] for ch in row] for row in rows]
    code = sum(grid[r][c] * 4 ** i for i, (r, c) in enumerate(NEIGHBOURS))
    assert bool(TABLE[code]) == hit


@pytest.mark.parametrize("size, seed", [(9, 5), (13, 6)])
def test_pattern_moves_keep_the_rules(size: int, seed: int) -> None:
    """On random games: the kernel's code of each point is its neighbourhood on the rules'
    board, and a pattern move is an empty, legal neighbour of the last move that matches."""
    game, rng = Go(size=size, komi=0.5), random.Random(seed)
    np.random.seed(seed)
    B, state = K.new_board(size), game.initial_state()
    found = 0
    while not game.is_terminal(state):
        colour = K.BLACK if state[1] == 0 else K.WHITE
        cells = state[0]
        for point in range(0, size * size, 7):
            r, c = divmod(point, size)
            expected = 0
            for i, (dr, dc) in enumerate(NEIGHBOURS):
                rr, cc = r + dr - 1, c + dc - 1
                v = EDGE if not (0 <= rr < size and 0 <= cc < size) else \
                    ".XO".index(cells[rr * size + cc])
                expected += v * 4 ** i
            assert K.pattern_code(B, K.from_point(point, size)) == expected
        move = K.pattern_move(B, colour, True)
        if move >= 0:
            found += 1
            last = B[9][K.LAST]
            stride = size + 2
            assert abs(move // stride - last // stride) <= 1 and \
                abs(move % stride - last % stride) <= 1
            assert TABLE[K.pattern_code(B, move)]
            assert K.to_point(move, size) in game.actions(state)
        moves = sorted(set(game.actions(state)) - {game.pass_action})
        point = rng.choice(moves) if moves and rng.random() < 0.97 else game.pass_action
        state = game.result(state, point)
        K.play(B, -1 if point == game.pass_action else K.from_point(point, size), colour)
    assert found > 20
