"""The chess network's training data: reading it (engines/chess/nnue/dataset.py) and
making it (bench/chess_nnue_data.py: resumes exactly, refuses files it did not make).
Needs no JAX."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import chess
import numpy as np
import pytest

from chess_positions import random_boards
from gamesearch.engines.chess.nnue.dataset import (
    PAD,
    DataError,
    fen_features,
    read_positions,
    read_rows,
)
from gamesearch.engines.chess.nnue.features import active_features
from gamesearch.learn.split import held_out

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def _boards(count: int, seed: int = 0) -> list[chess.Board]:
    return random_boards(count, seed, most=80)


def test_fen_features_are_the_specifications_features() -> None:
    for board in _boards(60, seed=4):
        us, them = fen_features(board.fen())
        assert us == active_features(board, board.turn)
        assert them == active_features(board, not board.turn)


def test_read_positions_pads_orders_and_limits(tmp_path: Path) -> None:
    boards = _boards(12, seed=1)
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps({"game": i // 3, "fen": b.fen(), "score": 10 * i,
                                        "result": 0.5}) + "\n" for i, b in enumerate(boards))
                    + '{"game": 9, "fen": "half a li')  # a line being written: not read
    data = read_positions(path)
    assert len(data) == 12 and data.us.shape == (12, 32)
    first = boards[0]
    assert [f for f in data.us[0] if f != PAD] == active_features(first, first.turn)
    assert (data.us[0] == PAD).sum() == 32 - len(first.piece_map())
    assert data.score.tolist() == [10.0 * i for i in range(12)]
    assert len(read_positions(path, limit=5)) == 5


@pytest.mark.parametrize("text", ['{"game": 0, "fen": "nonsense", "score": 1}\n',
                                  '{"game": 0, "score": 1}\n',
                                  '{"game": 0, "fen": "8/8/8/8/8/8/8/8 w - - 0 1", '
                                  '"score": 1, "result": 3}\n', "not json\n", ""])
def test_bad_data_is_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        read_positions(path)
    assert "\n" not in str(err.value)
    with pytest.raises(DataError, match="does not exist"):
        read_positions(tmp_path / "missing.jsonl")


def _write(path: Path, rows: list[tuple[int, str, int]]) -> Path:
    path.write_text("".join(json.dumps({"game": g, "fen": fen, "score": cp, "result": 0.5})
                            + "\n" for g, fen, cp in rows))
    return path


def test_several_files_read_as_one_set(tmp_path: Path) -> None:
    fens = [b.fen() for b in _boards(8, seed=6)]
    first = _write(tmp_path / "a.jsonl", [(0, fens[0], 1), (0, fens[1], 2), (3, fens[2], 3)])
    # the second file: its own game numbers; fens[1] is first's (kept once, from first), its
    # move counters differ (the same position); fens[3] twice in one file (both kept, as a
    # single file's rows are)
    again = fens[1].rsplit(" ", 2)[0] + " 7 40"
    second = _write(tmp_path / "b.jsonl", [(0, fens[3], 4), (0, again, 5), (1, fens[3], 6),
                                           (2, fens[4], 7)])
    data = read_positions([first, second])
    assert data.score.tolist() == [1, 2, 3, 4, 6, 7]
    assert data.game.tolist() == [0, 0, 3, 4, 5, 6]  # the second's numbered after game 3
    alone = read_positions(first)
    assert held_out(data.game, 2)[:3].tolist() == held_out(alone.game, 2).tolist()
    assert read_positions([first, second], limit=4).score.tolist() == [1, 2, 3, 4]
    assert read_positions(str(first)).score.tolist() == [1, 2, 3]
    assert [row[0] for row in read_rows([second, first])] == \
        [fens[3], again, fens[3], fens[4], fens[0], fens[2]]  # the other order: fens[1] skipped
    with pytest.raises(DataError, match="b.jsonl.*line 1"):
        read_positions([first, _write(tmp_path / "b.jsonl", [(-1, fens[5], 0)])])
    with pytest.raises(DataError, match="missing"):
        read_positions([first, tmp_path / "missing.jsonl"])
    with pytest.raises(DataError, match="no data file"):
        read_positions([])


def test_the_eval_bench_holds_out_what_the_trainer_holds_out(tmp_path: Path) -> None:
    from bench.chess_nnue_eval import validation_boards

    boards = _boards(40, seed=7)
    first = _write(tmp_path / "a.jsonl", [(i // 4, b.fen(), i) for i, b in enumerate(boards[:20])])
    second = _write(tmp_path / "b.jsonl", [(i // 4, b.fen(), 100 + i)
                                           for i, b in enumerate(boards[20:])])
    data = read_positions([first, second], limit=35)
    test = held_out(data.game, 3)
    kept, scores = validation_boards([first, second], 35, 3)
    assert scores.tolist() == data.score[test].tolist() and len(kept) == int(test.sum()) > 0
    assert [b.fen() for b in kept] == [b.fen() for b, t in zip(boards, test) if t]
    # --holdout 1: every position read (fresh data that no network trained on)
    every, every_scores = validation_boards([first, second], None, 1)
    assert len(every) == len(read_positions([first, second]).score) == len(every_scores)


def test_validation_is_split_by_game() -> None:
    game = np.repeat(np.arange(50), 7)
    test = held_out(game, 10)
    assert set(game[test]) == {9, 19, 29, 39, 49}
    assert not held_out(game, 0).any()


def _generate(out: Path, positions: int) -> int:
    from bench.chess_nnue_data import data

    return data(argparse.Namespace(out=out, positions=positions, depth=1, sf_depth=1,
                                   seed=5, stockfish=STOCKFISH))


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_the_generator_resumes_exactly(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    _generate(whole, 150)
    _generate(parts, 40)
    kept = parts.read_bytes()
    # a kill while a line was being written: the next run cuts the half line and goes on
    with parts.open("ab") as fh:
        fh.write(b'{"game": 99, "fen": "rnb')
    _generate(parts, 150)
    assert parts.read_bytes().startswith(kept)
    assert parts.read_text() == whole.read_text()
    rows = [json.loads(line) for line in whole.read_text().splitlines()]
    assert len(rows) >= 150
    assert all(r["result"] in (0.0, 0.5, 1.0) and chess.Board(r["fen"]).is_valid()
               and not chess.Board(r["fen"]).is_check() for r in rows)
    # positions of one game and one side to move share the result
    by_game: dict[tuple[int, str], set[float]] = {}
    for r in rows:
        by_game.setdefault((r["game"], r["fen"].split()[1]), set()).add(r["result"])
    assert all(len(results) == 1 for results in by_game.values())


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_the_generator_refuses_what_it_did_not_make(tmp_path: Path) -> None:
    from bench.chess_nnue_data import check_ours

    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"hello": 1}\n')
    with pytest.raises(SystemExit, match="did not make"):
        _generate(foreign, 10)
    assert foreign.read_text() == '{"hello": 1}\n'
    ours = tmp_path / "ours.jsonl"
    _generate(ours, 5)
    settings = json.loads((tmp_path / "ours.jsonl.settings.json").read_text())
    with pytest.raises(SystemExit, match="other settings"):
        check_ours(ours, {**settings, "sf_depth": 2})


def test_hand_positions_leave_the_validation_games_out(tmp_path: Path, monkeypatch) -> None:
    import sys

    from bench.chess_nnue_hand import main

    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"game": i, "fen": b.fen(), "score": 0, "result": 0.5})
                            + "\n" for i, b in enumerate(_boards(20, seed=2))
                            if not b.is_game_over()))
    out = tmp_path / "hand.jsonl"
    monkeypatch.setattr(sys, "argv", ["chess_nnue_hand.py", str(data), "--out", str(out),
                                      "--variants", "3", "--holdout", "4"])
    main()
    hand = read_positions(out)
    assert len(hand) > 20
    assert not held_out(hand.game, 4).any() and held_out(np.arange(20), 4).any()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert any(r["score"] != 0 for r in rows)
    assert all(not chess.Board(r["fen"]).is_check() for r in rows)


def _recorded_pgn(path: Path, games: int, seed: int) -> None:
    """``games`` short random games as PGN, each written twice (as a repeated opening
    is): the second copy's positions are all seen already."""
    import random

    import chess.pgn

    rng = random.Random(seed)
    texts = []
    for g in range(games):
        board = chess.Board()
        for _ in range(24):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        record = chess.pgn.Game.from_board(board)
        record.headers["Result"] = ("1-0", "0-1", "1/2-1/2", "*")[g % 4]
        texts += [str(record)] * 2
    path.write_text("\n\n".join(texts) + "\n")


def _from_pgn(out: Path, pgns: list[Path], positions: int) -> int:
    from bench.chess_nnue_data import data

    return data(argparse.Namespace(out=out, positions=positions, depth=1, sf_depth=1, seed=0,
                                   stockfish=STOCKFISH, from_pgn=pgns))


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_recorded_games_are_scored_once_each_position_and_resume_exactly(tmp_path) -> None:
    pgn = tmp_path / "games.pgn"
    _recorded_pgn(pgn, 8, seed=3)
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    got = _from_pgn(whole, [pgn], 10_000)  # fewer there: stops when the games run out
    rows = [json.loads(line) for line in whole.read_text().splitlines()]
    assert got == len(rows) > 20
    keys = [" ".join(r["fen"].split()[:4]) for r in rows]
    assert len(set(keys)) == len(keys)  # the repeated games added nothing
    assert {r["game"] % 2 for r in rows} == {0}  # the second copies kept no position
    assert all(r["game"] // 2 % 4 != 3 for r in rows)  # no result (*): skipped
    for r in rows:
        white = {0: 1.0, 1: 0.0, 2: 0.5}[r["game"] // 2 % 4]
        assert r["result"] == (white if r["fen"].split()[1] == "w" else 1 - white)
    _from_pgn(parts, [pgn], 15)
    _from_pgn(parts, [pgn], 10_000)
    assert parts.read_text() == whole.read_text()
    other = tmp_path / "other.pgn"
    _recorded_pgn(other, 2, seed=4)
    with pytest.raises(SystemExit, match="other settings"):
        _from_pgn(whole, [pgn, other], 10_000)
    with pytest.raises(SystemExit, match="cannot read") as err:
        _from_pgn(tmp_path / "new.jsonl", [tmp_path / "missing.pgn"], 10)
    assert "\n" not in str(err.value)


def test_a_random_opening_that_ends_the_game_is_a_game_not_a_crash() -> None:
    """Eight random plies can mate (a fool's mate takes four): the opening stops there and
    the game is over with its result, without asking Stockfish (a generator died on it)."""
    import random

    from bench.chess_nnue_data import play_game
    from bench.chess_tune import RANDOM_PLIES, random_opening

    seed = next(s for s in range(100_000) if random_opening(random.Random(s)).is_game_over())
    board = random_opening(random.Random(seed))
    assert board.ply() <= RANDOM_PLIES and not any(board.legal_moves)

    class NoEngine:
        def new_game(self) -> None:
            pass

        def __getattr__(self, name: str):
            raise AssertionError(f"the engine was asked: {name}")

    kept, turns, white = play_game(NoEngine(), NoEngine(), random.Random(seed), 6, 9, 0)
    outcome = board.outcome()
    assert kept == [] and turns == []
    assert white == (0.5 if outcome.winner is None else float(outcome.winner))
    fresh = random.Random(7)
    assert random_opening(fresh).ply() == RANDOM_PLIES  # an ordinary opening: all its plies
