"""The arena: agents play each other (matches now; engines and Elo ladders later)."""

from gamesearch.arena.match import (
    GameRecord,
    MatchResult,
    elo_difference,
    play_game,
    run_match,
    wilson_interval,
)

__all__ = ["GameRecord", "MatchResult", "elo_difference", "play_game", "run_match",
           "wilson_interval"]
