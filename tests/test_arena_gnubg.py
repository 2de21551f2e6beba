"""GNU Backgammon as a tournament player (issue 20): ``gnubg:plies=0`` plays through its
embedded-Python server; a program that dies or answers an illegal play loses that game with
the reason stored, and the tournament goes on."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena_runs import tournament_rows

CLI = [sys.executable, "-c", "import sys; from gamesearch.cli.main import main; main(sys.argv[1:])"]
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def tournament(db: Path, *players: str, games: int = 2) -> list[tuple]:
    return tournament_rows("backgammon", db, players, games)


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (apt-get install gnubg)")
def test_gnubg_plays_through_the_adapter_and_beats_random_play(tmp_path: Path) -> None:
    rows = tournament(tmp_path / "r.sqlite", "gnubg:plies=0", "random", games=4)
    assert len(rows) == 4 and not any(r[1].startswith("forfeit") for r in rows), rows
    # gnubg's network against random plays: it wins (nearly) every game; 4 of 4 here
    wins = sum(s if g % 2 == 0 else 1 - s for g, _, s in rows)
    assert wins >= 3, rows


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (apt-get install gnubg)")
def test_gnubg_moves_are_legal_plays_of_ours() -> None:
    """Each answer is matched to one of our plays: a position met in a random game, asked
    of gnubg, gives a legal play (the agent raises otherwise)."""
    import random

    from gamesearch.agents import make_agent
    from gamesearch.games import load_game

    game = load_game("backgammon")
    agent = make_agent("gnubg")
    rng = random.Random(7)
    try:
        s, asked = game.initial_state(), 0
        while not game.is_terminal(s) and asked < 40:
            if s.dice is not None:
                action = agent(game, s).action
                assert action in game.actions(s)
                asked += 1
            else:
                action = rng.choice(game.actions(s))
            s = game.result(s, action)
    finally:
        agent.close()
    assert asked >= 20


FAKE = textwrap.dedent("""
    import sys
    print("GAMESEARCH ready", flush=True)
    for line in sys.stdin:
        ANSWER
""")


@pytest.mark.parametrize(("answer", "words"), [
    ('print("GAMESEARCH [[24, 3], [3, 0]]", flush=True)', "illegal"),  # not a legal play
    ("sys.exit(3)", "stopped"),  # dies when asked to move
    ('print("GAMESEARCH nonsense", flush=True)', "not a move"),
])
def test_a_faulty_gnubg_forfeits_and_the_tournament_goes_on(tmp_path: Path, answer,
                                                           words) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE.replace("ANSWER", answer))
    rows = tournament(tmp_path / "r.sqlite", f"gnubg:cmd={sys.executable} {script}", "random")
    assert len(rows) == 2
    for game, reason, score_first in rows:
        assert reason.startswith("forfeit") and words in reason, reason
        assert score_first == (0.0 if game == 0 else 1.0)  # the fake program lost both


def test_bad_gnubg_specs_are_one_line_before_any_game(tmp_path: Path) -> None:
    for spec, words in (("gnubg:cmd=no-such-gnubg", "no program 'no-such-gnubg'"),
                        ("gnubg:plies=7", "plies must be 0 to 3")):
        done = subprocess.run([*CLI, "tournament", "backgammon", "--players", spec,
                               "--players", "random", "--db", str(tmp_path / "r.sqlite")],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "r.sqlite").exists()
