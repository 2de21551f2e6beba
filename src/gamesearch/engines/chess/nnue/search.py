"""The chess search with the network as its evaluation: ``engines/chess/search.py``'s
templates compiled once more (``kernels.specialize``) with the network's ``static_value``
(``kernel.py``) bound where the hand-written one stands. The two are separate compiled
functions: the hand-written search carries no trace of the network and is not slowed,
and importing this module (the first time: compiling it) happens only when a network is
asked for.

Its ``tb`` argument is the endgame tables' four arrays followed by the thread's network
state (``kernel.state``), see :func:`arguments`.
"""

from __future__ import annotations

import numpy as np

from gamesearch.engines.chess import search as hand
from gamesearch.engines.chess.nnue import features, kernel, network
from gamesearch.kernels.specialize import source_tag, specialize

TEMPLATES = hand.TEMPLATES


def search_tag() -> str:
    """The cache tag of the NNUE search: the hand search's tag and the network's sources."""
    return "chess_nnue_search_" + source_tag(("hand search", hand.search_tag()), kernel, features,
                                               network)


def arguments(tables: tuple[np.ndarray, ...], q: kernel.Quantised) -> tuple:
    """The ``tb`` argument of one search thread: the tables, then its own network state."""
    return (*tables[:4], kernel.state(q))


_kernel = specialize(TEMPLATES, {"static_value": kernel.static_value}, search_tag(),
                     nogil=("search",))
search = _kernel.search
"""The compiled NNUE search (same arguments as ``engines/chess/search.search``)."""

__all__ = ["arguments", "search", "search_tag"]
