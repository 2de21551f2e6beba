"""Leduc hold'em's ENTRY: solved by CFR+."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.imperfect.solve import CFR_OPTIONS, solve_poker


def _leduc_poker() -> Any:
    from gamesearch.games.leduc_poker import LeducPoker

    return LeducPoker()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options, iterations=3_000)


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    from gamesearch.games.leduc_poker import card_name

    cards, round1, round2 = state
    own = card_name(cards[viewer]) if len(cards) > viewer else "-"
    public = card_name(cards[2]) if len(cards) == 3 else "-"
    return (f"your card {own}  public {public}  round 1 {round1 or '-'}  "
            f"round 2 {round2 or '-'}")


def _round_words(actions: str, start: list[int], size: int) -> tuple[list[str], bool]:
    """One betting round in words, and whether its last action left a bet to answer
    (``start``: each player's chips so far, updated in place)."""
    words, raised = [], False
    for i, action in enumerate(actions):
        player, behind = i % 2, start[i % 2] < max(start)
        if action == "f":
            words.append("fold")
        elif action == "c":
            words.append("call" if behind else "check")
            start[player] = max(start)
        else:
            words.append("raise" if raised else "bet")
            start[player] = max(start) + size
            raised = True
    return words, start[0] != start[1]


def _board(game: Any, state: Any, viewer: int | None = None) -> dict:
    """The table for the web page's card view: each private card (None: not this viewer's
    to see, drawn face down), the public card once dealt, the chips each put in, the pot,
    both rounds' betting in words and what each move means now (``f`` fold, ``c`` check
    or call, ``r`` bet or raise)."""
    from gamesearch.games.leduc_poker import RAISE_SIZES, card_name

    cards, round1, round2 = state
    over = game.is_terminal(state)
    put = [1, 1]
    first, facing = _round_words(round1, put, RAISE_SIZES[0])
    log = [{"player": i % 2, "word": w, "round": 1} for i, w in enumerate(first)]
    if len(cards) == 3:
        second, facing = _round_words(round2, put, RAISE_SIZES[1])
        log += [{"player": i % 2, "word": w, "round": 2} for i, w in enumerate(second)]
        raised = "r" in round2
    else:
        raised = "r" in round1
    hands = [[card_name(cards[p]) if viewer in (None, p) or over else None]
             if len(cards) > p else [] for p in range(2)]
    labels = {"f": "fold", "c": "call" if facing else "check",
              "r": "raise" if raised else "bet"}
    return {"style": "cards", "hands": hands,
            "public": [card_name(cards[2])] if len(cards) == 3 else [], "stakes": put,
            "pot": sum(put), "log": log, "labels": labels}


def _hidden_board(game: Any, state: Any, viewer: int) -> dict:
    return _board(game, state, viewer)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The table as a picture (drawing.cards_picture, from the web page's board data): the
    deck's pair of suits fanned before the deal, then the private and public cards, the
    chips, both rounds' betting and what each move means now; an arrow's card to deal or
    move is marked."""
    from gamesearch.drawing import cards_picture
    from gamesearch.game import CHANCE
    from gamesearch.games.leduc_poker import card_name

    cards = state[0]
    view = _board(game, state)
    mover = game.to_move(state) if not game.is_terminal(state) else None
    dealing = mover == CHANCE
    names = [card_name(c) for c in range(6)]
    return cards_picture(
        view, fans=[[n for n in names if n.endswith(s)] for s in "sh"], players=["P1", "P2"],
        deck=[n for c, n in enumerate(names) if c not in cards] if dealing else [],
        to_move=None if dealing else mover,
        moves=None if mover is None or dealing
        else {a: view["labels"][a] for a in game.actions(state)},
        arrows=[card_name(a) if dealing else a for a in arrows], title="Leduc hold'em")


ENTRY = GameEntry("leduc_poker", "Leduc hold'em: 6 cards, public card (CFR solver)",
                  _leduc_poker, solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), hidden_text=_hidden_text,
                  board=_board, hidden_board=_hidden_board, svg=_svg)
