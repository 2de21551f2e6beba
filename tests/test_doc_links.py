"""Every relative link in docs/*.md, README.md and the notebooks' markdown points at a file
that exists (and, for a markdown page, at one of its headings when it names one), every
repository file they name (``src/...``, ``docs/...``, ``tests/...``, ``bench/...``) exists,
and every ``gamesearch ...`` command quoted in the notebooks' markdown names real commands and
options. The site build (tests/test_docs_site.py, ``mkdocs build --strict``) checks links
too, but only where the docs extra is installed and in minutes; this runs in a second.

Pages the site generates (docs/hooks/: ``reference/cli.md``, ``reference/api/<module>.md``,
``games/<name>.md``) are accepted where the hook would make them."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NOTEBOOKS = sorted((DOCS / "notebooks").glob("*.ipynb"))
PAGES = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HTML_LINK = re.compile(r"""(?:href|src)=["']([^"']+)["']""")
REPO_PATH = re.compile(r"(?<![\w./-])((?:src|docs|tests|bench)/[\w./-]*\w\.(?:py|md|ipynb|"
                       r"png|json|toml|yml|txt))\b")
"""A file of the repository named in a notebook's prose (``docs/TABLES.md``)."""


def prose(text: str) -> str:
    """Markdown without its fenced blocks and inline code (a link there is an example)."""
    return CODE.sub("", FENCE.sub("", text))


def named_files(text: str) -> list[str]:
    """Repository files named in markdown: in its prose, or alone in inline code
    (``src/gamesearch/game.py``); not inside commands, whose outputs may not exist yet."""
    spans = [m.group(0)[1:-1] for m in CODE.finditer(FENCE.sub("", text))]
    alone = " ".join(span for span in spans if not re.search(r"\s", span))
    return REPO_PATH.findall(prose(text) + " " + alone)


def markdown_cells(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                       for c in cells if c["cell_type"] == "markdown")


def links(text: str) -> list[str]:
    found = LINK.findall(text) + REFERENCE.findall(text) + HTML_LINK.findall(text)
    return [t for t in found if not re.match(r"[a-z][a-z0-9+.-]*:", t, re.I)  # http:, mailto:
            and not t.startswith(("#", "//"))]


def slug(heading: str) -> str:
    """The anchor Python-Markdown's toc extension (mkdocs' default) gives a heading."""
    text = re.sub(r"<[^>]+>|`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    """The anchors a markdown page has: its headings' slugs (repeats numbered ``_1``...) and
    explicit ``{#id}`` attributes."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for line in text.splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading is None:
            continue
        title = heading.group(1)
        explicit = re.search(r"\{[^}]*#([\w-]+)[^}]*\}\s*$", title)
        if explicit:
            found.add(explicit.group(1))
            continue
        base = slug(title)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}_{n}"
        found.add(name)
    return found


def generated(relative: str) -> bool:
    """A page docs/hooks/ makes at build time."""
    from gamesearch.games import entries

    if relative in ("reference/cli.md", "reference/api/index.md", "games/index.md"):
        return True
    if relative.startswith("games/") and relative.endswith(".md"):
        return relative[6:-3] in {e.name for e in entries()}
    if relative.startswith("reference/api/") and relative.endswith(".md"):
        return importlib.util.find_spec(relative[14:-3]) is not None
    return False


def broken(source: Path, target: str) -> str | None:
    """Why ``target`` (a link in ``source``) leads nowhere, or None."""
    path, _, fragment = target.partition("#")
    path = path.split("?")[0]
    resolved = (source.parent / path).resolve()
    if not resolved.exists():
        try:
            relative = resolved.relative_to(DOCS).as_posix()
        except ValueError:
            relative = ""
        if relative and generated(relative):
            return None
        return f"{target}: no such file"
    if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
        return f"{target}: {resolved.name} has no heading #{fragment}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_of_a_page_leads_somewhere(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    bad = [why for t in links(prose(text)) if (why := broken(page, t)) is not None]
    bad += [f"{p}: no such file" for p in named_files(text) if not (ROOT / p).exists()]
    assert not bad, f"{page.relative_to(ROOT)}: {bad}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_every_link_and_file_a_notebook_names_exists(notebook: Path) -> None:
    text = markdown_cells(notebook)
    bad = [why for t in links(prose(text)) if (why := broken(notebook, t)) is not None]
    bad += [f"{p}: no such file" for p in named_files(text) if not (ROOT / p).exists()]
    assert not bad, f"{notebook.name}: {bad}"


def command_tree():
    import typer

    from gamesearch.cli.main import _load_commands, app

    _load_commands(None)
    return typer.main.get_command(app)


def check_command(root, line: str) -> str | None:
    """Why a quoted ``gamesearch ...`` line would not parse (an unknown command or option),
    or None. Nothing runs: the words are looked up in the click tree."""
    words = shlex.split(line)[1:]
    command, path = root, ["gamesearch"]
    while words and hasattr(command, "commands") and not words[0].startswith("-"):
        sub = command.commands.get(words[0])
        if sub is None:
            return f"{line!r}: {' '.join(path)} has no command {words[0]!r}"
        command, path = sub, [*path, words.pop(0)]
    known = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)} | {"--help"}
    unknown = [w.split("=")[0] for w in words if w.startswith("-") and w != "-"
               and not re.fullmatch(r"-\d[\d.]*", w) and w.split("=")[0] not in known]
    return f"{line!r}: {' '.join(path)} has no option {unknown[0]}" if unknown else None


QUOTED = re.compile(r"`(gamesearch\s[^`]*)`|^\s*\$?\s*(gamesearch\s.*)$", re.M)


def quoted_commands(text: str) -> list[str]:
    """The ``gamesearch ...`` commands quoted in markdown: inline code, or a line of a
    fenced block."""
    found = [m.group(1) for m in CODE.finditer(text) if m.group(0)[1:].startswith("gamesearch ")
             for m in [re.match(r"`(gamesearch\s[^`]*)`", m.group(0))] if m]
    for block in FENCE.finditer(text):
        found += [line.strip().lstrip("$ ") for line in block.group(0).splitlines()
                  if line.strip().lstrip("$ ").startswith("gamesearch ")]
    return [c.split(" #")[0].strip() for c in found]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_commands_quoted_in_a_notebook_parse(notebook: Path) -> None:
    root = command_tree()
    bad = [why for c in quoted_commands(markdown_cells(notebook))
           if (why := check_command(root, c)) is not None]
    assert not bad, bad


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """A missing file, a missing heading and an unknown command or option are caught."""
    page = DOCS / "CLI.md"
    assert broken(page, "NO_SUCH_PAGE.md") and broken(page, "img/none.png")
    assert broken(page, "SEARCH.md#no-such-heading")
    assert broken(page, "reference/api/gamesearch.no_such_module.md")
    assert broken(page, "games/no_such_game.md")
    assert broken(page, "SEARCH.md") is None and broken(page, "games/chess.md") is None
    assert broken(page, "reference/api/gamesearch.game.md") is None
    assert links(prose("[a](x.md) `[b](y.md)` [c](https://e.org) [d](#here)")) == ["x.md"]
    assert slug("The `tree` command: alpha-beta, step by step") == \
        "the-tree-command-alpha-beta-step-by-step"
    root = command_tree()
    assert check_command(root, "gamesearch train td") is None
    assert check_command(root, "gamesearch solve connect4 --position 4453") is None
    assert "no command 'trian'" in check_command(root, "gamesearch trian td")
    assert "no option --nope" in check_command(root, "gamesearch solve connect4 --nope 3")
    assert named_files("see src/gamesearch/game.py and `tests/x.py`; run `cp bench/a.png d/`") \
        == ["src/gamesearch/game.py", "tests/x.py"]
    assert quoted_commands("run `gamesearch tables` then\n```\n$ gamesearch train td\n```") \
        == ["gamesearch tables", "gamesearch train td"]
