"""The ``solver`` agent: perfect play from Connect Four's exact solver."""

from __future__ import annotations

import random
import time

from gamesearch.agents import Agent
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.result import Score, SearchResult, SearchStats


class PerfectAgent(Agent):
    """Plays a move of the best exact score; among equals the centre-most (or a seeded
    random one when ``seed`` is given). ``weak``: only win/draw/loss count.

    Without a seed it solves the position once, then its children centre first until one
    keeps that score (usually the first or second: the table is warm from the first solve);
    with a seed it needs every child's score, to choose among all the equals."""

    def __init__(self, weak: bool = False, seed: int | None = None) -> None:
        self.weak = weak
        self.rng = random.Random(seed) if seed is not None else None
        self.spec = "solver"

    def __call__(self, game: Game, state: State) -> SearchResult:
        from gamesearch.games.connect4 import ConnectFour

        if not isinstance(game, ConnectFour):
            raise GameSearchError(f"the solver agent plays connect4 only, not {game.name}")
        from gamesearch.engines.connect4.solve import analyze, session_solver

        solver = session_solver(game)
        nodes_before, started = solver.total_nodes, time.perf_counter()

        def stats() -> SearchStats:
            """What this move cost: every node the solver searched for it, the whole time."""
            return SearchStats(nodes=solver.total_nodes - nodes_before,
                               depth=game.cells - state[2],
                               seconds=time.perf_counter() - started)

        if self.rng is None:
            if game.is_terminal(state):
                raise GameSearchError("the game is over: there is no move to choose")
            best = solver.solve(state, self.weak).score
            scores: dict[int, int] = {}
            for column in game.order_actions(state, game.actions(state)):
                scores[column] = -solver.solve(game.result(state, column), self.weak).score
                if scores[column] == best:
                    return SearchResult(best, column, [column], stats(),
                                        action_values=scores, pov=game.to_move(state),
                                        exact=True, engine_score=self.score(game, state, best))
            raise AssertionError(f"no child keeps the score {best}")  # the solver is wrong
        scores = analyze(game, state, self.weak, solver)
        best = max(scores.values())
        choices = [c for c in game.order_actions(state, list(scores)) if scores[c] == best]
        action = self.rng.choice(choices)
        return SearchResult(best, action, [action], stats(), action_values=scores,
                            pov=game.to_move(state), exact=True,
                            engine_score=self.score(game, state, best))

    def score(self, game: Game, state: State, value: int) -> Score:
        """The solver's score as a Score (a weak solve's sign says no distance)."""
        from gamesearch.engines.connect4.scale import VALUE_SCALE

        where = (None, None) if self.weak else (game, state)
        return VALUE_SCALE.score(value, game.to_move(state), True, *where)


def solver_agent(weak: bool = False, seed: int | None = None) -> Agent:
    return PerfectAgent(weak, seed)
