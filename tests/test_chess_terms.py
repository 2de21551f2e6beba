"""The compiled chess evaluation equals its plain-Python statement as weights times terms."""

from pathlib import Path

import chess
import numpy as np
from bench.chess_tune import _readable, weights_source, write_weights

from chess_positions import random_boards
from gamesearch.engines.chess import evaluation as chess_eval
from gamesearch.engines.chess import search as chess_search
from gamesearch.engines.chess.evaluation import evaluate
from gamesearch.engines.chess.terms import SIZE, flat, terms, unflat, weights
from gamesearch.games.chess.kernel import arrays_of


def _positions(count: int, seed: int) -> list[chess.Board]:
    return random_boards(count, seed, most=140)


def test_evaluate_is_the_weights_times_the_terms_rounded_down() -> None:
    w = flat(weights())
    assert w.shape == (SIZE,)
    for board in _positions(60, seed=5):
        value = terms(board) @ w
        assert evaluate(*arrays_of(board)[:2]) == np.floor(value + 1e-9), board.fen()


def test_the_tuner_moves_table_means_into_material_without_changing_a_value() -> None:
    rng = np.random.default_rng(7)
    w = weights()
    for name in ("PST_MG", "PST_EG"):
        w[name] = w[name] + rng.integers(-40, 40, size=w[name].shape)
    shifted = _readable(w)
    assert not np.array_equal(shifted["MATERIAL_MG"], w["MATERIAL_MG"])
    for board in _positions(20, seed=9):
        x = terms(board)
        assert np.isclose(x @ flat(shifted), x @ flat(w)), board.fen()


def test_the_weights_block_is_what_the_tuner_writes() -> None:
    text = Path(chess_eval.__file__).read_text()
    assert weights_source(unflat(flat(weights()))) in text


def test_writing_weights_changes_only_the_block_and_the_search_cache_tag(tmp_path: Path) -> None:
    """The tuner rewrites only the weights block; the compiled search's cache tag covers the
    evaluation's source, so new weights give the search a new cache entry (no pin to edit)."""
    evaluation = tmp_path / "chess_eval.py"
    evaluation.write_text(Path(chess_eval.__file__).read_text())
    w = unflat(flat(weights()))
    write_weights(w, evaluation)
    assert evaluation.read_text() == Path(chess_eval.__file__).read_text()
    assert chess_search.search_tag({chess_eval.__name__: evaluation.read_text()}) == \
        chess_search.search_tag()  # the same text: the same tag
    w["MATERIAL_MG"] = w["MATERIAL_MG"] + 1
    write_weights(w, evaluation)
    assert weights_source(w) in evaluation.read_text()
    assert chess_search.search_tag({chess_eval.__name__: evaluation.read_text()}) != \
        chess_search.search_tag()
