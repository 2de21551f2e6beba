"""gamesearch: adversarial search and game solving, from the lectures' algorithms to solvers."""

# First, before any module imports numba: a read-only install keeps numba's cache in the
# user's cache folder (gamesearch/numbacache.py).
from gamesearch import numbacache as _numbacache

_numbacache.configure()

from gamesearch.errors import GameSearchError, IllegalActionError  # noqa: E402
from gamesearch.game import CHANCE, Game  # noqa: E402

__all__ = ["CHANCE", "Game", "GameSearchError", "IllegalActionError", "__version__"]


def __getattr__(name: str) -> str:
    """``__version__`` on first use (importlib.metadata costs start-up time otherwise)."""
    if name == "__version__":
        from gamesearch.version import version

        globals()["__version__"] = found = version()
        return found
    raise AttributeError(f"module 'gamesearch' has no attribute {name!r}")
