"""One tournament game, played where a backend runs it (a pool process, a Ray worker).

:func:`play_task` takes a picklable :class:`GameTask` and returns a :class:`GameOutcome`:
plain data the driver writes to the database. It never raises for a player's fault: an
agent that crashes, answers an illegal move or overruns the move time loses the game
("forfeit"), with the reason recorded. Adjudication ends a game early:

* resign: the side whose own score was <= -``resign_score`` on each of its last
  ``resign_moves`` moves, while its opponent's was >= ``resign_score``, loses;
* draw: after ``draw_after`` plies, both sides' scores within +-``draw_score`` for
  ``draw_moves`` consecutive plies is a draw;
* a judge (e.g. a game's exact solver, given by the catalog) that returns the utilities
  of a position with perfect play ends the game with them;
* ``max_plies``: a game that long is a draw.

The game itself is played by the one game loop (:func:`gamesearch.loop.run_game`), with
faults forfeited and these rules as its ``adjudicate`` hook. A game that ends by the rules
(its end, or a third repetition) on the move after which a rule would also adjudicate is
scored by the rules.
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamesearch.agents import Agent, accepts, make_agent
from gamesearch.arena.schedule import Pairing, play_opening
from gamesearch.game import CHANCE, Game, State
from gamesearch.loop import Ply, Verdict, run_game
from gamesearch.result import Limit
from gamesearch.spec import parse_spec

Judge = Callable[[Game, State, int], "tuple[float, ...] | None"]
"""``judge(game, state, ply)``: the game's utilities under perfect play, or None (no verdict)."""


@dataclass(frozen=True)
class Rules:
    """The time control and the adjudication rules of a tournament (module docstring)."""

    movetime: float | None = None
    """Seconds per move: given to agents that accept a time and set no limit of their own."""
    time_margin: float = 1.0
    """A move that takes longer than ``movetime + time_margin`` loses on time."""
    resign_score: float | None = None
    resign_moves: int = 3
    draw_score: float | None = None
    draw_moves: int = 8
    draw_after: int = 0
    max_plies: int = 10_000
    judge: Judge | None = None


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable)."""

    pairing: Pairing
    first_spec: str
    second_spec: str
    opening: tuple[str, ...]
    make_game: Callable[[], Game]
    start_text: str | None = None
    """The start position in the game's notation (None: the game's initial state)."""
    seed: int | None = None
    rules: Rules = field(default_factory=Rules)


@dataclass
class GameOutcome:
    """A finished game: what the database keeps."""

    index: int
    moves: list[tuple[str, float, float | None]]
    """(move, seconds, the mover's score or None) for each ply after the opening."""
    utilities: list[float]
    score_first: float
    """1 if the player in seat 0 won, 1/2 a draw, 0 a loss."""
    reason: str
    """How it ended: 'end of game', 'draw by repetition', 'forfeit: ...',
    'adjudicated: ...'."""
    seconds: float
    worker: str = ""


_GAMES: dict[Any, Game] = {}


def play_task(task: GameTask) -> GameOutcome:
    """Play one scheduled game (in any process); a player's fault is a forfeit, not an error."""
    began = time.perf_counter()
    game = _GAMES.get(task.make_game)
    if game is None:
        game = _GAMES[task.make_game] = task.make_game()
    start = (game.initial_state() if task.start_text is None
             else game.state_from_string(task.start_text))
    state = play_opening(game, start, list(task.opening)) if task.opening else start
    index = task.pairing.index
    seats: list[Agent | None] = [None, None]
    specs = (task.first_spec, task.second_spec)
    moves: list[tuple[str, float, float | None]] = []
    try:
        for seat in (0, 1):
            try:
                seats[seat] = _agent(specs[seat], task, 2 * index + seat)
                seats[seat].prepare(game)
            except Exception as err:  # noqa: BLE001 - an engine that will not start
                return _forfeit(task, seat, f"{specs[seat]} did not start: {_text(err)}",
                                moves, began)
        utilities, reason = _play(game, state, seats, task, moves)
    finally:
        for agent in seats:
            close = getattr(agent, "close", None)
            if close is not None:
                with contextlib.suppress(Exception):  # shutting down a dead engine
                    close()
    if isinstance(utilities, int):  # a seat forfeited
        return _forfeit(task, utilities, reason, moves, began)
    first, second = utilities[0], utilities[1]
    score = 1.0 if first > second else 0.5 if first == second else 0.0
    return GameOutcome(index, moves, [float(u) for u in utilities], score, reason,
                       round(time.perf_counter() - began, 4), _worker())


def _play(game: Game, state: State, seats: list, task: GameTask,
          moves: list) -> tuple[Any, str]:
    """Play to the end through the game loop (:func:`gamesearch.loop.run_game`), each ply
    added to ``moves``; (utilities, reason), or (the faulting seat, reason) for a forfeit."""
    rules = task.rules
    rng = random.Random(f"{task.seed}/{task.pairing.index}")
    movetime = None if rules.movetime is None else rules.movetime + rules.time_margin

    def keep(_: State, ply: Ply) -> None:
        if ply.player == CHANCE:
            moves.append((ply.text, 0.0, None))
        else:
            moves.append((ply.text, round(ply.seconds, 4), _own_score(ply.result, ply.player)))

    record = run_game(game, seats, state, rng=rng, max_plies=None, movetime=movetime,
                      faults="forfeit", adjudicate=_adjudicator(game, rules), on_move=keep)
    if record.forfeit is not None:
        return record.forfeit, record.reason.removeprefix("forfeit: ")
    return record.utilities, record.reason


def _adjudicator(game: Game, rules: Rules) -> Callable[[State, list[Ply]], Verdict | None]:
    """The tournament's adjudication as the game loop's hook, called before every turn:
    right after a player's move the resign and draw rules (module docstring), then the
    judge, then a draw at ``max_plies``."""
    def adjudicate(state: State, plies: list[Ply]) -> Verdict | None:
        if plies and plies[-1].player != CHANCE:
            verdict = _adjudicate(rules, plies)
            if verdict is not None:
                return verdict
        if rules.judge is not None:
            verdict = rules.judge(game, state, len(plies))
            if verdict is not None:
                return tuple(verdict), f"adjudicated: {getattr(rules.judge, 'label', 'solver')}"
        if len(plies) >= rules.max_plies:
            return (0.0, 0.0), f"adjudicated: draw after {rules.max_plies} plies"
        return None
    return adjudicate


def _adjudicate(rules: Rules, plies: list[Ply]) -> Verdict | None:
    """Resign and draw adjudication after the last ply, a player's move (module docstring)."""
    mover = plies[-1].player
    if rules.resign_score is not None:
        n, limit = rules.resign_moves, rules.resign_score
        mine, theirs = _last_scores(plies, mover, n), _last_scores(plies, 1 - mover, n)
        if (len(mine) == n and len(theirs) == n and None not in mine and None not in theirs):
            if all(s <= -limit for s in mine) and all(s >= limit for s in theirs):
                return _win(1 - mover), "adjudicated: resign"
            if all(s >= limit for s in mine) and all(s <= -limit for s in theirs):
                return _win(mover), "adjudicated: resign"
    if rules.draw_score is not None and len(plies) >= rules.draw_after:
        recent = _last_scores(plies, None, rules.draw_moves)
        if (len(recent) == rules.draw_moves and None not in recent
                and all(abs(s) <= rules.draw_score for s in recent)):
            return (0.0, 0.0), "adjudicated: draw"
    return None


def _last_scores(plies: list[Ply], player: int | None, n: int) -> list[float | None]:
    """The movers' own scores of the last ``n`` moves of ``player`` (None: of any player)."""
    found: list[float | None] = []
    for ply in reversed(plies):
        if len(found) == n:
            break
        if ply.player != CHANCE and player in (None, ply.player):
            found.append(_own_score(ply.result, ply.player))
    return found[::-1]


def _win(seat: int) -> tuple[float, float]:
    return (1.0, -1.0) if seat == 0 else (-1.0, 1.0)


def _own_score(result: Any, player: int) -> float | None:
    """The mover's score from its own viewpoint, where the agent said so (else None): its
    ``value``, as every agent always gave it (not the engine's own unit)."""
    try:
        value = result.value_score.for_player(player)
    except (TypeError, IndexError, AttributeError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _forfeit(task: GameTask, seat: int, reason: str, moves: list,
             began: float) -> GameOutcome:
    return GameOutcome(task.pairing.index, moves, list(_win(1 - seat)),
                       1.0 if seat == 1 else 0.0, f"forfeit: {reason}",
                       round(time.perf_counter() - began, 4), _worker())


def _agent(spec: str, task: GameTask, stream: int) -> Agent:
    """A fresh agent for one game: seeded per game when the tournament has a seed and the
    kind takes one; given the move time when it accepts one and sets no limit itself."""
    params = parse_spec(spec)[1]
    extra: dict[str, Any] = {}
    if task.seed is not None and "seed" not in params and accepts(spec, "seed"):
        extra["seed"] = task.seed * 1_000_003 + stream
    limit = None
    if (task.rules.movetime is not None and accepts(spec, "time")
            and not set(params) & {"depth", "time", "nodes", "iterations"}):
        limit = Limit(time=task.rules.movetime)
    return make_agent(spec, limit=limit, **extra)


def _text(err: BaseException) -> str:
    """An exception as one short line."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:300]


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"
