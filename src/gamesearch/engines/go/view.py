"""What the web page is shown of a go position (its renderer draws ``squares``)."""

from __future__ import annotations

from typing import Any

from gamesearch.boards import grid_view


def board(game: Any, state: Any) -> dict:
    """Stones (``X`` black, ``O`` white) on the points, the top row numbered ``size`` as GTP
    counts; moves are the vertices as GTP writes them (``D4``, the engines' notation too, so
    a person's moves and the AI's read alike), the pass a button; the area score so far,
    and when the game is over the territory: each empty point's owner (``X``, ``O``, or
    ``""`` for a neutral point), as the area count scores it."""
    from gamesearch.games.go.notation import COLUMNS
    from gamesearch.games.go.rules import area_owners

    cells, n = state[0], game.size
    grid = [[ch if ch in "XO" else "" for ch in cells[r * n:(r + 1) * n]] for r in range(n)]
    over = game.is_terminal(state)
    legal = [] if over else [game.action_to_string(state, a) for a in game.actions(state)]
    owners = area_owners(cells, n)
    extra: dict = {"count": {"X": owners.count("X"), "O": owners.count("O")}}
    if over:
        extra["territory"] = [[o if o in "XO" and c not in "XO" else ""
                               for o, c in zip(owners[r * n:(r + 1) * n],
                                               cells[r * n:(r + 1) * n])] for r in range(n)]
    return grid_view(grid, COLUMNS[:n], [str(n - r) for r in range(n)], legal, "go", extra)
