"""Go for batched self-play in JAX: pgx's ``go`` rules, scored and observed as ours are.

pgx (Koyamada et al., NeurIPS 2023) writes Go as pure JAX functions that ``jax.vmap``
batches and mctx searches; writing the rules again would only add bugs. The readable rules
(:mod:`gamesearch.games.go.rules`) stay the specification: tests/test_go_pgx.py and
``bench/go_pgx_check.py`` play random games through both and compare every board, legal
move, end and result. Where the two differ (docs/GO.md):

* A move that repeats an earlier board (positional superko) is illegal in our rules; pgx
  forbids only the simple ko's recapture and lets a longer cycle be played, ending the game
  at once as a loss for the player who made it. The trainer keeps pgx's way (a search
  learns never to play it); the ``go-net`` agent plays by our rules.
* pgx gives an equal score (possible with an integer komi) to White; this module scores
  area itself so that an equal score is a draw (reward 0), as in our rules.
* pgx ends a game after ``size * size * 2`` moves by default; the move cap here is a
  parameter, our rules' ``4 * size * size`` for the comparison.

This module reads pgx's public state only: ``observation`` (with ``history_length=1``:
the mover's stones, the other's, the mover's colour), ``legal_action_mask`` and
``terminated``. The network's input is four planes: the mover's stones, the other's, the
empty points where the mover may not play (suicide, ko), and a plane of ones when White is
to move (komi makes the colours unequal). :func:`gamesearch.engines.go.net_agent.planes`
computes the same from our rules' state for the numpy network, so that play needs no JAX.

Needs the optional ``[gpu]`` extra (JAX, optax, mctx, pgx).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import pgx.go

from gamesearch.learn.jax_alphazero import JaxGame

PLANES = 4


class GoJaxState(NamedTuple):
    """One position (batched: every field gains a leading axis)."""

    env: Any             # pgx.go.State
    moves: jax.Array     # () int32: moves played (passes included)
    done: jax.Array      # () bool: the game is over


def _shift_or(reach: jax.Array) -> jax.Array:
    """Each point of a (size, size) bool board or'ed with its four neighbours."""
    pad = jnp.pad(reach, 1)
    return reach | pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:]


def area_margin(black: jax.Array, white: jax.Array, komi: float) -> jax.Array:
    """Black's area minus White's minus komi, for (size, size) bool boards of stones: a
    player's area is their stones and the empty points whose empty region reaches only
    their stones (Tromp-Taylor), as :func:`gamesearch.games.go.rules.area_score`."""
    empty = ~(black | white)

    def grow(reach: jax.Array) -> jax.Array:
        def body(carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            r, _ = carry
            nxt = r | (_shift_or(r) & empty)
            return nxt, jnp.any(nxt != r)

        return jax.lax.while_loop(lambda c: c[1], body, (reach, jnp.bool_(True)))[0]

    reach_b, reach_w = grow(black), grow(white)
    area_b = black.sum() + (empty & reach_b & ~reach_w).sum()
    area_w = white.sum() + (empty & reach_w & ~reach_b).sum()
    return area_b.astype(jnp.float32) - area_w.astype(jnp.float32) - komi


def go_jax(size: int = 9, komi: float = 7.0, max_moves: int | None = None) -> JaxGame:
    """Go on ``size`` x ``size`` as a :class:`JaxGame` (actions: points row-major from the
    top-left as our rules number them, then the pass); ``max_moves`` defaults to our
    rules' cap, ``4 * size * size``."""
    cap = 4 * size * size if max_moves is None else max_moves
    env = pgx.go.Go(size=size, komi=komi, history_length=1, max_terminal_steps=cap)
    points = size * size

    def initial() -> GoJaxState:
        return GoJaxState(env.init(jax.random.PRNGKey(0)), jnp.int32(0), jnp.bool_(False))

    def boards(env_state: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        """(mover's stones, other's stones, mover is White) as (size, size) bools."""
        obs = env_state.observation
        return obs[..., 0], obs[..., 1], obs[0, 0, 2]

    def legal(state: GoJaxState) -> jax.Array:
        return state.env.legal_action_mask & ~state.done

    def step(state: GoJaxState, action: jax.Array) -> tuple[GoJaxState, jax.Array]:
        illegal = ~state.env.legal_action_mask[action]
        white_moved = boards(state.env)[2]
        after = env.step(state.env, action)
        moves = state.moves + 1
        mine, theirs, _ = boards(after)     # now from the next mover's side
        black = jnp.where(white_moved, mine, theirs)
        white = jnp.where(white_moved, theirs, mine)
        margin = area_margin(black, white, komi)
        scored = jnp.sign(jnp.where(white_moved, -margin, margin))
        # a stone move that ends the game before the cap repeated a board (pgx: it loses)
        superko = after.terminated & (action != points) & (moves < cap)
        reward = jnp.where(illegal | superko, -1.0, jnp.where(after.terminated, scored, 0.0))
        moved = GoJaxState(after, moves, after.terminated | illegal)
        same = jax.tree_util.tree_map(lambda a, b: jnp.where(state.done, a, b), state, moved)
        return same, jnp.where(state.done, 0.0, reward)

    def observe(state: GoJaxState) -> jax.Array:
        mine, theirs, white = boards(state.env)
        banned = ~(mine | theirs) & ~state.env.legal_action_mask[:points].reshape(size, size)
        colour = jnp.broadcast_to(white, (size, size))
        return jnp.stack([mine, theirs, banned, colour], axis=-1).astype(jnp.float32).reshape(-1)

    return JaxGame(name=f"go{size}", actions=points + 1, inputs=points * PLANES,
                   max_moves=cap, initial=initial, legal=legal, step=step, observe=observe,
                   shape=(size, size, PLANES))
