"""The teaching notebooks (docs/notebooks, docs/NOTEBOOKS.md): each runs top to bottom in a
fresh kernel without an error, and each is committed without outputs (a small diff, no
stale pictures)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 120
"""Seconds one cell may run (each notebook takes 4 to 11 s in all on one core)."""


def test_the_lectures_have_their_notebooks() -> None:
    """One notebook per lecture, numbered in the lectures' order, each listed in
    docs/NOTEBOOKS.md."""
    assert len(NOTEBOOKS) == 8
    assert [p.name[:3] for p in NOTEBOOKS] == [f"{i:02d}_" for i in range(1, 9)]
    index = (ROOT / "docs" / "NOTEBOOKS.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert path.name in index, f"{path.name} is not in docs/NOTEBOOKS.md"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and any(c.cell_type == "markdown" for c in notebook.cells)
    assert all(not c.outputs and c.execution_count is None for c in code), \
        f"{path.name} has outputs: clear them before committing"


@pytest.mark.ci_step  # its own CI step (.ci/run): a minute of kernels beside the suite
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cell runs in a fresh kernel; a cell's error fails the test with its traceback.
    The kernel imports this checkout's gamesearch (src/ first on its path)."""
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    path_now = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                   path_now])))
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    ran = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in ran)
    assert not [o for c in ran for o in c.outputs if o.output_type == "error"]
