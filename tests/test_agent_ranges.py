"""Ranges and defaults agree (issue #39): every numeric parameter's default lies in the
range ``gamesearch agents`` shows and ``make_agent`` enforces (td-gammon's depth defaulted to
0 while the shown range began at 1)."""

from __future__ import annotations

import inspect

import pytest

from gamesearch.agents import AGENTS
from gamesearch.catalog import agents_for  # noqa: F401  (the catalog registers every kind)
from gamesearch.spec import agent_ranges


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_default_is_inside_its_range(name: str) -> None:
    factory = AGENTS[name].factory
    ranges = agent_ranges(factory)
    for param, p in inspect.signature(factory).parameters.items():
        default = p.default
        if param in ranges and isinstance(default, (int, float)) and not isinstance(default,
                                                                                   bool):
            ranges[param].check(default, f"{name}'s default {param}")  # raises outside


def test_play_refuses_a_negative_seed_as_match_does(cli) -> None:
    code, _, err = cli("play", "tictactoe", "--player1", "random", "--player2", "random",
                       "--seed", "-1")
    assert code == 2 and "--seed" in err
