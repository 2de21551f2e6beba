"""A small whist: four hands, partners sitting opposite, follow suit, tricks count.

The deck has ``suits`` suits of ``ranks`` cards each (the top ranks: with 3 ranks, A K Q),
dealt one card at a time by CHANCE to players 1, 2, 3, 4, 1, ... until every hand holds a
quarter of the deck. Player 1 leads the first trick; each player must follow the suit led
when able; the highest card of the suit led wins the trick, and its winner leads the next.
There are no trumps. Players 1 and 3 (indices 0, 2) are partners against 2 and 4; a
player's utility is the number of tricks their side took (a constant-sum team game).

The deck size is a parameter so that a double-dummy solve of every deal is exact and fast
(16 cards: four tricks).

A state is ``(hands, plays, leader, tricks)``: ``hands`` the four current hands (sorted
card tuples), ``plays`` every ``(player, card)`` played so far in order, ``leader`` who led
the current trick and ``tricks`` the two sides' tricks. Card ``c`` is rank ``c % ranks`` of
suit ``c // ranks``. A player's information set is ``(player, hand as dealt, cards dealt so
far, plays)``; :meth:`Whist.sample_state` deals the unseen cards uniformly among the deals
consistent with it (hand sizes and the suits a player showed out of).
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import comb

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

RANK_NAMES = "23456789TJQKA"
SUIT_NAMES = "SHDC"

Hands = tuple[tuple[int, ...], ...]
Plays = tuple[tuple[int, int], ...]
WhistState = tuple[Hands, Plays, int, tuple[int, int]]
WhistInfo = tuple[int, tuple[int, ...], int, Plays]


class Whist(Game):
    """Four-handed whist without trumps on a small deck (``suits`` x ``ranks`` cards)."""

    name = "whist"
    num_players = 4
    zero_sum = False

    def __init__(self, suits: int = 4, ranks: int = 3) -> None:
        if not 1 <= suits <= 4 or not 1 <= ranks <= 13 or (suits * ranks) % 4:
            raise GameSearchError(f"whist: suits={suits}, ranks={ranks}: need 1-4 suits, "
                                  "1-13 ranks and a deck that deals evenly to four hands")
        self.suits, self.ranks = suits, ranks
        self.deck_size = suits * ranks
        self.hand_size = self.deck_size // 4
        self.max_utility = float(self.hand_size)

    def __repr__(self) -> str:
        return f"Whist(suits={self.suits}, ranks={self.ranks})"

    # --- cards -----------------------------------------------------------------------------
    def suit(self, card: int) -> int:
        return card // self.ranks

    def card_name(self, card: int) -> str:
        return RANK_NAMES[13 - self.ranks + card % self.ranks] + SUIT_NAMES[card // self.ranks]

    @staticmethod
    def team(player: int) -> int:
        """Side 0 is players 1 and 3, side 1 is players 2 and 4."""
        return player % 2

    # --- the formalization -------------------------------------------------------------------
    def initial_state(self) -> WhistState:
        return (((), (), (), ()), (), 0, (0, 0))

    def dealt(self, state: WhistState) -> int:
        hands, plays, _, _ = state
        return sum(len(h) for h in hands) + len(plays)

    def current_trick(self, state: WhistState) -> Plays:
        plays = state[1]
        return plays[len(plays) - len(plays) % 4:]

    def to_move(self, state: WhistState) -> int:
        hands, plays, leader, _ = state
        if self.dealt(state) < self.deck_size:
            return CHANCE
        return (leader + len(plays) % 4) % 4

    def actions(self, state: WhistState) -> list[int]:
        player = self.to_move(state)
        if player == CHANCE:
            held = {c for h in state[0] for c in h}
            return [c for c in range(self.deck_size) if c not in held]
        hand = state[0][player]
        trick = self.current_trick(state)
        if trick:
            led = self.suit(trick[0][1])
            following = [c for c in hand if self.suit(c) == led]
            if following:
                return following
        return list(hand)

    def chance_outcomes(self, state: WhistState) -> list[tuple[int, float]]:
        cards = self.actions(state)
        return [(c, 1.0 / len(cards)) for c in cards]

    def result(self, state: WhistState, action: int) -> WhistState:
        hands, plays, leader, tricks = state
        player = self.to_move(state)
        if player == CHANCE:
            seat = self.dealt(state) % 4
            new = list(hands)
            new[seat] = tuple(sorted(hands[seat] + (action,)))
            return (tuple(new), plays, leader, tricks)
        new = list(hands)
        new[player] = tuple(c for c in hands[player] if c != action)
        plays = plays + ((player, action),)
        if len(plays) % 4 == 0:
            leader = self.trick_winner(plays[-4:])
            won = list(tricks)
            won[self.team(leader)] += 1
            tricks = (won[0], won[1])
        return (tuple(new), plays, leader, tricks)

    def perfect_information_solver(self):
        """Whist's own fast solver of a visible deal (double dummy), detected by the
        determinization player: ``solve(game, state) -> {card: tricks of the mover's side}``."""
        from gamesearch.games.whist_double_dummy import DoubleDummy

        dd = DoubleDummy(self)
        return lambda _game, state: dd.card_values(state)

    def trick_winner(self, trick: Plays) -> int:
        """The player whose card is the highest of the suit led."""
        led = self.suit(trick[0][1])
        return max((c, p) for p, c in trick if self.suit(c) == led)[1]

    def is_terminal(self, state: WhistState) -> bool:
        return len(state[1]) == self.deck_size

    def utilities(self, state: WhistState) -> tuple[float, ...]:
        t = state[3]
        return (float(t[0]), float(t[1]), float(t[0]), float(t[1]))

    def state_key(self, state: WhistState):
        """What matters for the rest of the play: hands, the trick so far, leader, tricks."""
        return (state[0], self.current_trick(state), state[2], state[3])

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    def num_distinct_actions(self) -> int:
        """One action per card: an action's number is its card's."""
        return self.deck_size

    def action_index(self, card: int) -> int:
        """The card's number."""
        return card

    @property
    def observation_shape(self) -> tuple[int]:
        """The observer (one-hot of 4), the cards it holds, then the cards each seat played
        (seats counted from the observer), one plane of ``deck_size`` each."""
        return (4 + 5 * self.deck_size,)

    def observation_tensor(self, state: WhistState, player: int) -> list[float]:
        """:attr:`observation_shape`, read from the player's information set only."""
        _, own, _, plays = self.information_set(state, player)
        d = self.deck_size
        out = [0.0] * (4 + 5 * d)
        out[player] = 1.0
        played = {c for _, c in plays}
        for card in own:
            if card not in played:
                out[4 + card] = 1.0
        for seat, card in plays:
            out[4 + d * (1 + (seat - player) % 4) + card] = 1.0
        return out

    # --- hidden information ----------------------------------------------------------------
    def information_set(self, state: WhistState, player: int) -> WhistInfo:
        """Own hand as dealt, how many cards were dealt, and every card played."""
        hands, plays, _, _ = state
        own_played = tuple(c for p, c in plays if p == player)
        return (player, tuple(sorted(hands[player] + own_played)), self.dealt(state), plays)

    def voids(self, plays: Plays) -> dict[int, set[int]]:
        """The suits each player has shown out of (failed to follow)."""
        out: dict[int, set[int]] = {p: set() for p in range(4)}
        for start in range(0, len(plays), 4):
            trick = plays[start:start + 4]
            led = self.suit(trick[0][1])
            for p, c in trick[1:]:
                if self.suit(c) != led:
                    out[p].add(led)
        return out

    def sample_state(self, info: WhistInfo, player: int, rng: random.Random) -> WhistState:
        """A deal drawn uniformly from those consistent with ``info``.

        The unseen cards go to the other hands (and the undealt deck, while dealing) with
        the right counts and no card in a suit its holder showed out of. Suit by suit, the
        number of cards each holder gets is drawn with probability proportional to the
        number of completions (counted exactly by dynamic programming), then the cards of
        the suit are shuffled among them.
        """
        me, own, dealt, plays = info
        if me != player:
            raise GameSearchError(f"whist: information set of player {me + 1}, not {player + 1}")
        played = {c for _, c in plays}
        unseen = [c for c in range(self.deck_size) if c not in played and c not in own]
        others = [p for p in range(4) if p != player]
        need = [sum(1 for k in range(dealt) if k % 4 == p)
                - sum(1 for q, _ in plays if q == p) for p in others]
        need.append(self.deck_size - dealt)  # the undealt deck
        void = self.voids(plays)
        banned = [void[p] for p in others] + [set()]
        by_suit = [[c for c in unseen if self.suit(c) == s] for s in range(self.suits)]
        split = _sample_split(by_suit, need, banned, rng)
        if split is None:
            raise GameSearchError(f"whist: no deal is consistent with information set {info!r}")
        holders: list[list[int]] = [[] for _ in need]
        for s, counts in enumerate(split):
            cards = by_suit[s][:]
            rng.shuffle(cards)
            for h, k in enumerate(counts):
                holders[h].extend(cards[:k])
                cards = cards[k:]
        hands = [()] * 4
        hands[player] = tuple(sorted(c for c in own if c not in played))
        for p, cards in zip(others, holders):
            hands[p] = tuple(sorted(cards))
        leader = 0
        tricks = [0, 0]
        for start in range(0, len(plays) - len(plays) % 4, 4):
            leader = self.trick_winner(plays[start:start + 4])
            tricks[self.team(leader)] += 1
        return (tuple(hands), plays, leader, (tricks[0], tricks[1]))

    # --- for people -----------------------------------------------------------------------------
    def action_to_string(self, state: WhistState, action: int) -> str:
        return self.card_name(action)

    def render(self, state: WhistState) -> str:
        hands, plays, _, tricks = state
        lines = [f"player {p + 1}: " + (" ".join(self.card_name(c) for c in h) or "-")
                 for p, h in enumerate(hands)]
        trick = " ".join(f"{p + 1}:{self.card_name(c)}" for p, c in self.current_trick(state))
        lines.append(f"trick: {trick or '-'}   tricks: {tricks[0]} - {tricks[1]}")
        return "\n".join(lines)

    def render_for(self, state: WhistState, player: int) -> str:
        """What ``player`` sees: its own hand, how many cards the others hold, the trick."""
        hands, plays, _, tricks = state
        lines = [f"player {p + 1}: " + (" ".join(self.card_name(c) for c in h) or "-")
                 if p == player else f"player {p + 1}: {len(h)} cards"
                 for p, h in enumerate(hands)]
        trick = " ".join(f"{p + 1}:{self.card_name(c)}" for p, c in self.current_trick(state))
        lines.append(f"trick: {trick or '-'}   tricks: {tricks[0]} - {tricks[1]}")
        return "\n".join(lines)


def _sample_split(by_suit: list[list[int]], need: list[int], banned: list[set[int]],
                  rng: random.Random) -> list[tuple[int, ...]] | None:
    """Per suit, how many of its cards each holder gets, drawn in proportion to the number
    of card assignments that complete it (None when there is none)."""
    sizes = tuple(len(cards) for cards in by_suit)
    shut = tuple(tuple(s in b for b in banned) for s in range(len(by_suit)))
    left = tuple(need)
    if _completions(sizes, shut, 0, left) == 0:
        return None
    result = []
    for s in range(len(sizes)):
        choices = []
        for ks, ways in _splits(sizes[s], shut[s], left):
            rest = tuple(a - b for a, b in zip(left, ks))
            weight = ways * _completions(sizes, shut, s + 1, rest)
            if weight > 0:
                choices.append((ks, weight))
        ks = _weighted_choice(choices, rng)
        result.append(ks)
        left = tuple(a - b for a, b in zip(left, ks))
    return result


@lru_cache(maxsize=1 << 16)
def _splits(n: int, shut: tuple[bool, ...], left: tuple[int, ...]
            ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Ways to share n cards of a suit among holders (none to a holder shut out of it, at
    most ``left[h]`` to holder h): each split with its number of card assignments."""
    found = []

    def split(h: int, remaining: int, chosen: tuple[int, ...], ways: int) -> None:
        if h == len(left):
            if remaining == 0:
                found.append((chosen, ways))
            return
        top = 0 if shut[h] else min(remaining, left[h])
        for k in range(top + 1):
            split(h + 1, remaining - k, chosen + (k,), ways * comb(remaining, k))

    split(0, n, (), 1)
    return tuple(found)


@lru_cache(maxsize=1 << 16)
def _completions(sizes: tuple[int, ...], shut: tuple[tuple[bool, ...], ...], s: int,
                 left: tuple[int, ...]) -> int:
    """The number of card assignments of suits s, s+1, ... that fill every holder."""
    if s == len(sizes):
        return 0 if any(left) else 1
    return sum(ways * _completions(sizes, shut, s + 1, tuple(a - b for a, b in zip(left, ks)))
               for ks, ways in _splits(sizes[s], shut[s], left))


def _weighted_choice(choices: list[tuple[tuple[int, ...], int]], rng: random.Random
                     ) -> tuple[int, ...]:
    """One of the options, drawn with probability proportional to its (positive) weight."""
    r = rng.random() * sum(w for _, w in choices)
    for option, w in choices:
        r -= w
        if r < 0:
            return option
    return choices[-1][0]
