"""A griffe extension: the Sphinx roles of our docstrings become links in the API pages.

The docstrings name other objects as Sphinx does (``:class:`Score```,
``:func:`~gamesearch.loop.run_game```), which mkdocstrings shows as plain text. Once the
package is loaded, each role is resolved in its docstring's scope (the module's imports and
members, as Python would) to a full path and written as an optional cross-reference: a
link where the target has a page, plain code where it has none (a private module), so
the strict build never fails on a name that is not documented.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([\w.]+)(\(\))?`")


def _documented_modules() -> set[str]:
    """The modules with an API page (docs/hooks/api_pages.py decides which)."""
    here = Path(__file__).resolve().parent
    spec = importlib.util.spec_from_file_location("api_pages", here / "api_pages.py")
    pages = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pages)
    root = here.parents[1]
    found = set(pages.CORE)
    for package in pages.PACKAGES:
        found.update(pages._modules(root, package))
    return found


MODULES = _documented_modules()


def resolve(obj: Any, target: str) -> str:
    """The full path that ``target`` names in ``obj``'s scope (as written where unknown)."""
    if target.startswith("gamesearch."):
        return target
    head, _, rest = target.partition(".")
    try:
        full = obj.resolve(head)
    except (griffe.NameResolutionError, AttributeError, KeyError):
        return target
    return f"{full}.{rest}" if rest else full


def rewrite(obj: Any, text: str) -> str:
    """``text`` with each role turned into an optional autorefs cross-reference."""
    def link(match: re.Match[str]) -> str:
        tilde, target, call = match.group(1), match.group(2), match.group(3) or ""
        title = (target.rsplit(".", 1)[-1] if tilde else target) + call
        full = resolve(obj, target)
        if full in MODULES:  # a module's page: API pages all sit side by side
            return f'<a href="../{full}/"><code>{title}</code></a>'
        return (f'<autoref optional identifier="{full}">'
                f"<code>{title}</code></autoref>")

    return ROLE.sub(link, text)


def _walk(obj: Any, seen: set[int]) -> None:
    if id(obj) in seen or obj.is_alias:
        return
    seen.add(id(obj))
    if obj.docstring is not None and ":" in obj.docstring.value:
        obj.docstring.value = rewrite(obj, obj.docstring.value)
    for member in list(obj.members.values()):
        if not member.is_alias:
            _walk(member, seen)


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring of a loaded package (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _walk(pkg, set())
