"""Small games for the theory tests, kept inside the tests so they are self-contained."""

from __future__ import annotations

import itertools

from gamesearch.game import CHANCE, Game

JACK, QUEEN, KING = 0, 1, 2


class KuhnPoker(Game):
    """Kuhn poker (H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory
    of Games I, 1950): a three-card deck J < Q < K, each player antes 1 and gets one card;
    player 1 passes or bets 1, player 2 answers; a bet is called or folded; the higher card
    wins the pot at a showdown. Actions: "p" (pass, check or fold) and "b" (bet or call).

    The state is (cards, history); cards is None before the deal (a chance node).
    """

    name = "kuhn-test"

    def initial_state(self):
        return (None, "")

    def to_move(self, state):
        cards, history = state
        return CHANCE if cards is None else len(history) % 2

    def chance_outcomes(self, state):
        deals = list(itertools.permutations((JACK, QUEEN, KING), 2))
        return [(deal, 1 / len(deals)) for deal in deals]

    def actions(self, state):
        if state[0] is None:
            return [deal for deal, _ in self.chance_outcomes(state)]
        return ["p", "b"]

    def result(self, state, action):
        cards, history = state
        if cards is None:
            return (action, "")
        return (cards, history + action)

    def is_terminal(self, state):
        return state[1] in ("pp", "bp", "bb", "pbp", "pbb")

    def utilities(self, state):
        cards, history = state
        if history == "bp":
            u = 1  # player 2 folded
        elif history == "pbp":
            u = -1  # player 1 folded
        else:
            stake = 1 if history == "pp" else 2
            u = stake if cards[0] > cards[1] else -stake
        return (u, -u)

    def information_set(self, state, player):
        cards, history = state
        return ("JQK"[cards[player]], history)


LECTURE_TREE = {
    "name": "A", "player": "max", "children": [
        {"name": "B", "action": "L", "player": "min", "children": [
            {"action": "a", "value": 3},
            {"name": "A2", "action": "b", "player": "max", "children": [
                {"action": "x", "value": 4},
                {"action": "y", "value": 1}]},
            {"action": "c", "value": 6}]},
        {"action": "R", "value": 2}],
}
"""The lectures' shape: A moves (L or R), after L player B replies (a, b or c), and after
b A moves again (x or y). A decides at two nodes with two actions each: 2 x 2 = 4 pure
strategies; B decides at one node with three actions: 3. In the reduced normal form A's
plans R.x and R.y are one strategy (after R, A's own move makes the x/y node unreachable):
3 x 3. The minimax value is 3: after L, B's best reply is a (3 < min(4, 6) when A would
answer b with x); A prefers L (3) to R (2)."""
