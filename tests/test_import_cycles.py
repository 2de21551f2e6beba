"""No import circle anywhere in the package, lazy imports inside functions included (a
circle that only a lazy import hides still ties two modules into one unit that cannot be
read, tested or moved alone). Imports under ``if TYPE_CHECKING:`` are left out: they never
run. The detector is also run on a copy of the package with a circle planted in it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gamesearch"

FIND = """
import sys
import grimp

graph = grimp.build_graph("gamesearch", exclude_type_checking_imports=True, cache_dir=None)
edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
index, low, stack, on, order, circles = {}, {}, [], set(), [0], []

def visit(root):
    # Tarjan's strongly connected components, iteratively (the graph is deep).
    work = [(root, iter(edges[root]))]
    index[root] = low[root] = order[0]; order[0] += 1; stack.append(root); on.add(root)
    while work:
        node, children = work[-1]
        for child in children:
            if child not in index:
                index[child] = low[child] = order[0]; order[0] += 1
                stack.append(child); on.add(child)
                work.append((child, iter(edges[child])))
                break
            if child in on:
                low[node] = min(low[node], index[child])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop(); on.discard(top); part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    circles.append(sorted(part))

for module in sorted(graph.modules):
    if module not in index:
        visit(module)
for part in circles:
    print(" <-> ".join(part))
"""


def circles(root: Path) -> list[str]:
    """The import circles of the package found under ``root``, one line each."""
    run = subprocess.run([sys.executable, "-c", FIND], cwd=root, env={"PYTHONPATH": str(root)},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.splitlines()


def test_no_module_imports_itself_through_others() -> None:
    assert circles(ROOT / "src") == []


def test_a_planted_lazy_circle_is_found(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "gamesearch", ignore=lambda folder, names: [
        n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()
        or n in ("__pycache__", "data", "static")])
    # the shape the circles removed in round three had: rules that load their helper on use,
    # and a helper that imports the rules
    (tmp_path / "gamesearch" / "games" / "_planted_rules.py").write_text(
        "def helper():\n    from gamesearch.games._planted_helper import H\n    return H\n")
    (tmp_path / "gamesearch" / "games" / "_planted_helper.py").write_text(
        "from gamesearch.games._planted_rules import helper\nH = helper\n")
    found = circles(tmp_path)
    assert found == ["gamesearch.games._planted_helper <-> gamesearch.games._planted_rules"]
