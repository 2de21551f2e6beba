"""docs/ADDING_A_GAME.md stays true: its code is the example package's (examples/
gamesearch-bachet: rules.py and engine.py), its sessions run, and the example game plays
Bachet's game as the theory says."""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from gamesearch.search import alphabeta

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "examples" / "gamesearch-bachet" / "src"


def _example(name: str):
    """A module of the example package, loaded from its file: never put on sys.path, so
    the package's metadata cannot register its game in this process (that is what
    installing it does: tests/test_installed_game.py)."""
    path = PACKAGE / "gamesearch_bachet" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_bachet_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba's cache needs to find the module by name
    spec.loader.exec_module(module)
    return module


Bachet = _example("rules").Bachet
bachet_value = _example("engine").bachet_value

PAGE = (ROOT / "docs" / "ADDING_A_GAME.md").read_text(encoding="utf-8")
EXAMPLE = "\n".join((PACKAGE / "gamesearch_bachet" / name).read_text(encoding="utf-8")
                    for name in ("rules.py", "engine.py"))


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, flags=re.S)


@pytest.mark.parametrize("block", blocks("python"), ids=lambda b: b.split("\n")[0][:40])
def test_every_code_block_is_part_of_the_example_file(block: str) -> None:
    assert block in EXAMPLE


def test_the_sessions_on_the_page_run() -> None:
    sessions = blocks("pycon")
    assert len(sessions) == 3
    page = doctest.DocTestParser().get_doctest("\n".join(sessions), {"Bachet": Bachet},
                                               "ADDING_A_GAME.md", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(page)  # one session: names carry from block to block
    assert runner.failures == 0 and runner.tries > 8


@pytest.mark.parametrize("max_take", [2, 3])
def test_multiples_of_max_take_plus_one_are_lost_for_the_mover(max_take: int) -> None:
    """Winning Ways, subtraction games: the P-positions of take 1..k are the multiples of
    k + 1 (Bachet 1612, k = 3, 21 sticks: the first player wins by taking 1)."""
    for sticks in range(1, 22):
        game = Bachet(sticks, max_take)
        result = alphabeta(game, game.initial_state())
        assert result.value == (-1 if sticks % (max_take + 1) == 0 else 1), sticks
        if result.value == 1:
            assert (sticks - result.action) % (max_take + 1) == 0
        assert bachet_value(sticks, max_take)[0] == result.value  # the engine's theory


def test_bad_parameters_are_one_clear_line() -> None:
    from gamesearch.errors import GameSearchError

    with pytest.raises(GameSearchError, match="sticks 1-1000"):
        Bachet(0)
