"""The compiled chess evaluation equals its plain-Python statement as weights times terms."""

import random
from pathlib import Path

import chess
import numpy as np
from bench.chess_tune import weights_source

from gamesearch.catalog import chess_eval
from gamesearch.catalog.chess_eval import evaluate
from gamesearch.catalog.chess_terms import OFFSET, SIZE, flat, terms, unflat, weights
from gamesearch.games.chess.kernel import arrays_of


def _positions(count: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


def test_evaluate_is_the_weights_times_the_terms_rounded_down() -> None:
    w = flat(weights())
    assert w.shape == (SIZE,)
    for board in _positions(60, seed=5):
        value = terms(board) @ w
        assert evaluate(*arrays_of(board)[:2]) == np.floor(value + 1e-9), board.fen()


def test_a_changed_weight_changes_the_value_by_its_term() -> None:
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    x = terms(board)
    w = weights()
    w["MOBILITY_MG"][chess.BISHOP] += 10
    at = OFFSET["MOBILITY_MG"] + chess.BISHOP
    assert x[at] != 0
    assert np.isclose(x @ flat(w) - x @ flat(weights()), 10 * x[at])


def test_the_weights_block_is_what_the_tuner_writes() -> None:
    text = Path(chess_eval.__file__).read_text()
    assert weights_source(unflat(flat(weights()))) in text
