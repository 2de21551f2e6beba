"""The game protocol: the lectures' formalization of a game, which every algorithm speaks.

A game is a set of states with

* ``initial_state()``          the state the game starts in (S0);
* ``to_move(s)``               the player whose turn it is: 0..N-1, or ``CHANCE`` (-1);
* ``actions(s)``               the legal actions in s (for a chance node: its outcomes);
* ``result(s, a)``             the transition model: the state after a is played in s;
* ``is_terminal(s)``           the terminal test;
* ``utilities(s)``             at a terminal state, one utility per player.

Players are numbered from 0 in code and shown from 1 to people ("player 1" is player 0).
A two-player zero-sum game gives utilities ``(u, -u)``; a general-sum game any tuple;
a team game gives team mates the same utility. A chance node (``to_move(s) == CHANCE``)
also answers ``chance_outcomes(s)``: ``[(outcome, probability), ...]``, probabilities
non-negative and summing to 1 (checked by :func:`check_chance_outcomes`).

States are immutable and hashable values (tuples, frozen dataclasses, ints), so they can be
keys of transposition tables and of retrograde tables without adapters. A game object holds
only its rules and parameters: no algorithm ever mutates it.

Optional capabilities are plain methods a game may define; algorithms detect them with
:func:`capability` and never require them:

* ``evaluate(s, player) -> float``    heuristic value of a non-terminal state for a player,
  used at a depth cut-off (on the same scale as the utilities);
* ``order_actions(s, actions) -> list``  a preferred search order (best first);
* ``is_noisy(s, a) -> bool``          marks actions that quiescence search must extend
  (captures, threats);
* ``state_key(s) -> Hashable``        the key for transposition tables, where it differs from
  the state itself (a canonical form under symmetry, a Zobrist hash);
* ``information_set(s, player)``      what the player knows (hidden-information games), and
  ``sample_state(info, player, rng)`` a full state consistent with it (docs/HIDDEN.md;
  team games may add ``team(player)``, and ``max_utility`` scales MCTS rewards);
* ``kernel``                          an attribute holding a compiled kernel (docs/KERNELS.md);
* ``state_to_string(s) -> str``       a position in the game's own notation, read back by
  ``state_from_string`` (which always reads the moves from the start, too);
* ``repetition_key(s)``               for games drawn by repetition (chess, checkers): what
  makes two positions the same; the drivers keep the history (:class:`Repetitions`);
* ``num_distinct_actions()`` and ``action_index(a) -> int``  every action numbered once,
  0..n-1, whatever the state (OpenSpiel's convention), for RL libraries' fixed action
  spaces; ``observation_tensor(s, player)`` with ``observation_shape`` (and
  ``observation_bounds``, default 0..1): what the player knows as numbers, from its
  information set only (docs/INTEROP.md).

``gamesearch.testing.check_game`` checks a game against all of this (docs/ADDING_A_GAME.md).

A complete small game, the lectures' II-Nim (two piles of two sticks, a move takes sticks
from one pile, whoever takes the last stick loses)::

    class TwoPileNim(Game):
        name = "ii-nim"

        def initial_state(self):
            return ((2, 2), 0)  # (piles, player to move)

        def to_move(self, s):
            return s[1]

        def actions(self, s):
            return [(pile, k) for pile, n in enumerate(s[0]) for k in range(1, n + 1)]

        def result(self, s, a):
            piles = list(s[0])
            piles[a[0]] -= a[1]
            return (tuple(piles), 1 - s[1])

        def is_terminal(self, s):
            return sum(s[0]) == 0

        def utilities(self, s):  # the previous player took the last stick: the mover wins
            return (1, -1) if s[1] == 0 else (-1, 1)

    minimax(TwoPileNim(), TwoPileNim().initial_state()).value   # -1: MIN wins II-Nim

(tests/test_game_protocol.py runs this very example.)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from gamesearch.errors import GameSearchError, IllegalActionError

CHANCE = -1
"""The pseudo-player that moves at chance nodes (dice, shuffles, deals)."""

State = Hashable
Action = Hashable

OPTIONAL_CAPABILITIES = (
    "evaluate",
    "order_actions",
    "is_noisy",
    "state_key",
    "information_set",
    "sample_state",
    "kernel",
)


class Game:
    """Base class of every game; subclasses define the six methods of the formalization.

    Class attributes: ``name`` (registry name), ``num_players`` (N) and ``zero_sum`` (True
    when the utilities of every terminal state sum to zero, two players).
    """

    name: str = "game"
    num_players: int = 2
    zero_sum: bool = True

    # --- the formalization: every game defines these ---------------------------------
    def initial_state(self) -> State:
        """The state the game starts in."""
        raise NotImplementedError

    def to_move(self, state: State) -> int:
        """The player to move (0..N-1), or CHANCE at a chance node."""
        raise NotImplementedError

    def actions(self, state: State) -> Sequence[Action]:
        """The legal actions in a non-terminal state (the outcomes at a chance node)."""
        raise NotImplementedError

    def result(self, state: State, action: Action) -> State:
        """The state after ``action`` is played in ``state`` (no legality check: hot path)."""
        raise NotImplementedError

    def is_terminal(self, state: State) -> bool:
        """True when the game is over."""
        raise NotImplementedError

    def utilities(self, state: State) -> tuple[float, ...]:
        """One utility per player at a terminal state."""
        raise NotImplementedError

    # --- chance ----------------------------------------------------------------------
    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """At a chance node, the outcomes with their probabilities."""
        raise GameSearchError(f"{self.name} has no chance nodes")

    # --- conveniences with defaults --------------------------------------------------
    def utility(self, state: State, player: int) -> float:
        """The utility of a terminal state for one player."""
        return self.utilities(state)[player]

    def render(self, state: State) -> str:
        """A text picture of the state for a terminal."""
        return str(state)

    def action_to_string(self, state: State, action: Action) -> str:
        """How an action is written for people (and parsed back by string_to_action)."""
        return str(action)

    def string_to_action(self, state: State, text: str) -> Action:
        """Parse an action a person typed; raise IllegalActionError naming it if not legal."""
        text = text.strip()
        legal = list(self.actions(state))
        for action in legal:
            if self.action_to_string(state, action).lower() == text.lower():
                return action
        shown = ", ".join(self.action_to_string(state, a) for a in legal[:20])
        raise IllegalActionError(f"illegal or malformed move {text!r}; legal moves: {shown}")

    def state_from_string(self, text: str) -> State:
        """A position written as moves from the start, separated by commas, or by spaces
        when no move is written with one (``gamesearch.testing.check_game`` writes
        ``", ".join`` of the moves and checks that this reads them back)."""
        state = self.initial_state()
        tokens = [t.strip() for t in text.split(",")] if "," in text else text.split()
        for token in filter(None, tokens):
            if self.is_terminal(state):
                raise IllegalActionError(f"position {text!r}: move {token!r} after the game ended")
            try:
                state = self.result(state, self.string_to_action(state, token))
            except IllegalActionError as err:
                raise IllegalActionError(f"position {text!r}: {err}") from None
        return state

    def repetition_key(self, state: State) -> Hashable | None:
        """What the repetition rule compares: the position and the side to move, without
        move counters (chess, checkers); None for a game without the rule (the default).
        States hold no history (a FEN, a PDN position), so the game drivers keep it:
        :class:`Repetitions`."""
        return None

    def player_name(self, player: int) -> str:
        """How a player is shown to people."""
        return "chance" if player == CHANCE else f"player {player + 1}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


REPETITION_DRAW = 3
"""The occurrence of one position (same player to move) that draws the game."""


class Repetitions:
    """The positions one game has passed through, for the repetition rule of games that
    have one (``Game.repetition_key``): ``draws(state)`` records the state and says whether
    its position now stands for the third time, which ends the game as a draw. The game loop
    (``gamesearch.loop.run_game``: match, tournament, ``play``) and the web app's replay
    keep one per game."""

    def __init__(self, game: Game) -> None:
        self.key = game.repetition_key
        self.seen: Counter = Counter()

    def draws(self, state: State) -> bool:
        """Record ``state``; True from the third time its position stands."""
        key = self.key(state)
        if key is None:
            return False
        self.seen[key] += 1
        return self.seen[key] >= REPETITION_DRAW


def final_utilities(game: Game, state: State) -> tuple[float, ...]:
    """The utilities of a game that ended at ``state``: the rules' at a terminal state, a
    draw (0 each) where a driver stopped it by repetition."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    return (0.0,) * game.num_players


def check_chance_outcomes(
    outcomes: Iterable[tuple[Action, float]], where: str = "chance node"
) -> list[tuple[Action, float]]:
    """Validate chance outcomes: probabilities non-negative, finite and summing to 1."""
    outcomes = list(outcomes)
    if not outcomes:
        raise GameSearchError(f"{where}: a chance node needs at least one outcome")
    total = 0.0
    for outcome, p in outcomes:
        if not isinstance(p, (int, float)) or math.isnan(p) or p < 0 or math.isinf(p):
            raise GameSearchError(f"{where}: outcome {outcome!r} has invalid probability {p!r}")
        total += p
    if abs(total - 1.0) > 1e-9:
        raise GameSearchError(f"{where}: probabilities sum to {total:g}, not 1")
    return outcomes


def player_view(game: Game, state: State, player: int, rng: random.Random) -> State:
    """What an agent playing ``player`` is given to think about: the state itself in a game
    of perfect information; in a game with hidden information, a state sampled from the
    player's information set (a determinization), so no agent can read what it cannot see.
    The legal actions are the same in every state of an information set."""
    info_of = getattr(game, "information_set", None)
    sample = getattr(game, "sample_state", None)
    if info_of is None or sample is None:
        return state
    return sample(info_of(state, player), player, rng)


def render_view(game: Game, state: State, viewer: int | None) -> str:
    """The picture ``viewer`` may see (``render_for``, where the game hides something), or the
    whole state for ``None`` (a spectator, or the game's end)."""
    render_for = getattr(game, "render_for", None)
    if viewer is None or render_for is None:
        return game.render(state)
    return render_for(state, viewer)


def move_text(game: Game, state: State, action: Action) -> str:
    """An action as users see it, in the game's notation; its repr when the game cannot write
    it (an agent's illegal answer such as None), so an error can still name it."""
    try:
        return game.action_to_string(state, action)
    except Exception:  # noqa: BLE001 - any failure to write an invalid action
        return repr(action)


def legal_action(game: Game, state: State, action: Action) -> Action:
    """Return ``action`` if it is legal in ``state``; otherwise raise IllegalActionError."""
    if game.is_terminal(state):
        raise IllegalActionError("the game is over: no move is legal")
    if action not in game.actions(state):
        raise IllegalActionError(f"illegal move {game.action_to_string(state, action)!r}")
    return action


def sample_action(game: Game, state: State, rng: random.Random) -> Action:
    """A random action: chance nodes by their probabilities, players uniformly."""
    if game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        r = rng.random()
        for outcome, p in outcomes:
            r -= p
            if r <= 0:
                return outcome
        return outcomes[-1][0]
    return rng.choice(list(game.actions(state)))


def replay_game(game: Game, moves: Iterable[str], state: State | None = None
                ) -> tuple[State, bool]:
    """The state after ``moves`` written in the game's notation (chance outcomes included),
    from ``state`` (default: the start), and whether the game ended there by repetition (a
    position standing for the third time: a draw the state alone does not show). A bad
    move, or one after the end, is named with its number. The one move replayer of the
    command line and the web app."""
    state = game.initial_state() if state is None else state
    repetitions = Repetitions(game)
    for i, text in enumerate(moves):
        if game.is_terminal(state):
            raise IllegalActionError(f"move {i + 1} ({text!r}) comes after the game ended")
        if repetitions.draws(state):
            raise IllegalActionError(f"move {i + 1} ({text!r}) comes after the game ended "
                                     "(drawn by repetition)")
        try:
            action = game.string_to_action(state, text)
        except GameSearchError as err:
            raise type(err)(f"move {i + 1}: {err}") from None
        state = game.result(state, action)
    return state, repetitions.draws(state)


def replay(game: Game, moves: Iterable[str], state: State | None = None) -> State:
    """The state after ``moves`` (:func:`replay_game` without the repetition verdict)."""
    return replay_game(game, moves, state)[0]


def drawn_by_repetition(game: Game, moves: Iterable[str], state: State | None = None) -> bool:
    """True when the game of ``moves`` ends on a position standing for the third time (at
    once False for a game without the rule)."""
    if type(game).repetition_key is Game.repetition_key:
        return False
    return replay_game(game, moves, state)[1]


def has_chance(game: Game) -> bool:
    """Whether the game has chance nodes: its ``has_chance`` attribute where it states one
    (a tree file), else whether it overrides ``chance_outcomes``."""
    declared = getattr(game, "has_chance", None)
    if declared is not None:
        return bool(declared)
    return type(game).chance_outcomes is not Game.chance_outcomes


def has_hidden_information(game: Any) -> bool:
    """Whether players see only information sets (the game defines ``information_set`` and
    ``sample_state``)."""
    return callable(getattr(game, "information_set", None)) and callable(
        getattr(game, "sample_state", None))


def outcome_text(game: Game, utilities: Sequence[float]) -> str:
    """A finished game's result in words, the same on every face: "draw", "X wins" or
    "A and B win" (every player with the best utility)."""
    best = max(utilities)
    winners = [p for p, v in enumerate(utilities) if v == best]
    if len(winners) == len(utilities):
        return "draw"
    names = " and ".join(game.player_name(p) for p in winners)
    return names + (" win" if len(winners) > 1 else " wins")
