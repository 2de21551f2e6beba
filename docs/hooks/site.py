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

import json
import logging
import posixpath
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import api_pages  # noqa: E402
import cli_page  # noqa: E402
import game_pages  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402

log = logging.getLogger("mkdocs.hooks.site")
"""Under mkdocs' logger: a warning here fails ``mkdocs build --strict``."""

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
        "notebooks/": [{_title(docs, p): p} for p in notebooks],
    }


def _title(docs: Path, path: str) -> str:
    """A notebook's title in the nav: its first heading, else its file name."""
    try:
        cells = json.loads((docs / path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        cells = []
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            text = "".join(source) if isinstance(source, list) else source
            heading = re.search(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)
            if heading:
                return heading.group(1).strip()
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


_LINK = re.compile(r'href="(?![a-z]+:|#|/)([^"#]+\.(?:md|ipynb))(#[^"]*)?"')


_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|data|attr|exc|obj|const):(?=<code)")
"""A Sphinx role before inline code (``:func:`alphabeta```) as the docstrings write them."""


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    """Sphinx roles in docstrings show as their code alone. In a notebook's page, links to
    other pages of docs/ (``../SEARCH.md``, as they work on GitHub) point to their pages on
    the site, and a link to no page is a warning (an error in strict mode) as in a markdown
    page: mkdocs checks only markdown pages' links."""
    html = _ROLE.sub("", html)
    if not page.file.src_uri.endswith(".ipynb"):
        return html

    def fix(match: re.Match) -> str:
        base = posixpath.dirname(page.file.src_uri)
        target = files.get_file_from_path(posixpath.normpath(posixpath.join(base, match[1])))
        if target is None:
            log.warning("Notebook '%s' links to '%s', which is not a page of the site",
                        page.file.src_uri, match[1])
            return match[0]
        return f'href="{target.url_relative_to(page.file)}{match[2] or ""}"'

    return _LINK.sub(fix, html)
