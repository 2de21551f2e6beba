"""Outside Othello programs over GTP (issue 20: Edax behind one small adapter): the player
follows the game with `play` (passes included), a faulty program forfeits, and a real
Edax, where one is on PATH, plays whole games."""

from __future__ import annotations

import random
import shutil
import subprocess
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
# answers `genmove` with __MOVE__.
FAKE = textwrap.dedent("""
    import sys
    from gamesearch.games import load_game
    from gamesearch.games.othello.rules import PASS_MOVE
    game = load_game("othello")
    state = game.initial_state()
    AUTO_PASS = False  # GRhino's way: a side with no move passes without being told

    def settle(state):
        if AUTO_PASS and not game.is_terminal(state) and game.actions(state) == [PASS_MOVE]:
            return game.result(state, PASS_MOVE)
        return state

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
                    state = settle(game.result(state, game.string_to_action(state, words[2])))
                    answer = "="
                except Exception:
                    answer = "? illegal move"
        elif word == "genmove":  # the move is played on the program's own board too
            legal = game.actions(state)
            answer = "= " + __MOVE__
            try:
                state = settle(game.result(state, game.string_to_action(state, answer[2:])))
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
    script.write_text(FAKE.replace("__MOVE__", move))
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


GRHINO = shutil.which("gtp-rhino") or shutil.which("gtp-rhino", path="/usr/games")


def argv_checking_fake(tmp_path: Path, expected: list[str], auto_pass: bool) -> str:
    """A fake program that refuses to start (exit 7) unless its arguments are ``expected``,
    then plays its first legal move (passing by itself, as GRhino does, with ``auto_pass``)."""
    script = tmp_path / "fake_rhino.py"
    script.write_text(f"import sys\nif sys.argv[1:] != {expected!r}:\n"
                      "    print('bad arguments', sys.argv[1:], file=sys.stderr)\n"
                      "    sys.exit(7)\n"
                      + FAKE.replace("__MOVE__", "game.action_to_string(state, legal[0])")
                      .replace("AUTO_PASS = False", f"AUTO_PASS = {auto_pass}"))
    return f"{sys.executable} {script}"


def test_grhino_settings_become_its_own_flags(tmp_path: Path) -> None:
    """level, mid, end, win, book and rand are gtp-rhino's -l -m -e -w -b -r; no -gtp added."""
    cmd = argv_checking_fake(tmp_path, ["-l", "4", "-m", "6", "-e", "12", "-b", "0"],
                             auto_pass=True)
    rows = tournament_rows("othello", tmp_path / "r.sqlite",
                           [f"grhino:cmd={cmd},level=4,mid=6,end=12,book=0", "random"],
                           games=8, extra=["--seed", "11"])
    assert len(rows) == 8 and all(r[1] == "end of game" for r in rows), rows


def test_grhino_is_not_asked_to_move_where_it_has_passed_by_itself(tmp_path: Path) -> None:
    """A side with no move: GRhino passes for it without being told, so the player answers
    the pass itself (asking would get the other side's move, which once forfeited a game).
    Whole games against random until the GRhino-like fake has had to pass."""
    from gamesearch.agents import make_agent
    from gamesearch.engines.othello.gtp_player import grhino_player
    from gamesearch.loop import run_game

    game = load_game("othello")
    player = grhino_player(cmd=argv_checking_fake(tmp_path, [], auto_pass=True))
    passes = 0
    try:
        for seed in range(60):
            player.reset()
            seats = [player, make_agent(f"random:seed={seed}")][::1 if seed % 2 else -1]
            mine = seats.index(player)
            record = run_game(game, seats, rng=random.Random(seed))
            assert record.reason == "end of game", (seed, record.reason)
            passes += sum(p.player == mine and p.action == PASS_MOVE for p in record.plies)
            if passes:
                break
    finally:
        player.close()
    assert passes >= 1, "no game had the fake pass"


def test_a_gtp_othello_program_starts_with_its_own_flags_only(tmp_path: Path) -> None:
    cmd = argv_checking_fake(tmp_path, ["--quiet", "-x"], auto_pass=False)
    rows = tournament_rows("othello", tmp_path / "r.sqlite",
                           [f"gtp-othello:cmd={cmd} --quiet -x", "random"])
    assert len(rows) == 2 and all(r[1] == "end of game" for r in rows), rows


def test_a_babbling_grhino_forfeits(tmp_path: Path) -> None:
    """An answer that is no move of the game (here: words) loses the game, one line."""
    script = tmp_path / "babble.py"
    script.write_text(FAKE.replace("__MOVE__", '"I think I will pass today"'))
    rows = tournament_rows("othello", tmp_path / "r.sqlite",
                           [f"grhino:cmd={sys.executable} {script}", "random"])
    assert all(r[1].startswith("forfeit") for r in rows), rows


@pytest.mark.parametrize(("spec", "words"), [
    ("grhino:level=9", "level: 9 is out of range (give 1..5)"),
    ("grhino:mid=0", "mid: 0 is out of range (give 1..20)"),
    ("grhino:cmd=no-such-rhino", "no program 'no-such-rhino'"),
    ("gtp-othello:cmd=no-such-program", "no program 'no-such-program'"),
])
def test_bad_grhino_specs_are_one_line(spec: str, words: str) -> None:
    from arena_runs import CLI

    done = subprocess.run([*CLI, "match", "othello", spec, "random", "--games", "2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.skipif(GRHINO is None, reason="no gtp-rhino (Debian package grhino)")
def test_grhino_plays_through_the_adapter(tmp_path: Path) -> None:
    rows = tournament_rows("othello", tmp_path / "r.sqlite", ["grhino:level=1", "random"],
                           games=6, extra=["--seed", "5"])
    assert len(rows) == 6 and all(r[1] == "end of game" for r in rows), rows
