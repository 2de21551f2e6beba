"""Where numba keeps its compiled code: beside the sources when the package folder is
writable, otherwise in the user's cache folder.

numba's ``cache=True`` writes into each module's ``__pycache__``. In a read-only install (a
system site-packages, a container image, a user other than the one who installed) that fails
with "cannot cache function" warnings, or errors when the user's home is not writable either,
and every run compiles again for minutes. :func:`configure` runs when :mod:`gamesearch` is
first imported, before any module imports numba, and points ``NUMBA_CACHE_DIR`` at
``$XDG_CACHE_HOME/gamesearch/numba`` (``~/.cache/gamesearch/numba``; the platform's cache
folder on macOS and Windows) unless the user set it. It imports nothing heavy.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def user_cache_dir(environ: MutableMapping[str, str] | None = None) -> Path:
    """This user's cache folder for gamesearch's numba code (not created here: numba makes
    it on its first write)."""
    env = os.environ if environ is None else environ
    if sys.platform == "win32":
        base = env.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "gamesearch" / "Cache" / "numba"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "gamesearch" / "numba"
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path(env.get("HOME") or Path.home()) / ".cache"
    return base / "gamesearch" / "numba"


def package_writable(package: Path = PACKAGE) -> bool:
    """True when numba can keep its cache beside the package's sources: the package folder
    (and its ``__pycache__``, when one exists) can be written by this process."""
    cache = package / "__pycache__"
    return os.access(package, os.W_OK) and (not cache.is_dir() or os.access(cache, os.W_OK))


def configure(environ: MutableMapping[str, str] | None = None,
              package: Path = PACKAGE) -> str | None:
    """Set ``NUMBA_CACHE_DIR`` to the user's cache folder when the user has not set it and
    the package folder is read-only; the folder set, or None when nothing changed. If numba
    was imported already, its configuration is reloaded so that it sees the folder."""
    env = os.environ if environ is None else environ
    if env.get("NUMBA_CACHE_DIR") or package_writable(package):
        return None
    folder = str(user_cache_dir(env))
    env["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if environ is None and config is not None:
        config.reload_config()
    return folder
