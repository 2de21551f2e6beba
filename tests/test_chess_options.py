"""Bad values for the chess engine's options (issue 42): UCI answers one ``info string`` and
keeps working; the command line's agent spec refuses them with one line and exit 2; and the
agent's node budget (``nodes=N``), which makes a search independent of the machine's load."""

import subprocess
import sys

import chess
import pytest

from gamesearch.cli.uci_session import UciSession
from gamesearch.engines.chess.scale import MAX_HASH_MB, MAX_THREADS

BAD_OPTIONS = [
    "setoption name Threads value 0",
    "setoption name Threads value 1000",
    f"setoption name Threads value {MAX_THREADS + 1}",
    "setoption name Threads value abc",
    "setoption name Threads value 1.5",
    "setoption name Hash value 0",
    f"setoption name Hash value {MAX_HASH_MB + 1}",
    "setoption name Hash value -64",
    "setoption name Hash value lots",
    "setoption name Contempt value 20",
    "setoption name Threads",
]


def test_each_bad_option_is_one_info_string_and_changes_nothing():
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=1)
    hash_mb = session.engine.hash_mb
    for command in BAD_OPTIONS:
        before = len(lines)
        session.handle(command)
        answer = lines[before:]
        assert len(answer) == 1 and answer[0].startswith("info string"), (command, answer)
        assert session.engine.threads == 1 and session.engine.hash_mb == hash_mb
    session.handle("position startpos moves e2e4 e7e5")
    session.handle("go depth 3")
    session.finish()
    assert lines[-1].startswith("bestmove ")
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(lines[-1].split()[1]) in board.legal_moves


def test_the_uci_program_answers_bad_options_and_still_plays():
    commands = "\n".join(["uci", *BAD_OPTIONS, "setoption name Threads value 2", "isready",
                          "position startpos", "go depth 3", "isready", "quit"]) + "\n"
    out = subprocess.run([sys.executable, "-m", "gamesearch", "uci"], input=commands,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    assert sum(line.startswith("info string") for line in lines) == len(BAD_OPTIONS)
    best = [line for line in lines if line.startswith("bestmove ")]
    assert len(best) == 1
    assert chess.Move.from_uci(best[0].split()[1]) in chess.Board().legal_moves


@pytest.mark.parametrize("param", ["threads=0", "threads=1000", "threads=two", "hash=0",
                                   f"hash={MAX_HASH_MB + 1}", "nodes=0"])
def test_a_bad_engine_spec_is_one_line_and_exit_2(param):
    out = subprocess.run([sys.executable, "-m", "gamesearch", "match", "chess",
                          f"chess-engine:{param}", "random", "--games", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert param.split("=")[0] in out.stderr and "Traceback" not in out.stderr


def test_a_node_budget_bounds_the_search_and_repeats_it():
    from gamesearch.agents import make_agent
    from gamesearch.games import load_game

    game = load_game("chess")
    state = game.state_from_string(
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9")
    results = []
    for _ in range(2):
        agent = make_agent("chess-engine:nodes=3000")
        assert agent.spec == "chess-engine:nodes=3000"
        agent.prepare(game)
        results.append(agent(game, state))
    first, second = results
    # the compiled search checks the budget every 1,024 nodes; the last finished iteration
    # is the answer, so its nodes stay within the budget plus one check's worth
    assert 0 < first.stats.nodes <= 3000 + 1024
    assert first.stats.depth >= 2
    assert (first.action, first.stats.nodes, first.stats.depth) == \
        (second.action, second.stats.nodes, second.stats.depth)
