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


ENTRY = GameEntry("openspiel", "Any OpenSpiel game: name=kuhn_poker (needs the [openspiel] extra)",
                  _openspiel, title="OpenSpiel game")
