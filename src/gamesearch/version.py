"""The package's version: the installed distribution's metadata (what pip installed), or,
in a source tree that was never installed, the version pyproject.toml gives.

Read on demand (``gamesearch.__version__`` is computed on first access), so importing the
package pays nothing for importlib.metadata.
"""

from __future__ import annotations

import re
from pathlib import Path

DISTRIBUTION = "gamesearch"
UNKNOWN = "0+unknown"
"""The version when neither metadata nor a pyproject.toml can be found (a copied folder)."""


def source_version(root: Path | None = None) -> str | None:
    """The version in the pyproject.toml of the source tree this package sits in
    (``src/gamesearch`` -> ``pyproject.toml`` two folders up), or None outside one."""
    root = root if root is not None else Path(__file__).resolve().parents[2]
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    project = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if project is None or not re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', project.group(1),
                                        re.M):
        return None
    found = re.search(r'^version\s*=\s*"([^"]+)"', project.group(1), re.M)
    return found.group(1) if found else None


def version() -> str:
    """The installed distribution's version, else the source tree's, else ``0+unknown``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        return source_version() or UNKNOWN
