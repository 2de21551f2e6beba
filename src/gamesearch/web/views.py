"""What the page is shown of a position: players, legal moves, the outcome, and board data
for the game's renderer (one small function per game; any other game gets the generic
view: its text picture and its legal moves as buttons)."""

from __future__ import annotations

import random
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import (
    CHANCE,
    final_utilities,
    outcome_text,
    sample_action,
)

MAX_LEGAL_SHOWN = 400
MAX_CHANCE_STEPS = 100


def _entry(game: Any) -> Any:
    """The entry of the game (by its rules' name), or None for an unregistered game."""
    from gamesearch.games import REGISTRY, entries

    entries()  # the catalog loaded
    return REGISTRY.get(getattr(game, "name", None))


def hidden_text(game: Any, state: Any, viewer: int) -> str:
    """What ``viewer`` sees of the position, in words (never another player's cards): the
    game entry's own words, else its information set."""
    entry = _entry(game)
    if entry is not None and entry.hidden_text is not None:
        return entry.hidden_text(game, state, viewer)
    return f"you see: {game.information_set(state, viewer)}"


def hidden_board(game: Any, state: Any, viewer: int) -> dict | None:
    """The board data as ``viewer`` sees it (the entry's ``hidden_board``; None without
    one: the page shows the words of :func:`hidden_text`)."""
    entry = _entry(game)
    if entry is not None and entry.hidden_board is not None:
        return entry.hidden_board(game, state, viewer)
    return None


def chance_rng(seed: int | None, moves: list[str]) -> random.Random | None:
    """The generator for the chance outcomes after ``moves`` under a request's ``seed``: one
    stream per ply, so a game replays its dice and deals wherever it is taken up again (a
    reload, a step back, a tester's second run); None without a seed (a fresh draw)."""
    if seed is None:
        return None
    return random.Random(f"gamesearch-chance {seed} {len(moves)}")


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
    """The result of a finished game in words (the core's text, as the command line's),
    with the reason and margin where the game's entry gives them ("White wins by
    checkmate", "White wins (W+3.5 ...)"); ``repeated``: drawn by repetition."""
    if repeated:
        return "draw by threefold repetition (the same position a third time)"
    words = outcome_text(game, game.utilities(state))
    entry = _entry(game)
    reason = entry.ending(game, state) if entry is not None and entry.ending else None
    return f"{words} {reason}" if reason else words


def move_notation(game: Any, moves: list[str]) -> tuple[list[str] | None, bool]:
    """The moves as people write them (the entry's ``notation``, chess's SAN; None: the
    moves' own texts) and whether they alternate between two players from the start (the
    move list then numbers them in pairs, "1. e4 e5"). Not for hidden-information games:
    the caller asks only where every move is shown."""
    entry = _entry(game)
    write = entry.notation if entry is not None else None
    state, names = game.initial_state(), []
    paired = game.num_players == 2
    try:
        for number, text in enumerate(moves):
            mover = game.to_move(state)
            if mover == CHANCE or game.is_terminal(state):
                paired = False
                if write is None:
                    break
            elif number == 0:
                paired = paired and mover in (0, 1)
            action = game.string_to_action(state, text)
            if write is not None:
                names.append(write(game, state, action))
            state = game.result(state, action)
    except (GameSearchError, ValueError):
        return None, False
    return (names if write is not None else None), paired


def resigned_utilities(game: Any, seat: int) -> list[float]:
    """The utilities of a game that ``seat`` resigned: it loses, every other seat wins."""
    return [-1.0 if p == seat else 1.0 for p in range(game.num_players)]


def position_view(spec: str, game: Any, moves: list[str], state: Any,
                  repeated: bool = False, resigned: int | None = None) -> dict:
    """Everything the page needs to draw the position and offer the moves; ``repeated``:
    the moves ended the game by repetition (``game.replay_game`` says); ``resigned``: the
    seat that resigned there (refused once the game is over, or for a seat of none)."""
    repeated = repeated and not game.is_terminal(state)
    if resigned is not None:
        if game.is_terminal(state) or repeated:
            raise GameSearchError("the game is over: there is nobody left to resign")
        if not 0 <= resigned < game.num_players:
            raise GameSearchError(f"resigned: seat {resigned} is not a player of "
                                  f"{game.name} (0-{game.num_players - 1})")
    terminal = game.is_terminal(state) or repeated or resigned is not None
    view: dict[str, Any] = {
        "game": spec, "kind": game.name, "moves": moves, "terminal": terminal,
        "players": [game.player_name(p) for p in range(game.num_players)],
        "text": game.render(state),
    }
    entry = _entry(game)
    if entry is not None and entry.position_text is not None:
        view["position_text"] = {"title": entry.position_text.title,
                                 "param": entry.position_text.param,
                                 "text": entry.position_text.write(game, state)}
    if not (hasattr(game, "information_set") and hasattr(game, "sample_state")):
        # every move is shown: its notation too (hidden games keep the viewer's texts)
        view["notation"], view["paired"] = move_notation(game, moves)
        # a game set up with the second player to move numbers its first move "1..."
        start = game.initial_state()
        view["first_ply"] = 1 if view["paired"] and not game.is_terminal(start) \
            and game.to_move(start) == 1 else 0
    view["board"] = entry.board(game, state) if entry is not None and entry.board else None
    if repeated and view["board"]:  # the rules' state goes on; the game does not
        view["board"].update({k: type(view["board"][k])() for k in ("moves", "other_moves")
                              if k in view["board"]})
    if resigned is not None:
        view["utilities"] = resigned_utilities(game, resigned)
        view["outcome"] = (f"{game.player_name(resigned)} resigned: "
                           f"{outcome_text(game, view['utilities'])}")
        view["end"] = "resignation"
        view["resigned"] = resigned
        view["to_move"] = None
        view["legal"] = []
        if view["board"]:
            view["board"].update({k: type(view["board"][k])() for k in ("moves", "other_moves")
                                  if k in view["board"]})
    elif terminal:
        view["utilities"] = list(final_utilities(game, state))
        view["outcome"] = outcome(game, state, repeated)
        view["end"] = "repetition" if repeated else "rules"
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
