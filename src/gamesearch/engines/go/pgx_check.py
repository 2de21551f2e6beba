"""pgx's Go against our rules, move for move, on random games (tests/test_go_pgx.py, and
``bench/go_pgx_check.py`` for thousands).

Games run in lockstep: a batch of pgx games (one jitted, vmapped step) beside the same
games in our readable rules. At every position the boards, the player to move, the legal
moves and the end must agree; at the end the results must too. The one difference
allowed is the documented one (docs/GO.md): a move that repeats an earlier board is legal
in pgx but not in ours; it is counted, and now and then played, to check that pgx then
ends the game as a loss for the player who made it.

Half the games pick uniformly among the legal moves (the pass included, so games end by
two passes early); the other half pass with probability 2% only, so boards fill up,
chains are captured and kos arise, and many games reach the move cap.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import jax
import numpy as np

from gamesearch.engines.go.jax_rules import go_jax
from gamesearch.games.go.rules import Go


def _differences(rules: Go, state: tuple, obs: np.ndarray, mask: np.ndarray,
                 counts: Counter) -> tuple[list[str], set[int]]:
    """What differs between our position and pgx's (empty when they agree), and the pgx
    moves that our rules forbid as superko."""
    cells, mover = state[0], state[1]
    n = rules.size * rules.size
    planes = obs.reshape(n, -1)
    mine, theirs = ("X", "O") if mover == 0 else ("O", "X")
    problems = []
    ours_mine = np.array([c == mine for c in cells])
    ours_theirs = np.array([c == theirs for c in cells])
    if not (np.array_equal(planes[:, 0] > 0, ours_mine)
            and np.array_equal(planes[:, 1] > 0, ours_theirs)):
        problems.append("boards differ")
    if bool(planes[0, 3] > 0) != (mover == 1):
        problems.append("the player to move differs")
    legal = set(rules.actions(state))
    pgx_legal = set(np.flatnonzero(mask).tolist())
    superko = set()
    for p in pgx_legal - legal:
        after = rules.play_stone(cells, mover, p) if p < n else None
        if after is not None and after in state[4]:
            superko.add(p)
        else:
            problems.append(f"pgx allows {p}, our rules do not")
    for p in legal - pgx_legal:
        problems.append(f"our rules allow {p}, pgx does not")
    if any(cells[p] == "." and p not in legal for p in range(n)):
        counts["positions with a banned empty point"] += 1
    if superko:
        counts["positions with a superko move pgx allows"] += 1
    return problems, superko


def compare_random_games(games: int, seed: int = 0, batch: int = 64, size: int = 9,
                         komi: float = 7.0, max_moves: int | None = None,
                         superko_play: float = 0.5) -> dict[str, Any]:
    """Play ``games`` random games through pgx and our rules and compare them; the counts
    of what was seen and the first differences found (``mismatches``; none when the two
    agree). ``superko_play``: how often a superko move pgx allows is played when one is
    open (the game then ends; pgx must score it as a loss for its player)."""
    rules = Go(size=size, komi=komi, max_moves=max_moves)
    jgame = go_jax(size, komi, rules.max_moves)
    step = jax.jit(jax.vmap(jgame.step))
    observe = jax.jit(jax.vmap(jgame.observe))
    fresh = jax.vmap(lambda _: jgame.initial())
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    mismatches: list[str] = []
    passes = size * size
    for first in range(0, games, batch):
        b = min(batch, games - first)
        jstate = fresh(np.arange(b))
        ours = [rules.initial_state()] * b
        slow = rng.random(b) < 0.5
        live = [True] * b
        while any(live):
            obs, mask = np.asarray(observe(jstate)), np.asarray(jstate.env.legal_action_mask)
            done = np.asarray(jstate.done)
            actions = np.full(b, passes, dtype=np.int32)
            for i in np.flatnonzero(live):
                label = f"game {first + i} move {ours[i][3] + 1}"
                if done[i]:
                    mismatches.append(f"{label}: pgx ended the game, our rules did not")
                    live[i] = False
                    continue
                problems, superko = _differences(rules, ours[i], obs[i], mask[i], counts)
                mismatches += [f"{label}: {p}" for p in problems]
                legal = rules.actions(ours[i])
                if superko and rng.random() < superko_play:
                    actions[i] = int(rng.choice(sorted(superko)))
                elif slow[i]:
                    stones = legal[:-1]
                    actions[i] = int(rng.choice(stones)) if stones and rng.random() > 0.02 \
                        else passes
                else:
                    actions[i] = int(rng.choice(legal))
            jstate, reward = step(jstate, actions)
            done, reward = np.asarray(jstate.done), np.asarray(reward)
            for i in np.flatnonzero(live):
                a, mover = int(actions[i]), ours[i][1]
                label = f"game {first + i} move {ours[i][3] + 1}"
                counts["positions"] += 1
                if a != passes and a not in rules.actions(ours[i]):
                    counts["games ended by a superko move"] += 1
                    if not (done[i] and reward[i] == -1.0):
                        mismatches.append(f"{label}: pgx did not end a superko move as a "
                                          "loss")
                    live[i] = False
                    continue
                before = sum(c != "." for c in ours[i][0])
                ours[i] = rules.result(ours[i], a)
                if a != passes and sum(c != "." for c in ours[i][0]) <= before:
                    counts["captures"] += 1
                if rules.is_terminal(ours[i]):
                    live[i] = False
                    counts["games ended by two passes" if ours[i][2] >= 2
                           else "games ended at the move cap"] += 1
                    utility = rules.utilities(ours[i])[mover]
                    counts[f"results {utility:+g} for the last mover"] += 1
                    if not done[i] or reward[i] != utility:
                        mismatches.append(f"{label}: the end differs (pgx done={done[i]}, "
                                          f"reward {reward[i]:+g}; ours {utility:+g})")
                elif done[i] or reward[i] != 0:
                    mismatches.append(f"{label}: pgx ended the game, our rules did not")
                    live[i] = False
            if len(mismatches) > 20:
                break
        counts["games"] += b
        if len(mismatches) > 20:
            break
    return {"counts": dict(sorted(counts.items())), "mismatches": mismatches[:20]}
