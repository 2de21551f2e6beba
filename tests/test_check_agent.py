"""The result contract holds for every game and every agent that fits it (issue #37):
``gamesearch.testing.check_agent`` asks each pair for moves at random positions and checks
the answer (legal move, legal principal variation, the value's viewpoint set, the score
readable for every player, the time limit kept, a stop request obeyed). Outside programs
(UCI, GTP, gnubg) are left to their own tests: they need the programs installed."""

from __future__ import annotations

import inspect

import pytest

from gamesearch.agent import Agent
from gamesearch.agents import AGENTS, make_agent
from gamesearch.catalog import agents_for
from gamesearch.errors import GameSearchError
from gamesearch.games import entries, load_game
from gamesearch.result import SearchResult, SearchStats
from gamesearch.testing import GameCheckError, check_agent

SPECS = {"pacman": "pacman:layout=tiny"}
"""A small instance where the default is large."""
SMALL = (("time", "0.2"), ("depth", "1"), ("iterations", "50"), ("simulations", "50"),
         ("playouts", "256"), ("samples", "3"))
"""The first bound a kind takes, set small: the contract, not the strength, is tested."""


def small_agent(name: str) -> Agent:
    params = inspect.signature(AGENTS[name].factory).parameters
    for key, value in SMALL:
        if key in params:
            try:
                return make_agent(f"{name}:{key}={value}")
            except GameSearchError:  # a kind that takes no such value (td-gammon's depth)
                break
    return make_agent(name)


def pairs() -> list[tuple[str, str]]:
    out = []
    for entry in entries():
        game = load_game(SPECS.get(entry.name, entry.name))
        out += [(entry.name, name) for name in agents_for(game)
                if name != "human" and not AGENTS[name].outside]
    return out


@pytest.mark.parametrize(("game_name", "agent_name"), pairs())
def test_every_fitting_agent_keeps_the_contract(game_name: str, agent_name: str) -> None:
    game = load_game(SPECS.get(game_name, game_name))
    report = check_agent(game, small_agent(agent_name), positions=1)
    assert report.positions == 1 and report.checks["legal-move"] == 1


class NoViewpoint(Agent):
    """Plays the first legal move and forgets to say whose value it gives."""

    spec = "no-viewpoint"

    def __call__(self, game, state):
        action = list(game.actions(state))[0]
        return SearchResult(0.5, action, [action], SearchStats())


class LongLine(Agent):
    """A principal variation that plays the same move twice."""

    spec = "long-line"

    def __call__(self, game, state):
        action = list(game.actions(state))[0]
        return SearchResult(0.0, action, [action, action], SearchStats(),
                            pov=game.to_move(state))


@pytest.mark.parametrize(("agent", "check"), [(NoViewpoint(), "pov"), (LongLine(), "pv")])
def test_a_broken_agent_is_caught(agent: Agent, check: str) -> None:
    with pytest.raises(GameCheckError) as err:
        check_agent(load_game("tictactoe"), agent)
    assert err.value.check == check
