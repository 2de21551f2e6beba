"""The catalog: every default agent fits its game and answers a move; mismatches are refused
in one line that names the agents that fit (issue: pig-optimal on tic-tac-toe, ismcts on
Connect Four were tracebacks)."""

from __future__ import annotations

import random

import pytest

from gamesearch.agents import AGENTS, act, make_agent
from gamesearch.catalog import agent_problem, agents_for, check_agent_fits, default_agent
from gamesearch.errors import GameSearchError, SpecError
from gamesearch.game import CHANCE
from gamesearch.games import REGISTRY, load_game

SMALL = {"pig": "pig:goal=20"}


def first_decision(game, seed=0):
    state, rng = game.initial_state(), random.Random(seed)
    while game.to_move(state) == CHANCE:
        state = game.result(state, act(None, game, state, rng).action)
    return state


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_default_fits_and_plays_a_legal_move(name):
    game = load_game(SMALL.get(name, name))
    state = first_decision(game)
    for seat in range(game.num_players):
        spec = default_agent(game, seat)
        assert agent_problem(spec, game, seat) is None, (name, seat, spec)
    mover = game.to_move(state)
    agent = make_agent(default_agent(game, mover))
    agent.prepare(game)
    try:
        assert agent(game, state).action in list(game.actions(state))
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_fitting_agent_plays_a_legal_move(name):
    """What the catalog offers really plays: no agent it lists raises on the game."""
    game = load_game(SMALL.get(name, name))
    state = first_decision(game, seed=1)
    quick = {"minimax": "minimax:depth=1", "alphabeta": "alphabeta:depth=1",
             "maxn": "maxn:depth=1", "paranoid": "paranoid:depth=1",
             "expectimax": "expectimax:depth=1", "expectiminimax": "expectiminimax:depth=1",
             "mcts": "mcts:iterations=30", "ismcts": "ismcts:iterations=30",
             "pimc": "pimc:samples=2", "kernel-mcts": "kernel-mcts:simulations=100",
             "gammon": "gammon:depth=1", "pacman": "pacman:depth=1",
             "gtp-othello": "gtp-othello:cmd=gtp-rhino"}  # any GTP program: one we know
    mover = game.to_move(state)
    exact = name == "tree" or not hasattr(game, "evaluate")  # no evaluation at a depth cut
    for kind in agents_for(game, mover):
        if kind in ("human",) or kind == "solver" and game.name == "connect4":
            continue
        spec = quick.get(kind, kind)
        if exact and ":depth=" in spec:  # searched to the end instead
            spec = kind
        try:
            agent = make_agent(spec)
        except SpecError as err:  # an outside program this machine lacks (Edax: no package)
            assert "no program" in str(err), (name, spec, err)
            continue
        try:
            result = agent(game, state)
        finally:  # an outside program (uci, gtp) is stopped here, not left to the exit
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        assert result.action in list(game.actions(state)), (name, spec)


@pytest.mark.parametrize(("spec", "game_name", "words"), [
    ("pig-optimal", "tictactoe", "plays pig only"),
    ("ismcts", "connect4", "hidden-information games"),
    ("alphabeta", "backgammon", "chance nodes"),
    ("alphabeta:depth=3", "kuhn_poker", "hidden card"),
    ("kernel-mcts", "nim", "compiled kernel"),
    ("gammon", "pig", "plays backgammon only"),
])
def test_mismatches_name_the_reason_and_the_fitting_agents(spec, game_name, words):
    game = load_game(game_name)
    problem = agent_problem(spec, game)
    assert problem is not None and words in problem
    assert "agents for " + game_name in problem
    with pytest.raises(GameSearchError):
        check_agent_fits(spec, game)


def test_pacman_seats():
    game = load_game("pacman")
    assert "pacman" in agents_for(game, 0) and "ghost" not in agents_for(game, 0)
    assert "ghost" in agents_for(game, 1) and "pacman" not in agents_for(game, 1)
    assert default_agent(game, 0) == "pacman" and default_agent(game, 2) == "ghost"


def test_every_registered_agent_is_in_the_catalog():
    from gamesearch.catalog import agent_needs

    assert set(AGENTS) <= set(agent_needs())


def test_declared_capabilities_are_whole() -> None:
    """What an entry declares for the generic commands can be used by them (issue #37): a
    plot comes with its ``--plot`` solver option (a solver runs first), an analyzer's and a
    trainer's parts are callables; ``train METHOD`` without GAME trains the one game that
    offers the method, and names them all when several do."""
    from gamesearch.cli.train_group import trainer_for
    from gamesearch.games import entries

    methods: dict[str, list[str]] = {}
    for entry in entries():
        if entry.plot is not None:
            assert entry.solver is not None and "plot" in entry.solver_options, entry.name
        if entry.analyzer is not None:
            assert callable(entry.analyzer.analyze), entry.name
        if entry.book is not None:
            book = entry.book
            assert all(map(callable, (book.build, book.is_book, book.max_depth,
                                      book.file_name, book.kept))), entry.name
        for method, trainer in entry.trainers.items():
            assert callable(trainer.make), (entry.name, method)
            methods.setdefault(method, []).append(entry.name)
    assert {"td", "alphazero", "samuel", "alphazero-jax", "nnue", "supervised"} <= set(methods)
    for method, names in methods.items():
        if len(names) == 1:
            assert trainer_for(method, None)[0].name == names[0]
        else:
            with pytest.raises(GameSearchError, match=" or ".join(names)):
                trainer_for(method, None)
