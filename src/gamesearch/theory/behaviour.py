"""Behaviour strategies in extensive-form games: expected payoffs and the check that a
profile is a Nash equilibrium.

A behaviour strategy gives, at each of a player's information sets, a probability for each
action. A profile is an equilibrium when no player gains by switching to another strategy;
a gain, if there is one, is achieved by a pure strategy (one action per information set),
so the check enumerates the deviating player's pure strategies (refused beyond
``MAX_PURE``). Exact numbers in, exact numbers out.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State

Behaviour = dict[Hashable, dict[Any, Any]]
"""One player's behaviour strategy: information set -> {action: probability}."""

MAX_PURE = 100_000
"""Largest number of a player's pure strategies the regret check enumerates."""


def expected_payoffs(game: Game, profile: list[Behaviour], state: State | None = None
                     ) -> tuple:
    """Every player's expected payoff when each plays its behaviour strategy."""
    info_of = game.information_set
    state = game.initial_state() if state is None else state
    totals = [0] * game.num_players
    stack: list[tuple[State, Any]] = [(state, 1)]
    while stack:
        s, reach = stack.pop()
        if reach == 0:
            continue
        if game.is_terminal(s):
            for i, u in enumerate(game.utilities(s)):
                totals[i] += reach * u
            continue
        mover = game.to_move(s)
        if mover == CHANCE:
            for a, p in game.chance_outcomes(s):
                stack.append((game.result(s, a), reach * p))
            continue
        probs = profile[mover].get(info_of(s, mover))
        if probs is None:
            raise GameSearchError(f"{game.name}: the profile gives no strategy for "
                                  f"{game.player_name(mover)} at {info_of(s, mover)}")
        for a in game.actions(s):
            stack.append((game.result(s, a), reach * probs.get(a, 0)))
    return tuple(totals)


def infosets_of(game: Game, player: int) -> dict[Hashable, list]:
    """A player's information sets with their actions, in the order first met."""
    found: dict[Hashable, list] = {}
    stack = [game.initial_state()]
    while stack:
        s = stack.pop()
        if game.is_terminal(s):
            continue
        mover = game.to_move(s)
        if mover == player:
            found.setdefault(game.information_set(s, player), list(game.actions(s)))
        acts = [a for a, _ in game.chance_outcomes(s)] if mover == CHANCE else game.actions(s)
        stack.extend(game.result(s, a) for a in acts)
    return found


def behaviour_regret(game: Game, profile: list[Behaviour]) -> list[Any]:
    """For each player, its gain from the best pure deviation (0 at an equilibrium)."""
    base = expected_payoffs(game, profile)
    gains = []
    for player in range(game.num_players):
        infosets = infosets_of(game, player)
        count = 1
        for acts in infosets.values():
            count *= len(acts)
        if count > MAX_PURE:
            raise GameSearchError(f"{game.name}: {game.player_name(player)} has {count:,} "
                                  f"pure strategies; the check enumerates at most {MAX_PURE:,}")
        best = base[player]
        keys = list(infosets)
        for choice in itertools.product(*infosets.values()):
            pure = {k: {a: 1} for k, a in zip(keys, choice)}
            trial = list(profile)
            trial[player] = pure
            value = expected_payoffs(game, trial)[player]
            if value > best:
                best = value
        gains.append(best - base[player])
    return gains
