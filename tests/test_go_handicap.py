"""Handicap stones: the fixed placements (GTP 2's table, and GNU Go's answers), the rules'
handicap start, the GTP handicap commands and handicap games in SGF."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from gamesearch.cli.gtp_session import GtpSession
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.go.handicap import fixed_handicap_points, max_fixed_handicap
from gamesearch.games.go.notation import vertex
from gamesearch.games.go.sgf import read_sgf, write_sgf
from gamesearch.testing import check_game

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")


def vertices(size: int, n: int) -> set[str]:
    return {vertex(p, size) for p in fixed_handicap_points(size, n)}


def test_the_gtp_specification_table() -> None:
    """GTP 2, section 4.1.1: the 19x19 placements, and 13x13 and 9x9 likewise."""
    assert [vertex(p, 19) for p in fixed_handicap_points(19, 9)] == \
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    assert vertices(19, 5) == {"D4", "Q16", "D16", "Q4", "K10"}
    assert vertices(13, 6) == {"D4", "K10", "D10", "K4", "D7", "K7"}
    assert vertices(9, 3) == {"C3", "G7", "C7"}
    assert (max_fixed_handicap(6), max_fixed_handicap(7), max_fixed_handicap(8),
            max_fixed_handicap(9), max_fixed_handicap(19)) == (0, 4, 4, 9, 9)
    for size, n in ((5, 2), (9, 1), (9, 10), (8, 5)):
        with pytest.raises(GameSearchError):
            fixed_handicap_points(size, n)


@pytest.mark.skipif(GNUGO is None, reason="GNU Go (Debian package gnugo) is not installed")
def test_gnu_go_places_the_same_stones_on_every_board() -> None:
    lines = []
    asked = [(size, n) for size in range(5, 20) for n in range(2, 11)]
    for size, n in asked:
        lines += [f"boardsize {size}", "clear_board", f"fixed_handicap {n}"]
    out = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join(lines + ["quit"]) + "\n",
                         capture_output=True, text=True, timeout=60).stdout
    answers = [a for a in out.split("\n\n") if a.strip()]
    handicap_answers = answers[2::3][:len(asked)]
    assert len(handicap_answers) == len(asked)
    for (size, n), answer in zip(asked, handicap_answers):
        if answer.startswith("?"):
            with pytest.raises(GameSearchError):
                fixed_handicap_points(size, n)
        else:
            assert set(answer[2:].split()) == vertices(size, n), (size, n)


def test_a_handicap_game_starts_with_white_to_move_and_keeps_the_protocol() -> None:
    game = load_game("go:handicap=4")
    start = game.initial_state()
    assert game.to_move(start) == 1 and start[0].count("X") == 4
    assert game.player_name(game.to_move(start)) == "White"
    check_game(load_game("go:size=7,handicap=2"), playouts=3)
    with pytest.raises(GameSearchError):
        load_game("go:size=8,handicap=5")


def test_gtp_handicap_commands() -> None:
    s = GtpSession("random:seed=1", size=9)
    assert s.handle("fixed_handicap 4") == "= C3 G7 C7 G3\n"
    assert s.state[1] == 1  # White moves first
    assert s.handle("undo") == "? cannot undo\n"  # handicap stones are no move
    assert s.handle("genmove w")[0] == "="
    assert s.handle("fixed_handicap 2") == "? board not empty\n"
    assert s.handle("clear_board") == "=\n"
    assert [s.handle(f"fixed_handicap {n}") for n in ("1", "10", "x")] == \
        ["? invalid number of stones\n"] * 3
    assert s.handle("place_free_handicap 30") == \
        "= C3 G7 C7 G3 C5 G5 E3 E7 E5\n"  # GTP allows fewer where more cannot matter
    assert s.handle("clear_board") == "=\n"
    for bad in ("set_free_handicap A1", "set_free_handicap A1 A1", "set_free_handicap A1 pass",
                "set_free_handicap A1 Z9"):
        assert s.handle(bad) == "? bad vertex list\n", bad
    assert s.handle("set_free_handicap A1 B2 J9") == "=\n"
    assert s.state[0].count("X") == 3 and s.state[1] == 1
    small = GtpSession("random:seed=1", size=5)
    assert small.handle("place_free_handicap 2") == "? invalid number of stones\n"


def test_a_handicap_sgf_reads_and_round_trips() -> None:
    text = "(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]AB[gc][cg];W[ee];B[dd])"
    record = read_sgf(text.encode())[0]
    states = record.states()
    assert states[0][1] == 1 and states[0][0].count("X") == 2 and len(states) == 3
    again = write_sgf(record)
    assert "HA[2]" in again and "PL[W]" in again
    assert read_sgf(again.encode())[0].states() == states
