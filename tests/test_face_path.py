"""One path for the faces: the move replayer, the outcome text, the payoff reader and the
solvers' progress callback are shared by the command line and the web app."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from gamesearch.errors import GameSearchError
from gamesearch.game import outcome_text, replay
from gamesearch.games import game_entry, load_game
from gamesearch.theory.formats import payoff_number
from gamesearch.web.theory_api import parse_number
from gamesearch.web.views import outcome


def test_replay_names_the_bad_move_and_moves_after_the_end() -> None:
    game = load_game("tictactoe")
    state = replay(game, ["1", "4", "2", "5", "3"])
    assert game.is_terminal(state) and game.utilities(state)[0] == 1  # X has the top row
    with pytest.raises(GameSearchError, match="move 6 .* after the game ended"):
        replay(game, ["1", "4", "2", "5", "3", "9"])
    with pytest.raises(GameSearchError, match="^move 2: "):
        replay(game, ["1", "1"])


def test_the_web_and_the_cli_say_the_same_outcome() -> None:
    game = load_game("tictactoe")
    won = replay(game, ["1", "4", "2", "5", "3"])
    assert outcome(game, won) == outcome_text(game, game.utilities(won))
    assert outcome_text(game, (1, -1)).endswith(" wins")
    assert outcome_text(game, (0, 0)) == "draw"


@pytest.mark.parametrize(("text", "value"), [
    ("3", 3), ("-1/2", Fraction(-1, 2)), ("0.25", 0.25), (2, 2), (1.5, 1.5)])
def test_one_payoff_reader_for_files_and_the_web(text: object, value: object) -> None:
    assert payoff_number(text, "cell") == value
    assert parse_number(text, "cell") == value
    assert type(parse_number(text, "cell")) is type(payoff_number(text, "cell"))


@pytest.mark.parametrize("bad", [math.inf, math.nan, True, "1/0", "x", None, [1]])
def test_bad_payoffs_are_refused_the_same_way(bad: object) -> None:
    with pytest.raises(GameSearchError):
        payoff_number(bad, "cell")
    with pytest.raises(GameSearchError):
        parse_number(bad, "cell")


def test_a_solver_reports_progress_through_the_faces_callback() -> None:
    game = load_game("pig:goal=12")
    seen: list[tuple[str, int, int]] = []
    report = game_entry("pig").solver(game, game.initial_state(), {
        "depth": None, "time": None, "tolerance": 1e-9,
        "progress": lambda what, done, total: seen.append((what, done, total))})
    assert 0.5 < report["win_probability"] < 0.7  # the first player's edge
    assert seen and seen[-1][1] == seen[-1][2] == 2 * 12 - 1  # every layer of score sums


def test_one_json_normaliser_for_both_faces() -> None:
    from gamesearch.result import plain_data
    from gamesearch.web import worker

    report = {(1, 2): (1.0, float("inf")), "f": Fraction(1, 3), 3: None}
    assert plain_data(report) == {"(1, 2)": [1, "inf"], "f": "1/3", "3": None}
    assert worker._plain is plain_data


def test_cli_and_web_tree_lab_share_one_textbook_search_selection():
    """The tree command and the web's tree lab name the same algorithms and run the same
    textbook alpha-beta (two prunings on the classic tree in both)."""
    from gamesearch.cli import tree as cli_tree
    from gamesearch.games.tree import TreeGame
    from gamesearch.search import textbook
    from gamesearch.web import treelab

    assert cli_tree.ALGORITHMS == treelab.ALGORITHMS == textbook.TEXTBOOK_ALGORITHMS
    classic = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    web = treelab.run_tree(classic, "alphabeta")
    cli = cli_tree.trace_tree(TreeGame(classic), "alphabeta")
    assert web["value"] == cli["value"] == 3
    assert sum(len(s.get("pruned", [])) for s in web["steps"] if s["type"] == "prune") == 2
