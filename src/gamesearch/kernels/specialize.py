"""Compile a generic kernel template for one game: the numba analogue of a C++ template.

A template is a plain Python function (readable, testable as Python) that calls the game's
primitives by bare global names (``legal``, ``play``, ...). :func:`specialize` makes a copy
of each template function whose globals hold one game's compiled primitives and constants,
and compiles it with ``numba.njit(cache=True)``. Numba treats those globals as compile-time
constants, so the game's functions are inlined as if written in place: no indirect calls.

Why not a closure factory? Numba cannot cache closures that capture compiled functions (the
cache key changes every session, numba issue #6264), so every session would recompile. A
copy whose ``__qualname__`` names the game (and a hash of its source) gets its own cache
entry, keyed on the template's file, and is compiled once per machine.
"""

from __future__ import annotations

import hashlib
import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any


def source_tag(*modules_or_funcs: Any) -> str:
    """A short hash of source code and of the modules it lives in: part of the cache name, so
    editing a game's primitives, or moving them to another module (numba's cached code
    refers to its module by name), gives its specialized kernels a new cache entry. An item
    may also be a ``(module name, source text)`` pair: the tag a module would give with
    that text (to ask what an edit does to a tag)."""
    digest = hashlib.sha1()
    for item in modules_or_funcs:
        if isinstance(item, tuple):
            name, text = item
        else:
            name = str(getattr(item, "__module__", None) or getattr(item, "__name__", ""))
            try:
                text = inspect.getsource(item)
            except (OSError, TypeError):
                text = repr(item)
        digest.update(name.encode())
        digest.update(text.encode())
    return digest.hexdigest()[:10]


def specialize(templates: Iterable[Callable[..., Any]], bindings: dict[str, Any],
               tag: str, nogil: Iterable[str] = ()) -> types.SimpleNamespace:
    """Compile ``templates`` against ``bindings`` (primitives, constants) under ``tag``;
    the templates named in ``nogil`` release the GIL (a search that threads run at once;
    not a function with an object-mode block, which needs it).

    Returns a namespace of numba dispatchers, one per template, by the template's name.
    Templates may call each other (and themselves, recursively) by name.
    """
    import numba

    templates = list(templates)
    nogil = set(nogil)
    namespace: dict[str, Any] = {}
    for template in templates:
        scope = dict(template.__globals__)
        scope.update(bindings)
        clone = types.FunctionType(template.__code__, scope, template.__name__,
                                   template.__defaults__, template.__closure__)
        clone.__qualname__ = f"{template.__name__}__{tag}"
        clone.specialize_tag = tag  # type: ignore[attr-defined]  (found by the cache test)
        clone.__doc__ = template.__doc__
        namespace[template.__name__] = (
            numba.njit(cache=True, nogil=template.__name__ in nogil)(clone), scope)
    compiled = {name: dispatcher for name, (dispatcher, _) in namespace.items()}
    for _, scope in namespace.values():
        scope.update(compiled)  # calls between templates (and recursion) reach the clones
    return types.SimpleNamespace(**compiled)


def compile_in_place(namespace: dict[str, Any], templates: Iterable[Callable[..., Any]],
                     prefix: str, covers: Iterable[Any] = (),
                     nogil: Iterable[str] = ()) -> types.SimpleNamespace:
    """Compile a module's ``templates`` under a tag that hashes them and ``covers`` (the
    modules whose compiled code or constants they hold: numba keys a cache on the function's
    own file only), and bind each compiled function in ``namespace`` (the module's globals)
    under its template's name, so callers import and call them as before."""
    templates = list(templates)
    compiled = specialize(templates, {}, f"{prefix}_{source_tag(*templates, *covers)}", nogil)
    namespace.update(vars(compiled))
    return compiled
