"""Hidden information on the web: each viewer is sent only its own information set.

In Kuhn, Leduc, whist and strategy_fusion the chance outcomes are cards (or a coin) that
some players may not see. The page must never receive them, so the server keeps them: the
first time it draws a hidden outcome for a game it opens a *deal* (a random token) holding
the whole move list, and the page gets the move list with every outcome its viewer cannot
see written ``?``, the board text of the viewer's information set, and the token. The page
sends the masked list and the token back; the server puts the hidden outcomes back in.
At the end of the game everything is shown.

A deal belongs to the viewer it was dealt to: asking for it as another viewer is refused
(otherwise anyone could read the cards by changing the ``viewer`` field), and a hidden
outcome must come back as ``?`` (a guess would be an oracle: "right" or "refused").
Once a hand is over its viewer has seen every card: the deal is then *shown*, and the true
cards may come back in place of ``?`` (Undo, or stepping back through the hand) and are
shown again at every earlier position of it.
A request with no viewer (every seat played by the AI) is a spectator: it sees everything.
"""

from __future__ import annotations

import collections
import secrets
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.web.views import hidden_board, hidden_text

HIDDEN = "?"
MAX_DEALS = 5_000
"""Deals remembered at once (least recently used ones go first): a deal is one game's move
list (at most 104 moves, whist with 52 cards), so this bounds them to tens of megabytes."""


class Deal:
    """One game's true move list, dealt to one viewer."""

    __slots__ = ("game", "moves", "shown", "viewer")

    def __init__(self, game: str, viewer: int, moves: list[str], shown: bool = False) -> None:
        self.game, self.viewer, self.moves = game, viewer, list(moves)
        self.shown = shown
        """The hand was played to its end before this viewer: every card was shown."""


def deals(app: Any) -> collections.OrderedDict:
    """The app's deals by token (made on first use)."""
    store = getattr(app.state, "deals", None)
    if store is None:
        store = app.state.deals = collections.OrderedDict()
    return store


def is_hidden_game(game: Any) -> bool:
    """Whether players see only information sets."""
    return hasattr(game, "information_set") and hasattr(game, "sample_state")


def outcome_hidden(game: Any, state: Any, action: Any, viewer: int) -> bool:
    """Whether the viewer cannot tell this chance outcome from the others: its information
    set after the outcome is the same whichever outcome it was."""
    seen = game.information_set(game.result(state, action), viewer)
    return all(game.information_set(game.result(state, other), viewer) == seen
               for other in game.actions(state) if other != action)


def hidden_indices(game: Any, moves: list[str], viewer: int) -> set[int]:
    """The positions in the move list of the outcomes the viewer cannot see."""
    hidden: set[int] = set()
    state = game.initial_state()
    for i, text in enumerate(moves):
        action = game.string_to_action(state, text)
        if game.to_move(state) == CHANCE and outcome_hidden(game, state, action, viewer):
            hidden.add(i)
        state = game.result(state, action)
    return hidden


def check_viewer(game: Any, viewer: int | None) -> None:
    """A viewer is a seat of the game (or none: a spectator)."""
    if viewer is not None and not 0 <= viewer < game.num_players:
        raise GameSearchError(f"viewer {viewer} is not a seat of {game.name} "
                              f"(0 to {game.num_players - 1})")


def unmask(app: Any, game: Any, spec: str, moves: list[str], deal: str | None,
           viewer: int | None) -> list[str]:
    """The true move list of a request: its ``?`` entries filled in from its deal."""
    check_viewer(game, viewer)
    if deal is None:
        if HIDDEN in moves:
            raise GameSearchError("hidden moves (?) need the deal they came with")
        return list(moves)
    record = deals(app).get(deal)
    if record is None:
        raise GameSearchError("this deal is unknown or expired: start a new game")
    if record.viewer != viewer or record.game != spec:
        raise GameSearchError("this deal belongs to another viewer or game: start a new game")
    deals(app).move_to_end(deal)
    hidden = hidden_indices(game, record.moves, viewer)
    full = []
    for i, text in enumerate(moves):
        if i < len(record.moves) and text == HIDDEN and i in hidden:
            full.append(record.moves[i])
        elif record.shown and i in hidden and i < len(record.moves) \
                and text == record.moves[i]:
            full.append(text)  # seen at the end of the hand: no secret any more
        elif text == HIDDEN:
            raise GameSearchError(f"move {i + 1}: '?' is not a hidden outcome of this deal")
        elif i in hidden:
            raise GameSearchError(f"move {i + 1}: a hidden outcome must be sent as '?'")
        else:
            full.append(text)
    return full


def present(app: Any, game: Any, spec: str, view: dict, state: Any, deal: str | None,
            viewer: int | None, store: bool = True) -> dict:
    """The position view as the viewer may see it (``view`` is the full one, whose
    ``moves`` are the true moves); opens or updates the deal when something is hidden
    (unless ``store`` is false: looking back at an earlier position keeps the deal)."""
    record = deals(app).get(deal) if deal is not None else None
    if view["terminal"] and record is not None and store \
            and view["moves"][:len(record.moves)] == record.moves:
        record.moves, record.shown = list(view["moves"]), True  # every card was shown
    if viewer is None or not is_hidden_game(game) or view["terminal"] or (
            record is not None and record.shown
            and record.moves[:len(view["moves"])] == view["moves"]):
        return {**view, "deal": deal} if deal else view
    moves = view["moves"]
    hidden = hidden_indices(game, moves, viewer)
    if not hidden:
        return {**view, "deal": deal} if deal else view
    if store:
        deal = remember(app, spec, viewer, moves, deal)
    masked = [HIDDEN if i in hidden else m for i, m in enumerate(moves)]
    mine = view["to_move"] == viewer
    return {**view, "moves": masked, "deal": deal, "viewer": viewer,
            "text": hidden_text(game, state, viewer),
            "board": hidden_board(game, state, viewer),
            "legal": view["legal"] if mine else []}


def remember(app: Any, spec: str, viewer: int, moves: list[str], deal: str | None) -> str:
    """Keep the true moves under the deal's token (a new token for a new deal)."""
    store = deals(app)
    record = store.get(deal) if deal is not None else None
    if record is None:
        deal = secrets.token_urlsafe(16)
    if record is None or record.moves[:len(moves)] != moves:  # a prefix: the game goes on
        store[deal] = Deal(spec, viewer, moves, record is not None and record.shown)
    store.move_to_end(deal)
    while len(store) > MAX_DEALS:
        store.popitem(last=False)
    return deal


def redact_search(data: dict) -> dict:
    """What the page sees of an AI's thinking in a hidden-information game: that it
    thinks, and the move it plays; not its values or lines, which tell of its cards."""
    keep = {k: v for k, v in data.items() if k in ("search", "budget", "move", "source",
                                                   "latency", "position", "note")}
    if "move" in data:
        keep["pv"] = [data["move"]]
    return keep
