"""Any OpenSpiel game as a gamesearch game: ``OpenSpielGame("kuhn_poker")`` (``[openspiel]``).

A state is the tuple of OpenSpiel action numbers from the start (immutable and hashable,
as the protocol wants); the pyspiel state behind it is rebuilt from the nearest cached
prefix. Players, chance (``CHANCE`` is OpenSpiel's -1 too), legal actions, chance outcomes
and returns are OpenSpiel's. A game of imperfect information gets ``information_set``
(OpenSpiel's information-state string, else its observation string) and ``sample_state``
(a history drawn from the information set: by OpenSpiel's ``resample_from_infostate`` where
the game has it, else from an enumeration of the game's histories weighted by chance).
A simultaneous-move game is played through OpenSpiel's own turn-based conversion (the
players choose in turn, none seeing the others' choices: an imperfect-information game
with the same equilibria); ``simultaneous="refuse"`` refuses it instead. Actions are
numbered by OpenSpiel (``num_distinct_actions``/``action_index``) and observations are its
tensors, so the PettingZoo and Gymnasium environments take every adapted game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pyspiel

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

History = tuple[int, ...]

CACHE_SIZE = 200_000
"""pyspiel states kept by history (cleared when full)."""

ENUMERATION_BUDGET = 1_000_000
"""The most histories enumerated to sample from an information set."""


def load(game: str | Any, simultaneous: str = "turn-based", name: str | None = None) -> Game:
    """The adapted game of a pyspiel game or game string (``"leduc_poker"``,
    ``"breakthrough(rows=6,columns=6)"``)."""
    spiel = pyspiel.load_game(game) if isinstance(game, str) else game
    kind = spiel.get_type()
    if kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        if simultaneous == "refuse":
            raise GameSearchError(
                f"{kind.short_name}: simultaneous moves: the protocol has one mover per state "
                "(load it with simultaneous='turn-based' for OpenSpiel's turn-based form)")
        spiel = pyspiel.convert_to_turn_based(spiel)
        kind = spiel.get_type()
    if kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return OpenSpielGame(spiel, name)
    return OpenSpielHiddenGame(spiel, name)


class OpenSpielGame(Game):
    """A pyspiel game of perfect information (see the module's documentation)."""

    def __init__(self, spiel: Any, name: str | None = None) -> None:
        self.spiel = spiel
        kind = spiel.get_type()
        self.spiel_name = kind.short_name
        self.name = name or f"pyspiel.{kind.short_name}"
        self.num_players = spiel.num_players()
        self.zero_sum = self.num_players == 2 and kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        self.utility_bounds = (spiel.min_utility(), spiel.max_utility())
        self.has_chance = kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        self._cache: dict[History, Any] = {(): spiel.new_initial_state()}
        if kind.provides_information_state_tensor:
            self.observation_shape = tuple(spiel.information_state_tensor_shape())
            self._tensor = "information_state_tensor"
        elif kind.provides_observation_tensor:
            self.observation_shape = tuple(spiel.observation_tensor_shape())
            self._tensor = "observation_tensor"
        self.observation_bounds = (float("-inf"), float("inf"))

    def __repr__(self) -> str:
        return f"OpenSpielGame({str(self.spiel)!r})"

    def spiel_state(self, history: History) -> Any:
        """The pyspiel state after ``history`` (shared: clone it before changing it)."""
        cache = self._cache
        state = cache.get(history)
        if state is None:
            parent = self.spiel_state(history[:-1])
            state = parent.child(history[-1])
            if len(cache) >= CACHE_SIZE:
                cache.clear()
                cache[()] = self.spiel.new_initial_state()
            cache[history] = state
        return state

    # --- the formalization ---------------------------------------------------------------
    def initial_state(self) -> History:
        return ()

    def to_move(self, state: History) -> int:
        player = self.spiel_state(state).current_player()
        if player == pyspiel.PlayerId.CHANCE:
            return CHANCE
        return max(player, 0)  # terminal: -4 in OpenSpiel, no mover here

    def actions(self, state: History) -> list[int]:
        spiel_state = self.spiel_state(state)
        if spiel_state.is_chance_node():
            return [a for a, _ in spiel_state.chance_outcomes()]
        return list(spiel_state.legal_actions())

    def chance_outcomes(self, state: History) -> list[tuple[int, float]]:
        return [(a, float(p)) for a, p in self.spiel_state(state).chance_outcomes()]

    def result(self, state: History, action: int) -> History:
        return (*state, int(action))

    def is_terminal(self, state: History) -> bool:
        return self.spiel_state(state).is_terminal()

    def utilities(self, state: History) -> tuple[float, ...]:
        return tuple(float(u) for u in self.spiel_state(state).returns())

    def evaluate(self, state: History, player: int) -> float:
        """No knowledge: every unfinished position is worth the middle of the utility range
        (0 in a zero-sum game), so that depth-limited searches run; search to the end, or
        use MCTS, for real answers."""
        low, high = self.utility_bounds
        return (low + high) / 2

    # --- people ---------------------------------------------------------------------------
    def action_to_string(self, state: History, action: Any) -> str:
        """OpenSpiel's text on one line, commas written as semicolons (a position's text
        joins moves with commas)."""
        spiel_state = self.spiel_state(state)
        text = spiel_state.action_to_string(spiel_state.current_player(), int(action))
        text = " ".join(text.replace(",", ";").split()).rstrip(";")
        return text or str(action)

    def render(self, state: History) -> str:
        return str(self.spiel_state(state))

    # --- for learning libraries -----------------------------------------------------------
    def num_distinct_actions(self) -> int:
        """OpenSpiel's number of distinct actions."""
        return self.spiel.num_distinct_actions()

    def action_index(self, action: int) -> int:
        """OpenSpiel's action numbers are the indices."""
        return int(action)

    def observation_tensor(self, state: History, player: int) -> Sequence[float]:
        """OpenSpiel's information-state tensor (else its observation tensor) for ``player``."""
        return list(getattr(self.spiel_state(state), self._tensor)(player))


class OpenSpielHiddenGame(OpenSpielGame):
    """A pyspiel game of imperfect information: adds information sets and sampling."""

    def __init__(self, spiel: Any, name: str | None = None) -> None:
        super().__init__(spiel, name)
        kind = spiel.get_type()
        self._info = ("information_state_string" if kind.provides_information_state_string
                      else "observation_string")
        self._seen: dict[tuple[int, str], History] = {}
        self._resamples = True
        self._by_info: dict[tuple[int, str], tuple[list[History], list[float]]] | None = None

    def information_set(self, state: History, player: int) -> str:
        """OpenSpiel's information-state string (else observation string) of ``player``."""
        info = self._info_of(self.spiel_state(state), player)
        self._seen[(player, info)] = state
        return info

    def _info_of(self, spiel_state: Any, player: int) -> str:
        """OpenSpiel's string; where ``player`` is not to move, followed by who is (the
        turn is public in OpenSpiel's games, and a sample must be the same kind of node)."""
        try:
            info = getattr(spiel_state, self._info)(player)
        except pyspiel.SpielError:  # some games answer only at a player's node
            info = f"history {spiel_state.history()}"
        mover = spiel_state.current_player()
        if mover == player:
            return info
        if spiel_state.is_terminal():
            return f"{info} (the end)"
        return f"{info} ({'chance' if mover == pyspiel.PlayerId.CHANCE else mover} to move)"

    def sample_state(self, info: str, player: int, rng: random.Random) -> History:
        """A history of the information set ``info``, drawn by chance's probabilities."""
        seen = self._seen.get((player, info))
        if seen is not None and self._resamples:
            try:
                spiel_state = self.spiel_state(seen).resample_from_infostate(
                    player, lambda: rng.random())
                return tuple(spiel_state.history())
            except pyspiel.SpielError:  # the game does not implement it
                self._resamples = False
        histories, weights = self._enumerated().get((player, info), ([], []))
        if not histories:
            raise GameSearchError(f"{self.name}: no history of player {player + 1} has the "
                                  f"information set {info!r}")
        return rng.choices(histories, weights)[0]

    def _enumerated(self) -> dict[tuple[int, str], tuple[list[History], list[float]]]:
        if self._by_info is None:
            found: dict[tuple[int, str], tuple[list[History], list[float]]] = {}
            stack: list[tuple[Any, float]] = [(self.spiel.new_initial_state(), 1.0)]
            count = 0
            while stack:
                spiel_state, reach = stack.pop()
                count += 1
                if count > ENUMERATION_BUDGET:
                    raise GameSearchError(f"{self.name}: too many histories to sample an "
                                          "information set from")
                history = tuple(spiel_state.history())
                for player in range(self.num_players):
                    key = (player, self._info_of(spiel_state, player))
                    histories, weights = found.setdefault(key, ([], []))
                    histories.append(history)
                    weights.append(reach)
                if spiel_state.is_terminal():
                    continue
                if spiel_state.is_chance_node():
                    stack += [(spiel_state.child(a), reach * p)
                              for a, p in spiel_state.chance_outcomes()]
                    continue
                stack += [(spiel_state.child(a), reach) for a in spiel_state.legal_actions()]
            self._by_info = found
        return self._by_info
