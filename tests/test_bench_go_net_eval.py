"""bench/go_net_eval.py's games and bench/go_net_curve.py's legend: a seeded opponent
replays the same games, GNU Go (a GTP program, which takes no seed) plays too, its process
ending with each game, and the plot names it by its level."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bench.go_net_eval import score

from gamesearch.engines.go.net_agent import load_network

NET = Path(__file__).resolve().parents[1] / "src/gamesearch/data/go/go-net.npz"
GNUGO = "gtp:cmd=gnugo --mode gtp --chinese-rules --capture-all-dead --level 1"


def _children() -> set[int]:
    """The live processes this test started."""
    kids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                kids.add(int(entry.name))
    return kids


def test_a_seeded_opponent_replays_the_same_games() -> None:
    net = load_network(NET)
    a, b = score(net, "go-mcts:playouts=8", 4, seed=7), score(net, "go-mcts:playouts=8", 4, 7)
    assert a["points"] == b["points"] and a["games"] == 4
    assert 0 <= a["interval95"][0] <= a["score"] <= a["interval95"][1] <= 1


@pytest.mark.skipif(shutil.which("gnugo") is None, reason="needs GNU Go (apt install gnugo)")
def test_gnu_go_plays_without_a_seed_and_its_program_ends_with_each_game() -> None:
    before = _children()
    result = score(load_network(NET), GNUGO, 2, seed=1)
    assert result["opponent"] == GNUGO and result["games"] == 2
    assert result["points"] in {0.0, 0.5, 1.0, 1.5, 2.0}
    assert _children() <= before


def test_the_curves_legend_names_gnu_go_by_its_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    from go_net_curve import label

    assert label(GNUGO) == "GNU Go level 1"
    assert label(GNUGO.replace("level 1", "level 10")) == "GNU Go level 10"
    assert label("go-mcts:playouts=8") == "go-mcts:playouts=8"
