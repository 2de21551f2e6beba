"""The game loop: agents play one game through the protocol, every rule applied in one place.

Every driver of games is a thin user of :func:`run_game`: a match
(``arena.match.play_game``), a tournament game (``arena.play``), the terminal's ``play``
(a person is an agent that reads input) and the duplicate matches of hidden-information
games (``imperfect.match``). Each turn, in this order:

1. the game is over at a terminal state ("end of game"), or where the game has the
   repetition rule (``Game.repetition_key``) at a position's third occurrence ("draw by
   repetition": 0 each);
2. an ``adjudicate(state, plies)`` hook may end it with utilities and a reason (a
   tournament's judge, resign and draw rules);
3. chance moves are drawn from ``chance_outcomes`` with the seeded ``rng``; a player's seat
   is asked with what it may see: the state itself in a game of perfect information, a
   state drawn from its information set where the game hides something
   (:func:`~gamesearch.game.player_view`, with a generator of its own so chance stays as it
   was);
4. the answer is checked: a move that is not legal in the true state, an answer slower than
   ``movetime`` or an exception is the seat's fault. With ``faults="raise"`` (matches,
   ``play``) it raises a :class:`~gamesearch.errors.GameSearchError` naming the agent and
   the move (the agent's own exception goes through as it was); with ``faults="forfeit"``
   (tournaments) the seat loses the game and the reason is recorded;
5. ``on_move(state, ply)`` is told (records, the terminal's display, progress), then the
   move is made.

It lives in the core beside ``game.py`` and ``agent.py`` because it needs nothing else:
the arena (which imports the agent registry) and ``imperfect/`` (whose agents the registry
imports) both use it, and a loop in either would close a cycle between them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError
from gamesearch.game import (
    CHANCE,
    Action,
    Game,
    Repetitions,
    State,
    move_text,
    player_view,
    sample_action,
)
from gamesearch.result import SearchResult

MAX_PLIES = 10_000
"""A game that runs this long is a fault of a game or an agent (the loop raises)."""

END = "end of game"
REPETITION = "draw by repetition"

Verdict = tuple[tuple[float, ...], str]
"""An adjudicator's ruling: the utilities and the reason ("adjudicated: ...")."""


@dataclass
class Ply:
    """One move of a game: who made it, what it was, how long it took, what the mover
    said about it (None for chance) and the state the mover was shown."""

    player: int
    """The mover (0-based), or CHANCE."""
    action: Action
    text: str
    """The move in the game's notation, written in the true state."""
    seconds: float = field(default=0.0, compare=False)
    result: SearchResult | None = field(default=None, compare=False, repr=False)
    seen: State | None = field(default=None, compare=False, repr=False)
    """What the mover was given: the state, or a state drawn from its information set."""


@dataclass
class PlayRecord:
    """A finished game: where it started and ended, its moves, utilities and why it ended."""

    start: State
    final: State
    plies: list[Ply]
    utilities: tuple[float, ...]
    reason: str
    """'end of game', 'draw by repetition', 'adjudicated: ...' or 'forfeit: ...'."""
    forfeit: int | None = None
    """The seat that lost by its own fault (an illegal move, an exception, overtime)."""

    @property
    def actions(self) -> list[Action]:
        return [p.action for p in self.plies]

    @property
    def moves(self) -> list[str]:
        return [p.text for p in self.plies]


class Fault(GameSearchError):
    """A seat's fault (illegal move, overtime) when faults are raised, not forfeited."""


def run_game(
    game: Game,
    seats: Sequence[Agent],
    state: State | None = None,
    *,
    rng: random.Random | None = None,
    views: random.Random | None = None,
    max_plies: int | None = MAX_PLIES,
    movetime: float | None = None,
    faults: Literal["raise", "forfeit"] = "raise",
    adjudicate: Callable[[State, list[Ply]], Verdict | None] | None = None,
    on_turn: Callable[[State, int], None] | None = None,
    on_move: Callable[[State, Ply], None] | None = None,
) -> PlayRecord:
    """Play one game from ``state`` (the initial one by default), ``seats[p]`` moving for
    player p; the record of the game (module docstring for the rules of each turn).

    ``rng`` draws chance moves; ``views`` the states given to players of a hidden-information
    game (default: a generator seeded from ``rng``'s state without drawing from it).
    ``movetime``: the most seconds one answer may take. ``on_turn(state, player)`` is called
    before the mover (or chance) is asked.
    """
    start = game.initial_state() if state is None else state
    state = start
    rng = rng if rng is not None else random.Random()
    if views is None:  # a tuple of ints hashes the same in every run
        views = random.Random(hash(rng.getstate()[1]))
    repetitions = Repetitions(game)
    plies: list[Ply] = []

    def ended(utilities: Sequence[float], reason: str, forfeit: int | None = None
              ) -> PlayRecord:
        return PlayRecord(start, state, plies, tuple(utilities), reason,
                          forfeit)

    while True:
        if game.is_terminal(state):
            return ended(game.utilities(state), END)
        if repetitions.draws(state):
            return ended((0.0,) * game.num_players, REPETITION)
        if adjudicate is not None:
            verdict = adjudicate(state, plies)
            if verdict is not None:
                return ended(*verdict)
        if max_plies is not None and len(plies) >= max_plies:
            raise GameSearchError(f"{game.name}: a game did not end within {max_plies} moves")
        player = game.to_move(state)
        if on_turn is not None:
            on_turn(state, player)
        if player == CHANCE:
            action = sample_action(game, state, rng)
            ply = Ply(CHANCE, action, game.action_to_string(state, action))
        else:
            ply, fault = _ask(game, state, seats[player], player, views, movetime, faults)
            if fault is not None:
                return ended(_forfeited(game, player), f"forfeit: {fault}", player)
        if on_move is not None:
            on_move(state, ply)
        plies.append(ply)
        state = game.result(state, ply.action)


def _ask(game: Game, state: State, agent: Agent, player: int, views: random.Random,
         movetime: float | None, faults: str) -> tuple[Ply | None, str | None]:
    """The seat's checked answer, or (None, the fault) where faults are forfeited."""
    seen = player_view(game, state, player, views)
    began = time.perf_counter()
    try:
        result = agent(game, seen)
    except Exception as err:  # noqa: BLE001 - a crashed agent is the seat's fault
        if faults == "raise":
            raise
        return None, f"{agent.spec} failed: {_one_line(err)}"
    spent = time.perf_counter() - began
    action = result.action
    fault = None
    if action not in game.actions(state):
        fault = f"played the illegal move {move_text(game, state, action)!r}"
    elif movetime is not None and spent > movetime:
        fault = f"lost on time ({spent:.2f} s for one move)"
    if fault is None:
        text = game.action_to_string(state, action)
        return Ply(player, action, text, spent, result, seen), None
    if faults == "raise":
        raise Fault(f"agent {agent.spec!r} {fault}")
    return None, f"{agent.spec} {fault}"


def _forfeited(game: Game, seat: int) -> tuple[float, ...]:
    """The utilities of a game lost by ``seat``: -1 for it, the rest shared by the others
    (1 for the opponent of a two-player game)."""
    others = game.num_players - 1
    return tuple(-1.0 if p == seat else 1.0 / others for p in range(game.num_players))


def _one_line(err: BaseException) -> str:
    """An exception as one short line."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:300]
