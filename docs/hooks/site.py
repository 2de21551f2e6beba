"""The mkdocs hook that generates the pages which must never drift from the code.

mkdocs loads this file (mkdocs.yml, ``hooks``). It adds, at build time:

* ``reference/cli.md``: every command of the typer app, from its click command tree;
* ``games/<name>.md``: one page per registered game, from its ENTRY and the catalog;
* ``reference/api/<module>.md``: one page per public module, rendered by mkdocstrings;
* the notebooks found under ``notebooks/`` (none is fine).

The nav of mkdocs.yml names a section's first page (``games/index.md``,
``reference/api/index.md``, ``notebooks/``); :func:`on_config` puts the generated pages
after it, so a new game, command, module or notebook appears without editing the nav.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import api_pages  # noqa: E402
import cli_page  # noqa: E402
import game_pages  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402

_pages: dict[str, str] = {}
"""The generated pages: path under docs/ -> markdown (made once per build)."""


def _sections(config: Any) -> dict[str, list]:
    """The nav entries each section's first page expands into."""
    docs = Path(config["docs_dir"])
    notebooks = sorted(p.relative_to(docs).as_posix()
                       for p in (docs / "notebooks").glob("*.ipynb"))
    return {
        "games/index.md": game_pages.nav(),
        "reference/api/index.md": api_pages.nav(Path(config["config_file_path"]).parent),
        "notebooks/": [{_title(p): p} for p in notebooks],
    }


def _title(path: str) -> str:
    """A notebook's title in the nav, from its file name (``01_minimax.ipynb``)."""
    stem = Path(path).stem.lstrip("0123456789_- ")
    return stem.replace("_", " ").replace("-", " ").capitalize() or Path(path).stem


def _expand(nav: list, sections: dict[str, list]) -> list:
    """The nav with each section whose first page is a key of ``sections`` filled in; a
    section left empty (no notebooks) is dropped."""
    out = []
    for item in nav:
        if isinstance(item, dict):
            (title, value), = item.items()
            if isinstance(value, str) and value in sections:
                pages = ([] if value.endswith("/") else [value]) + sections[value]
                if pages:
                    out.append({title: pages})
                continue
            if isinstance(value, list):
                value = _expand(value, sections)
                if value and isinstance(value[0], str) and value[0] in sections:
                    value = value[:1] + sections[value[0]] + value[1:]
            out.append({title: value})
        else:
            out.append(item)
    return out


def on_config(config: Any) -> Any:
    """Generate the pages and fill the nav's generated sections."""
    root = Path(config["config_file_path"]).parent
    _pages.clear()
    _pages["reference/cli.md"] = cli_page.markdown()
    _pages.update(game_pages.pages())
    _pages.update(api_pages.pages(root))
    config["nav"] = _expand(config["nav"], _sections(config))
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add the generated pages to the site's files."""
    for path, text in _pages.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=text))
    return files
