"""``gamesearch warmup``: every game with compiled code and every algorithm kernel is warmed
up (issue 13: it compiled Connect Four only), the list comes from the catalog, not from a
game list inside kernels/, and a warm-up leaves the code in numba's cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gamesearch.kernels as kernels_package
from gamesearch.catalog.warmup import ALGORITHM_WARMUPS, games_with_warmups, warmup_steps
from gamesearch.errors import GameSearchError
from gamesearch.games import REGISTRY


def test_every_game_with_compiled_code_is_registered_and_warmed() -> None:
    assert set(games_with_warmups()) <= set(REGISTRY)
    names = [name for name, _ in warmup_steps()]
    for game in ("connect4", "backgammon", "pig"):
        assert any(game in name for name in names), (game, names)
    assert any("CFR" in name for name in names)
    for name, _ in ALGORITHM_WARMUPS:
        assert name in names
    assert len(names) == len(set(names))  # poker games share one CFR step


def test_the_kernel_framework_names_no_game() -> None:
    games = set(REGISTRY)
    for path in Path(kernels_package.__path__[0]).glob("*.py"):
        text = path.read_text()
        named = sorted(g for g in games if f'"{g}' in text or f"games.{g}" in text)
        assert named == [], f"{path.name} names games {named}"


def test_a_game_without_compiled_code_is_refused_with_the_ones_that_have_some() -> None:
    with pytest.raises(GameSearchError, match="no compiled kernel.*connect4"):
        warmup_steps(["tictactoe"])


def test_game_specs_warm_their_own_size() -> None:
    names = [name for name, _ in warmup_steps(["connect4:width=5,height=4"])]
    assert names and all("5x4" in name for name in names)


def test_a_warmup_step_leaves_its_code_cached() -> None:
    """After the pig step, a fresh process loads the table solver without compiling."""
    step = dict(warmup_steps(["pig"]))["pig value iteration"]
    step()
    code = ("from gamesearch.engines.pig.solver import _solve_layer, solve_pig\n"
            "solve_pig(goal=4)\n"
            "stats = _solve_layer.stats\n"
            "print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    hits, misses = map(int, done.stdout.split()[-2:])
    assert (hits, misses) == (1, 0)


def test_the_record_holds_only_while_nothing_changed(tmp_path, monkeypatch) -> None:
    from gamesearch.kernels import warmup

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    index = tmp_path / "games_x" / "f.nbi"
    index.parent.mkdir()
    index.write_bytes(b"1")
    assert not warmup.is_recorded("pig")
    warmup.record("pig")
    assert warmup.is_recorded("pig") and not warmup.is_recorded("*")
    index.write_bytes(b"22")  # numba rewrote an index: a new signature, or a stale one
    assert not warmup.is_recorded("pig")
    warmup.record("pig")
    (tmp_path / "__pycache__" / "gamesearch-warmup.json").write_text("{not json")
    assert not warmup.is_recorded("pig")


def test_a_second_warmup_with_everything_cached_returns_at_once(tmp_path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "gamesearch", "warmup", "pig", "--json"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["cached"] is False
    start = time.perf_counter()
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    seconds = time.perf_counter() - start
    assert json.loads(second.stdout) == {"compiled": [], "cached": True}
    assert seconds < 1.5, f"a warm-up with everything cached took {seconds:.2f} s"
    forced = subprocess.run([*command, "--force"], capture_output=True, text=True, env=env,
                            timeout=300)
    assert json.loads(forced.stdout)["compiled"]
