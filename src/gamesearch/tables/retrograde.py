"""Retrograde analysis, written to be read: the exact value of every position of a closed
set of positions, from the ends of games backwards.

Values are for the side to move: WIN, LOSS or DRAW, with the distance in plies to the end
of the game under best play (the winner hurries, the loser delays). The sweep is
synchronous: in pass ``k`` a position becomes

* a win in ``k`` plies if one of its moves reaches a loss in ``k - 1`` or fewer plies
  (the first pass that finds one is ``1 +`` the smallest such distance);
* a loss in ``k`` plies if every move reaches a win in ``k - 1`` or fewer plies;

and whatever no pass decides is a draw (each side can keep the game going forever, or
the position leads only to draws). This is the "forward" form of retrograde analysis: it
needs the game's moves and the values of positions outside the set (captures leading to
smaller tables), not un-moves; :mod:`gamesearch.tables.sweep` is the same loop compiled.
The function here is the specification the compiled one is tested against.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from gamesearch.game import Game

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3
NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw", UNKNOWN: "unknown"}

Outside = Callable[[Hashable], tuple[int, int] | None]
"""The (value, distance) of a position outside the set (a smaller table), or None when it
is in the set."""


def retrograde_values(game: Game, states: Iterable[Hashable], outside: Outside | None = None,
                      key: Callable[[Hashable], Hashable] = lambda s: s,
                      ) -> dict[Hashable, tuple[int, int]]:
    """``{key(state): (value, distance)}`` for every state of ``states`` (a set closed
    under moves, except for what ``outside`` answers). A state without moves is a loss in
    0 plies for the side to move when the game's utilities say so; other terminal states
    take their value from the utilities (a draw at distance 0). Moves alternate: the side
    to move at a child is the opponent (true of checkers, chess, tic-tac-toe)."""
    table: dict[Hashable, tuple[int, int]] = {}
    pending: dict[Hashable, Hashable] = {}
    for s in states:
        k = key(s)
        if game.is_terminal(s):
            u = game.utilities(s)[game.to_move(s)]
            table[k] = (WIN if u > 0 else LOSS if u < 0 else DRAW, 0)
        else:
            pending[k] = s

    def child_value(c: Hashable) -> tuple[int, int] | None:
        if game.is_terminal(c):
            u = game.utilities(c)[game.to_move(c)]
            return (WIN if u > 0 else LOSS if u < 0 else DRAW, 0)
        found = outside(c) if outside is not None else None
        return found if found is not None else table.get(key(c))

    known = max([getattr(outside, "horizon", 0) if outside is not None else 0,
                 *(d for _, d in table.values())])
    k = 0
    while pending:
        k += 1
        decided = {}
        for sk, s in pending.items():
            win_in, all_won, longest = [], True, 0
            for a in game.actions(s):
                v = child_value(game.result(s, a))
                if v is None or v[1] > k - 1 or v[0] == DRAW:  # not (yet) a decided result
                    all_won = False
                elif v[0] == LOSS:  # the opponent, to move there, loses
                    win_in.append(v[1])
                else:
                    longest = max(longest, v[1])
            if win_in:
                decided[sk] = (WIN, 1 + min(win_in))
            elif all_won:
                decided[sk] = (LOSS, 1 + longest)
        table.update(decided)
        for sk, v in decided.items():
            del pending[sk]
            known = max(known, v[1])
        if not decided and k - 1 >= known:  # every known result is admissible: no more
            break
    for sk in pending:
        table[sk] = (DRAW, 0)
    return table
