"""Take-away's ENTRY: the N-player stick game, played by max^n."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.spec import Range


def _takeaway(players: int = 3, sticks: int = 10, max_take: int = 3, per_stick: float = 1,
              bonus: float = 5) -> Any:
    from gamesearch.games.takeaway import TakeAway

    return TakeAway(players, sticks, max_take, per_stick, bonus)


SHOWN = 60
"""The most sticks drawn one by one; more are counted in words."""


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The sticks left in rows of 20 (class ``piece``), the ones the last move took faded
    after them (class ``taken``), an arrow's move marking the sticks it would take (class
    ``piece marked``); each player's points below, the mover's in bold."""
    from gamesearch.drawing import Canvas

    left, mover, scores = state
    took = int(lastmove) if lastmove is not None else 0
    marked = max((int(a) for a in arrows), default=0)
    drawn = min(left + took, SHOWN)
    rows = max(1, -(-drawn // 20))
    w = 12
    canvas = Canvas(24 + w * min(max(drawn, 1), 20), 50 + 34 * rows + 16 * len(scores),
                    f"Take-away, {game.num_players} players")
    for j in range(drawn):
        cls = "taken" if j >= left else "piece marked" if j >= left - marked else "piece"
        x, y = 12 + w * (j % 20), 12 + 34 * (j // 20)
        canvas.add("rect", class_=cls, x=x + 2, y=y, width=w - 4, height=28, rx=2,
                   fill="#e9d8a6" if cls == "taken" else "#0a9396" if "marked" in cls
                   else "#94581c", opacity=0.35 if cls == "taken" else None)
    y = 30 + 34 * rows
    more = left - min(left, SHOWN)
    canvas.add("text", f"{left} left" + (f" ({more} not drawn)" if more else ""),
               class_="count", x=12, y=y, font_size=12)
    for p, points in enumerate(scores):
        canvas.add("text", f"P{p + 1}: {points:g}", class_="to-move" if p == mover
                   else "player", x=12, y=y + 16 * (p + 1), font_size=11,
                   font_weight="bold" if p == mover else None)
    return canvas.svg()


ENTRY = GameEntry("takeaway", "N-player take-away: sticks score, the last one a bonus",
                  _takeaway, ranges={"players": Range(2, 8), "sticks": Range(1, 10_000),
                                     "max_take": Range(1, 1000)},
                  defaults=("maxn",), svg=_svg, title="Take-away")
