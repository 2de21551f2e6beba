"""Checking a request's memory before allocating it: refuse in words, saying what it needs.

A table of 2^32 entries or a Pig table for goal 100,000 would ask numpy for tens of
gigabytes and die with a traceback (or swap the machine to a halt); callers ask
:func:`check_memory` first and the user reads how much was needed and how much there is.
"""

from __future__ import annotations

import os

from gamesearch.errors import GameSearchError

MEMORY_SHARE = 0.5
"""A single table may take at most this share of the machine's physical memory."""


def physical_memory() -> int:
    """The machine's physical memory in bytes (16 GiB when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 16 << 30


def gib(nbytes: float) -> str:
    """Bytes in words: ``74.5 GiB``, ``512 MiB``, ``28.4 PiB``."""
    for shift, unit in ((50, "PiB"), (40, "TiB"), (30, "GiB")):
        if nbytes >= 1 << shift:
            return f"{nbytes / (1 << shift):,.1f} {unit}"
    return f"{nbytes / (1 << 20):,.0f} MiB"


def check_memory(nbytes: float, what: str) -> None:
    """Raise a :class:`GameSearchError` when ``what`` would need more than
    :data:`MEMORY_SHARE` of the physical memory; the message gives both figures."""
    limit = physical_memory() * MEMORY_SHARE
    if nbytes > limit:
        raise GameSearchError(f"{what} would need {gib(nbytes)} of memory; this machine "
                              f"allows {gib(limit)} (half of its {gib(physical_memory())})")


__all__ = ["check_memory", "gib", "physical_memory"]
