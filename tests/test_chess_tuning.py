"""The chess search's settings (engines/chess/tuning.py, issue 42): at their defaults the
search is the one they were measured against; a setting reaches the compiled search and
changes it; bad values are one line in UCI (an ``info string``) and on the command line
(exit 2)."""

import subprocess
import sys

import chess
import pytest

from gamesearch.cli.uci_session import UciSession
from gamesearch.engines.chess.engine import ChessEngine
from gamesearch.engines.chess.tuning import TUNING, default_tuning, uci_name
from gamesearch.result import Limit

MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHANGED = {"rfp_margin": 40, "futility_step": 40, "null_base": 4, "null_divisor": 2,
           "lmp_base": 1, "lmr_divisor": 150}


def _nodes(settings: dict[str, int], fen: str = MIDDLEGAME, depth: int = 8) -> tuple[int, str]:
    engine = ChessEngine(hash_mb=16)
    for name, value in settings.items():
        engine.set_tuning(name, value)
    engine.position(chess.Board(fen))
    result = engine.go(Limit(depth=depth))
    for index, _, _, _ in TUNING.values():  # what the search read is what was set
        assert engine.info[index] == {**default_tuning(), **settings}[
            next(n for n, spec in TUNING.items() if spec[0] == index)]
    return result.stats.nodes, result.action


def test_the_defaults_set_by_name_are_the_search_without_settings():
    assert _nodes(default_tuning()) == _nodes({})


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_each_setting_reaches_the_search(name):
    base = _nodes({})[0], _nodes({}, KIWIPETE)[0]
    changed = _nodes({name: CHANGED[name]})[0], _nodes({name: CHANGED[name]}, KIWIPETE)[0]
    assert changed != base, name


def test_the_engine_refuses_unknown_settings_and_values_out_of_range():
    engine = ChessEngine(hash_mb=1)
    with pytest.raises(ValueError, match="unknown search setting"):
        engine.set_tuning("lmr", 1)
    for name, (_, _, low, high) in TUNING.items():
        for bad in (low - 1, high + 1):
            with pytest.raises(ValueError, match=f"{name} must be {low}..{high}"):
                engine.set_tuning(name, bad)
    assert engine.tuning == {}


def test_the_uci_options_are_listed_set_and_refuse_bad_values():
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=1)
    session.handle("uci")
    for name, (_, default, low, high) in TUNING.items():
        assert f"option name {uci_name(name)} type spin default {default} min {low} " \
            f"max {high}" in lines
    for bad in ("0", "7", "two", ""):
        before = len(lines)
        session.handle(f"setoption name NullBase value {bad}")
        answer = lines[before:]
        assert len(answer) == 1 and answer[0].startswith("info string"), (bad, answer)
        assert any(word in answer[0] for word in ("NullBase", "whole number", "setoption")), \
            answer
    assert session.engine.tuning == {}
    session.handle("setoption name LmrDivisor value 225")
    session.handle("setoption name rfpmargin value 60")
    assert session.engine.tuning == {"lmr_divisor": 225, "rfp_margin": 60}


def test_the_agent_spec_takes_the_settings_and_refuses_bad_values():
    from gamesearch.agents import make_agent

    agent = make_agent("chess-engine:nodes=100,lmr_divisor=225,null_base=3")
    assert agent.engine.tuning == {"lmr_divisor": 225, "null_base": 3}
    assert "lmr_divisor=225" in agent.spec and "null_base=3" in agent.spec
    assert make_agent("chess-engine").engine.tuning == {}
    out = subprocess.run([sys.executable, "-m", "gamesearch", "match", "chess",
                          "chess-engine:null_base=9", "random", "--games", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "null_base" in out.stderr and "Traceback" not in out.stderr
