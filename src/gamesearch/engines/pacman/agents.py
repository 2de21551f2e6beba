"""Pacman's agents: searching Pacmen (depth in full rounds) and three kinds of ghost.

A *round* is one move of every agent, so depth ``d`` rounds is ``d * (1 + ghosts)`` plies
(the lectures' convention for Pacman: depth 2 means Pacman and every ghost move twice).

Ghosts: ``random`` (uniform over open directions), ``directional`` (towards Pacman with
probability 0.8, away from it while frightened), ``adversarial`` (a depth-limited search in
which Pacman maximizes and all ghosts minimize the evaluation: the worst case Pacman's
minimax assumes, played for real).
"""

from __future__ import annotations

import random

from gamesearch.agents import Agent
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.games.pacman_layout import DIRECTIONS
from gamesearch.loop import run_game
from gamesearch.result import SearchResult, SearchStats

PACMAN_ALGORITHMS = ("expectimax", "minimax", "alphabeta", "greedy", "random")
GHOST_KINDS = ("random", "directional", "adversarial")
PRUNING = {"course": "the course's rule: strict cut-offs, the game's order (the default)",
           "fast": "cut-offs on equality too, killer and history move ordering"}
MAX_ROUNDS = 50


def rounds_to_plies(game: Game, rounds: int) -> int:
    """Depth in full rounds of all agents, as plies."""
    if rounds < 1:
        raise GameSearchError(f"depth {rounds}: a Pacman search needs at least one round")
    return rounds * game.num_players


class PacmanAgent(Agent):
    """Pacman searching ``depth`` full rounds with minimax, alpha-beta or expectimax.

    Alpha-beta follows the course's rule by default (``pruning="course"``): the game's
    action order, and a node is cut off only when its value passes a bound strictly
    (``v > beta``, ``v < alpha``), so it expands exactly the states the course's
    autograder expects. ``pruning="fast"`` prunes on equality too and orders moves (killer
    moves, history): fewer nodes, the same value.
    """

    def __init__(self, algorithm: str = "expectimax", depth: int = 2,
                 seed: int | None = None, pruning: str = "course") -> None:
        if algorithm not in PACMAN_ALGORITHMS:
            raise GameSearchError(f"unknown Pacman algorithm {algorithm!r}; use "
                                  f"{', '.join(PACMAN_ALGORITHMS)}")
        if pruning not in PRUNING:
            raise GameSearchError(f"unknown alpha-beta pruning {pruning!r}; use "
                                  + "; ".join(f"{k} ({v})" for k, v in PRUNING.items()))
        if not isinstance(depth, int) or not 1 <= depth <= MAX_ROUNDS:
            raise GameSearchError(f"depth={depth!r}: a Pacman search looks 1-{MAX_ROUNDS} "
                                  "full rounds ahead")
        self.algorithm, self.depth, self.pruning = algorithm, depth, pruning
        self.rng = random.Random(seed)
        self.spec = f"pacman:algorithm={algorithm},depth={depth}"
        if algorithm == "alphabeta" and pruning != "course":
            self.spec += f",pruning={pruning}"

    def __call__(self, game: Game, state: State) -> SearchResult:
        from gamesearch.search.alphabeta import alphabeta
        from gamesearch.search.chance import expectimax
        from gamesearch.search.minimax import minimax
        from gamesearch.search.strict_alphabeta import alphabeta_strict

        if self.algorithm == "random":
            action = self.rng.choice(list(game.actions(state)))
            return SearchResult(None, action, [action], SearchStats())
        if self.algorithm == "greedy":
            return _greedy(game, state, self.rng)
        plies = rounds_to_plies(game, self.depth)
        if self.algorithm == "minimax":
            result = minimax(game, state, depth=plies)
        elif self.algorithm == "alphabeta" and self.pruning == "course":
            result = alphabeta_strict(game, state, depth=plies)
        elif self.algorithm == "alphabeta":
            result = alphabeta(game, state, depth=plies, tt=False)
        else:
            result = expectimax(game, state, depth=plies)
        result.stats.extra["rounds"] = self.depth
        return result


def _greedy(game: Game, state: State, rng: random.Random) -> SearchResult:
    """One ply: the action whose result evaluates best (ties broken at random)."""
    scored = []
    for a in game.actions(state):
        child = game.result(state, a)
        v = game.utilities(child)[0] if game.is_terminal(child) else game.evaluate(child, 0)
        scored.append((v, rng.random(), a))
    v, _, action = max(scored)
    return SearchResult(v, action, [action], SearchStats(nodes=1, leaves=len(scored)))


class GhostAgent(Agent):
    """A ghost: random, directional (chasing), or adversarial (searching)."""

    def __init__(self, kind: str = "random", depth: int = 1, seed: int | None = None,
                 chase: float = 0.8) -> None:
        if kind not in GHOST_KINDS:
            raise GameSearchError(f"unknown ghost kind {kind!r}; use {', '.join(GHOST_KINDS)}")
        if not 0 <= chase <= 1:
            raise GameSearchError(f"chase={chase}: a probability between 0 and 1")
        if not isinstance(depth, int) or not 1 <= depth <= MAX_ROUNDS:
            raise GameSearchError(f"depth={depth!r}: an adversarial ghost looks 1-{MAX_ROUNDS} "
                                  "full rounds ahead")
        self.kind, self.depth, self.chase = kind, depth, chase
        self.rng = random.Random(seed)
        self.spec = f"ghost:kind={kind}"

    def __call__(self, game: Game, state: State) -> SearchResult:
        actions = list(game.actions(state))
        if self.kind == "random":
            action = self.rng.choice(actions)
        elif self.kind == "directional":
            action = self._directional(game, state, actions)
        else:
            return self._adversarial(game, state, actions)
        return SearchResult(None, action, [action], SearchStats())

    def _directional(self, game, state, actions: list) -> str:
        """The course's DirectionalGhost: with probability ``chase`` one of the moves that
        bring it closest to Pacman (furthest while frightened), else any legal move. Under
        the course's rules distances are Manhattan from where the move ends (half a cell
        while frightened), as the course measures them; else maze distances."""
        g = state.agent - 1
        lay = game.layout
        r, c = state.ghosts[g]
        pr, pc = state.pacman
        speed = 0.5 if state.scared[g] > 0 else 1

        def distance(a: str) -> float:
            if a == "Stop":
                dr = dc = 0
            else:
                dr, dc = DIRECTIONS[a]
            if getattr(game, "course", False):
                return abs(r + dr * speed - pr) + abs(c + dc * speed - pc)
            return lay.distance((int(r + dr), int(c + dc)), state.pacman)

        if self.rng.random() < self.chase:
            pick = max if state.scared[g] > 0 else min
            best = pick(distance(a) for a in actions)
            return self.rng.choice([a for a in actions if distance(a) == best])
        return self.rng.choice(actions)

    def _adversarial(self, game, state, actions: list) -> SearchResult:
        stats = SearchStats()
        plies = max(1, self.depth * game.num_players - 1)
        values = {a: _team_value(game, game.result(state, a), plies - 1, stats)
                  for a in actions}
        best = min(values.values())
        action = self.rng.choice([a for a, v in values.items() if v == best])
        return SearchResult(-best, action, [action], stats, values)


def _team_value(game: Game, s: State, d: int, stats: SearchStats) -> float:
    """Pacman's value when Pacman maximizes and every ghost minimizes (depth-limited)."""
    if game.is_terminal(s):
        stats.leaves += 1
        return game.utilities(s)[0]
    if d <= 0:
        stats.leaves += 1
        return game.evaluate(s, 0)
    stats.nodes += 1
    values = [_team_value(game, game.result(s, a), d - 1, stats)
              for a in game.actions(s)]
    return max(values) if game.to_move(s) == 0 else min(values)


def pacman_agent(spec: str, seed: int | None = None) -> Agent:
    """Pacman from a short spec: ``expectimax:depth=2``, ``alphabeta``, ``greedy``, ``human``,
    or any registered agent spec (``pacman:algorithm=minimax,depth=1``)."""
    from gamesearch.agents import make_agent
    from gamesearch.spec import parse_spec

    name, params = parse_spec(spec)
    if name in PACMAN_ALGORITHMS:
        extra = {"seed": seed} if seed is not None and "seed" not in params else {}
        return make_agent("pacman:" + ",".join([f"algorithm={name}"]
                                               + [f"{k}={v}" for k, v in params.items()]),
                          **extra)
    return make_agent(spec)


def ghost_agents(spec: str, count: int, seed: int | None = None) -> list[Agent]:
    """``count`` ghosts from a short spec: ``random``, ``directional``, ``adversarial:depth=1``
    (each ghost seeded differently but reproducibly)."""
    from gamesearch.agents import make_agent
    from gamesearch.spec import parse_spec

    name, params = parse_spec(spec)
    agents = []
    for g in range(count):
        if name in GHOST_KINDS:
            extra = {} if seed is None else {"seed": seed * 1000 + g + 1}
            agents.append(make_agent("ghost:" + ",".join(
                [f"kind={name}"] + [f"{k}={v}" for k, v in params.items()]), **extra))
        else:
            agents.append(make_agent(spec))
    return agents


def play_game(game: Game, agents: list[Agent], on_move=None) -> State:
    """Play one game to the end; ``on_move(state, player, result)`` follows each move
    (the game loop, :func:`gamesearch.loop.run_game`: an illegal move raises)."""
    for agent in agents:
        agent.reset()
    told = None if on_move is None else (lambda s, ply: on_move(s, ply.player, ply.result))
    return run_game(game, agents, max_plies=None, on_move=told).final


def pacman_verdict(game: Game, state: State, options: dict) -> dict:
    """Pacman's entry for ``solve`` and the web's verdict: a depth-limited value, never an
    exact one.

    A Pacman game runs up to ``max_moves`` moves against ghosts that can chase forever, so
    searching it to the end cannot finish (it used to end in a RecursionError). Without a
    depth this raises a GameSearchError saying so; with ``depth`` (plies, at most
    MAX_ROUNDS rounds) it returns the course-rule alpha-beta value of that look-ahead,
    within ``time`` seconds when one is given.
    """
    from gamesearch.search.alphabeta import alphabeta

    depth = options.get("depth")
    seconds = options.get("time") if options.get("time") is not None else options.get("budget")
    unknown = set(options) - {"depth", "time", "budget", "progress"}
    if unknown:
        raise GameSearchError(f"pacman: unknown solve option(s) {', '.join(sorted(unknown))}")
    if depth is None:
        raise GameSearchError("pacman has no exact verdict: a game of up to "
                              f"{getattr(game, 'max_moves', '?')} moves cannot be searched "
                              "to the end; give a depth (plies) for a look-ahead value")
    limit = MAX_ROUNDS * game.num_players
    if not isinstance(depth, int) or not 1 <= depth <= limit:
        raise GameSearchError(f"pacman: depth {depth!r}: a look-ahead of 1-{limit} plies")
    if game.is_terminal(state):
        raise GameSearchError("pacman: the game is already over")
    result = alphabeta(game, state, depth=depth, time=seconds, tt=False)
    report = result.as_dict(game, state)
    report["exact"] = False
    report["note"] = f"a {depth}-ply look-ahead with the {game.evaluation} evaluation"
    return report
