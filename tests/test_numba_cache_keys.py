"""numba keys a cached function on its own source file only, so compiled code that calls
another file's compiled functions keeps the old callee after an edit to the callee alone.
The project's one answer is ``kernels.specialize``: a kernel compiled from templates under a
tag that hashes every source compiled into it. This test finds every plain
``@njit(cache=True)`` function that still calls another module's compiled code; the list of
such modules is empty since the last one (Go's MCTS over its kernel) moved to templates,
and must stay so."""

from __future__ import annotations

import importlib
import pkgutil
import types

import pytest

import gamesearch

numba = pytest.importorskip("numba")
from numba.core.registry import CPUDispatcher  # noqa: E402

from gamesearch.games.go import kernel as K  # noqa: E402  (the planted caller's callee)

SKIP = ("__main__", ".cli.", ".web.", ".interop", "jax")


def calls_of(dispatcher: CPUDispatcher, home: str) -> set[str]:
    """The modules other than ``home`` whose compiled code a plain cached function calls
    (by name, or through a module of this package holding compiled functions); none for a
    function compiled under a ``specialize`` tag or not cached."""
    func = dispatcher.py_func
    if hasattr(func, "specialize_tag") or type(dispatcher._cache).__name__ == "NullCache":
        return set()
    found: set[str] = set()
    for name in func.__code__.co_names:
        target = func.__globals__.get(name)
        if isinstance(target, CPUDispatcher) and target.py_func.__module__ != home:
            found.add(target.py_func.__module__)
        elif isinstance(target, types.ModuleType) and \
                target.__name__.startswith("gamesearch.") and target.__name__ != home and \
                any(isinstance(v, CPUDispatcher) for v in vars(target).values()):
            found.add(target.__name__)
    return found


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
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == info.name:
                calls = calls_of(value, info.name)
                if calls:
                    found.setdefault(info.name, set()).update(calls)
    return found


def test_compiled_code_calls_another_files_code_only_under_a_tag_that_covers_it() -> None:
    found = cross_calls()
    assert not found, f"plain cached numba code calling another module's: {found} (compile " \
                      "it with kernels.specialize under a tag that covers what it calls)"


def _planted(B):
    return K.area(B)


def test_the_check_finds_a_plain_function_calling_another_files_code() -> None:
    """The check above can fail: a plain cached function calling the Go kernel (as Go's
    MCTS did before it moved to templates) is found; the same code compiled under a
    ``specialize`` tag is not."""
    from numba import njit

    from gamesearch.kernels.specialize import specialize

    assert calls_of(njit(cache=True)(_planted), __name__) == {"gamesearch.games.go.kernel"}
    tagged = specialize((_planted,), {}, "planted_test")._planted
    assert calls_of(tagged, __name__) == set()
