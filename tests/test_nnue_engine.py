"""The network in the chess engine: the NNUE search (its own compiled function), the agent's
``eval=nnue,net=FILE``, UCI's ``Use NNUE`` / ``EvalFile``, and bad network files on every
face (one line: an ``info string``, exit 2, a refused web parameter)."""

from __future__ import annotations

import chess
import pytest

from gamesearch.agents import make_agent
from gamesearch.cli.uci_session import UciSession
from gamesearch.engines.chess import engine as E
from gamesearch.engines.chess.nnue import kernel as K
from gamesearch.engines.chess.nnue import network as N
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.result import Limit
from gamesearch.testing import check_agent

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module")
def net_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("nnue") / "net.npz"
    N.save(N.random_network(hidden=64, l1=16, l2=16, seed=3), path)
    return str(path)


@pytest.fixture
def corrupt_file(tmp_path) -> str:
    path = tmp_path / "corrupt.npz"
    path.write_bytes(b"PK\x03\x04 this is no network")
    return str(path)


def test_the_nnue_search_plays_legal_moves_and_scores_by_the_network(net_file) -> None:
    engine = E.ChessEngine(4, evaluation="nnue", network=net_file)
    assert engine.evaluation == "nnue"
    q = K.quantise(N.load(net_file))
    for fen in (KIWIPETE, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1", chess.STARTING_FEN):
        board = chess.Board(fen)
        engine.position(board)
        result = engine.go(Limit(depth=4))
        assert chess.Move.from_uci(result.action) in board.legal_moves
        replay = board.copy()
        for move in result.pv:
            replay.push_uci(move)  # raises on an illegal move of the line
    # depth 1 on a quiet position: the value is the best child's network value (quiescence
    # finds no capture there), so the search really reads the network
    board = chess.Board("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1")
    engine.position(board)
    result = engine.go(Limit(depth=1))
    children = []
    for move in board.legal_moves:
        board.push(move)
        children.append(-K.reference(q, board))
        board.pop()
    assert result.stats.extra["cp"] == max(children)


def test_with_a_material_network_the_search_wins_material(tmp_path) -> None:
    """The stand-in network counts material: the NNUE search takes a hanging queen and sees
    that a defended one is not hanging (quiescence on the network's accumulators)."""
    from gamesearch.engines.chess.nnue.material import material_network

    path = tmp_path / "material.npz"
    N.save(material_network(64, 8, 8), path)
    engine = E.ChessEngine(4, evaluation="nnue", network=path)
    engine.position(chess.Board("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1"))
    result = engine.go(Limit(depth=3))
    assert result.action == "d1d5" and result.stats.extra["cp"] > 700
    engine.position(chess.Board("4k3/8/1n6/3r4/8/8/8/3QK3 w - - 0 1"))  # Qxd5 Nxd5
    result = engine.go(Limit(depth=3))  # a queen against rook and knight: about +80
    assert result.action != "d1d5" and 0 < result.stats.extra["cp"] < 200


def test_hand_and_network_searches_are_different_compiled_functions(net_file) -> None:
    from gamesearch.engines.chess import search as hand
    from gamesearch.engines.chess.nnue import search as nnue

    assert hand.search is not nnue.search
    assert nnue.search_tag() != hand.search_tag()
    engine = E.ChessEngine(1, evaluation="nnue", network=net_file)
    assert engine._search_function() is nnue.search
    engine.set_evaluation("hand")
    assert engine.evaluation == "hand" and engine._search_function() is hand.search


def test_the_search_reads_every_static_value_through_static_value() -> None:
    """The NNUE search is the hand search's templates with ``static_value`` rebound: a
    template that called the hand evaluation directly would use it in the NNUE search too."""
    import inspect

    from gamesearch.engines.chess import search as hand

    for template in hand.TEMPLATES:
        source = inspect.getsource(template)
        assert "evaluate(" not in source and "evaluation." not in source, template.__name__
    assert "static_value(board, st, undo, tb)" in inspect.getsource(hand.TEMPLATES[-1])


def test_the_nnue_agent_passes_the_agent_checks(net_file) -> None:
    agent = make_agent(f"chess-engine:depth=2,eval=nnue,net={net_file}")
    report = check_agent(load_game("chess"), agent, positions=2, timing=False)
    assert report.positions == 2


def test_two_threads_search_with_the_network(net_file) -> None:
    engine = E.ChessEngine(4, threads=2, evaluation="nnue", network=net_file)
    board = chess.Board(KIWIPETE)
    engine.position(board)
    result = engine.go(Limit(depth=5))
    assert chess.Move.from_uci(result.action) in board.legal_moves


def test_bad_network_files_are_refused_in_one_line(tmp_path, corrupt_file, net_file,
                                                    monkeypatch) -> None:
    engine = E.ChessEngine(1)
    with pytest.raises(N.NetworkError, match="does not exist"):
        engine.set_evaluation("nnue", tmp_path / "missing.npz")
    with pytest.raises(N.NetworkError, match="not a readable network"):
        engine.set_evaluation("nnue", corrupt_file)
    assert engine.evaluation == "hand"
    engine.set_evaluation("nnue", net_file)
    with pytest.raises(N.NetworkError):
        engine.set_evaluation("nnue", corrupt_file)
    assert engine.evaluation == "nnue"  # a failed load keeps what was there
    with pytest.raises(ValueError, match="'hand' or 'nnue'"):
        engine.set_evaluation("neural")
    monkeypatch.setattr(E, "default_network", lambda: tmp_path / "not-shipped.npz")
    with pytest.raises(N.NetworkError, match="no network ships"):
        E.ChessEngine(1, evaluation="nnue")
    with pytest.raises(GameSearchError, match="'hand' or 'nnue'"):
        make_agent("chess-engine:eval=neural")


def test_the_command_line_refuses_a_bad_network_with_exit_2(cli, tmp_path,
                                                            corrupt_file) -> None:
    for net in (str(tmp_path / "nonexistent.npz"), corrupt_file):
        code, out, err = cli("play", "chess", "--player1", f"chess-engine:eval=nnue,net={net}",
                             "--player2", "random")
        assert code == 2
        assert "network file" in err and len(err.strip().splitlines()) == 1
        assert "Traceback" not in out + err


def _session(lines: list[str]) -> UciSession:
    session = UciSession(lines.append, hash_mb=1)
    session.handle("uci")
    session.handle("isready")
    return session


def test_uci_options_switch_the_evaluation(net_file) -> None:
    lines: list[str] = []
    session = _session(lines)
    assert "option name Use NNUE type check default false" in lines
    assert "option name EvalFile type string default <empty>" in lines
    session.handle(f"setoption name EvalFile value {net_file}")
    assert session.engine.evaluation == "hand"  # the file alone does not switch
    session.handle("setoption name Use NNUE value true")
    session.handle("isready")
    assert session.engine.evaluation == "nnue"
    session.handle("position startpos moves e2e4")
    session.handle("go depth 3")
    session.finish()
    best = [line for line in lines if line.startswith("bestmove")][-1].split()[1]
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best) in board.legal_moves
    session.handle("setoption name Use NNUE value false")
    assert session.engine.evaluation == "hand"


def test_uci_bad_network_files_are_an_info_string(tmp_path, corrupt_file, net_file) -> None:
    lines: list[str] = []
    session = _session(lines)
    session.handle("setoption name Use NNUE value true")
    session.handle(f"setoption name EvalFile value {tmp_path / 'missing.npz'}")
    assert "does not exist" in lines[-1] and lines[-1].startswith("info string")
    assert session.engine.evaluation == "hand"
    session.handle(f"setoption name EvalFile value {net_file}")
    assert session.engine.evaluation == "nnue"
    session.handle(f"setoption name EvalFile value {corrupt_file}")
    assert lines[-1].startswith("info string") and "hand-written" in lines[-1]
    assert session.engine.evaluation == "hand"
    session.handle("setoption name Use NNUE value maybe")
    assert lines[-1].startswith("info string") and "true or false" in lines[-1]
    session.handle("isready")
    assert lines[-1] == "readyok"


def test_the_web_takes_no_network_file() -> None:
    from gamesearch.web.validate import agent_spec

    with pytest.raises(GameSearchError, match="not available on the web"):
        agent_spec("chess-engine:eval=nnue,net=nnue")
    assert agent_spec("chess-engine:eval=nnue,time=1")[0].startswith("chess-engine")


def test_a_shipped_network_is_the_default_and_is_warmed_up(tmp_path, monkeypatch,
                                                           net_file) -> None:
    import shutil

    import gamesearch.shipped
    from gamesearch.engines.chess import ENTRY

    game = load_game("chess")
    assert len(ENTRY.warmups(game)) == 2 or E.default_network().is_file()
    shutil.copy(net_file, tmp_path / "nnue.npz")
    monkeypatch.setattr(gamesearch.shipped, "shipped", lambda *parts: tmp_path / parts[-1])
    steps = ENTRY.warmups(game)
    assert "network" in steps[-1][0]
    steps[-1][1]()  # compiles (or loads) the NNUE search with the shipped file
    engine = E.ChessEngine(1, evaluation="nnue")
    assert engine.quantised is not None
    assert K.reference(engine.quantised, chess.Board()) == \
        K.reference(K.quantise(N.load(net_file)), chess.Board())
