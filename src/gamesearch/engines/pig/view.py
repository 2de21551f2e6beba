"""A Pig position as an SVG picture (notebooks, the home page's tile): each player's banked
score as a bar towards the goal, the turn total added to the mover's bar, and the die with
the last roll."""

from __future__ import annotations

from typing import Any

from gamesearch.drawing import ARROW, Canvas, Svg
from gamesearch.games.pig import DIE, HOLD, ROLL

PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}
"""Where a face's pips stand on a 3x3 grid (row, column)."""
BAR, DIE_SIZE = 110, 48


def face(lastmove: Any) -> int | None:
    """The face of a roll that was the last move (an action or its text), or None for a
    decision (roll, hold) or no move; ValueError for anything else."""
    if lastmove is None or lastmove in (ROLL, HOLD):
        return None
    value = int(lastmove)
    if value not in DIE:
        raise ValueError(f"{lastmove!r} is not a face of the die")
    return value


def picture(game: Any, state: Any, lastmove: Any = None, arrows: Any = ()) -> Svg:
    """Bars of class ``score`` (banked) and ``turn`` (the mover's turn total), a die of
    class ``die`` with the last roll's pips (a 1, the pig, in red); an arrow's ``roll``
    marks the die, its ``hold`` the turn total (class ``marked``)."""
    canvas = Canvas(40 + BAR + 30 + DIE_SIZE, 104, f"Pig to {game.goal}")
    for p in (0, 1):
        y = 14 + 34 * p
        banked = min(state.scores[p], game.goal) / game.goal * BAR
        turn = min(state.turn_total, game.goal) / game.goal * BAR \
            if p == state.player else 0.0
        canvas.add("text", f"P{p + 1}", class_="to-move" if p == state.player else "player",
                   x=6, y=y + 15, font_size=12, font_weight="bold" if p == state.player
                   else None)
        canvas.add("rect", class_="track", x=34, y=y, width=BAR, height=20, rx=4,
                   fill="#f4e3d3", stroke="#bc4749")
        canvas.add("rect", class_="score", x=34, y=y, width=banked, height=20, rx=4,
                   fill="#bc4749")
        if p == state.player:
            hold = HOLD in arrows
            canvas.add("rect", class_="turn marked" if hold else "turn", x=34 + banked, y=y,
                       width=max(turn, 3 if hold else 0), height=20, fill="#f2a65a",
                       stroke=ARROW if hold else None, stroke_width=3 if hold else None)
        canvas.add("text", f"{state.scores[p]}" + (f" + {state.turn_total}"
                                                   if p == state.player and state.turn_total
                                                   else ""),
                   class_="count", x=40, y=y + 15, font_size=12, fill="#111")
    x, y = 40 + BAR + 20, 18
    rolled = face(lastmove)
    roll = ROLL in arrows
    canvas.add("rect", class_="die marked" if roll else "die", x=x, y=y, width=DIE_SIZE,
               height=DIE_SIZE, rx=7, fill="#fff", stroke=ARROW if roll else "#333",
               stroke_width=3 if roll else 1.5)
    if rolled is None:  # no roll to show: the die waits
        canvas.add("text", "?", class_="die-wait", x=x + DIE_SIZE / 2, y=y + DIE_SIZE * 0.68,
                   font_size=DIE_SIZE * 0.5, text_anchor="middle", fill="#999")
    for r, c in PIPS.get(rolled, []):
        canvas.add("circle", class_="pip", cx=x + DIE_SIZE * (0.22 + 0.28 * c),
                   cy=y + DIE_SIZE * (0.22 + 0.28 * r), r=DIE_SIZE * 0.08,
                   fill="#c00" if rolled == 1 else "#222")
    canvas.add("text", f"goal {game.goal}", class_="caption", x=34, y=96, font_size=11,
               fill="#333")
    return canvas.svg()
