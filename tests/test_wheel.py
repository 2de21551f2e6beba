"""The built wheel holds every file the code reads from the installed package: the web page's
static files and the shipped data (gamesearch/shipped.py). A file missing from the package
data works in a clone and breaks only in a real install, so the wheel itself is listed.

``.ci/wheel-smoke`` goes further (installs the wheel, runs the program); this test only builds.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gamesearch"

pytestmark = [
    pytest.mark.ci_step,  # its own CI step (.ci/run), beside the wheel smoke test
    pytest.mark.skipif(importlib.util.find_spec("build") is None,
                       reason="needs 'build' (the [dev] extra)"),
]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The file names in a wheel built from a copy of the project (the copy keeps build
    folders and egg-info out of the source tree)."""
    root = tmp_path_factory.mktemp("wheel")
    project = root / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(PACKAGE, project / "src" / "gamesearch",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir",
                           str(root / "dist"), str(project)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = (root / "dist").glob("gamesearch-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def package_files(folder: str) -> list[str]:
    """The files under ``src/gamesearch/<folder>``, as wheel paths."""
    return sorted(str(p.relative_to(PACKAGE.parent)) for p in (PACKAGE / folder).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


@functools.cache
def named_data_paths() -> list[str]:
    """Every data path the code names with literal text: ``shipped("a", "b")`` and
    ``resources.files("gamesearch.data").joinpath("a/b")``, as wheel paths (a folder for a
    partial name such as ``shipped("connect4")``)."""
    named = []
    for source in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)
                     and isinstance(a.value, str)]
            if not texts or len(texts) != len(node.args):
                continue
            func = node.func
            through_shipped = isinstance(func, ast.Name) and func.id == "shipped"
            through_resources = (
                isinstance(func, ast.Attribute) and func.attr == "joinpath"
                and isinstance(func.value, ast.Call) and func.value.args
                and isinstance(func.value.args[0], ast.Constant)
                and func.value.args[0].value == "gamesearch.data")
            if through_shipped or through_resources:
                named.append("gamesearch/data/" + "/".join(texts))
    return sorted(set(named))


def test_the_code_names_shipped_data() -> None:
    named = named_data_paths()
    # the networks, weights, examples and layouts read through shipped() and resources
    for expected in ("gamesearch/data/connect4/alphazero.npz", "gamesearch/data/backgammon",
                     "gamesearch/data/othello/weights.npz", "gamesearch/data/pacman",
                     "gamesearch/data/efg", "gamesearch/data/checkers/weights.json"):
        assert expected in named, named


def test_the_wheel_holds_every_data_and_static_file(wheel_names: set[str]) -> None:
    wanted = package_files("data") + package_files("web/static")
    assert "gamesearch/web/static/index.html" in wanted
    missing = [name for name in wanted if name not in wheel_names]
    assert not missing, f"not in the wheel: {missing}"


def test_the_wheel_holds_what_the_code_names(wheel_names: set[str]) -> None:
    for name in named_data_paths():
        assert name in wheel_names or any(n.startswith(name + "/") for n in wheel_names), name


def test_the_wheel_holds_every_module_and_the_entry_point(wheel_names: set[str]) -> None:
    modules = sorted(str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py"))
    missing = [m for m in modules if m not in wheel_names]
    assert not missing, f"modules not in the wheel: {missing}"
    (entry_points,) = [n for n in wheel_names if n.endswith(".dist-info/entry_points.txt")]
    assert entry_points.startswith("gamesearch-")
