"""Pacman in the terminal: human play, bad options and bad .lay files (one line, exit 2),
and the verdict entry that used to recurse without end."""

import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.cli.main import main
from gamesearch.engines.pacman.agents import ghost_agents, pacman_verdict
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.games import game_entry
from gamesearch.games.pacman import Layout, Pacman


def run(argv: list[str], capsys, stdin: str | None = None, monkeypatch=None) -> tuple:
    """Exit status, stdout and stderr of one command."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main(argv)
    except SystemExit as done:
        code = done.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, words: str) -> None:
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error:") and words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("delay", ["-1", "nan", "1e9"])
def test_bad_delay_is_one_line(delay: str, capsys) -> None:
    code, _, err = run(["play", "pacman", "--delay", delay, "--pacman", "random"], capsys)
    assert_one_line_error(code, err, "--delay")


@pytest.mark.parametrize("text, words", [
    ("%%%%%\n%P.x%\n%%%%%\n", "unknown character"),
    ("%%%%%\n%P.%\n%%%%%\n", "rectangle"),
    ("%%%%%\n%...%\n%%%%%\n", "no Pacman"),
    ("%" * 200 + "\n" + ("%P" + "." * 197 + "%\n") * 60, "too large"),
    ("\n\n", "empty"),
])
def test_bad_layout_files_are_one_line(text: str, words: str, tmp_path, capsys) -> None:
    path = tmp_path / "bad.lay"
    path.write_text(text)
    code, _, err = run(["play", "pacman", "--layout", str(path), "--pacman", "random"],
                       capsys)
    assert_one_line_error(code, err, words)


def test_unreadable_layout_files_are_one_line(tmp_path, capsys) -> None:
    binary = tmp_path / "binary.lay"
    binary.write_bytes(bytes(range(128, 256)) * 4)
    for path, words in [(binary, "cannot read"), (tmp_path, "not a file"),
                        (tmp_path / "missing.lay", "does not exist")]:
        code, _, err = run(["pacman", "play", "--layout", str(path)], capsys)
        assert_one_line_error(code, err, words)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="%.oPG1234 x\n\r\t", max_size=120))
def test_layout_parser_fuzz(text: str) -> None:
    try:
        Layout(text, name="fuzz")
    except FileFormatError as err:
        assert "\n" not in str(err)


def test_human_quits_with_q_and_sees_the_board_as_it_is(capsys, monkeypatch) -> None:
    # before: the board was drawn before each move (one move behind) and `q` exited 2
    code, out, _ = run(["play", "pacman", "--pacman", "human", "--layout", "tiny",
                        "--seed", "1"], capsys, stdin="e\nwest?\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and out.rstrip().endswith("quit")
    assert "illegal or malformed move 'west?'" in out
    # the board shown at the second prompt is the one after Pacman's East and the ghost's
    # reply (the same seeded ghost, replayed here)
    game = Pacman("tiny")
    s = game.result(game.initial_state(), "East")
    ghost = ghost_agents("random", 1, seed=1)[0]
    s = game.result(s, ghost(game, s).action)
    second_prompt = out.split("your move")[1]
    assert game.render(s) in second_prompt and game.to_move(s) == 0


def test_human_end_of_input_quits_cleanly(capsys, monkeypatch) -> None:
    code, out, _ = run(["pacman", "play", "--pacman", "human", "--layout", "tiny"], capsys,
                       stdin="", monkeypatch=monkeypatch)
    assert code == 0 and "quit" in out


def test_the_generic_play_example_of_chance_md_works(capsys) -> None:
    # docs/CHANCE.md: gamesearch play pacman --player1 pacman:... --player2 ghost:kind=random
    code, out, err = run(["play", "pacman", "--player1", "pacman:algorithm=expectimax,depth=1",
                          "--player2", "ghost:kind=random", "--layout", "tiny", "--json"],
                         capsys)
    assert code == 0 and err == ""
    assert '"pacman": "pacman:algorithm=expectimax,depth=1"' in out
    assert '"outcome": "' in out


def test_match_reports_games_out_of_moves(capsys) -> None:
    import json

    code, out, _ = run(["pacman", "match", "--layout", "tiny", "--games", "2", "--pacman",
                        "random", "--max-moves", "3", "--num-ghosts", "0", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["out_of_moves"] == 2 and data["wins"] == data["losses"] == 0


def test_verdict_is_bounded_and_refused_without_depth(capsys) -> None:
    # before: solve pacman and the web verdict searched to the end: a RecursionError
    game = Pacman("small")
    with pytest.raises(GameSearchError, match="no exact verdict"):
        game_entry("pacman").solver(game, game.initial_state(), {"depth": None, "time": 5})
    code, _, err = run(["solve", "pacman"], capsys)
    assert_one_line_error(code, err, "no exact verdict")
    # docs/CHANCE.md's command: the CLI once refused --depth as meaningless for a solver
    code, out, err = run(["solve", "pacman", "--layout", "tiny", "--depth", "2", "--json"],
                         capsys)
    assert code == 0 and err == "" and '"exact": false' in out
    report = pacman_verdict(game, game.initial_state(), {"depth": 4, "time": None})
    assert report["exact"] is False and report["action"] in game.actions(game.initial_state())
    with pytest.raises(GameSearchError, match="look-ahead"):
        pacman_verdict(game, game.initial_state(), {"depth": 10**6, "time": None})


def test_web_worker_verdict_raises_a_game_search_error() -> None:
    pytest.importorskip("fastapi")
    from gamesearch.web.worker import verdict

    sent = []
    with pytest.raises(GameSearchError):
        verdict({"game": "pacman", "moves": ""}, 2.0, None, lambda *a: sent.append(a))
    assert sent == []


OPTION_VALUES = {
    "--max-moves": st.sampled_from(["0", "-5", "3", "20", "10000000", "x"]),
    "--num-ghosts": st.sampled_from(["0", "1", "4", "-1", "101", "two"]),
    "--delay": st.sampled_from(["0", "-1", "inf", "nan", "0.0"]),
    "--rules": st.sampled_from(["course", "simple", "berkeley", ""]),
    "--evaluation": st.sampled_from(["better", "score", "best"]),
    "--layout": st.sampled_from(["tiny", "minimaxClassic", "nowhere", "nowhere.lay"]),
    "--pacman": st.sampled_from(["random", "greedy", "minimax:depth=1", "alphabeta:depth=0",
                                 "expectimax:depth=x", "alphabeta:pruning=fast,depth=1",
                                 "alphabeta:pruning=no", "blinky"]),
    "--ghosts": st.sampled_from(["random", "directional", "adversarial:depth=1",
                                 "adversarial:depth=99", "directional:chase=2", "pinky"]),
}


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)), st.just(None), max_size=4)
       .flatmap(lambda keys: st.fixed_dictionaries({k: OPTION_VALUES[k] for k in keys})))
def test_pacman_play_options_fuzz(options: dict) -> None:
    # any mix of option values: a game (exit 0) or one line and exit 2, never a traceback
    argv = ["pacman", "play", "--json", "--seed", "1", "--max-moves", "20", "--pacman",
            "random"]
    for key, value in options.items():
        argv += [key, value]
    out, err = io.StringIO(), io.StringIO()
    code = 0
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        main(argv)
    except SystemExit as done:
        code = done.code or 0
    finally:
        sys.stdout, sys.stderr = old
    assert code in (0, 2), (argv, err.getvalue())
    if code == 2:
        assert err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue(), argv
