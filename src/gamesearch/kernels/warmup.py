"""Warm-up steps: compile (or load from numba's on-disk cache) compiled code before it is
timed, so that ``gamesearch warmup`` pays every compilation once and later sessions start at
once. This module knows no game: :mod:`gamesearch.catalog.warmup` says what to warm up."""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gamesearch.kernels.contract import GameKernel

WarmupStep = tuple[str, Callable[[], object]]
"""A step's name and the call that compiles (or loads) one piece of compiled code."""


def timed(step: Callable[[], object]) -> float:
    """Run one step; the seconds it took."""
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def kernel_steps(kernel: GameKernel, state: object) -> list[WarmupStep]:
    """The generic searches (negamax, MCTS) compiled against a game's kernel, run briefly
    from ``state`` (a game state, e.g. the initial one)."""
    return [(f"{kernel.name} primitives + negamax", lambda: _negamax(kernel, state)),
            (f"{kernel.name} MCTS", lambda: _mcts(kernel, state))]


def _negamax(kernel: GameKernel, state: object) -> None:
    import numpy as np

    from gamesearch.kernels.negamax import N_STATS
    from gamesearch.kernels.search import KernelTable

    p = kernel.primitives
    s = kernel.encode(state)
    table = KernelTable(0.01)
    kernel.negamax.negamax(s, 1, -np.inf, np.inf, 0, True, True, *table.arrays(),
                           np.zeros((8, kernel.max_actions), np.int64),
                           np.zeros(N_STATS, np.int64), np.zeros(1, np.int64))
    p.evaluate(s)


def _mcts(kernel: GameKernel, state: object) -> None:
    import numpy as np

    n = kernel.max_actions
    kernel.mcts.mcts_run(kernel.encode(state), 10, 1.4, 64, 0,
                         np.zeros(n, np.int64), np.zeros(n), np.zeros(n))



# --- the record of the last complete warm-up -------------------------------------------------
# Loading cached code still costs numba's start-up (about a second: importing numba, then its
# type registries and scipy's BLAS on the first load). A warm-up that finished writes a
# record of what it relied on: the version of Python and numba, and the size and time of
# every source file of the package and every numba cache index. While none of them has
# changed, the cache still holds every compiled function, and a warm-up has nothing to do.


def _package_root() -> Path:
    return Path(__file__).resolve().parent.parent


def _cache_root() -> Path:
    """Where numba keeps this package's cache: NUMBA_CACHE_DIR, else beside the sources."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    return Path(configured) if configured else _package_root()


def _fingerprint() -> dict[str, object]:
    from importlib.metadata import version

    files: dict[str, list[int]] = {}
    for pattern, root in (("*.py", _package_root()), ("*.nbi", _cache_root())):
        for path in sorted(root.rglob(pattern)):
            stat = path.stat()
            files[str(path)] = [stat.st_mtime_ns, stat.st_size]
    return {"python": sys.version, "numba": version("numba"), "machine": platform.machine(),
            "files": files}


def _record_path() -> Path:
    return _cache_root() / "__pycache__" / "gamesearch-warmup.json"


def is_recorded(key: str) -> bool:
    """True when a warm-up of ``key`` (e.g. the game specs) finished and nothing it relied
    on has changed since."""
    try:
        record = json.loads(_record_path().read_text())
    except (OSError, ValueError):
        return False
    return key in record.get("keys", []) and record.get("fingerprint") == _fingerprint()


def record(key: str) -> None:
    """Note that a warm-up of ``key`` finished (atomically; a failure to write is ignored:
    the next warm-up then loads everything again)."""
    path = _record_path()
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError):
        old = {}
    fingerprint = _fingerprint()
    keys = old.get("keys", []) if old.get("fingerprint") == fingerprint else []
    data = {"fingerprint": fingerprint, "keys": sorted({*keys, key})}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False,
                                         suffix=".tmp") as out:
            json.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(out.name, path)
    except OSError:
        pass
