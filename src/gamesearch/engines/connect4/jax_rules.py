"""Connect Four as pure JAX functions, for batched self-play on an accelerator.

The rules of :mod:`gamesearch.games.connect4` remain the specification; this is the same
game written for ``jax.vmap`` and ``jax.jit``, and tests/test_alphazero_jax.py plays random
games through both and compares every position, legal move and result. A state keeps the
stones of the player to move and of the opponent (so the network's input is the two
planes, exactly as :class:`gamesearch.engines.connect4.alphazero.Connect4Encoder` reads them from
the bitboard) and the height of each column. Cell ``c * 6 + r`` is column ``c``, row
``r`` from the bottom.

Needs the optional ``[gpu]`` extra (``pip install -e ".[gpu]"``: JAX, optax, mctx).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from gamesearch.learn.jax_alphazero import JaxGame

WIDTH, HEIGHT = 7, 6
CELLS = WIDTH * HEIGHT


def _lines() -> np.ndarray:
    """The 69 lines of four cells (index ``c * HEIGHT + r``)."""
    found = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < WIDTH and 0 <= y < HEIGHT for x, y in cells):
                    found.append([x * HEIGHT + y for x, y in cells])
    return np.array(found, dtype=np.int32)


LINES = _lines()


class C4State(NamedTuple):
    """One position (batched: every field gains a leading axis)."""

    mine: jax.Array      # (42,) bool: the stones of the player to move
    theirs: jax.Array    # (42,) bool: the opponent's
    heights: jax.Array   # (7,) int32: stones in each column
    moves: jax.Array     # () int32: stones on the board
    done: jax.Array      # () bool: the game is over


def initial() -> C4State:
    """The empty board, first player to move."""
    return C4State(jnp.zeros(CELLS, bool), jnp.zeros(CELLS, bool), jnp.zeros(WIDTH, jnp.int32),
                   jnp.int32(0), jnp.bool_(False))


def legal(state: C4State) -> jax.Array:
    """(7,) bool: the columns with room (none once the game is over)."""
    return (state.heights < HEIGHT) & ~state.done


def step(state: C4State, action: jax.Array) -> tuple[C4State, jax.Array]:
    """Drop the mover's stone in ``action``; the reward is for the player who moved: 1 for
    a win, 0 otherwise. A full column loses (-1) and ends the game, so a search that tries
    one learns to avoid it; a finished game stays as it is, with reward 0."""
    full = state.heights[action] >= HEIGHT
    cell = action * HEIGHT + jnp.minimum(state.heights[action], HEIGHT - 1)
    mine = state.mine.at[cell].set(True)
    won = jnp.any(jnp.all(mine[LINES], axis=1))
    moves = state.moves + 1
    over = won | full | (moves == CELLS)
    reward = jnp.where(full, -1.0, jnp.where(won, 1.0, 0.0))
    moved = C4State(state.theirs, mine, state.heights.at[action].add(1), moves, over)
    same = jax.tree_util.tree_map(lambda a, b: jnp.where(state.done, a, b), state, moved)
    return same, jnp.where(state.done, 0.0, reward)


def observe(state: C4State) -> jax.Array:
    """The network's input: the mover's 42 cells, then the opponent's (float32)."""
    return jnp.concatenate([state.mine, state.theirs]).astype(jnp.float32)


CONNECT4 = JaxGame(name="connect4", actions=WIDTH, inputs=2 * CELLS, max_moves=CELLS,
                   initial=initial, legal=legal, step=step, observe=observe)
"""Connect Four for :mod:`gamesearch.learn.jax_alphazero`."""


def state_from_moves(moves: str) -> C4State:
    """The position after ``moves`` (columns 1-7, Pons' format), unbatched."""
    state = initial()
    for ch in moves:
        state, _ = step(state, jnp.int32(int(ch) - 1))
    return state
