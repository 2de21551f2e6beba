"""Explicit trees: both JSON forms parse, values come out right, broken files are named."""

import json

import pytest

from gamesearch.errors import FileFormatError
from gamesearch.game import CHANCE
from gamesearch.games.tree import TreeGame
from gamesearch.search import minimax


def test_list_form_alternates_max_and_min() -> None:
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    assert game.to_move(0) == 0
    assert game.to_move(game.result(0, 0)) == 1
    assert minimax(game, 0).value == 3  # AIMA fig. 5.2
    assert game.node_name(game.result(game.result(0, 2), 1)) == "3.2"


def test_object_form_names_labels_and_min_layers() -> None:
    tree = {
        "name": "A", "player": "max", "children": [
            {"name": "B", "action": "left", "player": 1, "children": [
                {"name": "C", "player": 2, "children": [{"value": 4}, {"value": 9}]},
                {"name": "D", "player": 2, "children": [{"value": 7}]},
            ]},
            {"name": "E", "action": "right", "value": 5},
        ],
    }
    game = TreeGame(tree)
    assert game.num_players == 3
    assert [game.action_to_string(0, a) for a in game.actions(0)] == ["left", "right"]
    # two MIN agents in a row: B = min(min(4, 9), 7) = 4 < 5, so MAX goes right.
    result = minimax(game, 0)
    assert result.value == 5 and game.action_to_string(0, result.action) == "right"


def test_chance_nodes_and_vector_leaves() -> None:
    game = TreeGame({"player": "chance", "children": [
        {"probability": 0.25, "value": [1, 2]},
        {"probability": 0.75, "value": [3, 0]},
    ]})
    assert game.to_move(0) == CHANCE
    assert game.chance_outcomes(0) == [(0, 0.25), (1, 0.75)]
    assert not game.zero_sum
    assert game.utilities(game.result(0, 1)) == (3, 0)


@pytest.mark.parametrize("tree, message", [
    ({"player": "chance", "children": [{"probability": 0.5, "value": 1},
                                      {"probability": 0.4, "value": 2}]}, "sum to 0.9"),
    ({"player": "chance", "children": [{"value": 1}]}, "needs a 'probability'"),
    ({"children": []}, "non-empty list"),
    ({"name": "X"}, "node 'X': a leaf needs a 'value'"),
    ({"player": "boss", "children": [1]}, "player 'boss'"),
    ([[1, "two"]], "node 1.2"),
    ([], "at least one child"),
    ({"children": [{"value": 1, "colour": "red"}]}, "unknown keys"),
    ({"children": [{"value": [1, 2]}, {"value": [1, 2, 3]}]}, "differ in length"),
    ([[float("nan")]], "not a finite number"),
])
def test_broken_trees_are_named(tree, message) -> None:
    with pytest.raises(FileFormatError, match=message):
        TreeGame(tree)


def test_bad_json_names_file_and_line(tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[[3, 12, 8],\n [2, 4 6]]')
    with pytest.raises(FileFormatError, match=r"broken.json: not valid JSON at line 2"):
        TreeGame.from_file(path)
    with pytest.raises(FileFormatError, match="tree file .*missing.json. does not exist"):
        TreeGame.from_file(tmp_path / "missing.json")


def test_round_trip_through_object_form() -> None:
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    again = TreeGame(json.loads(json.dumps(game.to_data())))
    assert minimax(again, 0).value == 3
    assert len(again.nodes) == len(game.nodes)
