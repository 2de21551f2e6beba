"""The command line, run through gamesearch.cli.main.main as a user runs it: JSON output,
people's moves from stdin, and bad input as one line on stderr with exit status 2."""

import json
import subprocess
import sys

import pytest

from gamesearch.cli.main import main

CLASSIC = "[[3,12,8],[2,4,6],[14,5,2]]"


def run_json(cli, *args: str) -> dict:
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


# --- tree ------------------------------------------------------------------------------


def test_tree_alphabeta_on_the_classic_example(cli) -> None:
    # AIMA fig. 5.5: value 3; alpha-beta never looks at the 2nd and 3rd leaves under B.
    data = run_json(cli, "tree", CLASSIC, "--algorithm", "alphabeta")
    assert data["value"] == 3 and data["action"] == "1"
    assert data["leaves_evaluated"] == 7
    assert data["pruned"] == ["2.2", "2.3"] and data["pruned_leaves"] == 2
    leaves = [v["node"] for v in data["visits"] if v["event"] == "leaf"]
    assert leaves == ["1.1", "1.2", "1.3", "2.1", "3.1", "3.2", "3.3"]  # left to right
    at_2_1 = next(v for v in data["visits"] if v["node"] == "2.1")
    assert (at_2_1["alpha"], at_2_1["beta"]) == (3, "inf")  # MAX already has 3 from B
    exits = {v["node"]: v["value"] for v in data["visits"] if v["event"] == "exit"}
    assert exits == {"1": 3, "2": 2, "3": 2, "root": 3}


def test_tree_minimax_visits_every_leaf(cli, tmp_path) -> None:
    path = tmp_path / "classic.json"
    path.write_text(CLASSIC)
    data = run_json(cli, "tree", str(path), "--algorithm", "minimax")
    assert data["value"] == 3 and data["leaves_evaluated"] == 9 and data["pruned"] == []
    code, out, _ = cli("tree", str(path), "--algorithm", "alphabeta")
    assert code == 0 and "2.2, 2.3" in out and "value: 3" in out


def test_tree_object_form_names_the_nodes(cli) -> None:
    tree = {"name": "A", "children": [
        {"name": "B", "children": [{"name": "b1", "value": 5}, {"name": "b2", "value": 9}]},
        {"name": "C", "children": [{"name": "c1", "value": 1}, {"name": "c2", "value": 7}]}]}
    data = run_json(cli, "tree", json.dumps(tree))
    assert data["value"] == 5 and data["action"] == "B"
    assert data["pruned"] == ["c2"]
    assert [v["node"] for v in data["visits"] if v["event"] == "enter"] == ["A", "B", "C"]


CHANCE_TREE = {"player": "max", "children": [
    {"name": "dice", "player": "chance", "children": [
        {"name": "d1", "probability": 0.25, "value": 8},
        {"name": "d2", "probability": 0.75, "value": 0}]},
    {"name": "foe", "player": "min", "children": [{"value": 2}, {"value": 10}]}]}


def test_tree_expectimax_averages_chance_and_opponents(cli) -> None:
    pytest.importorskip("gamesearch.search.chance")
    # By hand: dice = 0.25*8 + 0.75*0 = 2; expectimax averages the opponent: (2+10)/2 = 6;
    # expectiminimax lets it minimize: 2.
    data = run_json(cli, "tree", json.dumps(CHANCE_TREE), "--algorithm", "expectimax")
    assert data["value"] == 6 and data["action"] == "foe"
    assert data["leaves_evaluated"] == 4
    exits = {v["node"]: v["value"] for v in data["visits"] if v["event"] == "exit"}
    assert exits["dice"] == 2 and exits["foe"] == 6
    assert run_json(cli, "tree", json.dumps(CHANCE_TREE), "-a", "expectiminimax")["value"] == 2


def test_tree_bad_input_is_one_line_and_status_2(cli, tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[[3, 12,")
    wrong_sum = json.dumps({"player": "chance", "children": [
        {"probability": 0.5, "value": 1}, {"probability": 0.4, "value": 2}]})
    cases = [
        ((str(broken),), "not valid JSON"),
        ((str(tmp_path / "missing.json"),), "does not exist"),
        ((wrong_sum, "-a", "minimax"), "sum to 0.9"),
        (("[[1, true]]",), "a leaf must be a number"),
        ((CLASSIC, "--algorithm", "negascout"), "unknown algorithm"),
        ((json.dumps(CHANCE_TREE), "-a", "alphabeta"), "chance node"),
    ]
    for args, message in cases:
        code, out, err = cli("tree", *args)
        assert code == 2, (args, err)
        assert message in err and err.count("\n") == 1 and "Traceback" not in err


# --- perft and count ---------------------------------------------------------------------


def test_perft_counts_move_sequences(cli) -> None:
    # Tic-tac-toe: 9, 9*8, 9*8*7 sequences; Connect Four: 7^d while no column fills.
    data = run_json(cli, "perft", "tictactoe", "--depth", "3")
    assert [row["leaves"] for row in data["table"]] == [9, 72, 504] and data["value"] == 504
    assert run_json(cli, "perft", "connect4", "--depth", "4")["value"] == 7**4
    # from a position: X at 5, O at 1 leaves 7 squares
    assert run_json(cli, "perft", "tictactoe", "-d", "2", "--position", "51")["value"] == 42
    code, out, _ = cli("perft", "nim", "--piles", "1,2", "--depth", "2")
    assert code == 0 and "leaves" in out


def test_count_tictactoe_and_refuse_large_games(cli) -> None:
    data = run_json(cli, "count", "tictactoe")
    assert data["value"] == data["games"] == 255_168
    assert data["positions"] == 5_478 and data["nodes"] == 549_946
    code, _, err = cli("count", "connect4", "--limit", "2000")
    assert code == 2 and "too large" in err and "--limit" in err


# --- play ----------------------------------------------------------------------------------


def test_play_ai_against_ai_is_a_draw(cli) -> None:
    data = run_json(cli, "play", "tictactoe", "--player1", "alphabeta", "--player2",
                    "alphabeta:pvs=true")
    assert data["result"] == "draw" and data["value"] == 0 and len(data["moves"]) == 9


def test_play_human_moves_are_checked_and_asked_again(cli) -> None:
    # X plays 1, 2, 4 (O answers 5, 3 ... and wins): bad moves in between are explained.
    moves = "\n".join(["1", "1", "ten", "help", "2", "9", "4", "6", "7", "8"]) + "\n"
    code, out, err = cli("play", "tictactoe", "--player2", "alphabeta", stdin=moves)
    assert code == 0, err
    assert "square 1 is taken: try again" in out
    assert "malformed move 'ten'" in out
    assert "legal moves:" in out
    assert "O plays" in out and "value" in out and "PV" in out and "nodes" in out
    assert "game over: O wins" in out  # perfect play punishes 1, 2


def test_play_ends_cleanly_on_end_of_input_and_quit(cli) -> None:
    code, _, err = cli("play", "connect4", "--player2", "random", stdin="4\n")
    assert code == 1 and "abandoned" in err and "Traceback" not in err
    code, _, err = cli("play", "nim", "--player2", "random", stdin="quit\n")
    assert code == 0 and "abandoned (quit)" in err


def test_play_from_a_position_with_game_parameters(cli) -> None:
    data = run_json(cli, "play", "nim", "--piles", "1,2,3", "--player1", "alphabeta",
                    "--player2", "alphabeta")
    assert data["result"] == "player 2 wins"  # nim-sum 1^2^3 = 0: the mover loses
    data = run_json(cli, "play", "connect4", "--position", "4455", "--player1",
                    "alphabeta:depth=2", "--player2", "random:seed=1")
    assert data["start"] == "4455" and data["result"] in ("X wins", "O wins", "draw")


def test_play_samples_chance_moves_with_the_seed(cli) -> None:
    tree = json.dumps({"player": "chance", "children": [
        {"action": "heads", "probability": 0.5, "player": "max",
         "children": [{"value": 1}, {"value": 2}]},
        {"action": "tails", "probability": 0.5, "player": "max",
         "children": [{"value": 3}, {"value": 4}]}]})
    args = ("play", "tree", "--file", tree, "--player1", "expectiminimax", "--player2", "random")
    seen = set()
    for seed in range(8):
        first = run_json(cli, *args, "--seed", str(seed))
        assert first == run_json(cli, *args, "--seed", str(seed))
        assert first["value"] == (2 if first["moves"][0] == "heads" else 4)
        seen.add(first["moves"][0])
    assert seen == {"heads", "tails"}


# --- match -----------------------------------------------------------------------------------


def test_match_command_reports_and_resumes(cli, tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    data = run_json(cli, "match", "tictactoe", "alphabeta", "random", "--games", "4",
                    "--seed", "2", "--out", str(out))
    assert data["games"] == 4 and data["losses"] == 0
    assert data["value"] == data["score"] and data["score_interval"][0] <= data["score"]
    assert "Wilson" in data["interval_method"]
    data = run_json(cli, "match", "tictactoe", "alphabeta", "random", "--games", "6",
                    "--seed", "2", "--out", str(out))
    assert data["games"] == 6 and len(out.read_text().splitlines()) == 7
    code, text, _ = cli("match", "nim", "alphabeta", "alphabeta", "--piles", "2,2",
                        "--games", "2")
    assert code == 0 and "1 wins, 0 draws, 1 losses" in text and "Elo" in text


# --- bad input everywhere ---------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (("solve", "chess960"), "unknown game 'chess960'"),
    (("play", "shogi"), "unknown game 'shogi'"),
    (("play", "tictactoe", "--position", "55"), "square 5 is taken"),
    (("play", "connect4", "--position", "4x"), "malformed move 'x'"),
    (("play", "tictactoe", "--player2", "deepblue:depth=3"), "unknown agent 'deepblue'"),
    (("play", "tictactoe", "--player2", "alphabeta:depth=many"), "got 'many'"),
    (("play", "tictactoe", "--player2", "alphabeta:colour=red"), "unknown parameter"),
    (("match", "tictactoe", "alphabeta", "monkey"), "unknown agent 'monkey'"),
    (("match", "tictactoe", "random", "random", "--games", "lots"), "'--games'"),
    (("perft", "tictactoe", "--depth", "-1"), "'--depth'"),
    (("perft", "nim", "--piles", "a,b", "--depth", "2"), "piles: expected a whole number, got 'a'"),
    (("count", "nim", "--position", "3,x"), "3,x"),
])
def test_bad_input_is_one_clear_line_and_status_2(cli, args, message) -> None:
    code, out, err = cli(*args)
    assert code == 2, (args, out, err)
    assert message in err and err.count("\n") == 1, err
    assert "Traceback" not in err + out


def test_installed_command_exits_2_without_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "gamesearch", "play", "tictactoe",
                           "--player1", "random", "--player2", "alphabeta", "--position", "5z"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_help_lists_every_command(cli) -> None:
    code, out, _ = cli("--help")
    assert code == 0
    for command in ("games", "solve", "play", "match", "perft", "count", "tree"):
        assert command in out


def test_ctrl_c_in_a_match_keeps_the_finished_games(cli, tmp_path, monkeypatch) -> None:
    import gamesearch.arena.match as match_module

    real = match_module._play_one
    calls = []

    def interrupted_on_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(match_module, "_play_one", interrupted_on_the_third)
    out = tmp_path / "games.jsonl"
    code, text, err = cli("match", "tictactoe", "random", "random", "--games", "10",
                          "--seed", "1", "--out", str(out), "--json")
    assert code == 130 and "interrupted after 2 games" in err and "resume" in err
    assert json.loads(text)["games"] == 2 and json.loads(text)["interrupted"] is True
    assert len(out.read_text().splitlines()) == 3
    monkeypatch.setattr(match_module, "_play_one", real)
    data = run_json(cli, "match", "tictactoe", "random", "random", "--games", "10",
                    "--seed", "1", "--out", str(out))
    assert data["games"] == 10 and not data["interrupted"]


def test_ctrl_c_in_perft_prints_the_finished_depths(cli, monkeypatch) -> None:
    import gamesearch.search.enumeration as enumeration

    real = enumeration.perft

    def slow_at_depth_3(game, state, depth):
        if depth == 3:
            raise KeyboardInterrupt
        return real(game, state, depth)

    monkeypatch.setattr(enumeration, "perft", slow_at_depth_3)
    code, out, err = cli("perft", "tictactoe", "--depth", "5", "--json")
    assert code == 130 and "interrupted at depth 3" in err
    assert [row["leaves"] for row in json.loads(out)["table"]] == [9, 72]


def test_play_and_match_pacman_use_the_pacman_commands(capsys) -> None:
    """`play pacman` / `match pacman` are the issue's spelling of `pacman play` / `pacman match`."""
    try:
        main(["match", "pacman", "--layout", "tiny", "--games", "2", "--json"])
    except SystemExit as done:
        assert done.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["layout"] == "tiny" and len(report["scores"]) == 2
