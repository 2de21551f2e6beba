"""Nim's ENTRIES: Nim with any piles, and the lectures' II-Nim (piles 2 and 2, misère)."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.spec import Range


def _nim(piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> Any:
    from gamesearch.games.nim import Nim

    return Nim(piles=piles, misere=misere)


def _ii_nim() -> Any:
    from gamesearch.games.nim import Nim

    return Nim(piles=(2, 2), misere=True)


def _board(game: Any, state: Any) -> dict:
    return {"piles": list(state[0]), "misere": game.misere}


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """Each pile a column of sticks (class ``piece``), its size under it; the sticks the
    last move took are drawn faded above the pile (class ``taken``), and an arrow's move
    marks the sticks it would take."""
    from gamesearch.drawing import Canvas

    piles = list(state[0])

    def parse(action: Any) -> tuple[int, int]:
        if isinstance(action, str):  # its text names the pile and the count, in any state
            pile, k = action.replace(":", " ").split()[:2]
            return int(pile) - 1, int(k)
        return action

    taken = dict([parse(lastmove)]) if lastmove is not None else {}
    marked: dict[int, int] = {}
    for action in arrows:
        i, k = parse(action)
        marked[i] = max(marked.get(i, 0), k)
    tallest = max(p + taken.get(i, 0) for i, p in enumerate(piles)) if piles else 0
    w, h = 46, 14
    canvas = Canvas(20 + w * len(piles), 56 + h * max(tallest, 1),
                    "Nim (misère)" if game.misere else "Nim")
    base = canvas.height - 30
    for i, n in enumerate(piles):
        x = 10 + w * i + w / 2
        for j in range(n + taken.get(i, 0)):
            cls = "taken" if j >= n else "piece marked" if j >= n - marked.get(i, 0) else "piece"
            canvas.add("rect", class_=cls, x=x - 14, y=base - (j + 1) * h + 2, width=28,
                       height=h - 4, rx=3, fill="#e9d8a6" if cls == "taken" else "#0a9396"
                       if cls == "piece marked" else "#94581c",
                       opacity=0.35 if cls == "taken" else None)
        canvas.add("text", f"{n}", class_="count", x=x, y=base + 14, font_size=12,
                   text_anchor="middle")
        canvas.add("text", f"pile {i + 1}", class_="coord", x=x, y=base + 26, font_size=9,
                   text_anchor="middle", fill="#777")
    return canvas.svg()


ENTRIES = (
    GameEntry("nim", "Nim with any piles; normal or misère play", _nim,
              ranges={"piles": Range(0, 1000)}, defaults=("alphabeta",),  # nim.MAX_PILE
              board=_board, svg=_svg, title="Nim"),
    GameEntry("ii-nim", "The lectures' II-Nim: piles 2 and 2, last stick loses", _ii_nim,
              defaults=("alphabeta",), board=_board, svg=_svg, title="II-Nim"),
)
