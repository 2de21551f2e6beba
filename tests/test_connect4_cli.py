"""The Connect Four commands: answers, JSON, and one-line errors naming the bad input."""

from __future__ import annotations

import json

import pytest

from gamesearch.cli.main import main


def run(capsys, *argv):
    code = 0
    try:
        main(list(argv))
    except SystemExit as exit_:
        code = exit_.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("moves, named", [
    ("48", "move 2 ('8')"),        # column out of range
    ("4444444", "move 7 ('4')"),   # full column
    ("45454545", "move 8 ('5')"),  # after X won with move 7
    ("44a", "move 3 ('a')"),       # a letter
])
def test_invalid_positions_are_rejected_naming_the_first_bad_move(capsys, moves, named):
    for argv in (["solve", "connect4", "--position", moves], ["analyze", "connect4", moves]):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert moves in err and named in err
        assert len(err.strip().splitlines()) == 1


def test_solve_json_gives_the_published_score(capsys):
    code, out, _ = run(capsys, "solve", "connect4", "--position", "44455554221", "--json")
    data = json.loads(out)
    assert code == 0 and data["score"] == -15 and data["outcome"] == "loss"
    code, out, _ = run(capsys, "solve", "connect4", "--position", "44455554221", "--weak",
                       "--json")
    assert json.loads(out)["result"] == -1


def test_analyze_json_scores_every_column(capsys):
    code, out, _ = run(capsys, "analyze", "connect4", "44455554221", "--json")
    data = json.loads(out)
    assert code == 0 and max(v for v in data["scores"].values() if v is not None) == -15
    assert set(data["scores"]) == {str(c) for c in range(1, 8)}


def test_batch_reports_correctness(capsys, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("2252576253462244111563365343671351441 -1\n44455554221 -15\n")
    code, out, _ = run(capsys, "solve", "connect4", "--batch", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["correct"] == 2 and data["wrong"] == 0
    path.write_text("4455 18\nxyz 3 4\n")
    code, _, err = run(capsys, "solve", "connect4", "--batch", str(path))
    assert code == 2 and "line 2" in err


def test_solver_agent_plays_a_best_move():
    from gamesearch.agents import make_agent
    from gamesearch.games import load_game

    game = load_game("connect4")
    s = game.state_from_string("44455554221")
    result = make_agent("solver")(game, s)
    assert result.value == -15 and result.action_values[result.action] == -15
    # the fast path (solve, then children until one keeps the score) against every child
    from gamesearch.engines.connect4.solve import analyze

    # ties (3 and 4 keep +6; 1 and 4 keep +17), a single best move (3), a late position;
    # a few plies in, so each full analysis is a second or two, not ten
    for moves in ("4453267", "44455512", "2252576253462244", "334444"):
        s = game.state_from_string(moves)
        scores = analyze(game, s)
        fast = make_agent("solver")(game, s)
        seeded = make_agent("solver:seed=3")(game, s)
        assert scores[fast.action] == max(scores.values()) == fast.value
        assert scores[seeded.action] == max(scores.values())


def test_warmup_compiles_the_kernels_of_the_named_sizes(capsys):
    code, out, _ = run(capsys, "warmup", "connect4:width=4,height=4", "--json", "--force")
    assert code == 0
    names = [step["kernel"] for step in json.loads(out)["compiled"]]
    assert names == ["connect4_4x4 primitives + negamax", "connect4_4x4 MCTS",
                     "connect4_4x4 perfect solver"]
    code, _, err = run(capsys, "warmup", "nim")
    assert code == 2 and "nim" in err and "no compiled kernel" in err


def test_a_game_without_an_analyzer_or_a_book_is_refused_naming_those_with_one(capsys):
    """analyze and book name no game: the games offered in the error are the entries that
    declare an analyzer (a book), and a game without one gets exit 2 and one line."""
    from gamesearch.games import entries

    for command, declared in (("analyze", "analyzer"), ("book", "book")):
        offering = [e.name for e in entries() if getattr(e, declared) is not None]
        lacking = [e.name for e in entries() if getattr(e, declared) is None]
        assert offering and lacking
        argv = [command, lacking[0]] + (["--depth", "1"] if command == "book" else [])
        code, out, err = run(capsys, *argv)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and not out
        assert lines[0].startswith(f"error: {command} {lacking[0]}: ")
        assert lines[0].endswith(", ".join(offering))


@pytest.mark.parametrize("argv, named", [
    (["solve", "connect4", "--position", "4", "--table", "40"], "40 is out of range (give 8..32)"),
    (["book", "connect4", "--depth", "99"], "book depth 99"),
])
def test_bad_sizes_are_refused_before_any_work(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2 and named in err
    assert "compiling" not in err and "solving" not in out
