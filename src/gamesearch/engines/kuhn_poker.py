"""Kuhn poker's ENTRY: solved by CFR+ (its value, -1/18, is Kuhn's 1950 result)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamesearch.entry import GameEntry, WarmupStep
from gamesearch.imperfect.solve import CFR_OPTIONS, cfr_warmup, solve_poker


def _kuhn_poker() -> Any:
    from gamesearch.games.kuhn_poker import KuhnPoker

    return KuhnPoker()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options, iterations=10_000, known_value=Fraction(-1, 18))


def _warmups(game: Any) -> list[WarmupStep]:
    return [("CFR + best response", lambda: cfr_warmup(game))]


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    info = game.information_set(state, viewer)
    return f"your card {info[:1] or '-'}  betting {info[1:] or '-'}"


def _words(history: str) -> tuple[list[str], dict[str, str], list[int]]:
    """The betting in words (one per action), what ``p`` and ``b`` mean now, and the chips
    each player has put in (the ante of 1 included)."""
    words, put, facing = [], [1, 1], False
    for i, action in enumerate(history):
        if action == "b":
            put[i % 2] += 1
            words.append("call" if facing else "bet")
            facing = True
        else:
            words.append("fold" if facing else "check")
    labels = {"p": "fold", "b": "call"} if facing else {"p": "check", "b": "bet"}
    return words, labels, put


def _board(game: Any, state: Any, viewer: int | None = None) -> dict:
    """The table for the web page's card view: each hand (None: a card this viewer may not
    see, drawn face down), the chips each put in, the pot, the betting in words and what
    each move means now (``p``: check or fold, ``b``: bet or call)."""
    from gamesearch.games.kuhn_poker import CARD_NAMES

    cards, history = state
    words, labels, put = _words(history)
    over = game.is_terminal(state)
    hands = [[CARD_NAMES[cards[p]] if len(cards) > p and (viewer in (None, p) or over)
              else None] if len(cards) > p else [] for p in range(2)]
    return {"style": "cards", "hands": hands, "public": [], "stakes": put, "pot": sum(put),
            "log": [{"player": i % 2, "word": w} for i, w in enumerate(words)],
            "labels": labels}


def _hidden_board(game: Any, state: Any, viewer: int) -> dict:
    return _board(game, state, viewer)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The table as a picture (drawing.cards_picture, from the web page's board data): the
    deck of three fanned before the deal, then both cards, the chips, the betting and what
    each move means now; an arrow's card to deal or move is marked."""
    from gamesearch.drawing import cards_picture
    from gamesearch.game import CHANCE
    from gamesearch.games.kuhn_poker import CARD_NAMES

    cards, _ = state
    view = _board(game, state)
    mover = game.to_move(state) if not game.is_terminal(state) else None
    dealing = mover == CHANCE
    return cards_picture(
        view, fans=[list(CARD_NAMES)], players=["P1", "P2"],
        deck=[CARD_NAMES[c] for c in range(3) if c not in cards] if dealing else [],
        to_move=None if dealing else mover,
        moves=None if mover is None or dealing
        else {a: view["labels"][a] for a in game.actions(state)},
        arrows=[CARD_NAMES[a] if dealing else a for a in arrows], title="Kuhn poker")


ENTRY = GameEntry("kuhn_poker", "Kuhn poker: 3 cards, value -1/18 (CFR solver)", _kuhn_poker,
                  solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), warmups=_warmups,
                  hidden_text=_hidden_text, board=_board,
                  hidden_board=_hidden_board, svg=_svg)
