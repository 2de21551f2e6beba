"""The chess engine through UCI: driven by python-chess's engine module, and bad input."""

import sys
import time

import chess
import chess.engine
import pytest

from budget import ProcessClock
from gamesearch.cli.uci_session import UciSession

# Mates confirmed by Stockfish 15.1 (Debian package) at depth 18-20.
MATES = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("2k5/8/2K5/8/8/8/8/3R4 w - - 0 1", 2),
    ("8/8/7Q/8/8/4K3/6k1/8 w - - 0 1", 3),
    ("6k1/8/8/4Q2K/8/8/8/8 w - - 0 1", 3),
]


@pytest.fixture(scope="module")
def engine():
    eng = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "gamesearch", "uci"],
                                              timeout=120)
    eng.ping()  # isready: the GUI waits for the engine to load its compiled search
    yield eng
    eng.quit()


def test_identifies_itself_and_takes_options(engine):
    assert "gamesearch" in engine.id["name"]
    assert "Hash" in engine.options and "Threads" in engine.options
    engine.configure({"Hash": 16, "Threads": 1})


@pytest.mark.parametrize(("fen", "moves"), MATES)
def test_finds_mates(engine, fen, moves):
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=2 * moves + 1))
    assert info["score"].white().mate() == moves
    board = chess.Board(fen)
    for move in info["pv"][:2 * moves - 1]:
        board.push(move)
    assert board.is_checkmate()


@pytest.mark.parametrize("limit", [chess.engine.Limit(time=0.3),
                                   chess.engine.Limit(white_clock=2, black_clock=2,
                                                      white_inc=0.1, black_inc=0.1),
                                   chess.engine.Limit(white_clock=1, black_clock=1,
                                                      remaining_moves=5),
                                   chess.engine.Limit(nodes=5000)])
def test_legal_move_within_the_time_given(engine, limit):
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    clock = ProcessClock(engine.protocol.transport.get_pid())
    result = engine.play(board, limit)
    assert result.move in board.legal_moves
    # judged by the engine's CPU time where it got under half a core (0.81 s against 0.55 s
    # at a load of 20 on 2 cores), else by the wall clock
    clock.kept(limit.time or 0.7, 0.25)


def test_infinite_search_stops_on_request(engine):
    with engine.analysis(chess.Board(), chess.engine.Limit()) as analysis:
        time.sleep(0.5)
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_plays_a_short_game_against_itself(engine):
    board = chess.Board()
    while not board.is_game_over() and board.ply() < 16:
        board.push(engine.play(board, chess.engine.Limit(nodes=2000)).move)
    assert board.ply() == 16 or board.is_game_over()


def _session():
    lines: list[str] = []
    return UciSession(lines.append, hash_mb=1), lines


@pytest.mark.parametrize("line", [
    "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",     # malformed FEN
    "position startpos moves e2e5",                         # an illegal move
    "position startpos moves e2e4 e2e4",
    "position banana",
    "go depth x", "go wtime", "go sideways 3",
    "setoption name Hash value 0", "setoption name Hash value many",
    "setoption name Threads value 1000", "setoption name Colour value 2", "setoption Hash",
    "\x00\xff garbage", "frobnicate",
])
def test_bad_input_is_an_info_string(line):
    session, lines = _session()
    session.handle("position startpos moves e2e4")
    session.handle(line)
    assert lines and lines[-1].startswith("info string")
    assert "\n" not in lines[-1]
    session.handle("go depth 2")
    session.finish()
    assert lines[-1].startswith("bestmove ")
    move = chess.Move.from_uci(lines[-1].split()[1])
    board = chess.Board()
    board.push_uci("e2e4")
    assert move in board.legal_moves  # the position is the last good one


def test_out_of_order_commands_are_refused_while_searching():
    session, lines = _session()
    session.handle("go infinite")
    session.handle("position startpos moves e2e4")
    session.handle("go depth 3")
    session.handle("isready")
    session.handle("stop")
    assert sum(line.startswith("info string") for line in lines) == 2
    assert "readyok" in lines and lines[-1].startswith("bestmove ")


def test_no_legal_move_answers_0000():
    session, lines = _session()
    session.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    session.handle("go depth 3")
    session.finish()
    assert lines[-1] == "bestmove 0000"


def test_engine_agent_plays_in_a_match_and_mates():
    from gamesearch.agents import make_agent
    from gamesearch.games import load_game

    game = load_game("chess")
    agent = make_agent("chess-engine:depth=3")
    state = game.state_from_string("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = agent(game, state)
    assert result.action == "a1a8" and result.value == 1.0
