"""UCI ``Threads`` > 1 (Lazy SMP): moves in time, mates, helpers that search, stop, quit."""

import subprocess
import sys
import threading
import time

import chess
import chess.engine
import pytest

from budget import load_factor
from gamesearch.cli.uci_session import UciSession
from gamesearch.engines.chess.engine import MAX_THREADS, ChessEngine
from gamesearch.result import Limit

ME = f"{sys.executable} -m gamesearch uci"
POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
]


@pytest.fixture(scope="module")
def engine():
    """Our engine through the UCI player with ``threads=2``: the option passes through
    (python-chess refuses a value above the announced max, as it did when that was 1)."""
    from gamesearch.engines.chess.uci_player import UciPlayer

    player = UciPlayer(cmd=ME, time=0.2, threads=2, hash=16)
    player.prepare(None)
    assert player.engine.options["Threads"].max == MAX_THREADS
    assert player.engine.protocol.config["Threads"] == 2
    yield player.engine
    player.close()


@pytest.mark.parametrize("fen", POSITIONS)
def test_two_threads_play_a_legal_move_in_time(engine, fen):
    board = chess.Board(fen)
    start = time.perf_counter()
    result = engine.play(board, chess.engine.Limit(time=0.3), info=chess.engine.INFO_BASIC)
    assert result.move in board.legal_moves
    # helpers joined: 0.1 more (another process: its slack grows with the machine's load)
    assert time.perf_counter() - start < 0.3 + 0.35 * load_factor()
    assert result.info.get("nodes", 0) > 0


def test_two_threads_play_under_a_clock(engine):
    board = chess.Board(POSITIONS[1])
    start = time.perf_counter()
    result = engine.play(board, chess.engine.Limit(white_clock=1, black_clock=1,
                                                  remaining_moves=5))
    assert result.move in board.legal_moves
    assert time.perf_counter() - start < 0.7 + 0.25 * load_factor()  # as test_chess_uci's


def test_two_threads_find_a_mate_in_two(engine):
    fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=5))
    assert info["score"].white().mate() == 2
    board = chess.Board(fen)
    for move in info["pv"][:3]:
        board.push(move)
    assert board.is_checkmate()


def test_stop_ends_an_infinite_two_thread_search_at_once(engine):
    with engine.analysis(chess.Board(POSITIONS[1]), chess.engine.Limit()) as analysis:
        time.sleep(0.4)
        asked = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
        waited = time.perf_counter() - asked
    assert best.move in chess.Board(POSITIONS[1]).legal_moves
    assert waited < 1.0 * load_factor()


def test_helpers_search_and_their_nodes_are_counted():
    engine = ChessEngine(hash_mb=1, threads=2)
    engine.warm_up()
    engine.position(chess.Board(POSITIONS[1]))
    seen: list[tuple[int, int]] = []
    # the main worker's count stands still while it reports (its own thread is reporting)
    engine.go(Limit(time=0.5), lambda r: seen.append((r.stats.nodes, int(engine.info[0]))))
    total, main = seen[-1]
    assert total > main > 0
    assert engine.helpers[0].info[0] > 1000
    assert not any(t.name.startswith("chess helper") for t in threading.enumerate())


def _session(threads: str):
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=1)
    session.handle(f"setoption name Threads value {threads}")
    return session, lines


@pytest.mark.parametrize("value", ["0", "1000", "x", "-2", ""])
def test_bad_thread_counts_are_one_info_string(value):
    session, lines = _session(value)
    assert len(lines) == 1 and lines[0].startswith("info string")
    assert session.engine.threads == 1
    session.handle("go depth 2")
    session.finish()
    assert lines[-1].startswith("bestmove ")


def test_uci_announces_the_real_maximum_and_takes_it():
    session, lines = _session(str(MAX_THREADS))
    assert lines == [] and session.engine.threads == MAX_THREADS
    session.handle("setoption name Threads value 2")
    session.warming.join()  # the warm-up (one thread) keeps what setoption set meanwhile
    assert session.engine.threads == 2
    session.handle("uci")
    assert f"option name Threads type spin default 1 min 1 max {MAX_THREADS}" in lines


def test_quit_while_searching_with_two_threads_leaves_nothing_running():
    session, lines = _session("2")
    session.run(["position startpos moves e2e4", "go infinite", "isready", "quit"])
    assert lines[-1].startswith("bestmove ")
    assert session.thread is None
    assert not any(t.name.startswith("chess helper") for t in threading.enumerate())


def test_the_program_exits_on_quit_during_a_two_thread_search():
    proc = subprocess.Popen([sys.executable, "-m", "gamesearch", "uci"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        proc.stdin.write("setoption name Threads value 2\nisready\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.strip() == "readyok":
                break
        proc.stdin.write("go infinite\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("info depth 3"):
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        asked = time.perf_counter()
        assert proc.wait(timeout=5) == 0
        assert time.perf_counter() - asked < min(2.0 * load_factor(), 5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_engine_agent_takes_threads():
    from gamesearch.agents import make_agent
    from gamesearch.errors import GameSearchError
    from gamesearch.games import load_game

    game = load_game("chess")
    agent = make_agent("chess-engine:depth=3,threads=2")
    assert agent.engine.threads == 2 and agent.spec == "chess-engine:depth=3,threads=2"
    result = agent(game, game.state_from_string("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"))
    assert result.action == "a1a8" and result.value == 1.0
    with pytest.raises(GameSearchError, match="threads"):
        make_agent("chess-engine:threads=0")
