"""``check_agent``: does an agent keep the result contract of result.py on a game?

At a few positions of random play-outs where a player is to move, the agent is asked for
a move, and each check below runs; the first that fails raises
:class:`~gamesearch.testing.failure.GameCheckError` naming the check, the agent and the
moves that reach the position. The checks:

``legal-move``    the answer is a legal action of the position
``pv``            the principal variation starts with that action and is a legal line
``pov``           a single value says whose viewpoint it is from: the player to move
``score``         ``result.score.for_player(p)`` answers for every player; a single value's
                  score says its ``kind`` (one of ``SCORE_KINDS``) and its viewpoint (the
                  result's ``pov``), and its ``win_probability`` for every player lies in
                  [0, 1], the players' summing to 1, on the side of 0.5 that the value's sign
                  says (and the result's ``value`` agrees)
``time-limit``    an agent given ``time`` answers within it (with generous room for a
                  starved machine: twice the limit plus a second, unless ``timing=False``)
``stop``          asked to stop at its first report (``on_progress`` returning True), the
                  agent answers with a legal move and reports at most once more
"""

from __future__ import annotations

import random
import time
from typing import Any

from gamesearch.game import CHANCE
from gamesearch.result import SCORE_KINDS
from gamesearch.testing.failure import GameCheckError
from gamesearch.testing.game_checks import CheckReport


def _positions(game: Any, count: int, rng: random.Random, max_moves: int) -> list[tuple]:
    """``count`` positions (moves, state) where a player is to move, from random play-outs."""
    found: list[tuple] = []
    for _ in range(count * 20):
        if len(found) >= count:
            break
        state, moves = game.initial_state(), []
        stop_at = rng.randrange(0, max_moves)
        for _ply in range(stop_at):
            if game.is_terminal(state):
                break
            action = rng.choice(list(game.actions(state)))
            moves.append(game.action_to_string(state, action))
            state = game.result(state, action)
        while not game.is_terminal(state) and game.to_move(state) == CHANCE:
            action = rng.choice(list(game.actions(state)))
            moves.append(game.action_to_string(state, action))
            state = game.result(state, action)
        if not game.is_terminal(state):
            found.append((moves, state))
    return found


def check_agent(game: Any, agent: Any, positions: int = 2, seed: int = 0,
                max_moves: int = 12, timing: bool = True) -> CheckReport:
    """Check ``agent`` (an Agent, e.g. from ``make_agent``) on ``game`` at ``positions``
    positions reached by random moves from the start (at most ``max_moves``)."""
    report = CheckReport(f"{getattr(agent, 'spec', agent)!s} on {game.name}")
    rng = random.Random(seed)
    agent.prepare(game)
    for moves, state in _positions(game, positions, rng, max_moves):
        report.positions += 1

        def fail(check: str, detail: str, moves: list[str] = moves, state: Any = state) -> None:
            raise GameCheckError(check, f"{agent.spec} on {game.name}", detail,
                                 ", ".join(moves), state, seed)

        _check_answer(game, agent, state, report, fail, timing)
        _check_stop(game, agent, state, report, fail)
    return report


def _check_answer(game: Any, agent: Any, state: Any, report: CheckReport, fail: Any,
                  timing: bool) -> None:
    mover = game.to_move(state)
    start = time.perf_counter()
    result = agent(game, state)
    seconds = time.perf_counter() - start
    legal = list(game.actions(state))
    if result.action not in legal:
        fail("legal-move", f"answered {result.action!r}, not one of {len(legal)} legal moves")
    report.checks["legal-move"] += 1
    if result.pv:
        if result.pv[0] != result.action:
            fail("pv", f"the principal variation {result.pv!r} does not start with the move "
                       f"{result.action!r}")
        line = state
        for ply, action in enumerate(result.pv):
            if game.is_terminal(line) or action not in list(game.actions(line)):
                fail("pv", f"move {ply + 1} of the principal variation, {action!r}, is not "
                           "legal there")
            line = game.result(line, action)
    report.checks["pv"] += 1
    if result.value is not None and not isinstance(result.value, tuple):
        if result.pov != mover:
            fail("pov", f"a value of {result.value!r} from the viewpoint of {result.pov!r}; "
                        f"the player to move is {mover}")
        report.checks["pov"] += 1
    if result.value is not None:
        try:
            for player in range(game.num_players):
                result.score.for_player(player)
        except Exception as err:  # noqa: BLE001  (any failure is the finding)
            fail("score", f"score.for_player raised {type(err).__name__}: {err}")
        if not isinstance(result.value, tuple):
            problem = _score_problem(result, game.num_players)
            if problem is not None:
                fail("score", problem)
        report.checks["score"] += 1
    limit = getattr(getattr(agent, "limit", None), "time", None)
    if timing and limit is not None:
        if seconds > 2 * limit + 1.0:
            fail("time-limit", f"took {seconds:.2f} s for a limit of {limit:g} s")
        report.checks["time-limit"] += 1


def _score_problem(result: Any, players: int) -> str | None:
    """What is wrong with a single value's Score (its kind, viewpoint, win probability),
    or None."""
    score = result.score
    if score.kind not in SCORE_KINDS:
        return f"score kind {score.kind!r} is not one of {', '.join(SCORE_KINDS)}"
    if score.pov != result.pov:
        return f"the score is from player {score.pov!r}'s viewpoint, the value {result.pov!r}'s"
    try:
        chances = [score.win_probability(p) for p in range(players)]
    except Exception as err:  # noqa: BLE001  (any failure is the finding)
        return f"score.win_probability raised {type(err).__name__}: {err}"
    own = chances[score.pov] if score.pov is not None else None
    if own is None or not all(c is not None and 0.0 <= c <= 1.0 for c in chances):
        return f"win probabilities {chances!r} for {score} ({score.kind}) are not in [0, 1]"
    if players == 2 and abs(sum(chances) - 1.0) > 1e-9:
        return f"the two players' win probabilities {chances!r} do not sum to 1"
    value = float(result.value)
    value_sign = (value > 0) - (value < 0)
    for sign, what in ((score.lead(), f"score {score}"), (value_sign, f"value {result.value}")):
        if (sign > 0 and own < 0.5) or (sign < 0 and own > 0.5) or (sign == 0 and own != 0.5):
            return f"the {what} ({score.kind}) reads as a win probability of {own:.3f}"
    return None


def _check_stop(game: Any, agent: Any, state: Any, report: CheckReport, fail: Any) -> None:
    calls = []

    def stop_now(progress: Any) -> bool:
        calls.append(progress)
        return True

    agent.on_progress = stop_now
    try:
        agent.reset()
        result = agent(game, state)
    finally:
        agent.on_progress = None
    if result.action not in list(game.actions(state)):
        fail("stop", f"asked to stop, answered {result.action!r}, not a legal move")
    if len(calls) > 2:
        fail("stop", f"asked to stop at its first report, it reported {len(calls)} times")
    report.checks["stop"] += 1


__all__ = ["check_agent"]
