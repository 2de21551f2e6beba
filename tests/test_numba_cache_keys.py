"""numba keys a cached function on its own source file only, so compiled code that calls
another file's compiled functions keeps the old callee after an edit to the callee alone.
The project's one answer is ``kernels.specialize``: a kernel compiled from templates under a
tag that hashes every source compiled into it. This test finds every plain
``@njit(cache=True)`` function that still calls another module's compiled code; the list of
such modules may only shrink (each moves to templates in turn)."""

from __future__ import annotations

import importlib
import pkgutil
import types

import pytest

import gamesearch

numba = pytest.importorskip("numba")
from numba.core.registry import CPUDispatcher  # noqa: E402

STILL_PLAIN = {
    "gamesearch.engines.go.mcts": {"gamesearch.games.go.kernel"},
}
"""Modules whose cached functions call another module's, and what they call (round three
moved the chess search to templates; these are next)."""

SKIP = ("__main__", ".cli.", ".web.", ".interop", "jax")


def cross_calls() -> dict[str, set[str]]:
    """Module -> the other modules whose compiled code its plain cached functions call."""
    found: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(gamesearch.__path__, "gamesearch."):
        if any(part in info.name for part in SKIP):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra
            continue
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher) or value.py_func.__module__ != info.name:
                continue
            func = value.py_func
            if hasattr(func, "specialize_tag") or type(value._cache).__name__ == "NullCache":
                continue
            for name in func.__code__.co_names:
                target = func.__globals__.get(name)
                if isinstance(target, CPUDispatcher) and target.py_func.__module__ != info.name:
                    found.setdefault(info.name, set()).add(target.py_func.__module__)
                elif isinstance(target, types.ModuleType) and \
                        target.__name__.startswith("gamesearch.") and \
                        any(isinstance(v, CPUDispatcher) for v in vars(target).values()):
                    found.setdefault(info.name, set()).add(target.__name__)
    return found


def test_compiled_code_calls_another_files_code_only_under_a_tag_that_covers_it() -> None:
    found = cross_calls()
    new = {m: calls for m, calls in found.items() if not calls <= STILL_PLAIN.get(m, set())}
    assert not new, f"plain cached numba code calling another module's: {new} (compile it " \
                    "with kernels.specialize under a tag that covers what it calls)"
    gone = sorted(set(STILL_PLAIN) - set(found))
    assert not gone, f"these modules no longer call another file's compiled code: remove " \
                     f"them from STILL_PLAIN: {gone}"
