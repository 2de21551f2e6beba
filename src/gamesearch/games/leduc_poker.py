"""Leduc hold'em (Southey et al. 2005, "Bayes' bluff"): poker with a public card, two rounds.

The deck holds six cards, J, Q and K in two suits. Each player antes 1 chip and is dealt one
private card (CHANCE). A betting round follows (raises of 2 chips, at most two raises), then
a public card is dealt (CHANCE) and a second round (raises of 4, at most two). A player
whose private card pairs the public card wins the showdown, otherwise the higher rank wins;
equal ranks split the pot. The rules and sizes are those of OpenSpiel's ``leduc_poker``
(9457 histories, 936 information sets), so strategies and timings compare one to one.

Actions: ``"f"`` fold (only when facing a raise), ``"c"`` call (or check), ``"r"`` raise.
A state is ``(cards, round1, round2)``: the cards dealt so far as ids 0..5 (rank ``id // 2``,
suit ``id % 2``; first the players' cards, then the public card) and each round's actions.

Information-set keys (docs/HIDDEN.md): own card, the public card once dealt, a colon, the
first round's actions and, in the second round, a slash and that round's actions:
``"Qh:"``, ``"Qh:cr"``, ``"QhKs:rc/"``, ``"QhKs:rc/cr"``.
"""

from __future__ import annotations

import random

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

RANKS = "JQK"
SUITS = "sh"
FOLD, CALL, RAISE = "f", "c", "r"
RAISE_SIZES = (2, 4)
MAX_RAISES = 2
ANTE = 1

LeducState = tuple[tuple[int, ...], str, str]


def card_name(card: int) -> str:
    """``Qh`` for card id 3: rank letter then suit letter."""
    return RANKS[card // 2] + SUITS[card % 2]


def parse_card(text: str) -> int:
    """The card id of a name such as ``Qh``."""
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise GameSearchError(f"leduc_poker: bad card {text!r} (expected e.g. 'Qh')")
    return 2 * RANKS.index(text[0]) + SUITS.index(text[1])


def betting(actions: str, raise_size: int) -> tuple[list[int], int, int, bool]:
    """Replay one round: (chips each player put in, raises, folding player or -1, done)."""
    put = [0, 0]
    raises, folded = 0, -1
    for i, action in enumerate(actions):
        player = i % 2
        if action == FOLD:
            folded = player
        elif action == CALL:
            put[player] = max(put)
        else:
            put[player] = max(put) + raise_size
            raises += 1
    done = folded >= 0 or (len(actions) >= 2 and actions[-1] == CALL)
    return put, raises, folded, done


class LeducPoker(Game):
    """Leduc hold'em, two players; the standard research benchmark after Kuhn poker."""

    name = "leduc_poker"
    num_players = 2
    zero_sum = True

    def initial_state(self) -> LeducState:
        return ((), "", "")

    def _round(self, state: LeducState) -> int:
        cards, round1, _ = state
        return 1 if len(cards) == 3 else 0

    def to_move(self, state: LeducState) -> int:
        cards, round1, round2 = state
        if len(cards) < 2:
            return CHANCE
        if len(cards) == 2 and betting(round1, RAISE_SIZES[0])[3]:
            return CHANCE
        return len(round2 if len(cards) == 3 else round1) % 2

    def actions(self, state: LeducState) -> list:
        cards, round1, round2 = state
        if self.to_move(state) == CHANCE:
            return [c for c in range(6) if c not in cards]
        r = self._round(state)
        put, raises, _, _ = betting(round2 if r else round1, RAISE_SIZES[r])
        player = self.to_move(state)
        moves = [FOLD] if put[player] < max(put) else []
        moves.append(CALL)
        if raises < MAX_RAISES:
            moves.append(RAISE)
        return moves

    def chance_outcomes(self, state: LeducState) -> list[tuple[int, float]]:
        remaining = self.actions(state)
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def result(self, state: LeducState, action) -> LeducState:
        cards, round1, round2 = state
        if self.to_move(state) == CHANCE:
            return (cards + (action,), round1, round2)
        if len(cards) == 3:
            return (cards, round1, round2 + action)
        return (cards, round1 + action, round2)

    def is_terminal(self, state: LeducState) -> bool:
        cards, round1, round2 = state
        if len(cards) < 2:
            return False
        first = betting(round1, RAISE_SIZES[0])
        if first[2] >= 0:
            return True
        if len(cards) < 3:
            return False
        second = betting(round2, RAISE_SIZES[1])
        return second[3]

    def utilities(self, state: LeducState) -> tuple[float, float]:
        cards, round1, round2 = state
        put1, _, folded, _ = betting(round1, RAISE_SIZES[0])
        put2, folded2 = [0, 0], -1
        if folded < 0:
            put2, _, folded2, _ = betting(round2, RAISE_SIZES[1])
            folded = folded2
        paid = [ANTE + put1[p] + put2[p] for p in (0, 1)]
        winner = 1 - folded if folded >= 0 else self._showdown(cards)
        if winner < 0:
            return (0.0, 0.0)
        loser = 1 - winner
        win = float(paid[loser])
        return (win, -win) if winner == 0 else (-win, win)

    @staticmethod
    def _showdown(cards: tuple[int, ...]) -> int:
        """The winner of a showdown (0 or 1), or -1 for a split pot."""
        ranks = [c // 2 for c in cards]
        public = ranks[2]
        pairs = [ranks[p] == public for p in (0, 1)]
        if pairs[0] != pairs[1]:
            return 0 if pairs[0] else 1
        if ranks[0] == ranks[1]:
            return -1
        return 0 if ranks[0] > ranks[1] else 1

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    observation_shape = (38,)
    """The observer (one-hot of 2), its card and the public card (one-hot of 6 each), then
    the four actions at most of each round (fold, call, raise each)."""

    def num_distinct_actions(self) -> int:
        """Fold (0), call (1), raise (2)."""
        return 3

    def action_index(self, action: str) -> int:
        """0 fold, 1 call, 2 raise."""
        return (FOLD, CALL, RAISE).index(action)

    def observation_tensor(self, state: LeducState, player: int) -> list[float]:
        """:attr:`observation_shape`, read from the player's information set only."""
        head, _, bets = self.information_set(state, player).partition(":")
        out = [0.0] * 38
        out[player] = 1.0
        for offset, name in ((2, head[:2]), (8, head[2:4])):
            if name:
                out[offset + parse_card(name)] = 1.0
        for offset, actions in zip((14, 26), bets.split("/")):
            for i, action in enumerate(actions):
                out[offset + 3 * i + (FOLD, CALL, RAISE).index(action)] = 1.0
        return out

    # --- hidden information ---------------------------------------------------------------
    def information_set(self, state: LeducState, player: int) -> str:
        """Own card, the public card once dealt, ``:``, round-1 actions, ``/`` round 2."""
        cards, round1, round2 = state
        own = card_name(cards[player]) if len(cards) > player else ""
        if len(cards) == 3:
            return f"{own}{card_name(cards[2])}:{round1}/{round2}"
        return f"{own}:{round1}"

    def sample_state(self, info: str, player: int, rng: random.Random) -> LeducState:
        """A full state consistent with ``info``: the opponent's card drawn uniformly."""
        head, sep, bets = info.partition(":")
        if not sep or len(head) not in (2, 4):
            raise GameSearchError(f"leduc_poker: malformed information set {info!r}")
        own = parse_card(head[:2])
        public = [parse_card(head[2:])] if len(head) == 4 else []
        round1, _, round2 = bets.partition("/")
        other = rng.choice([c for c in range(6) if c != own and c not in public])
        cards = (own, other) if player == 0 else (other, own)
        return (cards + tuple(public), round1, round2)

    def render(self, state: LeducState) -> str:
        cards, round1, round2 = state
        private = " ".join(card_name(c) for c in cards[:2]) or "-"
        public = card_name(cards[2]) if len(cards) == 3 else "-"
        return (f"private {private}  public {public}  round 1 {round1 or '-'}  "
                f"round 2 {round2 or '-'}")

    def render_for(self, state: LeducState, player: int) -> str:
        """What ``player`` sees: its own card and the public one, ``?`` for the other."""
        cards, round1, round2 = state
        private = " ".join(card_name(c) if p == player else "?"
                           for p, c in enumerate(cards[:2])) or "-"
        public = card_name(cards[2]) if len(cards) == 3 else "-"
        return (f"private {private}  public {public}  round 1 {round1 or '-'}  "
                f"round 2 {round2 or '-'}")

    def action_to_string(self, state: LeducState, action) -> str:
        return card_name(action) if self.to_move(state) == CHANCE else str(action)
