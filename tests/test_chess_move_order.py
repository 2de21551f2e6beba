"""The chess search's move-ordering statistics (issue 42): history scores with a malus and
gravity stay bounded and go both ways; counter-moves are kept beside them and survive the
aging between searches."""

import chess
import numpy as np

from gamesearch.engines.chess.engine import ChessEngine, age_history, new_history
from gamesearch.engines.chess.search import COUNTER, HISTORY_MAX
from gamesearch.games.chess.kernel import uci_of
from gamesearch.result import Limit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_history_is_bounded_both_ways_and_counter_moves_are_moves():
    engine = ChessEngine(hash_mb=4)
    engine.position(chess.Board(KIWIPETE))
    engine.go(Limit(depth=7))
    scores, counters = engine.hist[:COUNTER], engine.hist[COUNTER:]
    assert engine.hist.shape == new_history().shape
    assert np.abs(scores).max() <= HISTORY_MAX
    assert (scores > 0).any() and (scores < 0).any()  # bonuses and maluses
    found = counters[counters != 0]
    assert found.size > 0
    for move in found:
        text = uci_of(int(move))
        assert chess.Move.from_uci(text).from_square != chess.Move.from_uci(text).to_square


def test_aging_shrinks_the_scores_and_keeps_the_counter_moves():
    history = new_history()
    history[:COUNTER] = np.arange(COUNTER * 128).reshape(COUNTER, 128) - 1000
    history[COUNTER:] = 12345
    before = history.copy()
    age_history(history)
    assert (history[:COUNTER] == before[:COUNTER] // 8).all()
    assert (history[COUNTER:] == before[COUNTER:]).all()
