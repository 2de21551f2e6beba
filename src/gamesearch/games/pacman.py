"""Pacman against any number of ghosts: the lectures' game with several opponents.

Player 0 is Pacman; players 1..k are the ghosts, moving in turn after Pacman. Scoring is the
classic one: -1 for every Pacman move, +10 per food, +500 for clearing the board, -500 for
being caught, +200 for eating a frightened ghost (a capsule frightens every ghost for 40 of
its moves; an eaten ghost goes back to its start). Pacman's utility is the score; each
ghost's is minus the score, so minimax with every ghost a MIN agent and expectimax against
random ghosts run unchanged. A game also ends, *out of moves*, with the score as it stands,
after ``max_moves`` Pacman moves (the course's engine has no such limit).

Two rule sets (``rules=``):

* ``course`` (the default), the rules of the Berkeley CS188 Pacman engine (pacman.py,
  game.py): actions in the order West, Stop, East, North, South, those into walls left
  out (Pacman may always stop); ghosts never stop and never turn back, except at a dead
  end; a frightened ghost moves half a cell per move (it is then between two cells and
  must go on straight; when its fright ends it snaps to the nearest cell), and any ghost
  within 0.7 cells (Manhattan) of Pacman collides with him; a Pacman move checks every
  ghost (two hunting ghosts on his cell cost 500 each; a winning move is not lost).
* ``simple``, ours before: ghosts may turn back, frightened ghosts keep full speed, actions
  in the order North, South, East, West, Stop.

Both place only the first ``ghosts`` ghosts of the layout (default 4, the course's
``--numghosts``), numbered as the course numbers them (:mod:`pacman_layout`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from gamesearch.errors import GameSearchError
from gamesearch.game import Game
from gamesearch.games.pacman_layout import (  # noqa: F401  (re-exported: the public names)
    DIRECTIONS,
    LAYOUTS,
    UNREACHABLE,
    Layout,
    layout_names,
    load_layout,
)

FOOD_SCORE, WIN_SCORE, LOSE_SCORE, TIME_PENALTY, GHOST_SCORE = 10, 500, -500, 1, 200
SCARED_TIME = 40
COLLISION_TOLERANCE = 0.7
STOP = "Stop"
COURSE_ORDER = ("West", STOP, "East", "North", "South")
SIMPLE_ORDER = ("North", "South", "East", "West", STOP)
REVERSE = {"North": "South", "South": "North", "East": "West", "West": "East", STOP: STOP}
RULES = {"course": "the Pacman course's engine (the default)",
         "simple": "ghosts may turn back, frightened ghosts at full speed"}
DEFAULT_GHOSTS = 4
MAX_MOVES_LIMIT = 1_000_000
PLAYING, WON, LOST, OUT_OF_TIME = 0, 1, 2, 3
OUTCOMES = {PLAYING: "playing", WON: "won", LOST: "lost", OUT_OF_TIME: "out of moves"}
KEYS = {"n": "North", "s": "South", "e": "East", "w": "West", "x": STOP}

Position = tuple[float, float]  # a ghost may stand half-way between two cells


class PacmanState(NamedTuple):
    """Where everyone is, what is left to eat, the score, and whose move it is."""

    pacman: tuple[int, int]
    ghosts: tuple[Position, ...]
    scared: tuple[int, ...]
    food: int  # bit i set: food on the layout's i-th open cell
    capsules: int  # bit i set: a capsule on the i-th open cell
    score: int
    agent: int
    status: int
    moves: int
    directions: tuple[str, ...] = ()  # each ghost's direction of travel (Stop at its start)


class Pacman(Game):
    """Pacman and up to ``ghosts`` ghosts on a layout; see the module docstring."""

    name = "pacman"

    def __init__(self, layout: str | Layout = "small", max_moves: int = 500,
                 evaluation: str = "better", rules: str = "course",
                 ghosts: int = DEFAULT_GHOSTS) -> None:
        if evaluation not in EVALUATIONS:
            raise GameSearchError(f"pacman: unknown evaluation {evaluation!r}; use "
                                  f"{', '.join(EVALUATIONS)}")
        if rules not in RULES:
            raise GameSearchError(f"pacman: unknown rules {rules!r}; use "
                                  + "; ".join(f"{k} ({v})" for k, v in RULES.items()))
        if not isinstance(ghosts, int) or not 0 <= ghosts <= 100:
            raise GameSearchError(f"pacman: ghosts={ghosts!r}: a number of ghosts 0-100")
        if not isinstance(max_moves, int) or not 1 <= max_moves <= MAX_MOVES_LIMIT:
            raise GameSearchError(f"pacman: max_moves={max_moves!r}: a number of Pacman "
                                  f"moves 1-{MAX_MOVES_LIMIT}")
        self.layout = load_layout(layout)
        self.evaluation, self.rules, self.max_moves = evaluation, rules, max_moves
        self.course = rules == "course"
        self.order = COURSE_ORDER if self.course else SIMPLE_ORDER
        self.starts: tuple[tuple[int, int], ...] = tuple(self.layout.ghosts[:ghosts])
        self.num_players = 1 + len(self.starts)
        self.zero_sum = self.num_players == 2

    # --- the formalization --------------------------------------------------------------
    def initial_state(self) -> PacmanState:
        lay = self.layout
        food = sum(1 << lay.index[c] for c in lay.food)
        capsules = sum(1 << lay.index[c] for c in lay.capsules)
        n = len(self.starts)
        return PacmanState(lay.pacman, self.starts, (0,) * n, food, capsules, 0, 0,
                           PLAYING, 0, (STOP,) * n)

    def to_move(self, s: PacmanState) -> int:
        return s.agent

    def actions(self, s: PacmanState) -> list[str]:
        if s.status != PLAYING:
            return []
        if s.agent == 0:
            moves = self.layout.moves[s.pacman]
            return [a for a in self.order if a == STOP or a in moves]
        g = s.agent - 1
        r, c = s.ghosts[g]
        if r != int(r) or c != int(c):  # half-way between cells: straight on
            return [s.directions[g]]
        moves = self.layout.moves[(int(r), int(c))]
        legal = [a for a in self.order if a in moves]
        if self.course:
            back = REVERSE[s.directions[g]]
            if back in legal and len(legal) > 1:
                legal.remove(back)
        return legal or [STOP]  # a walled-in ghost can only wait

    def result(self, s: PacmanState, action: str) -> PacmanState:
        if s.agent == 0:
            return self._pacman_moves(s, action)
        return self._ghost_moves(s, s.agent - 1, action)

    def is_terminal(self, s: PacmanState) -> bool:
        return s.status != PLAYING

    def utilities(self, s: PacmanState) -> tuple[float, ...]:
        return (float(s.score),) + (float(-s.score),) * (self.num_players - 1)

    # --- the rules -------------------------------------------------------------------------
    def _pacman_moves(self, s: PacmanState, action: str) -> PacmanState:
        lay = self.layout
        cell = s.pacman if action == STOP else lay.moves[s.pacman].get(action, s.pacman)
        bit = 1 << lay.index[cell]
        score, food, capsules, scared = s.score - TIME_PENALTY, s.food, s.capsules, s.scared
        status = PLAYING
        if food & bit:
            food &= ~bit
            score += FOOD_SCORE
            if not food:
                score += WIN_SCORE
                status = WON
        if capsules & bit:
            capsules &= ~bit
            scared = (SCARED_TIME,) * len(s.ghosts)
        moves = s.moves + 1
        state = PacmanState(cell, s.ghosts, scared, food, capsules, score,
                            1 % self.num_players, status, moves, s.directions)
        for g in range(len(s.ghosts)):  # every ghost, as the course checks them
            state = self._collide(state, g)
        if state.status == PLAYING and moves >= self.max_moves:
            state = state._replace(status=OUT_OF_TIME)
        return state

    def _ghost_moves(self, s: PacmanState, g: int, action: str) -> PacmanState:
        timer = s.scared[g]
        r, c = s.ghosts[g]
        if action != STOP:
            speed = 0.5 if self.course and timer > 0 else 1
            dr, dc = DIRECTIONS[action]
            r, c = _exact(r + dr * speed), _exact(c + dc * speed)
        if self.course and timer == 1:  # the fright ends: back onto a cell
            r, c = self.nearest_cell((r, c))
        ghosts = list(s.ghosts)
        ghosts[g] = (r, c)
        scared = list(s.scared)
        scared[g] = max(0, timer - 1)
        directions = list(s.directions)
        if action != STOP:
            directions[g] = action
        state = s._replace(ghosts=tuple(ghosts), scared=tuple(scared),
                           directions=tuple(directions),
                           agent=(s.agent + 1) % self.num_players)
        return self._collide(state, g)

    def _collide(self, s: PacmanState, g: int) -> PacmanState:
        """Ghost g within reach of Pacman: a frightened ghost is eaten (+200, back to its
        start), a hunting one catches him (-500), unless he has just won."""
        (gr, gc), (pr, pc) = s.ghosts[g], s.pacman
        if abs(gr - pr) + abs(gc - pc) > COLLISION_TOLERANCE:
            return s
        if s.scared[g] > 0:
            ghosts, scared, directions = list(s.ghosts), list(s.scared), list(s.directions)
            ghosts[g], scared[g], directions[g] = self.starts[g], 0, STOP
            return s._replace(ghosts=tuple(ghosts), scared=tuple(scared),
                              directions=tuple(directions), score=s.score + GHOST_SCORE)
        if s.status == WON:
            return s
        return s._replace(score=s.score + LOSE_SCORE, status=LOST)

    def nearest_cell(self, pos: Position) -> tuple[int, int]:
        """The cell a position rounds to, as the course rounds it (half-way: up in its
        coordinates, that is towards the East and the North)."""
        r, c = pos
        bottom = self.layout.height - 1
        return bottom - math.floor(bottom - r + 0.5), math.floor(c + 0.5)

    def touching_cells(self, pos: Position) -> list[tuple[int, int]]:
        """The one cell a position is on, or the two it is between."""
        r, c = pos
        cells = {(math.floor(r), math.floor(c)), (math.ceil(r), math.ceil(c))}
        return sorted(cells)

    def ghost_distance(self, cell: tuple[int, int], pos: Position) -> float:
        """Maze distance from a cell to a ghost (half a step more when it is between
        cells)."""
        touching = self.touching_cells(pos)
        extra = 0.5 if len(touching) == 2 else 0.0
        return extra + min(self.layout.distance(cell, t) for t in touching)

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    def num_distinct_actions(self) -> int:
        """The five directions (North, South, East, West, Stop) for every agent."""
        return len(SIMPLE_ORDER)

    def action_index(self, action: str) -> int:
        """The direction's place in North, South, East, West, Stop."""
        return SIMPLE_ORDER.index(action)

    # --- evaluation ------------------------------------------------------------------------
    def evaluate(self, s: PacmanState, player: int) -> float:
        """The chosen evaluation for Pacman (``score`` or ``better``), negated for ghosts."""
        value = EVALUATIONS[self.evaluation](self, s)
        return value if player == 0 else -value

    def food_cells(self, s: PacmanState) -> list[tuple[int, int]]:
        """The cells that still hold food."""
        cells, food, i = [], s.food, 0
        while food:
            if food & 1:
                cells.append(self.layout.cells[i])
            food >>= 1
            i += 1
        return cells

    # --- people -----------------------------------------------------------------------------
    def string_to_action(self, state: PacmanState, text: str) -> str:
        """An action by name or by key: n, s, e, w, and x for Stop."""
        key = text.strip().lower()
        return super().string_to_action(state, KEYS.get(key, key))

    def render(self, s: PacmanState) -> str:
        lay = self.layout
        rows = []
        ghosts = {}
        for g, pos in enumerate(s.ghosts):
            ghosts.setdefault(self.nearest_cell(pos), g)
        for r in range(lay.height):
            row = []
            for c in range(lay.width):
                cell = (r, c)
                if cell in lay.walls:
                    row.append("%")
                elif cell == s.pacman and s.status != LOST:
                    row.append("P")
                elif cell in ghosts:
                    row.append("g" if s.scared[ghosts[cell]] else "G")
                elif s.food >> lay.index[cell] & 1:
                    row.append(".")
                elif s.capsules >> lay.index[cell] & 1:
                    row.append("o")
                else:
                    row.append(" ")
            rows.append("".join(row))
        status = {PLAYING: "", WON: "  Pacman wins!", LOST: "  Pacman was caught",
                  OUT_OF_TIME: "  out of moves"}[s.status]
        rows.append(f"score {s.score}  food left {s.food.bit_count()}  moves {s.moves}{status}")
        return "\n".join(rows)

    def player_name(self, player: int) -> str:
        if player == 0:
            return "Pacman"
        return f"ghost {player}" if player > 0 else "chance"

    def __repr__(self) -> str:
        return (f"Pacman({self.layout.name!r}, ghosts={len(self.starts)}, "
                f"rules={self.rules!r})")


def _exact(v: float) -> float:
    """A coordinate as an int when it is whole (half-steps add up exactly in binary)."""
    return int(v) if v == int(v) else v


def outcome(s: PacmanState) -> str:
    """How a game ended: 'won', 'lost', 'out of moves' (or 'playing')."""
    return OUTCOMES[s.status]


def score_evaluation(game: Pacman, s: PacmanState) -> float:
    """The score alone: the lectures' example of an evaluation that lets Pacman starve
    (far from food, waiting looks as good as walking towards it)."""
    return float(s.score)


def better_evaluation(game: Pacman, s: PacmanState) -> float:
    """Score, a pull towards the nearest food, and care about ghosts, built so that Pacman
    always makes progress where no ghost is near.

    The pull is the maze distance to the nearest food times ``FOOD_SCORE / 2`` over a bound
    on the maze's diameter: under half a food in all. So each step towards the nearest food
    beats waiting (by the pull per step), and eating beats not eating (the food's 10 points
    outweigh any jump in the distance to the next food): the food count rules, the distance
    breaks ties. Ghosts: a hunting ghost within 2 steps costs 300 / (d + 1); a frightened
    one that Pacman can reach in time is worth 100 / (d + 1); each capsule left costs 20.
    """
    if s.status != PLAYING:
        return float(s.score)
    lay = game.layout
    food = game.food_cells(s)
    nearest = min(lay.distance(s.pacman, f) for f in food)
    value = s.score - (FOOD_SCORE / 2) * nearest / max(1, lay.diameter_bound)
    value -= 20.0 * s.capsules.bit_count()
    for g, pos in enumerate(s.ghosts):
        d = game.ghost_distance(s.pacman, pos)
        if s.scared[g] > d:
            value += 100.0 / (d + 1)  # a frightened ghost within reach: chase it
        elif d <= 2:
            value -= 300.0 / (d + 1)  # a hunting ghost close by: keep away
    return value


EVALUATIONS = {"score": score_evaluation, "better": better_evaluation}
