"""The documentation site (mkdocs.yml) builds in strict mode, and its generated pages say what
the code says: the CLI reference names every command, a game's page lists the agents that
fit it, an API page carries the docstring. Skipped without the ``docs`` extra."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

for _module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter"):
    pytest.importorskip(_module, reason='the docs extra: pip install -e ".[docs]"')

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                          "--site-dir", str(out)], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}"
    return out


def _text(path: Path) -> str:
    """A page's text without its markup, whitespace folded."""
    raw = re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))
    return " ".join(html.unescape(raw).split())


def _page(site: Path, name: str) -> str:
    path = site / name / "index.html"
    assert path.is_file(), f"{name} was not generated"
    return path.read_text(encoding="utf-8")


def test_cli_page_names_every_top_level_command(site: Path) -> None:
    import typer

    from gamesearch.cli.main import _load_commands, app

    _load_commands(None)
    group = typer.main.get_command(app)
    names = [n for n, c in group.commands.items() if not c.hidden]
    assert {"solve", "play", "serve", "agents", "train"} <= set(names)
    page = _page(site, "reference/cli")
    missing = [n for n in names if f"<code>gamesearch {n}</code>" not in page]
    assert not missing, f"commands without a section in the CLI reference: {missing}"
    assert "<code>gamesearch train cfr</code>" in page  # sub-commands too


def test_game_page_lists_the_agents_that_fit_it(site: Path) -> None:
    from gamesearch.catalog import agents_for
    from gamesearch.games import load_game

    page = _page(site, "games/tictactoe")
    fits = agents_for(load_game("tictactoe"))
    assert {"alphabeta", "mcts", "minimax"} <= set(fits)
    assert not [a for a in fits if f"<code>{a}</code>" not in page]
    assert "<code>pimc</code>" not in page  # hidden information only: not tic-tac-toe's
    games = _page(site, "games")
    from gamesearch.games import entries

    assert not [e.name for e in entries() if f'href="{e.name}/"' not in games]


def test_api_page_carries_the_docstring(site: Path) -> None:
    from gamesearch.search.alphabeta import alphabeta

    first = " ".join(alphabeta.__doc__.split("\n")[0].replace("``", "").split())
    assert first.startswith("Alpha-beta from state")
    assert first in _text(site / "reference/api/gamesearch.search.alphabeta/index.html")


def test_every_notebook_has_a_page(site: Path) -> None:
    notebooks = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))
    missing = [p.name for p in notebooks
               if not (site / "notebooks" / p.stem / "index.html").is_file()]
    assert not missing, f"notebooks without a page: {missing}"
    assert (site / "getting-started" / "index.html").is_file()


def test_sphinx_roles_in_docstrings_become_links(site: Path) -> None:
    """``:class:`Score``` and friends are links on the API pages (docs/hooks/sphinx_roles.py),
    never left as role text; a module named by a role links to its page, which exists."""
    api = site / "reference/api"
    pages = sorted(api.glob("*/index.html"))
    leftover = [p.parent.name for p in pages
                if re.search(r":(func|class|meth|mod|data|attr|exc):", _text(p))]
    assert not leftover, f"API pages still showing Sphinx roles: {leftover}"
    result = (api / "gamesearch.result/index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="#gamesearch\.result\.Score'
                     r'[^"]*"', result)
    for page in pages:
        for target in re.findall(r'<a href="\.\./(gamesearch[\w.]*)/"><code>', page.read_text(
                encoding="utf-8")):
            assert (api / target / "index.html").is_file(), f"{page.parent.name} -> {target}"
