"""Outside engines as tournament players (issue 20): a UCI program (Stockfish, our own
``gamesearch uci``) plays through ``uci:cmd=...``; one that will not start, dies or answers
an illegal move loses that game with the reason stored, and the tournament goes on."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena_runs import tournament_rows

CLI = [sys.executable, "-c", "import sys; from gamesearch.cli.main import main; main(sys.argv[1:])"]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def tournament(db: Path, *players: str, games: int = 2, plies: int = 60) -> list[tuple]:
    return tournament_rows("chess", db, players, games, ("--max-plies", str(plies)))


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_stockfish_plays_through_the_uci_adapter(tmp_path: Path) -> None:
    rows = tournament(tmp_path / "r.sqlite", "uci:cmd=stockfish,time=0.02", "random",
                      plies=120)
    assert len(rows) == 2 and not any(r[1].startswith("forfeit") for r in rows)
    # Stockfish never loses to random play: it scores 1 with white (game 0), 0 as black
    # means random won; a draw by the ply limit is possible only without a mate in 120
    assert rows[0][2] >= 0.5 and rows[1][2] <= 0.5


def test_our_own_uci_engine_plays_through_the_adapter(tmp_path: Path) -> None:
    me = f"{sys.executable} -c 'from gamesearch.cli.main import main; main([\"uci\"])'"
    rows = tournament(tmp_path / "r.sqlite", f"uci:cmd={me},time=0.05", "random", games=1,
                      plies=30)
    assert len(rows) == 1 and not rows[0][1].startswith("forfeit"), rows


FAKE = textwrap.dedent("""
    import sys
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "uci":
            print("id name fake\\nuciok", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "go":
            print(MOVE, flush=True)
        elif word == "quit":
            break
""")


@pytest.mark.parametrize(("behaviour", "words"), [
    ('"bestmove a1a8"', "a1a8"),  # an illegal move
    ('"garbage" if False else sys.exit(3)', "failed"),  # dies when asked to move
])
def test_a_faulty_engine_forfeits_and_the_tournament_goes_on(tmp_path: Path, behaviour,
                                                            words) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE.replace("MOVE", behaviour))
    rows = tournament(tmp_path / "r.sqlite", f"uci:cmd={sys.executable} {script},time=0.05",
                      "random")
    assert len(rows) == 2
    for game, reason, score_first in rows:
        assert reason.startswith("forfeit") and words in reason, reason
        assert score_first == (0.0 if game == 0 else 1.0)  # the fake engine lost both


def test_a_program_that_is_not_there_is_one_line_before_any_game(tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "tournament", "chess", "--players", "uci:cmd=no-such-engine",
                           "--players", "random", "--db", str(tmp_path / "r.sqlite")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no program 'no-such-engine'" in done.stderr
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_a_process_that_never_closes_its_uci_player_still_exits() -> None:
    """python-chess talks to the program from a non-daemon thread, which Python joins before
    it exits: an unclosed player held pytest open after its summary, past CI's limit."""
    script = textwrap.dedent("""
        import chess
        from gamesearch.agents import make_agent
        from gamesearch.games import load_game
        game = load_game("chess")
        agent = make_agent("uci:cmd=stockfish,time=0.01")
        print(agent(game, chess.STARTING_FEN).action)
        del agent  # dropped, not closed: its program must still be stopped at exit
        import gc
        gc.collect()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) in (4, 5)


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
@pytest.mark.parametrize("args", [
    ("match", "chess", "random", "uci:cmd=stockfish,time=0.01", "-n", "1"),
    ("match", "chess", "random", "uci:cmd=stockfish,time=0.01", "-n", "2", "--seed", "1"),
])
def test_a_match_against_a_uci_program_ends(args) -> None:
    """`match` ran its games and then hung at exit, its Stockfish never closed."""
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    assert "score rate" in done.stdout
