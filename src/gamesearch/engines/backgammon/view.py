"""A backgammon position as an SVG picture (notebooks): the 24 points, the bar, the borne-off
checkers and the dice, the last play and any arrows drawn step by step."""

from __future__ import annotations

from typing import Any

from gamesearch.drawing import Canvas, Svg
from gamesearch.games.backgammon import BAR, OFF, BackgammonState, pips

PW, R = 30, 13
"""Width of a point and radius of a checker."""
LEFT, TOP, BARW, OFFW, HALF = 10, 24, 30, 34, 5 * 2 * R + 14
COLOURS = {"X": "#f4f1e8", "O": "#3b2f2f"}


def _column_x(column: int) -> float:
    return LEFT + column * PW + (BARW if column >= 6 else 0) + PW / 2


def _point_place(index: int) -> tuple[float, bool]:
    """The x of absolute point ``index`` (0 = X's point 1) and whether it is on top."""
    if index >= 12:
        return _column_x(index - 12), True
    return _column_x(11 - index), False


def _spot(point: int, mover: int) -> tuple[float, float]:
    """Where an arrow starts or ends for ``point`` in the mover's numbering (25 the bar,
    0 borne off)."""
    bottom = TOP + 2 * HALF
    if point == BAR:
        return LEFT + 6 * PW + BARW / 2, TOP + HALF + (-3 * R if mover == 1 else 3 * R)
    if point == OFF:
        return LEFT + 12 * PW + BARW + OFFW / 2, (bottom - 3 * R if mover == 0 else TOP + 3 * R)
    x, top = _point_place(point - 1 if mover == 0 else 24 - point)
    return x, TOP + 3 * R if top else bottom - 3 * R


def _steps(action: Any) -> list[tuple[int, int]]:
    """A play's ``(from, to)`` steps: the action itself, or its text (``13/7 bar/22 6/off``)."""
    if isinstance(action, str):
        steps = []
        for token in action.replace("*", "").replace(",", " ").split():
            fields = [BAR if f == "bar" else OFF if f == "off" else int(f)
                      for f in token.lower().split("/")]
            steps.extend(zip(fields, fields[1:]))
        return steps
    if action and all(isinstance(step, tuple) for step in action):
        return list(action)
    return []  # a roll of the dice, or no move


def _stack(canvas: Canvas, side: str, n: int, x: float, top: bool, cls: str = "") -> None:
    room = HALF - 6
    gap = min(2 * R, (room - 2 * R) / (n - 1)) if n > 1 else 2 * R
    for k in range(n):
        y = TOP + R + 2 + k * gap if top else TOP + 2 * HALF - R - 2 - k * gap
        canvas.add("circle", class_=f"piece {side}{cls}", cx=x, cy=y, r=R,
                   fill=COLOURS[side], stroke="#111", stroke_width=1)


def picture(game: Any, state: BackgammonState, lastmove: Any = None,
            arrows: Any = ()) -> Svg:
    """X (player 1, light, moving from its point 24 to its point 1 at the bottom right) and
    O (dark); every checker is drawn (class ``piece X`` / ``piece O``), stacks pressed
    together when tall; the bar in the middle, borne-off checkers in the tray on the right;
    the last play's steps and each arrow's play as arrows."""
    width = LEFT * 2 + 12 * PW + BARW + OFFW
    canvas = Canvas(width, TOP + 2 * HALF + 40, "backgammon")
    bottom = TOP + 2 * HALF
    canvas.add("rect", class_="board", x=LEFT, y=TOP, width=12 * PW + BARW, height=2 * HALF,
               fill="#c8a165")
    for i in range(24):
        x, top = _point_place(i)
        tip = TOP + HALF - 10 if top else bottom - HALF + 10
        base = TOP if top else bottom
        canvas.add("polygon", class_="point", points=f"{x - PW / 2},{base} {x + PW / 2},{base} "
                   f"{x},{tip}", fill="#8b2e16" if i % 2 else "#e3cfa1", stroke="#5a3d1e",
                   stroke_width=0.5)
        canvas.add("text", str(i + 1), class_="coord", x=x, y=TOP - 8 if top else bottom + 14,
                   font_size=9, text_anchor="middle", fill="#555")
    canvas.add("rect", class_="bar", x=LEFT + 6 * PW, y=TOP, width=BARW, height=2 * HALF,
               fill="#6b4423")
    canvas.add("rect", class_="tray", x=LEFT + 12 * PW + BARW, y=TOP, width=OFFW,
               height=2 * HALF, fill="#a0784a")
    for i, v in enumerate(state.points):
        if v:
            x, top = _point_place(i)
            _stack(canvas, "X" if v > 0 else "O", abs(v), x, top)
    bar_x = LEFT + 6 * PW + BARW / 2
    _stack(canvas, "O", state.bar[1], bar_x, True, " bar")
    _stack(canvas, "X", state.bar[0], bar_x, False, " bar")
    tray_x = LEFT + 12 * PW + BARW + 4
    for player, side in enumerate("XO"):
        for k in range(state.off[player]):
            y = bottom - 6 - k * 7 if player == 0 else TOP + 2 + k * 7
            canvas.add("rect", class_=f"off {side}", x=tray_x, y=y, width=OFFW - 8,
                       height=5, fill=COLOURS[side], stroke="#111", stroke_width=0.5)
    if state.dice is not None:
        for k, die in enumerate(state.dice):
            x = LEFT + 9 * PW + BARW - 26 + k * 30
            canvas.add("rect", class_="die", x=x, y=TOP + HALF - 11, width=22, height=22,
                       rx=4, fill="#fff", stroke="#111")
            canvas.add("text", str(die), x=x + 11, y=TOP + HALF + 5, font_size=14,
                       text_anchor="middle")
    if lastmove is not None and state.dice is None:
        for src, dst in _steps(lastmove):
            canvas.arrow(*_spot(src, 1 - state.player), *_spot(dst, 1 - state.player), 4)
    for action in arrows:
        for src, dst in _steps(action):
            canvas.arrow(*_spot(src, state.player), *_spot(dst, state.player), 4)
    who = "XO"[state.player]
    dice = "to roll" if state.dice is None else f"to play {state.dice[0]}-{state.dice[1]}"
    canvas.add("text", f"{who} {dice}   pips X {pips(state, 0)}  O {pips(state, 1)}   "
               f"off X {state.off[0]}  O {state.off[1]}", class_="caption", x=LEFT,
               y=bottom + 32, font_size=12, fill="#333")
    return canvas.svg()


def _routes(game: Any, state: BackgammonState) -> list[dict]:
    """Every way to play the dice one checker step at a time, as a graph the page walks:
    node 0 is the position before the play; a node's ``next`` holds ``[from, to, node]``
    steps (the mover's numbering: 25 the bar, 0 borne off) that can still end in a legal
    play, and a node where the play is complete names it (``move``: the legal play's
    text). Steps in any order and by any route reach the same text (24/20 20/14 is 24/18
    18/14 where the two give one position)."""
    from gamesearch.games.backgammon import move_checker, relative, step_target

    plays = game.plays(state)
    legal = {position: game.action_to_string(state, play) for play, position in plays}
    length = len(plays[0][0]) if plays else 0
    my, opp, _ = relative(state)
    dice = tuple(sorted(state.dice * 2 if state.dice[0] == state.dice[1] else state.dice))
    nodes: list[dict] = []
    memo: dict[tuple, int | None] = {}

    def visit(left: tuple[int, ...], depth: int) -> int | None:
        key = (tuple(my), tuple(opp), left)
        if key in memo:
            return memo[key]
        if depth == length:
            move = legal.get((tuple(my), tuple(opp)))
            found = None
            if move is not None:
                found = len(nodes)
                nodes.append({"next": [], "move": move})
            memo[key] = found
            return found
        index = len(nodes)
        nodes.append({"next": [], "move": None})
        for die in sorted(set(left)):
            rest = list(left)
            rest.remove(die)
            sources = [BAR] if my[BAR] else [p for p in range(24, 0, -1) if my[p]]
            for src in sources:
                dst = step_target(my, opp, src, die)
                if dst < 0:
                    continue
                hit = move_checker(my, opp, src, dst)
                child = visit(tuple(rest), depth + 1)
                my[src] += 1
                my[dst] -= 1
                if hit:
                    opp[dst] = 1
                if child is not None and not any(s[:2] == [src, dst]
                                                 for s in nodes[index]["next"]):
                    nodes[index]["next"].append([src, dst, child])
        found = index if nodes[index]["next"] else None
        memo[key] = found
        return found

    if length == 0:
        return [{"next": [], "move": legal[next(iter(legal))] if legal else "pass"}]
    visit(dice, 0)
    return nodes


def board(game: Any, state: BackgammonState) -> dict:
    """The position for the web page's backgammon board: ``points`` (24 counts from X's
    point 1, positive X's checkers, negative O's), the bar and borne-off checkers per
    player, the dice, the pip counts, and while a player is to move the ``routes`` its
    checkers can take (see :func:`_routes`)."""
    view: dict[str, Any] = {
        "style": "backgammon", "points": list(state.points), "bar": list(state.bar),
        "off": list(state.off), "player": state.player,
        "dice": list(state.dice) if state.dice is not None else None,
        "pips": [pips(state, 0), pips(state, 1)], "sides": ["X", "O"],
    }
    if state.dice is not None and not game.is_terminal(state):
        view["routes"] = _routes(game, state)
    return view
