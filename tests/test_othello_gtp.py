"""Outside Othello programs over GTP (issue 20: Edax behind one small adapter): the player
follows the game with `play` (passes included), a faulty program forfeits, and a real
Edax, where one is on PATH, plays whole games."""

from __future__ import annotations

import random
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from arena_runs import tournament_rows
from gamesearch.engines.othello.gtp_player import moves_between
from gamesearch.games import load_game
from gamesearch.games.othello.rules import PASS_MOVE

EDAX = shutil.which("edax")

# A GTP Othello program written with our own rules: it keeps its board from `play`
# commands (so a wrong or missing move sent by the player shows as a refused command) and
# answers `genmove` with MOVE.
FAKE = textwrap.dedent("""
    import sys
    from gamesearch.games import load_game
    game = load_game("othello")
    state = game.initial_state()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        word = words[0]
        if word == "protocol_version":
            answer = "= 2"
        elif word == "clear_board":
            state, answer = game.initial_state(), "="
        elif word == "play":
            if "bw".index(words[1]) != game.to_move(state):
                answer = "? wrong color"
            else:
                try:
                    state = game.result(state, game.string_to_action(state, words[2]))
                    answer = "="
                except Exception:
                    answer = "? illegal move"
        elif word == "genmove":  # the move is played on the program's own board too
            legal = game.actions(state)
            answer = "= " + MOVE
            try:
                state = game.result(state, game.string_to_action(state, answer[2:]))
            except Exception:
                pass
        elif word == "quit":
            print("=", end="\\n\\n", flush=True)
            break
        else:
            answer = "="
        print(answer, end="\\n\\n", flush=True)
""")


def fake(tmp_path: Path, move: str) -> str:
    script = tmp_path / "fake_edax.py"
    script.write_text(FAKE.replace("MOVE", move))
    return f"edax:cmd={sys.executable} {script}"


def test_moves_between_positions_of_random_games() -> None:
    """The moves found between two positions of a game replay it, passes included."""
    game = load_game("othello")
    rng = random.Random(3)
    passes = 0
    for _ in range(30):
        states = [game.initial_state()]
        while not game.is_terminal(states[-1]):
            states.append(game.result(states[-1], rng.choice(game.actions(states[-1]))))
        for _ in range(5):
            i = rng.randrange(len(states))
            j = min(len(states) - 1, i + rng.randint(0, 6))
            path = moves_between(game, states[i], states[j])
            assert path is not None and len(path) == j - i
            s = states[i]
            for action in path:
                s = game.result(s, action)
            assert s == states[j]
            passes += PASS_MOVE in path
        assert moves_between(game, states[-1], states[0]) is None  # discs never leave
    assert passes > 0  # the sample crossed passes


def test_a_gtp_othello_program_plays_whole_games(tmp_path: Path) -> None:
    """The fake answers its first legal move; every `play` it was sent was legal for it."""
    rows = tournament_rows("othello", tmp_path / "r.sqlite",
                           [fake(tmp_path, "game.action_to_string(state, legal[0])"),
                            "random"], games=4)
    assert len(rows) == 4 and all(r[1] == "end of game" for r in rows), rows


@pytest.mark.parametrize(("move", "words"), [
    ('"a1"', "illegal here"),  # never legal at the start
    ('sys.exit(3)', "stopped"),  # dies when asked to move
])
def test_a_faulty_gtp_othello_program_forfeits(tmp_path: Path, move, words) -> None:
    rows = tournament_rows("othello", tmp_path / "r.sqlite", [fake(tmp_path, move), "random"])
    assert len(rows) == 2
    for game, reason, score_first in rows:
        assert reason.startswith("forfeit") and words in reason, reason
        assert score_first == (0.0 if game == 0 else 1.0)


@pytest.mark.skipif(EDAX is None, reason="no edax on PATH (build github.com/abulmo/edax-reversi)")
def test_edax_plays_through_the_adapter(tmp_path: Path) -> None:
    rows = tournament_rows("othello", tmp_path / "r.sqlite", ["edax:level=2", "random"],
                           games=2)
    assert len(rows) == 2 and all(r[1] == "end of game" for r in rows), rows
