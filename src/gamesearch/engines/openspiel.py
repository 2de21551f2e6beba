"""OpenSpiel's games as one entry: ``load_game("openspiel:name=kuhn_poker")``.

``name`` is a pyspiel game string; its parameters go in ``params`` with ``;`` between them in
a spec (``openspiel:name=breakthrough,params=rows=6;columns=6``: a spec's commas separate
our parameters) or in the game string in code (``load_game("openspiel",
name="breakthrough(rows=6,columns=6)")``). Needs the ``[openspiel]`` extra (docs/INTEROP.md).
"""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.errors import GameSearchError


def _openspiel(name: str = "tic_tac_toe", params: str = "",
               simultaneous: str = "turn-based") -> Any:
    try:
        from gamesearch.interop.openspiel import load
    except ImportError:
        raise GameSearchError("openspiel: pyspiel is not installed "
                              "(pip install 'gamesearch[openspiel]')") from None
    if simultaneous not in ("turn-based", "refuse"):
        raise GameSearchError(f"openspiel: simultaneous={simultaneous!r}: turn-based or refuse")
    import pyspiel

    text = f"{name}({params.replace(';', ',')})" if params else name
    if name.partition("(")[0].strip() not in pyspiel.registered_names():
        raise GameSearchError(f"openspiel: unknown game {name!r} "
                              "(pyspiel.registered_names() lists OpenSpiel's games)")
    try:
        return load(text, simultaneous=simultaneous, name="openspiel")
    except pyspiel.SpielError as err:
        raise GameSearchError(f"openspiel: {text!r}: {err}") from None


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """OpenSpiel's own text of the position (a board in characters, most games) framed as
    a board, the player to move below; an arrow's move is written there (class
    ``marked``)."""
    from gamesearch.drawing import LIGHT, Canvas, action_text

    lines = game.render(state).splitlines()[:16] or [""]
    wide = max(len(line) for line in lines)
    moves = ", ".join(action_text(game, state, a) for a in arrows)
    width = max(120, 24 + 9 * wide, 24 + 6 * len(moves))
    canvas = Canvas(width, 40 + 18 * len(lines) + (16 if moves else 0), game.name)
    canvas.add("rect", class_="board", x=2, y=2, width=width - 4,
               height=12 + 18 * len(lines), rx=6, fill=LIGHT, stroke="#8b6b4a")
    for i, line in enumerate(lines):
        canvas.add("text", line, class_="line", x=12, y=22 + 18 * i, font_size=15,
                   font_family="monospace", style="white-space: pre", fill="#222")
    if not game.is_terminal(state):
        mover = game.to_move(state)
        canvas.add("text", "chance" if mover < 0 else f"{game.player_name(mover)} to move",
                   class_="to-move", x=6, y=30 + 18 * len(lines), font_size=11, fill="#333")
    if moves:
        canvas.add("text", moves, class_="move marked", x=6, y=46 + 18 * len(lines),
                   font_size=11, fill="#15781b", font_weight="bold")
    return canvas.svg()


ENTRY = GameEntry("openspiel", "Any OpenSpiel game: name=kuhn_poker (needs the [openspiel] extra)",
                  _openspiel, svg=_svg, title="OpenSpiel game")
