"""Every relative link in docs/*.md, README.md and the notebooks' markdown points at a file
that exists (and, for a markdown page, at one of its headings when it names one), every
repository file they name (``src/...``, ``docs/...``, ``tests/...``, ``bench/...``) exists,
and every ``gamesearch ...`` command quoted in them parses and names real games, agents and
options (tests/doc_commands.py). The site build (tests/test_docs_site.py, ``mkdocs build
--strict``) checks links too, but only where the docs extra is installed and in minutes;
this runs in a second.

Pages the site generates (docs/hooks/: ``reference/cli.md``, ``reference/api/<module>.md``,
``games/<name>.md``) are accepted where the hook would make them."""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from pathlib import Path

import pytest

from doc_commands import check_command, command_tree, example_games, quoted_commands

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


@pytest.fixture(scope="module")
def tree():
    return command_tree()


@pytest.fixture
def commands(tree):
    """The command line's click tree, with the example packages' games registered while a
    test runs (the docs quote ``gamesearch solve bachet`` for a reader who installed the
    example)."""
    with example_games(ROOT / "examples"):
        yield tree


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_commands_quoted_in_a_page_parse(page: Path, commands) -> None:
    """Each ``gamesearch ...`` command of README.md and docs/*.md, parsed as the command
    line parses it, its games and agents checked as the commands check them, the options
    it gives a game checked against the game's ENTRY (tests/doc_commands.py)."""
    quoted = quoted_commands(page.read_text(encoding="utf-8"))
    bad = [why for c in quoted if (why := check_command(commands, c)) is not None]
    assert not bad, bad


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_commands_quoted_in_a_notebook_parse(notebook: Path, commands) -> None:
    bad = [why for c in quoted_commands(markdown_cells(notebook))
           if (why := check_command(commands, c)) is not None]
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


MISTAKES = [
    ("gamesearch solve connect4 --wek", "has no option --wek"),  # the game's ENTRY: no such
    ("gamesearch solve connect4 --weak=maybe", "expected true or false"),  # a solver option
    ("gamesearch solve nim --piles x", "piles: expected a whole number"),  # a game parameter
    ("gamesearch solve pig:goal=0", "goal: 0 is out of range"),
    ("gamesearch solve kuhn_poker --depth 3", "--depth does not apply"),
    ("gamesearch solve chesss", "unknown game 'chesss'"),
    ("gamesearch perft chess --depth x", "Invalid value for '--depth'"),  # click's types
    ("gamesearch solve connect4 --position", "requires an argument"),
    ("gamesearch tables build chess --pieces N --nope", "has no option --nope"),
    ("gamesearch play connect4 --player2 mcts:iteratons=5", "unknown parameter(s) iteratons"),
    ("gamesearch match connect4 alphabeta:depth=0 random", "depth: 0 is out of range"),
    ("gamesearch match chess checkers-engine random", "plays checkers only, not chess"),
    ("gamesearch warmup connect4:width=99", "width: 99 is out of range"),
    ("gamesearch pacman play --ghosts sleepy", "unknown agent 'sleepy'"),
    ("gamesearch analyze tictactoe", "no analyzer"),
    ("gamesearch train td connect4", "train td plays backgammon only"),
    ("gamesearch solve GAME --plott FILE", "has no option --plott (nor has any game)"),
    ("gamesearch match go go-mcts:playouts=N,nope=1 random", "unknown parameter(s) nope"),
    ("nice python -m gamesearch solve chesss", "unknown game 'chesss'"),
]


@pytest.mark.parametrize(("line", "words"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_the_command_check_catches_each_kind_of_mistake(line: str, words: str,
                                                       commands) -> None:
    why = check_command(commands, line)
    assert why is not None and words in why, why


def test_synopses_and_quoting_are_understood(commands) -> None:
    """Optional parts, alternatives, placeholders (as option values, in specs, for the
    game), ``...``, the help and version flags, and the aliases parse as the reader means."""
    for line in ["gamesearch solve connect4 --batch FILE [--weak]",
                 "gamesearch tree TREE --algorithm minimax|alphabeta",
                 "gamesearch tables verify checkers --pieces N [--dir D]",
                 "gamesearch book connect4 --depth D -j K [--backend ray --address ...]",
                 "gamesearch match go go-mcts:playouts=N gtp --games 2",
                 "gamesearch COMMAND --help", "gamesearch --version", "gamesearch solve",
                 "gamesearch play pacman --pacman expectimax:depth=2 --ghosts directional",
                 "gamesearch solve nim:piles=3-4 --misere", "gamesearch solve bachet --sticks 20"]:
        assert check_command(commands, line) is None, line
    assert "unknown game 'tictactoo'" in check_command(commands, "gamesearch solve tictactoo")
    text = ("`gamesearch solve\nGAME --json` and\n\n    PYTHONPATH=src nice python -m "
            "gamesearch perft chess \\\n        --depth 3\n\n`bench/x.py --opponent "
            "\"env python -m gamesearch uci\"` and `gamesearch efg k -o k.efg && gamesearch "
            "nash k.efg`")
    assert quoted_commands(text) == [
        "gamesearch solve GAME --json", "gamesearch uci", "gamesearch efg k -o k.efg",
        "gamesearch nash k.efg", "gamesearch perft chess --depth 3"]


def test_the_example_games_are_registered_for_the_check_only() -> None:
    from gamesearch.games import REGISTRY, entries

    entries()
    before = set(REGISTRY)
    with example_games(ROOT / "examples") as added:
        assert "bachet" in added and "bachet" in REGISTRY
    assert set(REGISTRY) == before and "bachet" not in REGISTRY
