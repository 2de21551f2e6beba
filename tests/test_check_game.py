"""The game and kernel contract: every registered game passes check_game (and check_kernel
where it has a kernel), and each check catches a toy game broken for it."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from check_toys import (
    BROKEN,
    BROKEN_PRIMITIVES,
    BlindOnlooker,
    DiePile,
    ForgetfulPositions,
    HiddenCoin,
    MisprintedPile,
    OverTheTop,
    PrintedPile,
    RepeatedAction,
    SplitTeam,
    die_pile_kernel,
)
from gamesearch.catalog import has_chance
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.games import REGISTRY, load_game
from gamesearch.testing import GameCheckError, check_game, check_kernel
from gamesearch.testing.hidden_checks import has_hidden_information

ALWAYS = {"attributes", "initial-state", "terminal-test", "to-move", "legal-actions",
          "transition", "utilities", "keys", "termination", "action-strings", "positions",
          "bad-input", "render"}


PLAYOUTS = {"chess": 6, "go": 8}
"""Fewer random games where one is long and slow to check: a random chess game runs about
300 plies through python-chess, so 6 check some 2,000 positions (20 took 75-95 s); a random
9x9 Go game runs about 100 plies, each with superko's history, so 8 check some 800
(20 took 20-25 s of the suite's 10 minutes)."""


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_game_keeps_the_protocol(name: str) -> None:
    game = load_game(name)
    playouts = PLAYOUTS.get(name, 20)
    report = check_game(game, playouts=playouts)
    expected = set(ALWAYS)
    if has_chance(game):
        expected.add("chance-outcomes")
    if has_hidden_information(game):
        expected.add("information-sets")
    assert expected <= set(report.checks), report
    assert report.playouts == playouts and report.terminals == playouts
    assert report.positions > playouts


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_kernel_plays_the_readable_rules(name: str) -> None:
    game = load_game(name)
    kernel = getattr(game, "kernel", None)
    if kernel is None:
        return
    report = check_kernel(game, kernel)
    assert report.checks["kernel-play"] > 100 and report.checks["kernel-terminal-value"] == 30


VARIANTS = ["nim:piles=1-2-3-4,misere=true", "takeaway:players=4,sticks=13,max_take=4",
            "pig:goal=20", "pacman:layout=tiny", "whist:suits=2,ranks=2",
            "connect4:width=6,height=5", "connect4:width=9,height=8"]


@pytest.mark.parametrize("spec", VARIANTS)
def test_games_with_other_parameters_keep_the_protocol(spec: str) -> None:
    game = load_game(spec)
    assert check_game(game, playouts=8).terminals == 8
    if getattr(game, "kernel", None) is not None:  # 9x8 does not fit the kernel's 63 bits
        assert check_kernel(game, game.kernel, playouts=8).checks["kernel-play"] > 10


def test_a_tree_from_a_file_keeps_the_protocol() -> None:
    from pathlib import Path

    tree = Path(__file__).parent / "data" / "theory" / "lecture_tree.json"
    assert check_game(load_game("tree", file=str(tree))).terminals == 20


@pytest.mark.parametrize("seed", range(10))
def test_random_trees_with_chance_nodes_keep_the_protocol(seed: int) -> None:
    import random

    from gamesearch.games.tree import TreeGame, random_tree

    rng = random.Random(seed)
    game = TreeGame(random_tree(rng, depth=rng.randint(1, 4), chance=0.3))
    assert check_game(game, playouts=10, seed=seed).terminals == 10


def test_the_kernel_check_covers_a_kernel() -> None:
    """The parametrised test above is not vacuous: Connect Four and Othello have kernels."""
    with_kernel = [n for n in sorted(REGISTRY) if getattr(load_game(n), "kernel", None)]
    assert {"connect4", "othello"} <= set(with_kernel)


def test_the_toy_games_pass() -> None:
    assert check_game(DiePile()).checks["chance-outcomes"] > 0
    assert check_game(HiddenCoin()).checks["information-sets"] > 0
    assert check_kernel(DiePile(), die_pile_kernel()).checks["kernel-evaluate"] > 0


@pytest.mark.parametrize("check", sorted(BROKEN))
def test_each_check_catches_its_broken_game(check: str) -> None:
    game = BROKEN[check]()
    with pytest.raises(GameCheckError) as caught:
        check_game(game, max_moves=200)
    err = caught.value
    assert err.check == check, str(err)
    assert f"check {check!r} failed for {game.name}" in str(err)
    assert isinstance(err, GameSearchError) and "\n" not in str(err)


def test_information_sets_of_players_not_to_move_are_checked() -> None:
    with pytest.raises(GameCheckError, match="player 1's information set") as caught:
        check_game(BlindOnlooker())
    assert caught.value.check == "information-sets"


@pytest.mark.parametrize("game", [OverTheTop(), SplitTeam()], ids=repr)
def test_utilities_respect_max_utility_and_teams(game: DiePile) -> None:
    with pytest.raises(GameCheckError, match="max_utility|team mates") as caught:
        check_game(game)
    assert caught.value.check == "utilities"


def test_a_games_own_position_text_must_read_back() -> None:
    assert check_game(PrintedPile()).checks["positions"] > 0
    with pytest.raises(GameCheckError, match=r"is written '\d+/0'") as caught:
        check_game(MisprintedPile())
    assert caught.value.check == "positions"


@pytest.mark.parametrize("check", sorted(BROKEN_PRIMITIVES))
def test_each_kernel_check_catches_its_broken_primitive(check: str) -> None:
    with pytest.raises(GameCheckError) as caught:
        check_kernel(DiePile(), die_pile_kernel(**BROKEN_PRIMITIVES[check]))
    assert caught.value.check == check, str(caught.value)


def test_a_kernel_without_a_primitive_is_refused() -> None:
    kernel = die_pile_kernel()
    del kernel.primitives.key
    with pytest.raises(GameCheckError, match="lacks primitive"):
        check_kernel(DiePile(), kernel)


def test_the_error_names_moves_that_reproduce_the_position() -> None:
    """The moves in the error, read by the game, reach the position that broke the rule."""
    game = RepeatedAction()
    with pytest.raises(GameCheckError) as caught:
        check_game(game, seed=3)
    err = caught.value
    assert err.moves and game.state_from_string(err.moves) == err.state
    assert "seed 3" in str(err)


def test_a_game_that_cannot_read_moves_fails_at_the_first_move() -> None:
    with pytest.raises(GameCheckError) as caught:
        check_game(ForgetfulPositions())
    assert caught.value.moves.count(",") >= 1  # an end is reached after a few moves


def test_the_kernel_check_compares_evaluations_only_when_asked() -> None:
    kernel = die_pile_kernel(**BROKEN_PRIMITIVES["kernel-evaluate"])
    report = check_kernel(DiePile(), kernel, evaluation_tolerance=None)
    assert report.checks["kernel-evaluate"] > 0


def test_positions_read_moves_separated_by_commas() -> None:
    """What check_game writes (moves joined by ", ") every game reads back, also where a
    move is written with spaces (backgammon) or the game has its own position format."""
    c4 = load_game("connect4")
    assert c4.state_from_string("4, 4, 5") == c4.state_from_string("4 4 5") \
        == c4.state_from_string("445")
    nim = load_game("nim:piles=3-4-5")
    start = nim.initial_state()
    assert nim.state_from_string("") == start
    assert nim.state_from_string("1:2, 3:5") == nim.result(nim.result(start, (0, 2)), (2, 5))
    assert nim.state_from_string("3,4,5") == start  # piles, as before
    bg = load_game("backgammon")
    s = bg.result(bg.initial_state(), (1, 2))
    play = bg.string_to_action(s, "24/22 24/23")
    assert bg.state_from_string("1-2, 24/22 24/23") == bg.result(s, play)
    ttt = load_game("tictactoe")
    assert ttt.state_from_string("1, 5, 9") == ttt.state_from_string("159")


GAMES = {name: load_game(name) for name in sorted(REGISTRY)}


@pytest.mark.parametrize("name", sorted(REGISTRY))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=24) | st.from_regex(r"[0-9a-zA-Z:/,*\- ]{0,24}", fullmatch=True))
def test_parsers_refuse_any_text_cleanly(name: str, text: str) -> None:
    """What check_game's garbling samples, hypothesis explores: any text gives a legal move
    (or a state) or one GameSearchError, at the first position where a player moves."""
    game = GAMES[name]
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.result(state, game.actions(state)[0])
    with contextlib.suppress(GameSearchError):
        assert game.string_to_action(state, text) in game.actions(state)
    with contextlib.suppress(GameSearchError):
        hash(game.state_from_string(text))


def test_the_checks_are_core_they_import_no_game_no_face() -> None:
    """gamesearch.testing sits in the core layer (shared/DESIGN.md): only game.py, errors,
    the result contract (result.py: what check_agent checks) and itself, so any game (and any
    algorithm's test) may use it without a cycle."""
    import ast
    from pathlib import Path

    import gamesearch.testing as testing

    allowed = ("gamesearch.game", "gamesearch.errors", "gamesearch.result", "gamesearch.testing")
    for path in Path(testing.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.startswith("gamesearch"):
                    assert name.startswith(allowed), f"{path.name} imports {name}"
