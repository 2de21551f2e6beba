"""A teacher's Go games (engines/go/teacher.py, bench/go_gnugo_games.py): the board's
symmetries move planes and moves together as the rules do, games replay into examples,
bad files are one line, and GNU Go's games are written, resumed and read back."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesearch.engines.go.net_agent import planes
from gamesearch.engines.go.teacher import (
    SYMMETRIES,
    TEACHER_KIND,
    read_teacher_games,
    square_symmetries,
)
from gamesearch.errors import GameSearchError
from gamesearch.games.go.notation import vertex
from gamesearch.games.go.rules import Go

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
ROOT = Path(__file__).resolve().parents[1]
HEADER = {"kind": TEACHER_KIND, "level": 1, "opening": 2, "seed": 0, "size": 9, "komi": 7.0}


def random_game(rng: random.Random, game: Go) -> tuple[list[int], float]:
    """A random game by our rules to two passes: its moves and Black's margin."""
    state, moves = game.initial_state(), []
    while not game.is_terminal(state):
        legal = game.actions(state)
        stones = [a for a in legal if a != game.pass_action]
        action = rng.choice(stones) if stones and rng.random() < 0.9 else game.pass_action
        state = game.result(state, action)
        moves.append(action)
    return moves, game.score(state)


def write_games(path: Path, games: list[tuple[list[int], float, int]]) -> None:
    lines = [json.dumps(HEADER)]
    for i, (moves, margin, opening) in enumerate(games):
        shown = [vertex(a, 9) if a != 81 else "pass" for a in moves]
        lines.append(json.dumps({"index": i, "opening": opening, "moves": shown,
                                 "margin": margin}))
    path.write_text("\n".join(lines) + "\n")


def test_the_symmetries_move_planes_and_legal_moves_as_the_rules_do() -> None:
    game, rng = Go(9, 7.0), random.Random(5)
    assert SYMMETRIES.shape == (8, 82)
    assert len({tuple(row) for row in SYMMETRIES}) == 8  # eight different maps
    for row in SYMMETRIES:
        assert sorted(row) == list(range(82)) and row[81] == 81
    moves, _ = random_game(rng, game)
    state = game.initial_state()
    for action in moves[:40]:
        state = game.result(state, action)
    state = (state[0], state[1], 0, 0, frozenset())  # no history: superko aside
    x = planes(state[0], state[1], game.actions(state)).reshape(81, 4)
    for forward in square_symmetries(9):
        cells = ["."] * 81
        for p in range(81):
            cells[forward[p]] = state[0][p]
        turned = ("".join(cells), state[1], 0, 0, frozenset())
        legal = game.actions(turned)
        # the trainer's gather (planes of point p move to forward[p]) is the turned board's
        inverse = np.argsort(forward[:-1])
        assert np.array_equal(x[inverse], planes(turned[0], turned[1], legal).reshape(81, 4))
        assert sorted(forward[a] for a in game.actions(state)) == sorted(legal)


def test_games_replay_into_examples(tmp_path: Path) -> None:
    game, rng = Go(9, 7.0), random.Random(11)
    games = []
    for k in range(3):
        moves, margin = random_game(rng, game)
        games.append((moves, margin, k))
    path = tmp_path / "g.jsonl"
    write_games(path, games)
    ex = read_teacher_games([path])
    assert len(ex) == sum(len(m) - k for m, _, k in games)
    assert set(ex.game.tolist()) == {0, 1, 2}
    # the first example of game 1: after its one random move, White to move
    moves, margin, _ = games[1]
    state = game.result(game.initial_state(), moves[0])
    first = int(np.flatnonzero(ex.game == 1)[0])
    assert ex.action[first] == moves[1]
    assert ex.z[first] == -np.sign(margin)
    assert np.array_equal(ex.x[first], planes(state[0], 1, game.actions(state)))
    assert ex.legal[first].sum() == len(game.actions(state))
    assert len(read_teacher_games([path, path], limit=4)) == \
        sum(len(m) - k for m, _, k in games) + len(games[0][0])


@pytest.mark.parametrize("mend, message", [
    (lambda lines: ["{}"] + lines[1:], "not a games file"),
    (lambda lines: lines[:1] + ["[1, 2"], ":2: not a game line"),
    (lambda lines: lines, None),
    (lambda lines: lines[:1] + [json.dumps({"opening": 0, "moves": ["E5", "E5", "pass",
                                                                    "pass"], "margin": 0})],
     r"move 2 \(E5\) is illegal"),
    (lambda lines: lines[:1] + [json.dumps({"opening": 0, "moves": ["Z9"], "margin": 0})],
     "move 1"),
    (lambda lines: lines[:1] + [json.dumps({"opening": 0, "moves": ["E5"], "margin": 0})],
     "does not end"),
    (lambda lines: lines[:1] + [json.dumps({"opening": 0, "moves": ["E5", "pass", "pass"],
                                            "margin": 3.5})], r"score \+74 by our rules"),
    (lambda lines: lines[:1] + [json.dumps({"opening": 9, "moves": ["pass"], "margin": 0})],
     "opening a count"),
])
def test_a_bad_games_file_is_one_line(tmp_path: Path, mend, message) -> None:
    game, rng = Go(9, 7.0), random.Random(2)
    moves, margin = random_game(rng, game)
    path = tmp_path / "g.jsonl"
    write_games(path, [(moves, margin, 0)])
    lines = path.read_text().splitlines()
    path.write_text("\n".join(mend(lines)) + "\n")
    if message is None:  # the same game, still good
        assert len(read_teacher_games([path])) == len(moves)
        return
    with pytest.raises(GameSearchError, match=message) as err:
        read_teacher_games([path])
    assert "\n" not in str(err.value)


def test_a_fifo_or_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(GameSearchError):
        read_teacher_games([tmp_path / "none.jsonl"])
    fifo = tmp_path / "pipe"
    import os

    os.mkfifo(fifo)
    with pytest.raises(GameSearchError):
        read_teacher_games([fifo])


def _games(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench/go_gnugo_games.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt install gnugo)")
def test_gnugo_games_are_written_resumed_and_read(tmp_path: Path) -> None:
    common = ["--level", "1", "--opening", "3", "--seed", "7", "--gnugo", GNUGO]
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    assert _games("--games", "2", "--out", str(whole), *common).returncode == 0
    assert _games("--games", "1", "--out", str(parts), *common).returncode == 0
    assert _games("--games", "2", "--out", str(parts), *common).returncode == 0
    assert whole.read_text() == parts.read_text()      # resumed: the same games
    records = [json.loads(line) for line in whole.read_text().splitlines()[1:]]
    assert [r["index"] for r in records] == [0, 1]
    assert all(r["moves"][-2:] == ["pass", "pass"] for r in records)
    ex = read_teacher_games([whole])                     # our rules agree with the score
    assert len(ex) == sum(len(r["moves"]) - r["opening"] for r in records)
    # other settings, someone else's file, bad numbers: one line, exit 2
    other = _games("--games", "3", "--out", str(whole), "--level", "2", "--seed", "7",
                   "--opening", "3", "--gnugo", GNUGO)
    assert other.returncode == 2 and "other settings (level)" in other.stderr
    theirs = tmp_path / "notes.txt"
    theirs.write_text("my notes\n")
    refused = _games("--games", "1", "--out", str(theirs), *common)
    assert refused.returncode == 2 and theirs.read_text() == "my notes\n"
    assert len(refused.stderr.strip().splitlines()) == 1
    bad = _games("--games", "0", "--out", str(tmp_path / "x.jsonl"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt install gnugo)")
def test_sigterm_stops_after_the_game_in_play_and_a_kill_loses_at_most_that_game(
        tmp_path: Path) -> None:
    import signal
    import time

    common = ["--level", "1", "--opening", "2", "--seed", "3", "--gnugo", GNUGO]
    out = tmp_path / "g.jsonl"

    def started() -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, str(ROOT / "bench/go_gnugo_games.py"),
                                 "--games", "500", "--out", str(out), *common],
                                stderr=subprocess.PIPE, text=True, cwd=ROOT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (
                not out.exists() or len(out.read_text().splitlines()) < 2):
            time.sleep(0.05)
        return proc

    proc = started()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "the same command goes on" in err
    kept = out.read_text().splitlines()
    assert len(kept) >= 2 and kept[-1].endswith("}")
    proc = started()                       # resumed, then killed outright
    proc.kill()
    proc.wait(timeout=60)
    after = out.read_text()
    assert after.startswith("\n".join(kept))
    assert _games("--games", str(len(after.splitlines()) + 1), "--out", str(out),
                  *common).returncode == 0  # a torn last line is cut, the run goes on
    whole = tmp_path / "whole.jsonl"
    n = len(out.read_text().splitlines()) - 1
    assert _games("--games", str(n), "--out", str(whole), *common).returncode == 0
    assert whole.read_text() == out.read_text()  # what an unbroken run writes


def test_the_committed_teacher_games_replay_by_our_rules() -> None:
    """The shipped network's training games (bench/records/go-net/teacher): GNU Go's moves
    are legal by our rules and its final boards score as recorded (the first 40 of each
    file; the whole set, 2,575 games, gives 141,332 positions)."""
    folder = ROOT / "bench/records/go-net/teacher"
    files = sorted(folder.glob("gnugo-L10-s*.jsonl"))
    assert len(files) == 2
    for path in files:
        ex = read_teacher_games([path], limit=40)
        assert ex.per_file == (40,)
        assert set(ex.game.tolist()) == set(range(40))
        assert len(ex) > 40 * 30 and set(np.unique(ex.z)) <= {-1.0, 0.0, 1.0}
        assert all(ex.legal[i, a] for i, a in enumerate(ex.action))
