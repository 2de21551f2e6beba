"""Kuhn poker (Kuhn 1950): three cards, one card each, one betting round.

The deck is J, Q, K. Each player antes 1 chip and is dealt one card (two CHANCE nodes).
Player 1 may pass (check) or bet 1; after a check player 2 may check or bet; facing a bet a
player passes (folds) or bets (calls). The higher card wins the pot at a showdown.

Actions are the letters ``"p"`` (pass: check or fold) and ``"b"`` (bet: bet or call). A state
is ``(cards, history)``: ``cards`` the dealt cards (0 = J, 1 = Q, 2 = K, one per player
once dealt) and ``history`` the betting so far, e.g. ``"pb"``.

Information sets (docs/HIDDEN.md): a player knows their own card and the betting, so the key
is the card's letter followed by the history: ``"K"``, ``"Qp"``, ``"Jpb"``. The game has 12
information sets and 58 histories (as OpenSpiel's ``kuhn_poker``). Its value for the first
player is -1/18 (Kuhn 1950, "A simplified two-person poker").
"""

from __future__ import annotations

import random

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

CARD_NAMES = "JQK"
PASS, BET = "p", "b"
TERMINAL_HISTORIES = ("pp", "bp", "bb", "pbp", "pbb")

KuhnState = tuple[tuple[int, ...], str]


class KuhnPoker(Game):
    """Kuhn poker: the smallest poker with bluffing and slow-playing at equilibrium."""

    name = "kuhn_poker"
    num_players = 2
    zero_sum = True

    def initial_state(self) -> KuhnState:
        return ((), "")

    def to_move(self, state: KuhnState) -> int:
        cards, history = state
        if len(cards) < 2:
            return CHANCE
        return len(history) % 2

    def actions(self, state: KuhnState) -> list:
        if self.to_move(state) == CHANCE:
            return [c for c in range(3) if c not in state[0]]
        return [PASS, BET]

    def chance_outcomes(self, state: KuhnState) -> list[tuple[int, float]]:
        remaining = self.actions(state)
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def result(self, state: KuhnState, action) -> KuhnState:
        cards, history = state
        if len(cards) < 2:
            return (cards + (action,), history)
        return (cards, history + action)

    def is_terminal(self, state: KuhnState) -> bool:
        return state[1] in TERMINAL_HISTORIES

    def utilities(self, state: KuhnState) -> tuple[float, float]:
        cards, history = state
        if history == "bp":  # player 2 folded
            return (1.0, -1.0)
        if history == "pbp":  # player 1 folded
            return (-1.0, 1.0)
        stake = 1.0 if history == "pp" else 2.0
        return (stake, -stake) if cards[0] > cards[1] else (-stake, stake)

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    observation_shape = (11,)
    """OpenSpiel's information-state tensor: the observer (one-hot of 2), its card (one-hot
    of 3), then each of the three bets so far (pass, bet)."""

    def num_distinct_actions(self) -> int:
        """Pass (0) and bet (1)."""
        return 2

    def action_index(self, action: str) -> int:
        """0 for pass, 1 for bet."""
        return (PASS, BET).index(action)

    def observation_tensor(self, state: KuhnState, player: int) -> list[float]:
        """:attr:`observation_shape`, read from the player's information set only."""
        info = self.information_set(state, player)
        out = [0.0] * 11
        out[player] = 1.0
        if info and info[0] in CARD_NAMES:
            out[2 + CARD_NAMES.index(info[0])] = 1.0
            info = info[1:]
        for i, bet in enumerate(info):
            out[5 + 2 * i + (PASS, BET).index(bet)] = 1.0
        return out

    # --- hidden information ---------------------------------------------------------------
    def information_set(self, state: KuhnState, player: int) -> str:
        """The player's own card (if dealt) followed by the betting history."""
        cards, history = state
        own = CARD_NAMES[cards[player]] if len(cards) > player else ""
        return own + history

    def sample_state(self, info: str, player: int, rng: random.Random) -> KuhnState:
        """A full state consistent with ``info``: the opponent's card drawn uniformly."""
        if not info or info[0] not in CARD_NAMES:
            raise GameSearchError(f"kuhn_poker: information set {info!r} has no card")
        own, history = CARD_NAMES.index(info[0]), info[1:]
        other = rng.choice([c for c in range(3) if c != own])
        cards = (own, other) if player == 0 else (other, own)
        return (cards, history)

    def render(self, state: KuhnState) -> str:
        cards, history = state
        shown = " ".join(CARD_NAMES[c] for c in cards) or "-"
        return f"cards {shown}  betting {history or '-'}"

    def render_for(self, state: KuhnState, player: int) -> str:
        """What ``player`` sees: its own card, ``?`` for the other."""
        cards, history = state
        shown = " ".join(CARD_NAMES[c] if p == player else "?" for p, c in enumerate(cards))
        return f"cards {shown or '-'}  betting {history or '-'}"

    def action_to_string(self, state: KuhnState, action) -> str:
        return CARD_NAMES[action] if self.to_move(state) == CHANCE else str(action)

    def string_to_action(self, state: KuhnState, text: str):
        if self.to_move(state) == CHANCE and text.strip().upper() in CARD_NAMES:
            card = CARD_NAMES.index(text.strip().upper())
            if card in self.actions(state):
                return card
        return super().string_to_action(state, text)
