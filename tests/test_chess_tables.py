"""Chess endgame tables by retrograde analysis: KQvK built here and checked against
published facts, python-chess's moves, Stockfish's mates, and played perfectly."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import chess
import numpy as np
import pytest

from gamesearch.engines.chess.engine import ChessAgent
from gamesearch.engines.chess.tables import LONGEST_MATES, Tables, random_positions, table_spec
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.chess import tables_index as T
from gamesearch.tables.build import build_tables
from gamesearch.tables.sweep import DRAW, LOSS, NO_POSITION_DISTANCE, WIN
from gamesearch.tables.verify import verify_tables

GAMESEARCH = [sys.executable, "-m", "gamesearch"]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


@pytest.fixture(scope="module")
def tables3(tmp_path_factory) -> tuple[Path, np.ndarray, np.ndarray]:
    folder = tmp_path_factory.mktemp("tables")
    report, values, dist = build_tables(table_spec(3), folder)
    assert report.built == ["KvK", "KNvK", "KBvK", "KRvK", "KQvK", "KPvK"]
    return folder, values, dist


@pytest.mark.parametrize("name", ["KQvK", "KRvK", "KPvK"])
def test_the_longest_mates_are_the_published_ones(tables3, name) -> None:
    """Mate in 10 (KQvK), 16 (KRvK), 28 (KPvK) with the stronger side to move."""
    folder, values, dist = tables3
    lo, n = table_spec(3).where[name]
    v, d = values[lo:lo + n], dist[lo:lo + n]
    real = d != NO_POSITION_DISTANCE
    assert int(d[(v == WIN) & real].max()) == 2 * LONGEST_MATES[name] - 1


def test_every_slot_keeps_the_rules(tables3) -> None:
    folder = tables3[0]
    assert verify_tables(table_spec(3), folder).bad is None
    tables = Tables(folder)
    assert tables.probe_board(chess.Board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")) == (LOSS, 0)
    assert tables.probe_board(chess.Board("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")) == (DRAW, 0)
    assert tables.probe_board(chess.Board("8/8/8/8/8/3k4/3Q4/7K b - - 0 1"))[0] == DRAW
    # Black's queen: the colour-flipped image has the same value
    white = tables.probe_board(chess.Board("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"))
    assert tables.probe_board(chess.Board("4k2q/8/8/8/4K3/8/8/8 b - - 0 1")) == white


@pytest.mark.parametrize("codes", [[], [5], [1], [2, 3], [3, 3], [1, 4], [1, 1], [4, 12],
                                   [5, 13], [5, 9], [1, 9]])
def test_every_position_slot_is_its_own_key(codes) -> None:
    """The index in both directions: a slot's position keys back to that slot (random
    slots of each slice, every slot of KvK), and no two slots hold one position."""
    meta, where = T.table_layout([codes])
    sig = T.signature(codes)
    n = where[0][1]
    rng = np.random.default_rng(len(codes) * 7 + sum(codes))
    slots = np.arange(n) if n <= 5_000 else rng.integers(0, n, 20_000)
    keys = set()
    for slot in slots.tolist():
        board, st, _undo, ok = T.state_at(meta, 0, slot)
        if ok:
            assert T.position_key(board, st[0], st[2]) == sig + T.SIGNATURES * slot
            keys.add(slot)
    assert len(keys) > len(slots) // 5  # most slots hold a position


@pytest.mark.parametrize("fen, push", [
    ("8/8/8/8/3P4/8/4p3/K1k5 w - - 0 1", None),  # no pawn can take en passant
    ("4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 1", "c7c5"),  # White takes on c6
    ("4k3/8/8/8/5p2/8/4P3/K7 w - - 0 1", "e2e4"),  # Black takes on e3
    ("k7/8/8/8/p7/8/1P6/7K w - - 0 1", "b2b4"),  # on the a-file's side: a file flip away
])
def test_en_passant_has_its_own_slot_in_kpvkp(fen, push) -> None:
    """KPvKP (a pawn each): after a two-square advance beside the other pawn, the
    position's slot is in the en passant half, it reads back with the same en passant
    capture, and python-chess and the index agree on the legal moves; without the right
    (the same pieces, arrived at otherwise) it is another slot."""
    from gamesearch.games.chess.kernel import arrays_of

    board = chess.Board(fen)
    if push is not None:
        board.push_uci(push)
        assert board.has_legal_en_passant()
    meta, where = T.table_layout([[1, 9]])
    half = where[0][1] // 2
    b, st, _ = arrays_of(board)
    key = T.position_key(b, st[0], st[2])
    slot = key >> 8
    assert (key & 255) == T.signature([1, 9]) and (slot >= half) == (push is not None)
    back, st2, undo, ok = T.state_at(meta, 0, slot)
    assert ok == 1 and (st2[2] >= 0) == (push is not None)
    buf = np.zeros(256, np.int64)
    assert T.legal((back, st2, undo, ok), buf) == board.legal_moves.count()
    if push is not None:  # the same pieces without the right: the other half
        plain = board.copy()
        plain.ep_square = None
        b, st, _ = arrays_of(plain)
        assert (T.position_key(b, st[0], st[2]) >> 8) == slot - half


def test_a_position_and_its_mirror_images_share_a_value(tables3) -> None:
    """KQvK has no pawns: the images of a position under the board's symmetries (flips,
    transposes, the half turn), all but one read from other slots' positions, probe alike."""
    tables = Tables(tables3[0])
    for board in random_positions("KQvK", 40, random.Random(3)):
        value = tables.probe_board(board)
        for image in (board.transform(chess.flip_horizontal),
                      board.transform(chess.flip_vertical),
                      board.transform(chess.flip_diagonal),
                      board.transform(chess.flip_anti_diagonal),
                      board.transform(chess.flip_vertical).transform(chess.flip_horizontal)):
            assert tables.probe_board(image) == value, (board.fen(), image.fen())


def test_values_keep_the_rules_of_python_chess(tables3) -> None:
    """Every value, checked with python-chess's own moves (not our generator's): a win has
    a move to a loss one ply shorter, a loss only moves to wins, a draw none to a loss."""
    tables = Tables(tables3[0])
    for board in random_positions("KQvK", 150, random.Random(5)):
        value, plies = tables.probe_board(board)
        children = []
        for move in board.legal_moves:
            board.push(move)
            outcome = board.outcome()
            children.append((LOSS, 0) if outcome and outcome.winner is not None else
                            (DRAW, 0) if outcome else tables.probe_board(board))
            board.pop()
        if value == WIN:
            assert min(d for v, d in children if v == LOSS) == plies - 1, board.fen()
        elif value == LOSS:
            assert all(v == WIN for v, _ in children)
            assert max(d for _, d in children) == plies - 1, board.fen()
        else:
            assert not any(v == LOSS for v, _ in children), board.fen()


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish (Debian package stockfish) is missing")
def test_stockfish_agrees_on_the_result_and_never_mates_faster(tables3) -> None:
    import chess.engine

    tables = Tables(tables3[0])
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        equal = 0
        for board in random_positions("KQvK", 12, random.Random(11)):
            value, plies = tables.probe_board(board)
            engine.configure({"Clear Hash": None})  # a kept hash can shorten a mate score
            score = engine.analyse(board, chess.engine.Limit(nodes=400_000))["score"]
            score = score.pov(board.turn)
            mate = score.mate()
            if value == DRAW:
                assert mate is None and abs(score.score()) < 300, board.fen()
                continue
            assert mate is not None and (mate > 0) == (value == WIN), board.fen()
            ours = (plies + 1) // 2 if value == WIN else plies // 2
            assert abs(mate) >= ours, board.fen()  # an exact table is never beaten
            equal += abs(mate) == ours
        assert equal >= 3  # and where Stockfish finds the shortest mate, it is ours
    finally:
        engine.quit()


def test_the_engine_mates_in_exactly_the_tables_distance(tables3) -> None:
    tables = Tables(tables3[0])
    game = load_game("chess")
    board = chess.Board("8/8/8/3k4/8/8/8/K5Q1 w - - 0 1")
    value, plies = tables.probe_board(board)
    assert value == WIN
    agent = ChessAgent(time=0.05, tables=str(tables3[0]))
    state, white_moves = board.fen(), 0
    while not game.is_terminal(state):
        b = chess.Board(state)
        if b.turn == chess.WHITE:
            move = agent(game, state).action
            white_moves += 1
        else:
            move = tables.best_move(b).uci()  # the longest defence
        state = game.result(state, game.string_to_action(state, move))
    assert chess.Board(state).is_checkmate() and white_moves == (plies + 1) // 2


def test_the_search_scores_a_position_the_tables_hold_exactly(tables3) -> None:
    """Below the root the search reads the tables: taking a loose knight (KQvKN, a table
    not built, into KQvK) is a mate at 1 + the tables' distance after it, seen at depth 2;
    without tables the same search sees no mate."""
    from gamesearch.engines.chess.engine import ChessEngine
    from gamesearch.result import Limit

    board = chess.Board("8/8/8/4k3/8/3n4/8/K2Q4 w - - 0 1")
    tables = Tables(tables3[0])
    assert tables.probe_board(board) is None
    board.push_uci("d1d3")
    value, plies = tables.probe_board(board)
    board.pop()
    assert value == LOSS
    engine = ChessEngine(hash_mb=1)
    engine.position(board)
    plain = engine.go(Limit(depth=2))
    engine.set_tables(str(tables3[0]))
    engine.new_game()
    report = engine.go(Limit(depth=2))
    assert "mate" not in plain.stats.extra
    assert report.action == "d1d3" and report.stats.extra["mate"] == (plies + 2) // 2
    assert report.stats.extra["cp"] == 30000 - (plies + 1)  # MATE - plies from the root


def test_uci_engine_takes_a_tables_path_and_announces_the_exact_mate(tables3, tmp_path) -> None:
    """``setoption name TablesPath``: through python-chess's engine module, the mate score
    is the tables' distance; a folder without tables is one ``info string`` line."""
    import chess.engine

    from gamesearch.cli.uci_session import UciSession

    board = chess.Board("8/8/8/3k4/8/8/8/K5Q1 w - - 0 1")
    value, plies = Tables(tables3[0]).probe_board(board)
    with chess.engine.SimpleEngine.popen_uci([*GAMESEARCH, "uci"], timeout=60) as engine:
        engine.configure({"TablesPath": str(tables3[0])})
        info = engine.analyse(board, chess.engine.Limit(time=0.2))
        assert value == WIN and info["score"].white().mate() == (plies + 1) // 2
        assert board.is_legal(info["pv"][0])
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=1)
    session.handle(f"setoption name TablesPath value {tmp_path}")
    assert len(lines) == 1 and lines[0].startswith("info string error: TablesPath: no chess tables")


def test_cli_builds_probes_and_refuses_bad_input_in_one_line(tmp_path) -> None:
    folder = str(tmp_path / "t")
    built = subprocess.run([*GAMESEARCH, "tables", "build", "chess", "--pieces", "3",
                            "--only", "KQvK", "--dir", folder, "--json"],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    probe = subprocess.run([*GAMESEARCH, "tables", "probe", "chess",
                            "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", "--dir", folder],
                           capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0 and "win in 1 ply" in probe.stdout, probe.stdout
    assert "g1g8  win for White in 1 ply" in probe.stdout  # Qg8 mates
    for args in (["build", "chess", "--pieces", "5"], ["build", "chess", "--pieces", "3",
                                                        "--only", "KZvK"],
                 ["probe", "chess", "8/8/8/8/8/2k5/8/K2RR3 w - - 0 1", "--dir", folder],
                 ["probe", "chess", "not a fen", "--dir", folder]):
        out = subprocess.run([*GAMESEARCH, "tables", *args], capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, (args,
                                                                                   out.stderr)


def test_one_piece_each_side_depends_on_its_captures_and_promotions() -> None:
    """KQvKP needs what its captures and Black's promotions reach, each under the name a
    table holds it (Black's stronger material as its colour-flipped image)."""
    assert table_spec(4, ["KQvKP"]).slices == [
        "KvK", "KNvK", "KBvK", "KRvK", "KQvK", "KPvK",
        "KQvKN", "KQvKB", "KQvKR", "KQvKQ", "KQvKP"]
    assert T.canonical([2, 13]) == [10, 5] and T.canonical([13]) == [5]
    pawns = table_spec(4, ["KPvKP"]).slices  # promotions on both sides, captures
    assert pawns[-1] == "KPvKP" and {"KPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP",
                                     "KQvKQ", "KRvKN"} <= set(pawns)
    assert not {"KQQvK", "KBNvK", "KQvK" + "P" * 2} & set(pawns)
    with pytest.raises(GameSearchError, match="no table 'KPPvKP'"):
        table_spec(4, ["KPPvKP"])


@pytest.mark.parametrize(("fen", "first_scores"), [
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 1.0),  # White (first to move) has KQ: White wins
    ("8/8/8/4K3/8/8/8/kq6 w - - 0 1", 0.0),  # Black has KQ: the side that moves first loses
    ("8/4k3/8/4PK2/8/8/8/8 w - - 0 1", 0.5),  # KPvK, the defender in front: a draw
])
def test_a_tournament_ends_games_the_tables_hold(tables3, tmp_path, fen, first_scores) -> None:
    """`tournament --tables DIR`: from a position the tables hold, each game is ruled at once
    by the tables (the verdict from the right side's view), random players or not."""
    from arena_runs import tournament_rows

    folder, _, _ = tables3
    rows = [row[1:] for row in tournament_rows(
        "chess", tmp_path / "r.sqlite", ["random", "random:seed=5"], 2,
        ("--position", fen, "--tables", str(folder)))]
    assert rows == [("adjudicated: tables", first_scores)] * 2
