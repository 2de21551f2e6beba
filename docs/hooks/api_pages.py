"""The API reference: one page per public module, rendered from its docstrings by mkdocstrings.

The modules are found in the source tree (src/gamesearch/), not listed by hand: every
module of the public packages below, except private ones (``_name``).
"""

from __future__ import annotations

from pathlib import Path

CORE = ["gamesearch.game", "gamesearch.result", "gamesearch.agent", "gamesearch.entry",
        "gamesearch.loop", "gamesearch.anytime", "gamesearch.display", "gamesearch.errors"]
"""The core modules, one page each."""

PACKAGES = ["search", "theory", "imperfect", "tables", "arena", "testing", "interop", "kernels"]
"""The public packages: the package's own page, then one per module."""


def _modules(root: Path, package: str) -> list[str]:
    folder = root / "src" / "gamesearch" / package
    names = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    return [f"gamesearch.{package}"] + [f"gamesearch.{package}.{n}" for n in names]


def _path(module: str) -> str:
    return f"reference/api/{module}.md"


def nav(root: Path) -> list[dict]:
    """The API section of the nav: the core modules, then one subsection per package."""
    out: list[dict] = [{module: _path(module)} for module in CORE]
    for package in PACKAGES:
        out.append({f"gamesearch.{package}": [{m: _path(m)} for m in _modules(root, package)]})
    return out


def _page(module: str, package: bool = False) -> str:
    """A module's page; a package's shows its docstring only (its modules have pages)."""
    options = "    options:\n      members: false\n" if package else ""
    return f"# `{module}`\n\n::: {module}\n{options}"


def _index(root: Path) -> str:
    lines = ["# API reference", "",
             "Generated from the docstrings of the source (src/gamesearch/) at each build. "
             "`gamesearch.game` is the protocol every algorithm speaks, `gamesearch.result` "
             "what every search returns, `gamesearch.entry` what a game brings.", ""]
    lines += [f"* [`{m}`]({m}.md)" for m in CORE]
    for package in PACKAGES:
        modules = _modules(root, package)
        lines.append(f"* [`{modules[0]}`]({modules[0]}.md): "
                     + ", ".join(f"[`{m.rsplit('.', 1)[1]}`]({m}.md)" for m in modules[1:]))
    return "\n".join(lines) + "\n"


def pages(root: Path) -> dict[str, str]:
    """Every API page and the index, by path under docs/."""
    out = {"reference/api/index.md": _index(root)}
    for module in CORE:
        out[_path(module)] = _page(module)
    for package in PACKAGES:
        for module in _modules(root, package):
            out[_path(module)] = _page(module, package=module.count(".") == 1)
    return out
