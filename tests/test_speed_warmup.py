"""``gamesearch warmup``: every game with compiled code and every algorithm kernel is warmed
up (issue 13: it compiled Connect Four only), the list comes from the catalog, not from a
game list inside kernels/, and a warm-up leaves the code in numba's cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import gamesearch.kernels as kernels_package
from gamesearch.catalog_warmup import ALGORITHM_WARMUPS, GAME_WARMUPS, warmup_steps
from gamesearch.errors import GameSearchError
from gamesearch.games import REGISTRY


def test_every_game_with_compiled_code_is_registered_and_warmed() -> None:
    assert set(GAME_WARMUPS) <= set(REGISTRY)
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
    with pytest.raises(GameSearchError, match="no compiled code.*connect4"):
        warmup_steps(["tictactoe"])


def test_game_specs_warm_their_own_size() -> None:
    names = [name for name, _ in warmup_steps(["connect4:width=5,height=4"])]
    assert names and all("5x4" in name for name in names)


def test_a_warmup_step_leaves_its_code_cached() -> None:
    """After the pig step, a fresh process loads the table solver without compiling."""
    step = dict(warmup_steps(["pig"]))["pig value iteration"]
    step()
    code = ("from gamesearch.games.pig_solver import _solve_layer, solve_pig\n"
            "solve_pig(goal=4)\n"
            "stats = _solve_layer.stats\n"
            "print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    hits, misses = map(int, done.stdout.split()[-2:])
    assert (hits, misses) == (1, 0)
