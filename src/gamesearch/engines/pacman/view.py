"""A Pacman position as an SVG picture (notebooks): walls, food, capsules, Pacman and the
ghosts (a scared ghost pale blue), with arrows for Pacman's moves."""

from __future__ import annotations

from typing import Any

from gamesearch.drawing import LASTMOVE, Canvas, Svg, action_text
from gamesearch.games.pacman import LOST, STOP
from gamesearch.games.pacman_layout import DIRECTIONS

S = 24
"""The side of a cell."""
GHOST_COLOURS = ("#e74c3c", "#ff8fd0", "#3ec1d3", "#f5a623")


def picture(game: Any, state: Any, lastmove: Any = None, arrows: Any = ()) -> Svg:
    """The maze with everything on it (classes ``wall``, ``food``, ``capsule``, ``pacman``,
    ``ghost``); each arrow is a move of Pacman (``North``...) drawn from its cell, ``Stop``
    as a ring. ``lastmove`` (a direction's name) is drawn as the web page draws it: the
    cells its mover (Pacman or a ghost: the agent before the one to move) left and reached,
    marked ``lastmove``."""
    lay = game.layout
    canvas = Canvas(lay.width * S, lay.height * S + 22, f"Pacman on {lay.name}")
    canvas.add("rect", class_="board", x=0, y=0, width=lay.width * S, height=lay.height * S,
               fill="#000")

    def centre(r: float, c: float) -> tuple[float, float]:
        return (c + 0.5) * S, (r + 0.5) * S

    if lastmove is not None and state.moves > 0:
        for r, c in last_cells(game, state, action_text(game, state, lastmove)):
            canvas.add("rect", class_="lastmove", x=c * S + 1, y=r * S + 1, width=S - 2,
                       height=S - 2, rx=4, fill="none", stroke=LASTMOVE, stroke_width=3)
    for r, c in sorted(lay.walls):
        canvas.add("rect", class_="wall", x=c * S + 1, y=r * S + 1, width=S - 2,
                   height=S - 2, rx=4, fill="#1d3fbb")
    for cell, i in lay.index.items():
        x, y = centre(*cell)
        if state.food >> i & 1:
            canvas.add("circle", class_="food", cx=x, cy=y, r=S * 0.1, fill="#fff")
        if state.capsules >> i & 1:
            canvas.add("circle", class_="capsule", cx=x, cy=y, r=S * 0.25, fill="#fff")
    if state.status != LOST:
        x, y = centre(*state.pacman)
        rr = S * 0.42
        canvas.add("path", class_="pacman", fill="#ffd700",
                   d=f"M{x},{y} L{x + rr * 0.8},{y - rr * 0.55} A{rr},{rr} 0 1,0 "
                     f"{x + rr * 0.8},{y + rr * 0.55} Z")
    for g, (r, c) in enumerate(state.ghosts):
        x, y = centre(r, c)
        scared = state.scared[g] > 0
        fill = "#a9c7ff" if scared else GHOST_COLOURS[g % len(GHOST_COLOURS)]
        canvas.add("path", class_="ghost scared" if scared else "ghost", fill=fill,
                   d=f"M{x - S * .4},{y + S * .4} L{x - S * .4},{y} A{S * .4},{S * .4} 0 0,1 "
                     f"{x + S * .4},{y} L{x + S * .4},{y + S * .4} Z")
        for dx in (-0.15, 0.15):
            canvas.add("circle", cx=x + dx * S, cy=y - S * 0.05, r=S * 0.08, fill="#fff")
    for action in arrows:
        x, y = centre(*state.pacman)
        if action == STOP:
            canvas.arrow(x, y, x, y, 3)
        else:
            dr, dc = DIRECTIONS[action]
            canvas.arrow(x, y, x + dc * S, y + dr * S, 3)
    canvas.add("text", f"score {state.score}   food {state.food.bit_count()}   moves "
               f"{state.moves}", class_="caption", x=4, y=lay.height * S + 16, font_size=12,
               fill="#333")
    return canvas.svg()


def mover(game: Any, state: Any) -> int:
    """Who made the last move: the agent before the one to move (every move passes the turn
    on, the one that ended the game too)."""
    return (state.agent - 1) % game.num_players


def last_cells(game: Any, state: Any, move: str) -> list[tuple[float, float]]:
    """Where the last move's mover came from and where it is (one cell for ``Stop``); a
    frightened ghost moves half a cell."""
    who = mover(game, state)
    to = state.pacman if who == 0 else state.ghosts[who - 1]
    if move == STOP:
        return [to]
    dr, dc = DIRECTIONS[move]  # KeyError: not a direction (display names it)
    step = 1.0 if who == 0 or not game.course or not state.scared[who - 1] else 0.5
    return [(to[0] - dr * step, to[1] - dc * step), to]


def board(game: Any, state: Any) -> dict:
    """The maze for the web page: its size, the walls, the food and capsules left (as
    ``[row, column]`` cells), Pacman, each ghost (and how long it stays scared), the score,
    and the direction each of Pacman's moves goes (``[dr, dc]``)."""
    lay = game.layout
    food = [list(cell) for cell, i in lay.index.items() if state.food >> i & 1]
    capsules = [list(cell) for cell, i in lay.index.items() if state.capsules >> i & 1]
    return {"style": "maze", "width": lay.width, "height": lay.height,
            "walls": sorted(list(cell) for cell in lay.walls), "food": food,
            "capsules": capsules, "pacman": list(state.pacman),
            "caught": state.status == LOST, "ghosts": [list(g) for g in state.ghosts],
            "scared": list(state.scared), "score": state.score, "moves": state.moves,
            "directions": {name: list(step) for name, step in DIRECTIONS.items()},
            "mover": mover(game, state), "half_when_scared": game.course}
