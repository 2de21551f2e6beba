"""Where numba keeps its compiled code: beside the sources when the package folder is
writable, otherwise in the user's cache folder.

numba's ``cache=True`` writes into each module's ``__pycache__``. In a read-only install (a
system site-packages, a container image, a user other than the one who installed) it cannot;
numba then falls back to a folder of its own or, when the home folder is not writable either,
warns "cannot cache function" and every run compiles again for minutes; and the warm-up's
record (kernels/warmup.py) would look for the cache beside the sources. :func:`configure` runs
when :mod:`gamesearch` is first imported, before any module imports numba, and points
``NUMBA_CACHE_DIR`` at ``$XDG_CACHE_HOME/gamesearch/numba`` (``~/.cache/gamesearch/numba``;
the platform's cache folder on macOS and Windows) unless the user set it. Only ``os`` and
``sys`` are imported here: ``gamesearch games`` pays nothing for it.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import MutableMapping

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def user_cache_dir(environ: MutableMapping[str, str] | None = None) -> str:
    """This user's cache folder for gamesearch's numba code (not created here: numba makes
    it on its first write)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    if sys.platform == "win32":
        base = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(base, "gamesearch", "Cache", "numba")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "gamesearch", "numba")
    xdg = env.get("XDG_CACHE_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(home, ".cache")
    return os.path.join(base, "gamesearch", "numba")


def package_writable(package: str = PACKAGE) -> bool:
    """True when numba can keep its cache beside the package's sources: the package folder
    (and its ``__pycache__``, when one exists) can be written by this process."""
    cache = os.path.join(package, "__pycache__")
    return os.access(package, os.W_OK) and (not os.path.isdir(cache)
                                            or os.access(cache, os.W_OK))


def configure(environ: MutableMapping[str, str] | None = None,
              package: str = PACKAGE) -> str | None:
    """Set ``NUMBA_CACHE_DIR`` to the user's cache folder when the user has not set it and
    the package folder is read-only; the folder set, or None when nothing changed. If numba
    was imported already, its configuration is reloaded so that it sees the folder."""
    env = os.environ if environ is None else environ
    if env.get("NUMBA_CACHE_DIR") or package_writable(package):
        return None
    folder = user_cache_dir(env)
    env["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if environ is None and config is not None:
        config.reload_config()
    return folder
