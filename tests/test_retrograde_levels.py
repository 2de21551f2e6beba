"""The level-by-level retrograde solve (tables/levels.py, the default) against the forward
passes it replaced (tables/sweep.py, the reference): the same value and the same distance
at every slot, on tables where moves leave the slice for wins, losses and draws (checkers'
promotions and captures, chess's captures), and a clear error for an unknown method."""

from __future__ import annotations

import numpy as np
import pytest

from gamesearch.engines.checkers import tables as checkers_tables
from gamesearch.engines.chess import tables as chess_tables
from gamesearch.errors import GameSearchError
from gamesearch.tables.build import build_tables


def _both(spec, tmp_path):
    a = build_tables(spec, tmp_path / "levels", method="levels")
    b = build_tables(spec, tmp_path / "passes", method="passes")
    return a, b


@pytest.mark.parametrize("spec", [lambda: checkers_tables.table_spec(2),
                                  lambda: chess_tables.table_spec(3, ["KQvK"])],
                         ids=["checkers-2", "chess-KQvK"])
def test_levels_give_every_slot_the_value_and_distance_of_the_passes(spec, tmp_path) -> None:
    (ra, va, da), (rb, vb, db) = _both(spec(), tmp_path)
    assert ra.built == rb.built and len(ra.built) > 1
    assert np.array_equal(va, vb)
    assert np.array_equal(da, db)
    assert ra.counts == rb.counts and min(ra.counts.values()) > 0
    assert int(da[da < 255].max()) > 10  # long distances, not only the ends


def test_an_unknown_method_is_one_clear_error(tmp_path) -> None:
    with pytest.raises(GameSearchError, match="method is one of levels, passes"):
        build_tables(checkers_tables.table_spec(1), tmp_path, method="sideways")
