"""Who plays whom, with which colour and from which opening: a deterministic schedule.

A tournament is a list of :class:`Pairing` rows, numbered 0, 1, 2, ... in the same order
every time it is built from the same players and settings, so a resumed tournament knows
which games it already has by their numbers alone.

* Round robin: every pair of players meets ``games`` times in each of ``rounds`` rounds.
* Gauntlet: one challenger meets every other player (they do not meet each other).

Within an encounter the colours alternate (game ``g`` of a pair: the first-named player
moves first when ``g`` is even), and consecutive games ``2k`` and ``2k+1`` share an
opening, so each opening is played once with each colour (cutechess-cli's ``-repeat``).
Openings are taken in turn over the whole schedule (a file's lines, or random starts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from gamesearch.agent import Agent
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.game import Game, State
from gamesearch.loop import run_game
from gamesearch.result import SearchResult, SearchStats

MAX_GAMES = 1_000_000
"""A schedule longer than this is refused (a typo in --games must not allocate gigabytes)."""
MAX_OPENING_LINES = 100_000


@dataclass(frozen=True)
class Pairing:
    """Game ``index`` of the tournament: ``first`` moves first (seat 0) against ``second``."""

    index: int
    round: int
    first: int
    """The index of the player in seat 0 (the tournament's player list)."""
    second: int
    opening: int
    """The index of the opening in the tournament's opening list (-1: the start position)."""


def round_robin(players: int, games: int, rounds: int, openings: int = 0) -> list[Pairing]:
    """Every pair meets ``games`` times per round, colours alternating, openings in turn."""
    pairs = [(i, j) for i in range(players) for j in range(i + 1, players)]
    return _schedule(pairs, games, rounds, openings)


def gauntlet(players: int, games: int, rounds: int, openings: int = 0) -> list[Pairing]:
    """Player 0 meets each of the others ``games`` times per round."""
    pairs = [(0, j) for j in range(1, players)]
    return _schedule(pairs, games, rounds, openings)


def _schedule(pairs: list[tuple[int, int]], games: int, rounds: int,
              openings: int) -> list[Pairing]:
    if games < 1 or rounds < 1:
        raise GameSearchError("a tournament needs --games and --rounds of at least 1")
    if not pairs:
        raise GameSearchError("a tournament needs at least two players")
    total = len(pairs) * games * rounds
    if total > MAX_GAMES:
        raise GameSearchError(f"the schedule has {total} games; at most {MAX_GAMES} are allowed")
    out: list[Pairing] = []
    next_opening = 0
    for r in range(rounds):
        for i, j in pairs:
            for g in range(games):
                if g % 2 == 0 and openings:  # a new opening for each pair of games
                    opening = next_opening % openings
                    next_opening += 1
                first, second = (i, j) if g % 2 == 0 else (j, i)
                out.append(Pairing(len(out), r, first, second, opening if openings else -1))
    return out


# --- openings -------------------------------------------------------------------------------


def read_openings(game: Game, path: str | Path, start: State) -> list[list[str]]:
    """The openings of a file: one per line, moves in the game's notation separated by
    spaces; ``#`` starts a comment. Each line is checked by playing it (an illegal move or
    a finished game names its line)."""
    from gamesearch.textinput import read_text

    path = Path(path)
    text = read_text(path, "openings file")
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        if number > MAX_OPENING_LINES:
            raise FileFormatError(f"{path.name}: more than {MAX_OPENING_LINES} lines")
        moves = line.split("#", 1)[0].split()
        if not moves:
            continue
        try:
            play_opening(game, start, moves)
        except GameSearchError as err:
            raise FileFormatError(f"{path.name}: line {number}: {err}") from None
        openings.append(moves)
    if not openings:
        raise FileFormatError(f"{path.name}: no opening in the file")
    return openings


def random_openings(game: Game, start: State, count: int, plies: int,
                    seed: int) -> list[list[str]]:
    """``count`` distinct random starts of ``plies`` moves (fewer when the game has fewer),
    none of them finished; the same for the same seed."""
    if count < 1 or plies < 1:
        raise GameSearchError("random openings need a count and a number of plies >= 1")
    rng = random.Random(seed)
    chooser = _Uniform(rng)
    seats = [chooser] * game.num_players

    def long_enough(_: State, moves: list) -> tuple[tuple, str] | None:
        return ((), "opening") if len(moves) >= plies else None

    seen: set[tuple[str, ...]] = set()
    out: list[list[str]] = []
    for _ in range(count * 20):
        if len(out) == count:
            break
        line = run_game(game, seats, start, rng=rng, max_plies=None, adjudicate=long_enough)
        moves = line.moves
        if line.reason != "opening" or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        out.append(moves)
    if not out:
        raise GameSearchError(f"no random opening of {plies} plies leaves the game unfinished")
    return out


class _Uniform(Agent):
    """Plays a uniformly random legal move drawn from a shared generator."""

    spec = "uniform"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, game: Game, state: State) -> SearchResult:
        action = self.rng.choice(list(game.actions(state)))
        return SearchResult(None, action, [action], SearchStats())


def play_opening(game: Game, start: State, moves: list[str]) -> State:
    """The position after ``moves`` (strings in the game's notation) from ``start``."""
    state = start
    for move in moves:
        if game.is_terminal(state):
            raise GameSearchError(f"the game is over before {move!r}")
        if game.to_move(state) < 0:
            raise GameSearchError("openings through chance moves are not supported")
        action = game.string_to_action(state, move)
        if action not in game.actions(state):
            raise GameSearchError(f"illegal move {move!r}")
        state = game.result(state, action)
    if game.is_terminal(state):
        raise GameSearchError("the opening ends the game")
    return state
