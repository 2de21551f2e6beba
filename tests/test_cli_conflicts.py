"""Options that cannot mean anything are refused, not ignored (issue #39): the compiled
solver's options with ``--pure``, and SPRT bounds that are not two finite Elo differences
in order."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("extra", [["--weak"], ["--pv", "3"], ["--table", "20"]])
def test_compiled_solver_options_with_pure_are_refused(cli, extra) -> None:
    code, _, err = cli("solve", "connect4", "--position", "4453", "--pure", *extra)
    assert code == 2 and extra[0] in err and "compiled solver" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("bounds", ["nan:inf", "5:0", "0:0", "-inf:5"])
def test_sprt_bounds_must_be_finite_and_ordered(cli, tmp_path, bounds) -> None:
    db = tmp_path / "r.sqlite"
    code, _, err = cli("tournament", "tictactoe", "--players", "random:seed=1",
                       "--players", "random:seed=2", "--games", "2", "--db", str(db))
    assert code == 0, err
    code, _, err = cli("report", str(db), "--sprt", bounds)
    assert code == 2 and "--sprt" in err and err.count("\n") == 1
    code, out, _ = cli("report", str(db), "--sprt", "0:5")
    assert code == 0 and "LLR" in out.upper()
