"""What the page is shown of a position: players, legal moves, the outcome, and board data
for the game's renderer (one small function per game; any other game gets the generic
view: its text picture and its legal moves as buttons)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import (
    CHANCE,
    final_utilities,
    outcome_text,
    sample_action,
)
from gamesearch.web import square_boards

MAX_LEGAL_SHOWN = 400
MAX_CHANCE_STEPS = 100


def _tictactoe(game: Any, state: Any) -> dict:
    x, o = state
    return {"cells": ["X" if x >> i & 1 else "O" if o >> i & 1 else "" for i in range(9)]}


def _connect4(game: Any, state: Any) -> dict:
    return {"grid": game.grid(state), "width": game.width, "height": game.height}


def _nim(game: Any, state: Any) -> dict:
    return {"piles": list(state[0]), "misere": game.misere}


BOARDS: dict[str, Callable[[Any, Any], dict]] = {
    "tictactoe": _tictactoe,
    "connect4": _connect4,
    "nim": _nim,
    "othello": square_boards.othello,
    "go": square_boards.go,
    "chess": square_boards.chess,
    "checkers": square_boards.checkers,
}
"""Board data by the game class's ``name``; the page has a renderer of the same name."""


def _kuhn_text(game: Any, state: Any, viewer: int) -> str:
    info = game.information_set(state, viewer)
    return f"your card {info[:1] or '-'}  betting {info[1:] or '-'}"


def _leduc_text(game: Any, state: Any, viewer: int) -> str:
    from gamesearch.games.leduc_poker import card_name

    cards, round1, round2 = state
    own = card_name(cards[viewer]) if len(cards) > viewer else "-"
    public = card_name(cards[2]) if len(cards) == 3 else "-"
    return (f"your card {own}  public {public}  round 1 {round1 or '-'}  "
            f"round 2 {round2 or '-'}")


def _whist_text(game: Any, state: Any, viewer: int) -> str:
    hands, _, _, tricks = state
    hand = " ".join(game.card_name(c) for c in hands[viewer]) or "-"
    trick = " ".join(f"{p + 1}:{game.card_name(c)}" for p, c in game.current_trick(state))
    return (f"your hand (player {viewer + 1}): {hand}\n"
            f"trick: {trick or '-'}   tricks: {tricks[0]} - {tricks[1]}")


def _fusion_text(game: Any, state: Any, viewer: int) -> str:
    return f"the coin is hidden  your choices: {game.information_set(state, viewer) or '-'}"


HIDDEN_TEXTS: dict[str, Callable[[Any, Any, int], str]] = {
    "kuhn_poker": _kuhn_text,
    "leduc_poker": _leduc_text,
    "whist": _whist_text,
    "strategy_fusion": _fusion_text,
}
"""The board text of one viewer's information set, by game name (see web/hidden.py)."""


def hidden_text(game: Any, state: Any, viewer: int) -> str:
    """What ``viewer`` sees of the position, in words (never another player's cards)."""
    text = HIDDEN_TEXTS.get(game.name)
    if text is not None:
        return text(game, state, viewer)
    return f"you see: {game.information_set(state, viewer)}"


def roll_chance(game: Any, state: Any, moves: list[str],
                rng: random.Random | None = None) -> tuple[Any, list[str]]:
    """At chance nodes, draw the outcome (by its probability) and record it as a move, until
    a player is to move or the game ends: the move list stays the whole story."""
    rng = rng or random.Random()
    moves = list(moves)
    for _ in range(MAX_CHANCE_STEPS):
        if game.is_terminal(state) or game.to_move(state) != CHANCE:
            return state, moves
        action = sample_action(game, state, rng)
        moves.append(game.action_to_string(state, action))
        state = game.result(state, action)
    raise GameSearchError(f"more than {MAX_CHANCE_STEPS} chance outcomes in a row")


def outcome(game: Any, state: Any, repeated: bool = False) -> str:
    """The result of a finished game in words (the core's text, as the command line's);
    ``repeated``: drawn by repetition."""
    if repeated:
        return "draw by repetition (the same position a third time)"
    return outcome_text(game, game.utilities(state))


def position_view(spec: str, game: Any, moves: list[str], state: Any,
                  repeated: bool = False) -> dict:
    """Everything the page needs to draw the position and offer the moves; ``repeated``:
    the moves ended the game by repetition (``game.replay_game`` says)."""
    repeated = repeated and not game.is_terminal(state)
    terminal = game.is_terminal(state) or repeated
    view: dict[str, Any] = {
        "game": spec, "kind": game.name, "moves": moves, "terminal": terminal,
        "players": [game.player_name(p) for p in range(game.num_players)],
        "text": game.render(state),
    }
    board = BOARDS.get(game.name)
    view["board"] = board(game, state) if board else None
    if repeated and view["board"]:  # the rules' state goes on; the game does not
        view["board"].update({k: type(view["board"][k])() for k in ("moves", "other_moves")
                              if k in view["board"]})
    if terminal:
        view["utilities"] = list(final_utilities(game, state))
        view["outcome"] = outcome(game, state, repeated)
        view["to_move"] = None
        view["legal"] = []
    else:
        mover = game.to_move(state)
        view["to_move"] = mover
        view["legal"] = [game.action_to_string(state, a)
                         for a in list(game.actions(state))[:MAX_LEGAL_SHOWN]]
    return view


def first_move(game: Any, state: Any) -> Any:
    """A legal move without search: the first in the game's preferred order."""
    actions = list(game.actions(state))
    order = getattr(game, "order_actions", None)
    if order is not None:
        actions = list(order(state, actions))
    return actions[0]
