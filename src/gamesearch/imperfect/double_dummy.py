"""Perfect-information values of a hidden-information game's deal (every hand visible).

:func:`perfect_information_values` is the generic (slow) recursion for any game with teams:
what the determinization player solves on each sampled deal unless the game offers a
faster solver of its own (``game.perfect_information_solver()``, e.g. whist's double dummy
in :mod:`gamesearch.games.whist_double_dummy`).
"""

from __future__ import annotations

from gamesearch.game import CHANCE, Game, State


def team_of(game: Game, player: int) -> int:
    """The side a player is on (the player itself in a game without teams)."""
    team = getattr(game, "team", None)
    return team(player) if team is not None else player


def perfect_information_value(game: Game, state: State, player: int) -> float:
    """Expectimax with every card visible: the player's side maximizes its utility, the
    other side minimizes it, chance averages (plain recursion, no pruning)."""
    if game.is_terminal(state):
        return game.utilities(state)[player]
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(p * perfect_information_value(game, game.result(state, o), player)
                   for o, p in game.chance_outcomes(state))
    values = [perfect_information_value(game, game.result(state, a), player)
              for a in game.actions(state)]
    return max(values) if team_of(game, mover) == team_of(game, player) else min(values)


def perfect_information_values(game: Game, state: State) -> dict:
    """For each legal action of the mover, its perfect-information value for the mover."""
    player = game.to_move(state)
    return {a: perfect_information_value(game, game.result(state, a), player)
            for a in game.actions(state)}
