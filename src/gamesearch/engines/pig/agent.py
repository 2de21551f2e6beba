"""Pig in the catalog: ``gamesearch solve pig`` (the solved table's report) and the
``pig-optimal`` agent (the table as a player). The table itself is the game's own
(:mod:`gamesearch.engines.pig.solver`); its picture for ``solve pig --plot`` is
engines/pig/plot.py's (the command line saves it)."""

from __future__ import annotations

from gamesearch.agents import Agent
from gamesearch.engines.pig.solver import DEFAULT_TOLERANCE, check_goal, solved


def pig_solver(game, state, options: dict) -> dict:
    """``gamesearch solve pig``: solve by value iteration (a face's ``progress`` callback
    follows along); report the
    mover's win probability at ``state`` (the first player's, from the start)."""
    import time

    from gamesearch.games.pig import ROLL, PigState

    tolerance = float(options.get("tolerance") or DEFAULT_TOLERANCE)
    check_goal(game.goal)  # the memory it needs, before a progress bar appears
    start = time.perf_counter()
    progress = options.get("progress")  # a face's progress(description, done, total)
    solution = solved(game.goal, tolerance, progress=None if progress is None else (
        lambda done, total: progress(f"value iteration, goal {game.goal}", done, total)))
    seconds = time.perf_counter() - start
    s: PigState = state
    i, j = s.scores[s.player], s.scores[1 - s.player]
    if game.is_terminal(s):
        p_mover = 1.0 if i + s.turn_total >= game.goal else 0.0
        action = None
    elif s.rolling:
        p_mover, action = solution.roll_value(i, j, s.turn_total), None
    else:
        p_mover = solution.win_probability(i, j, s.turn_total)
        action = ROLL if solution.should_roll(i, j, s.turn_total) else "hold"
    report = {
        "goal": game.goal,
        "win_probability": p_mover,
        "value": 2 * p_mover - 1,
        "best_action": action,
        "to_move": game.player_name(s.player),
        "hold_at_start": int(solution.hold_at()[0, 0]),
        "sweeps": solution.iterations,
        "bellman_residual": solution.residual,
        "seconds": round(seconds, 3),
    }
    return report


class PigOptimalAgent(Agent):
    """The solved table as a player: rolls or holds exactly as optimal play does."""

    interactive = False
    spec = "pig-optimal"

    def __call__(self, game, state):
        from gamesearch.games.pig import HOLD, ROLL
        from gamesearch.result import SearchResult, SearchStats

        solution = solved(game.goal)
        i, j = state.scores[state.player], state.scores[1 - state.player]
        action = ROLL if solution.should_roll(i, j, state.turn_total) else HOLD
        p = solution.win_probability(i, j, state.turn_total)
        return SearchResult(2 * p - 1, action, [action], SearchStats(), pov=state.player)

    def reset(self) -> None:
        """The table is kept: it does not depend on the game played."""
