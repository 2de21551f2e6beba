"""What a results database says: the crosstable, the ratings, and how games ended (data
only; ``gamesearch report`` prints and plots it)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from gamesearch.arena.db import ResultsDB
from gamesearch.arena.ratings import Ratings, fit_ratings


def summarise(path: str | Path) -> dict[str, Any]:
    """The report of a tournament database: config, crosstable, ratings, LOS, endings."""
    with ResultsDB(path) as db:
        players = db.players()
        games = db.games()
        config = db.config
    n = len(players)
    cross = [[[0.0, 0] for _ in range(n)] for _ in range(n)]  # points, games of row vs col
    endings: Counter[str] = Counter()
    wdl = [0, 0, 0]  # player 0's wins, draws, losses against player 1 (for the SPRT)
    for _, first, second, score, reason in games:
        if {first, second} == {0, 1}:
            mine = score if first == 0 else 1 - score
            wdl[0 if mine == 1 else 1 if mine == 0.5 else 2] += 1
        cross[first][second][0] += score
        cross[first][second][1] += 1
        cross[second][first][0] += 1 - score
        cross[second][first][1] += 1
        endings[_kind(reason)] += 1
    planned = _planned(config, n)
    report: dict[str, Any] = {"game": config["game"], "mode": config["mode"],
                              "players": players, "games": len(games), "planned": planned,
                              "crosstable": cross, "endings": dict(endings),
                              "ratings": None, "los": None, "notes": [], "pair_wdl": wdl}
    if len(games):
        ratings = fit_ratings(players, [(f, s, x) for _, f, s, x, _ in games])
        report["ratings"] = ratings.table()
        report["los"] = [[round(ratings.los(i, j), 4) if i != j else None for j in range(n)]
                         for i in range(n)]
        report["notes"] = ratings.notes
        report["_ratings"] = ratings
    return report


def rating_model(report: dict[str, Any]) -> Ratings | None:
    """The fitted ratings behind a report (None before any game)."""
    return report.get("_ratings")


def _kind(reason: str) -> str:
    """'end of game', 'forfeit', 'adjudicated: resign', ... (forfeits without details)."""
    return "forfeit" if reason.startswith("forfeit") else reason


def _planned(config: dict[str, Any], n: int) -> int:
    pairs = n - 1 if config["mode"] == "gauntlet" else n * (n - 1) // 2
    return pairs * config["games"] * config["rounds"]
