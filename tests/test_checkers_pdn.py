"""PDN game files (issue 15): written games read back to the same moves, the forms other
programs write (short captures, comments, variations, move numbers after Black's move)
are read, every move is checked by the rules, bad files are one line, and the reader only
ever raises our own error."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.checkers.pdn import PdnGame, read_pdn, result_token, write_pdn

GAMESEARCH = [sys.executable, "-m", "gamesearch"]


def random_game(seed: int, plies: int = 200) -> PdnGame:
    game, rng = load_game("checkers"), random.Random(seed)
    state, moves = game.initial_state(), []
    while not game.is_terminal(state) and len(moves) < plies:
        move = rng.choice(game.actions(state))
        moves.append(move)
        state = game.result(state, move)
    token = result_token(game.utilities(state) if game.is_terminal(state) else None)
    return PdnGame(moves, token, {"Black": f"b{seed}", "White": "w"})


def test_written_games_read_back_to_the_same_moves_and_results() -> None:
    games = [random_game(seed) for seed in range(20)]
    back = read_pdn(write_pdn(games))
    assert [g.moves for g in back] == [g.moves for g in games]
    assert [g.result for g in back] == [g.result for g in games]
    assert back[3].tags["Black"] == "b3" and back[3].tags["GameType"] == "21"
    assert {g.result for g in games} & {"1-0", "0-1"}  # some games really ended


def test_a_game_from_a_position_keeps_its_fen_and_numbering() -> None:
    start = "W:W18,24,27,K30:B12,16,20"
    game = PdnGame(["24-19", "16x23x32"], "*", {}, start)
    text = write_pdn([game])
    assert '[FEN "W:W18,24,27,K30:B12,16,20"]' in text and "1... 24-19" in text
    back = read_pdn(text)[0]
    assert back.start == start and back.moves == game.moves


def test_the_forms_other_programs_write_are_read() -> None:
    text = """[Event "club"]
[Black "A"]
[White "B \\"the bold\\""]
[Result "1/2-1/2"]
{a comment before the moves}
1. 11-15 23-19 2. 8-11 (2. 9-14 {a side line} 22-17) 22-17! 3. 9-13? $2 17-14
3... 10x17 ; the capture, written short
4. 21x14 1/2-1/2
"""
    game = read_pdn(text)[0]
    assert game.moves == ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17",
                          "21x14"]
    assert game.result == "1/2-1/2" and game.tags["White"] == 'B "the bold"'


def test_a_two_ended_capture_is_resolved_by_the_rules() -> None:
    # Black's king on 1 can only take 6 and 15 to land on 19: written 1x19
    game = read_pdn('[FEN "B:W6,15:BK1"]\n1. 1x19 *\n')[0]
    assert game.moves == ["1x10x19"]


@pytest.mark.parametrize("text, words", [
    ("1. 11-16 23-19 2. 16-20 23-18 *", "move 3 in"),  # 16x23 was compulsory
    ("1. 11-15 24-20 2. 15-19 24x15 *", "move 4"),
    ('[GameType "20"]\n1. 32-28 *', "not English draughts"),
    ('[FEN "B:W40:B1"]\n*', "FEN tag"),
    ("[Event unquoted]\n1. 11-15 *", "tag line"),
    ('[Result "2-0"]\n1. 11-15', "Result"),
])
def test_bad_pdn_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(GameSearchError, match=words.replace("(", r"\(")):
        read_pdn(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]"{}()!?$;.:-x0123456789 \nBWK/*EventResult', max_size=200))
def test_the_reader_only_ever_raises_our_error(text: str) -> None:
    with contextlib.suppress(GameSearchError):
        read_pdn(text)


def test_match_games_export_to_pdn_and_read_back(tmp_path) -> None:
    games = tmp_path / "m.jsonl"
    played = subprocess.run([*GAMESEARCH, "match", "checkers", "checkers-engine:depth=2",
                             "random", "--games", "2", "--seed", "1", "--out", str(games)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "m.pdn"
    wrote = subprocess.run([*GAMESEARCH, "pdn", "write", str(games), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert wrote.returncode == 0, wrote.stderr
    read = subprocess.run([*GAMESEARCH, "pdn", "read", str(out), "--json"],
                          capture_output=True, text=True, timeout=120)
    rows = json.loads(read.stdout)
    recorded = [json.loads(line) for line in games.read_text().splitlines()[1:]]
    assert [r["moves"] for r in rows] == [g["moves"] for g in recorded]
    assert rows[0]["black"] == "checkers-engine:depth=2" and rows[1]["white"] == \
        "checkers-engine:depth=2"
    notes = tmp_path / "notes.pdn"
    notes.write_text("my own notes")
    refused = subprocess.run([*GAMESEARCH, "pdn", "write", str(games), str(notes)],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and notes.read_text() == "my own notes"
    bad = subprocess.run([*GAMESEARCH, "pdn", "read", str(games)], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_tournament_games_from_a_position_export_with_their_fen(tmp_path) -> None:
    db = tmp_path / "t.sqlite"
    start = "B:W18,22,24,27,K30:B9,12,16,20"
    played = subprocess.run([*GAMESEARCH, "tournament", "checkers", "--players",
                             "checkers-engine:depth=2", "--players", "random", "--games", "2",
                             "--position", start, "--db", str(db)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "t.pdn"
    wrote = subprocess.run([*GAMESEARCH, "pdn", "write", str(db), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert wrote.returncode == 0, wrote.stderr
    games = read_pdn(out.read_text())
    assert len(games) == 2 and all(g.start == start for g in games)
    assert {g.tags["Black"] for g in games} == {"checkers-engine:depth=2", "random"}
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
