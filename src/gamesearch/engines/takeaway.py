"""Take-away's ENTRY: the N-player stick game, played by max^n."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.spec import Range


def _takeaway(players: int = 3, sticks: int = 10, max_take: int = 3, per_stick: float = 1,
              bonus: float = 5) -> Any:
    from gamesearch.games.takeaway import TakeAway

    return TakeAway(players, sticks, max_take, per_stick, bonus)


ENTRY = GameEntry("takeaway", "N-player take-away: sticks score, the last one a bonus",
                  _takeaway, ranges={"players": Range(2, 8), "sticks": Range(1, 10_000),
                                     "max_take": Range(1, 1000)},
                  defaults=("maxn",), title="Take-away")
