"""Whist's ENTRY: a small-deck trick-taking game, played by determinization (PIMC) over
the double-dummy solver; ``gamesearch solve whist`` is that solver on the visible deal."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry


def _whist(suits: int = 4, ranks: int = 3) -> Any:
    from gamesearch.games.whist import Whist

    return Whist(suits=suits, ranks=ranks)


def _solver(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.games.whist_double_dummy import double_dummy_report

    return double_dummy_report(game, state)


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    hands, _, _, tricks = state
    hand = " ".join(game.card_name(c) for c in hands[viewer]) or "-"
    trick = " ".join(f"{p + 1}:{game.card_name(c)}" for p, c in game.current_trick(state))
    return (f"your hand (player {viewer + 1}): {hand}\n"
            f"trick: {trick or '-'}   tricks: {tricks[0]} - {tricks[1]}")


SEATS = ("south", "west", "north", "east")
"""Where players 1-4 sit in the picture, clockwise from the bottom (partners face)."""


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The table as a picture: before the deal a trick of four cards (each suit's top card)
    in the middle; then each hand at its seat (classes ``card face``), the trick being played
    before its players (the last card played, ``lastmove``, tinted), the tricks each side
    won (class ``count``), the player to move in bold; an arrow's card (a card to play, or
    to deal) is marked."""
    from gamesearch.drawing import CARD_H, CARD_W, FELT, Canvas, playing_card
    from gamesearch.game import CHANCE

    hands, _, _, tricks = state
    marked = set(arrows)
    name = game.card_name
    if not any(hands):
        top = [s * game.ranks + game.ranks - 1 for s in range(game.suits)][:4]
        shown = [next((a for a in marked if game.suit(a) == game.suit(c)), c) for c in top]
        canvas = Canvas(160, 160, "Whist")
        canvas.add("rect", class_="felt", x=0, y=0, width=160, height=160, rx=10, fill=FELT)
        _trick(canvas, [(p, c) for p, c in enumerate(shown)], 80, 80, name, marked, 1.1)
        return canvas.svg()
    size, scale = 250, 0.75
    w, h = CARD_W * scale, CARD_H * scale
    canvas = Canvas(size, size, "Whist")
    canvas.add("rect", class_="felt", x=0, y=0, width=size, height=size, rx=10, fill=FELT)
    mover = game.to_move(state) if not game.is_terminal(state) else None
    for p, hand in enumerate(hands):
        seat, step = SEATS[p], 13 * scale * 1.3
        long = (len(hand) - 1) * step + (w if seat in ("south", "north") else h)
        for k, card in enumerate(hand):
            x = {"south": (size - long) / 2 + k * step, "north": (size - long) / 2 + k * step,
                 "west": 8, "east": size - w - 8}[seat]
            y = {"south": size - h - 8, "north": 22, "west": (size - long) / 2 + k * step,
                 "east": (size - long) / 2 + k * step}[seat]
            playing_card(canvas, x, y, name(card), marked=card in marked and p == mover,
                         scale=scale)
        lx, ly = {"south": (size / 2, size - h - 14), "north": (size / 2, 16),
                  "west": (8 + w / 2, (size - long) / 2 - 6),
                  "east": (size - 8 - w / 2, (size - long) / 2 - 6)}[seat]
        canvas.add("text", f"P{p + 1}", class_="to-move" if p == mover else "player", x=lx,
                   y=ly, font_size=11, text_anchor="middle",
                   fill="#ffd166" if p == mover else "#fff",
                   font_weight="bold" if p == mover else None)
    if mover == CHANCE:  # the next cards to deal, marked where an arrow names them
        _trick(canvas, [], size / 2, size / 2, name, marked, scale)
        for k, card in enumerate(sorted(marked)[:4]):
            playing_card(canvas, size / 2 - w / 2 + k * 8, size / 2 - h / 2, name(card),
                         marked=True, scale=scale)
    else:
        _trick(canvas, game.current_trick(state), size / 2, size / 2, name, marked, scale,
               lastmove)
    for side, line in enumerate((f"P1+P3 {tricks[0]}", f"P2+P4 {tricks[1]}")):
        canvas.add("text", line, class_="count", x=8, y=size - 20 + 12 * side, font_size=9,
                   fill="#e9f5db")
    return canvas.svg()


def _trick(canvas: Any, plays: Any, cx: float, cy: float, name: Any, marked: set,
           scale: float, lastmove: Any = None) -> None:
    """The cards of a trick in the middle, each before its player's seat (the last one
    played, ``lastmove``, tinted)."""
    from gamesearch.drawing import CARD_H, CARD_W, playing_card

    w, h = CARD_W * scale, CARD_H * scale
    spot = {"south": (cx - w / 2, cy + h * 0.12), "north": (cx - w / 2, cy - h * 1.12),
            "west": (cx - w * 1.5, cy - h / 2), "east": (cx + w * 0.5, cy - h / 2)}
    for player, card in plays:
        x, y = spot[SEATS[player % 4]]
        playing_card(canvas, x, y, name(card), marked=card in marked, last=card == lastmove,
                     scale=scale)


ENTRY = GameEntry("whist", "Whist on a small deck: 4 hands, follow suit (suits=4,ranks=3)",
                  _whist, solver=_solver, defaults=("pimc",), hidden_text=_hidden_text,
                  svg=_svg, title="Whist")
