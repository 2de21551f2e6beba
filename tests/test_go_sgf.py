"""SGF for Go (issue 18): match games written and read back move for move, set-up
positions, the forms other programs write, bad files as one line, and a reader that only
raises our own error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.games.go.rules import Go
from gamesearch.games.go.sgf import SgfRecord, read_sgf, write_sgf

GAMESEARCH = [sys.executable, "-m", "gamesearch"]


def test_a_record_round_trips_with_setup_stones_and_passes() -> None:
    game = Go(size=5, komi=0.5)
    start = game.state_from_string("XX.../...../..O../...../..... w")
    moves = [game.string_to_action(start, "A1")]
    after = game.result(start, moves[0])
    moves += [game.pass_action, game.string_to_action(game.result(after, 25), "E5")]
    record = SgfRecord(5, 0.5, moves, (start[0], 1), {"black": "b", "white": "w"}, "W+R")
    back = read_sgf(write_sgf(record))[0]
    assert back.moves == moves and back.start == (start[0], 1) and back.komi == 0.5
    assert back.players == {"black": "b", "white": "w"} and back.result == "W+R"


def test_the_forms_other_programs_write_are_read() -> None:
    text = "(;GM[1]FF[4]SZ[9]KM[7.5]PB[Lee]PW[Gu]C[a comment]\n;B[ee]C[tengen]\n;W[]" \
           "(;B[dd];W[ff])(;B[cc]))\n(;SZ[9];B[aa])"
    games = read_sgf(text)
    assert [len(g.moves) for g in games] == [4, 1]  # the main line of the first game
    assert games[0].moves[1] == 81 and games[0].players["black"] == "Lee"


@pytest.mark.parametrize("text, words", [
    ("(;SZ[9];B[ee];W[ee])", "taken"),
    ("(;SZ[25];B[aa])", "board size"),
    ("(;SZ[9]KM[0.3];B[aa])", "komi"),
    ("(;SZ[9];B[aa];B[bb])", "twice"),
    ("no sgf here", "not a readable"),
    ("(;SZ[9];B[zz])", "move 1: a point off the board"),  # sgfmill's ValueError says nothing
])
def test_bad_sgf_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(GameSearchError, match=words):
        read_sgf(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="();[]BWSZKMABPLabcdeft0123456789.\\\n ", max_size=80))
def test_the_reader_only_ever_raises_our_error(text: str) -> None:
    """Our error only, and one that says something after its last colon."""
    try:
        read_sgf(text)
    except GameSearchError as err:
        assert str(err).rstrip() and not str(err).rstrip().endswith(":"), str(err)


def test_match_games_export_to_sgf_and_read_back(tmp_path) -> None:
    games = tmp_path / "m.jsonl"
    played = subprocess.run([*GAMESEARCH, "match", "go:size=5", "go-mcts:playouts=200,seed=1",
                             "random", "--games", "2", "--seed", "1", "--out", str(games)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "m.sgf"
    wrote = subprocess.run([*GAMESEARCH, "sgf", "write", str(games), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert wrote.returncode == 0, wrote.stderr
    read = subprocess.run([*GAMESEARCH, "sgf", "read", str(out), "--json"],
                          capture_output=True, text=True, timeout=120)
    rows = json.loads(read.stdout)
    recorded = [json.loads(line) for line in games.read_text().splitlines()[1:]]
    assert [r["moves"] for r in rows] == [g["moves"] for g in recorded]
    assert rows[0]["size"] == 5 and rows[0]["black"] == "go-mcts:playouts=200,seed=1"
    bad = subprocess.run([*GAMESEARCH, "sgf", "read", str(games)], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    wrong = subprocess.run([*GAMESEARCH, "pdn", "write", str(games), str(tmp_path / "x.pdn")],
                           capture_output=True, text=True, timeout=120)
    assert wrong.returncode == 2 and "not checkers" in wrong.stderr
