"""The strategy-fusion game's ENTRY: the lectures' example of PIMC's blind spot."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.imperfect.solve import CFR_OPTIONS, solve_poker


def _strategy_fusion() -> Any:
    from gamesearch.games.strategy_fusion import StrategyFusion

    return StrategyFusion()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options)


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    return f"the coin is hidden  your choices: {game.information_set(state, viewer) or '-'}"


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The hidden coin (class ``coin``: ``?`` before the toss, else its face) beside the
    two choices, 3 chips for sure or 4 for a right guess (class ``choice``, with the choice
    made or an arrow's choice marked), and the guess once named."""
    from gamesearch.drawing import ARROW, FELT, Canvas

    marked = set(arrows)
    canvas = Canvas(160, 120, "Strategy fusion")
    canvas.add("rect", class_="felt", x=0, y=0, width=160, height=120, rx=10, fill=FELT)
    tossed = state[0][0].upper() if state else "?"
    toss = not state and bool(marked)
    canvas.add("circle", class_="coin marked" if toss else "coin", cx=36, cy=48, r=24,
               fill="#e9c46a", stroke=ARROW if toss else "#8a6d1d",
               stroke_width=3 if toss else 2)
    canvas.add("text", tossed, x=36, y=57, font_size=24, text_anchor="middle",
               font_weight="bold", fill="#5c4410")
    choosing = len(state) == 1
    for i, (choice, chips) in enumerate((("take", 3), ("gamble", 4))):
        y = 30 + 44 * i
        chosen = state[1:2] == (choice,) or (choosing and choice in marked)
        canvas.add("rect", class_="choice marked" if chosen else "choice", x=70, y=y - 20,
                   width=84, height=34, rx=6, fill="#1b4332",
                   stroke="#ffd166" if chosen else "#95d5b2", stroke_width=3 if chosen else 1)
        for k in range(chips):
            canvas.add("ellipse", class_="chip", cx=86, cy=y + 6 - 4 * k, rx=10, ry=4,
                       fill="#d62828" if choice == "take" else "#f77f00", stroke="#fff",
                       stroke_width=0.8)
        canvas.add("text", f"{choice} {chips}", x=100, y=y + 2, font_size=11, fill="#fff")
    guess = state[2] if len(state) == 3 else next(iter(marked), None) if len(state) == 2 \
        else None
    if guess:
        canvas.add("text", f"guess {guess}", class_="guess marked" if len(state) == 2
                   else "guess", x=8, y=100, font_size=11, fill="#ffd166")
    return canvas.svg()


ENTRY = GameEntry("strategy_fusion", "Take 3, or guess a hidden coin for 4: PIMC's blind spot",
                  _strategy_fusion, solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), hidden_text=_hidden_text,
                  svg=_svg, title="Strategy fusion")
