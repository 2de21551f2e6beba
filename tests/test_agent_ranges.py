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


def test_a_spec_is_checked_as_make_agent_checks_it_without_building_it() -> None:
    """``check_agent_spec`` and ``check_game_spec`` (the docs' commands are checked with
    them) refuse what ``make_agent`` and ``load_game`` refuse, in the same words, and build
    nothing: a network file that is not there is no error of the spec."""
    from gamesearch.agents import check_agent_spec, make_agent
    from gamesearch.errors import GameSearchError
    from gamesearch.games import check_game_spec, load_game

    for bad in ("mcts:iteratons=5", "alphabeta:depth=0", "nobody", "mcts:time=x"):
        with pytest.raises(GameSearchError) as made:
            make_agent(bad)
        with pytest.raises(GameSearchError) as checked:
            check_agent_spec(bad)
        assert str(checked.value) == str(made.value), bad
    for bad in ("connect4:width=99", "nim:piles=x", "chesss"):
        with pytest.raises(GameSearchError) as made:
            load_game(bad)
        with pytest.raises(GameSearchError) as checked:
            check_game_spec(bad)
        assert str(checked.value) == str(made.value), bad
    with pytest.raises(GameSearchError, match="no checkpoint"):
        make_agent("td-gammon:weights=/no/such.npz")  # building it reads the file
    assert check_agent_spec("td-gammon:weights=/no/such.npz") is AGENTS["td-gammon"].factory
    assert check_game_spec("connect4:width=6,height=5").name == "connect4"
