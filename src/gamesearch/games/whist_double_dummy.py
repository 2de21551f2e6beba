"""Double-dummy analysis: alpha-beta on a card deal with every hand visible.

"Double dummy" is the bridge player's name for solving a deal as if all four hands were
face up: a perfect-information game between two sides. It is what the determinization
player solves on each sampled deal. Within a trick the side to move maximizes (or
minimizes) the tricks of side 1 with alpha-beta; at each trick boundary the exact value of
the rest of the deal is remembered, keyed by the hands and the leader (transpositions: the
order in which earlier tricks were played no longer matters).

The generic (slow) version for any game with teams is
:func:`gamesearch.imperfect.double_dummy.perfect_information_values` (tests compare them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE

if TYPE_CHECKING:  # the rules import this solver on demand: types only, no circle
    from gamesearch.games.whist import Whist, WhistState


class DoubleDummy:
    """Exact trick counts for whist deals; one instance keeps its table across calls."""

    def __init__(self, game: Whist) -> None:
        self.game = game
        self.table: dict[tuple, int] = {}
        self.nodes = 0

    def tricks(self, state: WhistState) -> int:
        """Tricks side 1 (players 1 and 3) takes from ``state`` to the end, with best play."""
        if self.game.to_move(state) == CHANCE:
            raise GameSearchError("double dummy needs a dealt position (the deal is not done)")
        hands, _, leader, _ = state
        trick = self.game.current_trick(state)
        return self._play(hands, leader, tuple(c for _, c in trick), -1, self.game.hand_size + 1)

    def card_values(self, state: WhistState) -> dict[int, float]:
        """For each legal card: the tricks the mover's side ends the deal with."""
        game = self.game
        player = game.to_move(state)
        team = game.team(player)
        values = {}
        for card in game.actions(state):
            after = game.result(state, card)
            side_one = after[3][0] + (self.tricks(after) if not game.is_terminal(after) else 0)
            total = side_one if team == 0 else game.hand_size - side_one
            values[card] = float(total)
        return values

    def _boundary(self, hands: tuple, leader: int) -> int:
        """Exact tricks for side 1 from a trick boundary (remembered)."""
        if not hands[leader]:
            return 0
        key = (hands, leader)
        if key not in self.table:
            self.table[key] = self._play(hands, leader, (), -1, len(hands[leader]) + 1)
        return self.table[key]

    def _play(self, hands: tuple, leader: int, trick: tuple, alpha: int, beta: int) -> int:
        """Alpha-beta inside a trick: side 1 maximizes its tricks, side 2 minimizes them."""
        game = self.game
        self.nodes += 1
        if len(trick) == 4:
            plays = tuple(((leader + i) % 4, c) for i, c in enumerate(trick))
            winner = game.trick_winner(plays)
            return (1 if game.team(winner) == 0 else 0) + self._boundary(hands, winner)
        player = (leader + len(trick)) % 4
        hand = hands[player]
        led = [c for c in hand if trick and game.suit(c) == game.suit(trick[0])]
        maximizing = game.team(player) == 0
        best = -1 if maximizing else 10**6
        for card in led or hand:
            new = list(hands)
            new[player] = tuple(c for c in hand if c != card)
            v = self._play(tuple(new), leader, trick + (card,), alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def double_dummy_report(game: Whist, state: WhistState) -> dict:
    """``gamesearch solve whist --position "<the deal's cards> <plays>"``: exact tricks."""
    if game.to_move(state) == CHANCE:
        raise GameSearchError("whist: give a dealt position: the cards dealt in order "
                              f"(players 1, 2, 3, 4, 1, ...: {game.deck_size} cards), then plays")
    if game.is_terminal(state):
        raise GameSearchError("whist: the deal is already played out")
    dd = DoubleDummy(game)
    values = dd.card_values(state)
    best = max(values, key=values.get)
    return {"to_move": game.player_name(game.to_move(state)),
            "value": values[best],
            "best_card": game.card_name(best),
            "card_values": {game.card_name(c): v for c, v in values.items()},
            "nodes": dd.nodes}
