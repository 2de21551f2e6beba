"""Go over the Go Text Protocol (issue 18): ``gamesearch gtp`` answers as GTP 2 says, bad
requests get ``?`` answers and never a crash, our GTP player drives our own engine and GNU
Go through matches."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.agents import make_agent
from gamesearch.arena.match import run_match
from gamesearch.cli.gtp_session import GtpSession
from gamesearch.games import load_game

GAMESEARCH = [sys.executable, "-m", "gamesearch"]
GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")


def talk(session: GtpSession, *lines: str) -> list[str]:
    return [session.handle(line) for line in lines]


def test_a_conversation_gets_gtp_answers() -> None:
    s = GtpSession("random:seed=1", size=9)
    answers = talk(s, "protocol_version", "1 name", "known_command genmove",
                   "known_command fly", "boardsize 5", "komi 0.5", "play b C3", "play B c3",
                   "play w C3", "play w Z9", "9 play w C4", "final_score", "undo",
                   "final_score", "genmove b", "boardsize 40", "komi x", "frobnicate")
    assert answers[:4] == ["= 2\n", "=1 gamesearch\n", "= true\n", "= false\n"]
    assert answers[4:7] == ["=\n", "=\n", "=\n"]
    assert answers[7] == "? illegal move\n"  # Black again on C3: taken
    assert answers[8] == "? illegal move\n" and answers[9] == "? invalid vertex\n"
    assert answers[10] == "=9\n"
    assert answers[11] == "= W+0.5\n"  # one stone each, the rest neutral, komi 0.5
    assert answers[12] == "=\n" and answers[13] == "= B+24.5\n"  # C3 alone: 25 - 0.5
    assert answers[14].startswith("= ") and answers[14] != "= resign\n"
    assert answers[15:] == ["? unacceptable size\n", "? komi not a float (a multiple of 0.5)\n",
                            "? unknown command\n"]


def test_one_colour_may_play_twice_to_set_up_a_position() -> None:
    s = GtpSession("random:seed=1", size=5)
    assert talk(s, "play b A1", "play b B1", "play w E5", "showboard")[:3] == ["=\n"] * 3
    assert s.state[0].count("X") == 2 and s.state[0].count("O") == 1


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_line_gets_an_answer_or_nothing_never_a_crash(line: str) -> None:
    s = GtpSession("random:seed=1", size=5)
    answer = s.handle(line)
    assert answer is None or answer[0] in "=?"


def test_the_gtp_command_plays_through_our_gtp_player_in_a_match() -> None:
    game = load_game("go:size=5,komi=0.5")
    ours = make_agent(f"gtp:cmd={sys.executable} -m gamesearch gtp --agent random:seed=3")
    result = run_match(game, "random:seed=4", ours.spec, games=2, seed=1)
    assert result.wins + result.draws + result.losses == 2


def test_bad_gtp_options_are_one_line() -> None:
    for args, words in ((["gtp", "--agent", "nonsense"], "unknown agent"),
                        (["gtp", "--agent", "checkers-engine"], "agents for go"),
                        (["gtp", "--komi", "0.3"], "komi")):
        out = subprocess.run([*GAMESEARCH, *args], input="quit\n", capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    missing = subprocess.run([*GAMESEARCH, "match", "go", "gtp:cmd=no-such-go-program",
                              "random"], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "no program" in missing.stderr


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt install gnugo)")
def test_gnu_go_beats_random_play_through_the_gtp_player() -> None:
    game = load_game("go:size=5,komi=0.5")
    result = run_match(game, "gtp", "random:seed=2", games=2, seed=1)
    assert result.wins == 2


def test_loadsgf_sets_up_the_game_up_to_a_move(tmp_path) -> None:
    sgf = tmp_path / "g.sgf"
    sgf.write_text("(;FF[4]SZ[7]KM[6.5];B[dd];W[cc];B[ee];W[tt])")
    s = GtpSession("random:seed=1")
    assert s.handle(f"loadsgf {sgf} 3") == "=\n"
    assert s.size == 7 and s.komi == 6.5 and len(s.history) == 3  # before move 3
    assert s.state[0].count("X") == 1 and s.state[0].count("O") == 1 and s.state[1] == 0
    assert s.handle(f"loadsgf {sgf}") == "=\n" and s.state[2] == 1  # the last pass
    assert s.handle(f"loadsgf {tmp_path / 'none.sgf'}") == "? cannot load file\n"
    (tmp_path / "bad.sgf").write_text("(;SZ[7];B[dd];W[dd])")
    assert s.handle(f"loadsgf {tmp_path / 'bad.sgf'}").startswith("? ")
