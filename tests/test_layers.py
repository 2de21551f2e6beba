"""The import contract of pyproject.toml (shared/DESIGN.md's layers) holds, and would catch a
new crossing: the same ``lint-imports`` run on a copy of the package with one planted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gamesearch"
LINT = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")

pytestmark = pytest.mark.skipif(not Path(LINT).exists(), reason="import-linter not installed")


def lint(root: Path, config: Path) -> subprocess.CompletedProcess:
    """Run the contract over the package found under ``root``."""
    return subprocess.run([LINT, "--config", str(config), "--no-cache"], cwd=root,
                          env={"PYTHONPATH": str(root), "PATH": str(Path(LINT).parent)},
                          capture_output=True, text=True, timeout=120)


def test_the_layers_hold() -> None:
    run = lint(ROOT / "src", ROOT / "pyproject.toml")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "5 kept, 0 broken" in run.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's Python files, copied (data left out), with the project's contract."""
    root = tmp_path_factory.mktemp("layers")
    shutil.copytree(PACKAGE, root / "gamesearch", ignore=lambda folder, names: [
        n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()
        or n in ("__pycache__", "data", "static")])
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("games/_planted.py", "from gamesearch.search.alphabeta import alphabeta",
     "games/ are rules only"),
    ("learn/_planted.py", "from gamesearch.games.connect4 import ConnectFour",
     "algorithms know no specific game"),
    ("kernels/_planted.py", "import gamesearch.catalog", "faces > catalog"),
    ("search/_planted.py", "from gamesearch.agents import make_agent",
     "no cycle between subpackages"),
    ("engines/chess/_planted.py", "from gamesearch.engines.checkers import engine",
     "an engine joins one game to the algorithms"),
    ("games/_planted.py", "from gamesearch.engines.chess import engine",
     "faces > catalog > engines"),
    ("outside/_planted.py", "from gamesearch.games.chess import rules",
     "algorithms know no specific game"),
    ("engines/go/_planted.py", "import gamesearch.catalog", "faces > catalog > engines"),
])
def test_a_new_crossing_is_caught(copy: Path, module: str, line: str, contract: str) -> None:
    planted = copy / "gamesearch" / module
    planted.write_text(line + "\n")
    try:
        run = lint(copy, copy / "pyproject.toml")
    finally:
        planted.unlink()
    assert run.returncode != 0
    broken = [ln for ln in run.stdout.splitlines() if ln.endswith(" BROKEN")]
    assert [ln for ln in broken if ln.startswith(contract)], run.stdout[-3000:]


# --- one home per game: no game's name in the faces, the catalog or the algorithms ----------

NAME_FREE = ["cli", "web", "catalog", "agents", "arena", "search", "imperfect", "theory",
             "learn", "tables", "kernels", "outside", "interop", "display.py", "drawing.py"]
"""Packages that look games up (entries) and never name one."""


def test_faces_catalog_and_algorithms_name_no_game() -> None:
    """A game's name as a string appears only in its own packages (games/<g>, engines/<g>),
    so a new game changes nothing in cli/, web/, catalog/ or an algorithm package. "tree"
    (the tree lab) and "pacman" (a command) are ordinary words there, and names of two
    letters are too short to tell."""
    import ast

    from gamesearch.games import entries

    names = {e.name for e in entries() if len(e.name) > 2} - {"tree", "pacman"}
    hits: dict[str, list[str]] = {}
    for package in NAME_FREE:
        where = PACKAGE / package
        for path in sorted(where.rglob("*.py")) if where.is_dir() else [where]:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found = [f"{n.lineno}:{n.value}" for n in ast.walk(tree)
                     if isinstance(n, ast.Constant) and n.value in names]
            if found:
                hits[str(path.relative_to(PACKAGE))] = found
    assert not hits, f"game names outside the games' own packages: {hits}"
