"""A tournament: many players, a deterministic schedule, games on a backend, every finished
game committed to the SQLite results database as it ends.

The driver (this module, in the process that owns the database) builds the schedule
(:mod:`gamesearch.arena.schedule`), skips the games the database already holds, hands the
others to a backend (:mod:`gamesearch.arena.backends`: a local process pool or Ray) as
:class:`~gamesearch.arena.play.GameTask` objects, and stores each
:class:`~gamesearch.arena.play.GameOutcome` as it comes back. Killed at any moment, the
same command resumes: it replays nothing it had stored. Ctrl-C stops handing out games and
keeps what finished.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gamesearch.arena.backends import Backend, LocalBackend
from gamesearch.arena.db import ResultsDB
from gamesearch.arena.play import GameOutcome, GameTask, Rules, play_task
from gamesearch.arena.schedule import Pairing, gauntlet, round_robin
from gamesearch.errors import GameSearchError
from gamesearch.game import Game


@dataclass
class Standing:
    """One player's tally so far."""

    spec: str
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0


@dataclass
class TournamentState:
    """What the live table shows: the schedule, what is done, each player's tally."""

    players: list[str]
    schedule: list[Pairing]
    done: int = 0
    resumed: int = 0
    standings: list[Standing] = field(default_factory=list)
    interrupted: bool = False
    last: GameOutcome | None = None

    def record(self, pairing: Pairing, score_first: float, reason: str) -> None:
        """Count one finished game in both players' tallies."""
        self.done += 1
        for seat, who in ((0, pairing.first), (1, pairing.second)):
            s = self.standings[who]
            score = score_first if seat == 0 else 1 - score_first
            s.games += 1
            s.points += score
            s.wins += score == 1
            s.draws += score == 0.5
            s.losses += score == 0
            lost_by_forfeit = reason.startswith("forfeit") and score == 0
            s.forfeits += lost_by_forfeit


@dataclass
class Tournament:
    """The settings of a tournament (what its database's config records)."""

    game_label: str
    players: list[str]
    make_game: Callable[[], Game]
    games: int = 2
    rounds: int = 1
    gauntlet: bool = False
    openings: list[list[str]] = field(default_factory=list)
    start_text: str | None = None
    seed: int | None = None
    rules: Rules = field(default_factory=Rules)
    judge_name: str = ""

    def schedule(self) -> list[Pairing]:
        """The games in order (round robin, or the gauntlet of player 0)."""
        build = gauntlet if self.gauntlet else round_robin
        return build(len(self.players), self.games, self.rounds, len(self.openings))

    def config(self) -> dict[str, Any]:
        """Plain data naming everything that decides the games (stored in the database)."""
        rules = {k: v for k, v in asdict(self.rules).items() if k != "judge"}
        return {"game": self.game_label, "players": list(self.players),
                "mode": "gauntlet" if self.gauntlet else "round robin",
                "games": self.games, "rounds": self.rounds, "openings": self.openings,
                "start": self.start_text, "seed": self.seed, "rules": rules,
                "judge": self.judge_name}

    def task(self, pairing: Pairing) -> GameTask:
        """The picklable job of one scheduled game."""
        opening = tuple(self.openings[pairing.opening]) if pairing.opening >= 0 else ()
        return GameTask(pairing, self.players[pairing.first], self.players[pairing.second],
                        opening, self.make_game, self.start_text, self.seed, self.rules)


def run_tournament(tournament: Tournament, db_path: str | Path,
                   backend: Backend | None = None, force: bool = False,
                   argv: list[str] | None = None,
                   on_game: Callable[[TournamentState], None] | None = None) -> TournamentState:
    """Play the games of ``tournament`` that ``db_path`` does not hold yet; store each.

    ``on_game`` is called after each stored game (and once before the first) with the
    live state. Ctrl-C returns early with ``interrupted`` set; every stored game is kept.
    """
    if len(set(tournament.players)) != len(tournament.players):
        raise GameSearchError("a player is named twice; give each spec once")
    schedule = tournament.schedule()
    backend = backend or LocalBackend(1)
    with ResultsDB(db_path, tournament.config(), force, argv) as db:
        state = TournamentState(list(tournament.players), schedule,
                                standings=[Standing(p) for p in tournament.players])
        finished = db.finished()
        for game_id, _, _, score_first, reason in db.games():
            state.record(schedule[game_id], score_first, reason)
        state.resumed = state.done
        todo = [p for p in schedule if p.index not in finished]
        if on_game is not None:
            on_game(state)
        try:
            for position, outcome in backend.imap_unordered(
                    play_task, [tournament.task(p) for p in todo]):
                pairing = todo[position]
                opening = tournament.openings[pairing.opening] if pairing.opening >= 0 else []
                db.add(pairing, opening, outcome)  # on disk first: a game counted is kept
                state.last = outcome
                state.record(pairing, outcome.score_first, outcome.reason)
                if on_game is not None:
                    on_game(state)
        except KeyboardInterrupt:
            state.interrupted = True
        finally:
            backend.close()
    return state
