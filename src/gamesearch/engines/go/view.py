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


def picture(game: Any, state: Any, lastmove: Any = None, arrows: Any = ()) -> Any:
    """Stones on the intersections (black ``X``, white ``O``), GTP's coordinates; at the end
    of the game each point's owner as a small square; the area count under the board."""
    from gamesearch.drawing import Piece, action_text, board_picture

    view = board(game, state)
    if "territory" in view:
        for r, row in enumerate(view["territory"]):
            for c, owner in enumerate(row):
                if owner:
                    view["squares"][r][c] = owner.lower()
    pieces = {"X": Piece("black", "#111"), "O": Piece("white", "#f8f8f8"),
              "x": Piece("territory black", "#111", kind="small"),
              "o": Piece("territory white", "#f8f8f8", kind="small")}
    count = view["count"]
    return board_picture(view, pieces, action_text(game, state, lastmove) if lastmove is not None
                        else None, [action_text(game, state, a) for a in arrows], points=True,
                        square=36, light="#dcb35c", dark="#dcb35c",
                        caption=f"area: black {count['X']}  white {count['O']}  "
                                f"(komi {game.komi:g})")
