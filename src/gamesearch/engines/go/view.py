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


def ending(game: Any, state: Any) -> str | None:
    """The area score of a finished game as Go players write it (``W+3.5``), with each
    side's area, the komi and why it ended (both passed, or the move limit)."""
    from gamesearch.games.go.rules import area_owners
    from gamesearch.games.go.sgf import result_text

    owners = area_owners(state[0], game.size)
    why = "both passed" if state[2] >= 2 else f"the move limit ({game.max_moves})"
    return (f"({result_text(game, state)}: area black {owners.count('X')}, white "
            f"{owners.count('O')}, komi {game.komi:g}; {why})")


def read_sgf_game(text: str) -> tuple[dict[str, str], list[str]]:
    """The first game of an SGF text: its size and komi (and handicap, where its set-up
    stones are the fixed handicap points) and its moves as GTP vertices."""
    from gamesearch.errors import GameSearchError
    from gamesearch.games.go.rules import Go
    from gamesearch.games.go.sgf import read_sgf

    records = read_sgf(text)
    if not records:
        raise GameSearchError("no SGF game in the text: (;GM[1]SZ[9];B[ee];W[cc])")
    record = records[0]
    params = {"size": str(record.size), "komi": f"{record.komi:g}"}
    game = record.game()
    if record.start is not None and record.start != (game.initial_state()[0], 0):
        for handicap in range(2, 10):
            try:
                with_handicap = Go(size=record.size, komi=record.komi, handicap=handicap)
            except (GameSearchError, ValueError):
                break
            if with_handicap.initial_state()[:2] == record.start:
                params["handicap"] = str(handicap)
                game = with_handicap
                break
        else:
            raise GameSearchError("the SGF game starts from set-up stones other than a "
                                  "fixed handicap: the page plays from the empty board or a "
                                  "handicap only")
        if "handicap" not in params:
            raise GameSearchError("the SGF game starts from set-up stones other than a "
                                  "fixed handicap")
    state, moves = game.initial_state(), []
    for action in record.moves:
        moves.append(game.action_to_string(state, action))
        state = game.result(state, action)
    return params, moves
