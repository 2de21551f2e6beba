"""A match between two agents: both colours, a score with its confidence interval, Elo.

Agent A plays seat ``index % N`` in game ``index`` (N players), so with two players A starts
the even games and B the odd ones; B takes every other seat. A game scores 1 for A when A's
utility beats every other player's, 1/2 when it ties the best, 0 otherwise.

The score rate's 95% interval is the Wilson score interval with the games as trials and
draws counted as half a win; the Elo difference is the logistic transform
``-400 log10(1/s - 1)`` of the score rate and of the interval's ends.

With ``out`` the games are appended one JSON line each as they finish (after a header
line naming game, agents and seed), each flushed (fsynced once a second); never rewritten,
so kill -9 at any moment loses at most the game being played. Running again with the same
file skips the games already there, so a killed match resumes. Ctrl-C stops after the
current move and keeps what finished.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gamesearch.agents import Agent, accepts, make_agent
from gamesearch.durable import LineLog
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.game import CHANCE, Game, Repetitions, State
from gamesearch.loop import MAX_PLIES, run_game
from gamesearch.spec import parse_spec

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass
class GameRecord:
    """One finished game of a match."""

    index: int
    a_seat: int
    """The player (0-based) agent A played."""
    moves: list[str]
    utilities: list[float]
    score_a: float
    seconds: float

    def to_json(self) -> str:
        """One line of the results file."""
        return json.dumps({"type": "game", **asdict(self)})


@dataclass
class MatchResult:
    """The games played so far and what they say about A against B."""

    game: str
    spec_a: str
    spec_b: str
    planned: int
    seed: int | None = None
    records: list[GameRecord] = field(default_factory=list)
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    """Things the user should know (a torn last line dropped from the results file)."""

    @property
    def wins(self) -> int:
        return sum(r.score_a == 1 for r in self.records)

    @property
    def draws(self) -> int:
        return sum(r.score_a == 0.5 for r in self.records)

    @property
    def losses(self) -> int:
        return sum(r.score_a == 0 for r in self.records)

    @property
    def score(self) -> float | None:
        """A's score rate: (wins + draws / 2) / games; None before any game."""
        if not self.records:
            return None
        return sum(r.score_a for r in self.records) / len(self.records)

    def summary(self) -> dict[str, Any]:
        """Plain data for people and JSON: W/D/L for A, score with interval, Elo."""
        n = len(self.records)
        score = self.score
        lo, hi = wilson_interval(score, n) if score is not None else (None, None)
        return {
            "game": self.game,
            "a": self.spec_a,
            "b": self.spec_b,
            "seed": self.seed,
            "games": n,
            "planned": self.planned,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "value": score,
            "score": score,
            "score_interval": [lo, hi],
            "interval_method": "Wilson score interval, 95%, games as trials, a draw as 1/2",
            "elo": _finite(elo_difference(score)) if score is not None else None,
            "elo_interval": [_finite(elo_difference(lo)) if lo is not None else None,
                             _finite(elo_difference(hi)) if hi is not None else None],
            "interrupted": self.interrupted,
        }


def wilson_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``p`` observed in ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # at p = 1 (or 0) the bound is exactly 1 (or 0); rounding must not pull it inside
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts this expected score (logistic model): +-inf at 1 and 0."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def _finite(x: float) -> float | None:
    return round(x, 1) if math.isfinite(x) else None


def score_for(utilities: tuple[float, ...], seat: int) -> float:
    """1 if ``seat`` beat every other player, 1/2 if it tied the best, else 0."""
    mine = utilities[seat]
    best_other = max(u for i, u in enumerate(utilities) if i != seat)
    return 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0


def play_game(game: Game, seats: list[Agent], state: State | None = None,
              rng: random.Random | None = None, max_plies: int = MAX_PLIES,
              on_move: Callable[[State, Any, Any], None] | None = None) -> tuple[State, list]:
    """Play one game, ``seats[p]`` moving for player p (chance sampled with ``rng``).

    Returns the final state and the actions played: a terminal state, or the one whose
    position stood for the third time where the game has the repetition rule (a draw:
    :func:`~gamesearch.game.final_utilities`). ``on_move(state, action, result)`` is called
    before each move is made. Raises if an agent plays an illegal action. The loop itself
    is :func:`gamesearch.loop.run_game`.
    """
    told = None if on_move is None else (lambda s, ply: on_move(s, ply.action, ply.result))
    record = run_game(game, seats, state, rng=rng, max_plies=max_plies, on_move=told)
    return record.final, record.actions


def run_match(
    game: Game,
    spec_a: str,
    spec_b: str,
    games: int,
    seed: int | None = None,
    out: str | Path | None = None,
    game_label: str | None = None,
    state: State | None = None,
    on_game: Callable[[GameRecord, MatchResult], None] | None = None,
    force: bool = False,
) -> MatchResult:
    """Play ``games`` games of A against B, alternating seats; resumable through ``out``.

    ``on_game`` is called after every finished game (progress bars). Ctrl-C ends the match
    early: the result is marked ``interrupted`` and keeps every finished game. Each game is
    flushed to the file before the next starts; ``force`` lets ``out`` replace a
    file that is not a match file.
    """
    if games < 1:
        raise GameSearchError(f"a match needs at least one game, not {games}")
    label = game_label or game.name
    start = game.initial_state() if state is None else state
    if game.is_terminal(start):
        raise GameSearchError("the match's start position is already over")
    agents = {"A": make_agent(spec_a), "B": make_agent(spec_b)}
    for key, agent in agents.items():
        if agent.interactive:
            raise GameSearchError(f"agent {agent.spec!r} ({key}) needs a person; a match "
                                  "plays by itself (use 'gamesearch play')")
    match = MatchResult(label, spec_a, spec_b, games, seed)
    header = {"type": "match", "game": label, "a": spec_a, "b": spec_b, "seed": seed}
    written = getattr(game, "state_to_string", None)
    if state is not None and written is not None:  # the start, so the file alone replays
        header["start"] = written(start)
    done: dict[int, GameRecord] = {}
    sink = None
    if out is not None:
        sink, done = _results_log(Path(out), header, force)
        if sink.torn:
            match.notes.append(f"{Path(out).name}: dropped a last line cut short by a kill "
                               "(that game is played again)")
    for record in done.values():  # a game kept is a game that happened
        _check_record(game, start, record, Path(out).name)
    match.records = [done[i] for i in sorted(done) if i < games]
    try:
        for index in range(games):
            if index in done:
                continue
            record = _play_one(game, start, index, agents, spec_a, spec_b, seed)
            if sink is not None:  # on disk first: a game counted is a game kept
                sink.append(record.to_json())
            match.records.append(record)
            if on_game is not None:
                on_game(record, match)
    except KeyboardInterrupt:
        match.interrupted = True
    finally:
        if sink is not None:
            sink.close()
        for agent in agents.values():  # outside programs (UCI, GTP) stop here
            _close(agent)
    match.records.sort(key=lambda r: r.index)
    return match


def _close(agent: Agent) -> None:
    """Stop what the agent started (an outside program), if it has a ``close``."""
    close = getattr(agent, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):  # shutting down a dead program
            close()


def _play_one(game: Game, start: State, index: int, agents: dict[str, Agent], spec_a: str,
              spec_b: str, seed: int | None) -> GameRecord:
    """Game ``index``: fresh (or freshly seeded) agents, A in seat ``index % N``."""
    a = _fresh(agents["A"], spec_a, seed, 2 * index)
    b = _fresh(agents["B"], spec_b, seed, 2 * index + 1)
    try:
        a.prepare(game)
        b.prepare(game)
        n = game.num_players
        a_seat = index % n
        seats = [a if p == a_seat else b for p in range(n)]
        rng = random.Random(f"{seed}/{index}") if seed is not None else random.Random()
        began = time.perf_counter()
        record = run_game(game, seats, start, rng=rng)
    finally:  # a per-game agent (seeded afresh) is stopped after its game
        for fresh, kept in ((a, agents["A"]), (b, agents["B"])):
            if fresh is not kept:
                _close(fresh)
    utilities = record.utilities
    return GameRecord(index, a_seat, record.moves, list(utilities), score_for(utilities, a_seat),
                      round(time.perf_counter() - began, 4))


def _fresh(agent: Agent, spec: str, seed: int | None, stream: int) -> Agent:
    """The agent reset for a new game; with a match seed, agents that take a ``seed`` and
    were given none get one per game, so every game is reproducible (also after resuming)."""
    if seed is not None and "seed" not in parse_spec(spec)[1] and accepts(spec, "seed"):
        return make_agent(spec, seed=seed * 1_000_003 + stream)
    agent.reset()
    return agent


def _results_log(path: Path, header: dict, force: bool) -> tuple[LineLog, dict[int, GameRecord]]:
    """Open the results file for appending (locked against a second run) and read the games
    already in it.

    The header must describe the same match; a file that is not a match file is refused
    (unless ``force``: then it is started afresh); a line torn by a kill is dropped.
    """
    log = LineLog(path, json.dumps(header), _is_match_header, force, "match results file")
    try:
        return log, _records(path, header, log)
    except BaseException:
        log.close()
        raise


def _records(path: Path, header: dict, log: LineLog) -> dict[int, GameRecord]:
    """The games of the results file, by index; a line that is not one is an error."""
    given = json.loads(log.header_line)
    given = {k: given.get(k) for k in header}
    if given != header:
        raise FileFormatError(f"{path.name}: holds another match ({given}); "
                              "use a new --out file")
    records: dict[int, GameRecord] = {}
    for number, line in enumerate(log.lines, 2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or data.pop("type", None) != "game":
                raise ValueError("not a game record")
            record = GameRecord(**data)
            if not isinstance(record.index, int) or record.index < 0:
                raise ValueError("bad game index")
        except (ValueError, TypeError, RecursionError):
            raise FileFormatError(f"{path.name}: line {number} is not a game record of "
                                  "this match (fix or remove the line)") from None
        records[record.index] = record
    return records


def _check_record(game: Game, start: State, record: GameRecord, name: str) -> None:
    """A stored game replays by the rules from the match's start, and its utilities and
    score are the ones its moves give: a resumed match counts only games that happened, not
    lines someone edited (one line naming the game otherwise)."""
    where = f"{name}: game {record.index}"
    n = game.num_players
    if record.a_seat != record.index % n:
        raise FileFormatError(f"{where} has A in seat {record.a_seat}, not {record.index % n} "
                              "(seats alternate by game); use a new --out file")
    state = start
    repetitions = Repetitions(game)
    for ply, text in enumerate(record.moves, 1):
        if game.is_terminal(state) or repetitions.draws(state):
            raise FileFormatError(f"{where} goes on after its end (move {ply}); use a new "
                                  "--out file")
        try:
            action = game.string_to_action(state, str(text))
        except GameSearchError:
            action = None
        legal = ([a for a, _ in game.chance_outcomes(state)] if game.to_move(state) == CHANCE
                 else game.actions(state))
        if action is None or action not in legal:
            raise FileFormatError(f"{where}: move {ply} ({str(text)[:20]!r}) is not legal "
                                  "there; the file was changed: use a new --out file")
        state = game.result(state, action)
    if game.is_terminal(state):
        utilities = [float(u) for u in game.utilities(state)]
    elif repetitions.draws(state):
        utilities = [0.0] * n
    else:
        raise FileFormatError(f"{where} stops before the end of the game; use a new --out "
                              "file")
    if [float(u) for u in record.utilities] != utilities or \
            record.score_a != score_for(tuple(utilities), record.a_seat):
        raise FileFormatError(f"{where}: its result is not what its moves give; the file was "
                              "changed: use a new --out file")


def _is_match_header(line: str) -> bool:
    """Whether a first line is the header of a gamesearch match file."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("type") == "match"
