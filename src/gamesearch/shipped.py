"""Finding the data that ships inside the package (weights, books, layouts, examples).

One way for every module, wherever its file sits: ``shipped("othello", "weights.npz")`` is
``gamesearch/data/othello/weights.npz`` of the installed package, found through
``importlib.resources`` (so moving a module never breaks a relative path).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def shipped(*parts: str) -> Path:
    """The path of ``data/<parts...>`` in the installed package (it may not exist yet:
    training writes some of these files)."""
    return Path(str(resources.files("gamesearch").joinpath("data", *parts)))
