"""The chess network's file format and reference forward pass (engines/chess/nnue)."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from chess_positions import seeded_board
from gamesearch.engines.chess.nnue import network as N
from gamesearch.engines.chess.nnue.features import FEATURES, active_features, feature_index


def test_features_are_distinct_and_in_range() -> None:
    board = seeded_board(3)
    for side in (chess.WHITE, chess.BLACK):
        on = active_features(board, side)
        assert len(on) == len(set(on)) == len(board.piece_map())
        assert all(0 <= f < FEATURES for f in on)
    assert feature_index(chess.WHITE, chess.WHITE, chess.PAWN, chess.E2) == chess.E2
    assert feature_index(chess.BLACK, chess.BLACK, chess.PAWN, chess.E7) == chess.E2
    assert feature_index(chess.WHITE, chess.BLACK, chess.KING, chess.E8) == 11 * 64 + chess.E8


@pytest.mark.parametrize("seed", range(5))
def test_a_mirrored_position_evaluates_the_same(seed: int) -> None:
    """Colours swapped and the board flipped: the side to move sees the same position."""
    net = N.random_network(hidden=16, l1=8, l2=8, seed=seed)
    board = seeded_board(seed)
    assert N.evaluate(net, board) == pytest.approx(N.evaluate(net, board.mirror()), abs=1e-6)


def test_save_and_load_round_trip(tmp_path) -> None:
    net = N.random_network(hidden=32, l1=8, l2=16, seed=4)
    path = tmp_path / "net.npz"
    N.save(net, path)
    back = N.load(path)
    assert back.widths == (32, 8, 16)
    for name in N.ARRAYS:
        assert np.array_equal(getattr(back, name), getattr(net, name))
    board = seeded_board(9)
    assert N.evaluate(back, board) == N.evaluate(net, board)


def test_bad_files_are_refused_in_one_line(tmp_path) -> None:
    with pytest.raises(N.NetworkError, match="does not exist"):
        N.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(N.NetworkError, match="not a readable network"):
        N.load(junk)
    net = N.random_network(hidden=8, l1=4, l2=4)
    arrays = {name: getattr(net, name) for name in N.ARRAYS}
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, format=np.array(N.FORMAT), scale=np.array(400.0),
             **{**arrays, "l1_w": np.zeros((3, 4), np.float32)})
    with pytest.raises(N.NetworkError, match="l1_w has shape"):
        N.load(wrong)
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("something-else"), scale=np.array(400.0), **arrays)
    with pytest.raises(N.NetworkError, match="format"):
        N.load(other)
    nan = tmp_path / "nan.npz"
    bad = arrays["out_b"].copy()
    bad[0] = np.nan
    np.savez(nan, format=np.array(N.FORMAT), scale=np.array(400.0), **{**arrays, "out_b": bad})
    with pytest.raises(N.NetworkError, match="not finite"):
        N.load(nan)
    lacking = tmp_path / "lacking.npz"
    np.savez(lacking, format=np.array(N.FORMAT), **arrays)
    with pytest.raises(N.NetworkError, match="lacks scale"):
        N.load(lacking)


def test_save_never_replaces_a_device(tmp_path) -> None:
    from gamesearch.durable import OutputFileError

    with pytest.raises(OutputFileError):
        N.save(N.random_network(hidden=4, l1=4, l2=4), "/dev/null")
