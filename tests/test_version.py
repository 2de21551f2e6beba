"""The version the package reports: the CLI and ``gamesearch.__version__`` give the installed
metadata's, a source tree never installed gives pyproject.toml's, and CHANGELOG.md has an entry
for it (an unreleased one for a development version). Also where numba's cache goes when the
package folder is read-only (gamesearch/numbacache.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import gamesearch
from gamesearch import numbacache
from gamesearch.version import UNKNOWN, source_version, version

ROOT = Path(__file__).resolve().parents[1]


def changelog_entry(number: str) -> str | None:
    """The heading line of ``number``'s entry in CHANGELOG.md, or None."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    found = re.search(rf"^## \[{re.escape(number)}\](.*)$", text, re.M)
    return found.group(0) if found else None


def test_cli_reports_the_installed_metadata_version() -> None:
    done = subprocess.run([sys.executable, "-m", "gamesearch", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"gamesearch {metadata.version('gamesearch')}"
    assert gamesearch.__version__ == metadata.version("gamesearch")


def test_a_source_tree_never_installed_reads_pyproject(monkeypatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert version() == source_version() != UNKNOWN
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+)?", source_version())


def test_source_version_reads_only_our_project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.x]\nversion = "9"\n[project]\n'
                                             'name = "other"\nversion = "1.0"\n')
    assert source_version(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "gamesearch"\n'
                                             'version = "2.5.1"\n[tool.y]\nversion = "3"\n')
    assert source_version(tmp_path) == "2.5.1"
    assert source_version(tmp_path / "nowhere") is None


@pytest.mark.parametrize("reported", ["installed", "source"])
def test_changelog_has_an_entry_for_the_version(reported: str) -> None:
    number = gamesearch.__version__ if reported == "installed" else source_version()
    heading = changelog_entry(number)
    assert heading is not None, f"CHANGELOG.md has no '## [{number}]' entry"
    if re.search(r"(dev|a|b|rc)\d+$", number):
        assert "Unreleased" in heading, heading
    else:
        assert re.search(r" - \d{4}-\d{2}-\d{2}", heading), heading


# --- numba's cache folder ---------------------------------------------------------------


def test_a_read_only_package_caches_in_the_users_folder(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(numbacache, "package_writable", lambda package=None: False)
    monkeypatch.setattr(sys, "platform", "linux")  # the XDG rule (macOS, Windows differ)
    env = {"HOME": str(tmp_path / "home")}
    assert numbacache.configure(env) == str(tmp_path / "home/.cache/gamesearch/numba")
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "home/.cache/gamesearch/numba")
    env = {"HOME": "/h", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    numbacache.configure(env)
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "xdg/gamesearch/numba")
    env = {"HOME": "/h", "XDG_CACHE_HOME": "relative/ignored"}  # the XDG rule: absolute only
    numbacache.configure(env)
    assert env["NUMBA_CACHE_DIR"] == "/h/.cache/gamesearch/numba"


def test_the_users_own_setting_and_a_writable_package_are_left_alone(monkeypatch,
                                                                     tmp_path: Path) -> None:
    env = {"HOME": "/h", "NUMBA_CACHE_DIR": "/mine"}
    monkeypatch.setattr(numbacache, "package_writable", lambda package=None: False)
    assert numbacache.configure(env) is None and env["NUMBA_CACHE_DIR"] == "/mine"
    monkeypatch.undo()
    env = {"HOME": "/h"}
    assert numbacache.configure(env, package=str(tmp_path)) is None  # tmp_path is writable
    assert "NUMBA_CACHE_DIR" not in env


def test_package_writable_looks_at_the_folder_and_its_pycache(tmp_path: Path) -> None:
    assert numbacache.package_writable(str(tmp_path))
    assert not numbacache.package_writable(str(tmp_path / "absent"))
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders: .ci/wheel-smoke checks as nobody")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        assert not numbacache.package_writable(str(tmp_path))
    finally:
        cache.chmod(0o755)


@pytest.mark.parametrize("numba_first", [False, True])
def test_numba_sees_the_folder_set_at_import(tmp_path: Path, numba_first: bool) -> None:
    """In a fresh interpreter whose package folder reads as not writable, numba's own
    configuration holds the user's folder: set before numba is imported, or reloaded when
    numba came first."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the user's cache folder is the XDG one on Linux only")
    code = ("import os\n"
            "real = os.access\n"
            "os.access = lambda path, mode, **kw: (mode != os.W_OK or 'gamesearch' not in\n"
            "                                      str(path)) and real(path, mode, **kw)\n"
            + ("import numba\n" if numba_first else "")
            + "import gamesearch\n"
            "from gamesearch.kernels.warmup import _cache_root\n"
            "import numba.core.config as c\n"
            "print(c.CACHE_DIR, _cache_root())\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    folder = str(tmp_path / ".cache" / "gamesearch" / "numba")
    assert done.stdout.split() == [folder, folder]  # the warm-up record follows it too
