"""Pacman against any number of ghosts: the lectures' game with several opponents.

Layouts use the common text format: ``%`` wall, ``.`` food, ``o`` power capsule, ``P``
Pacman, ``G`` a ghost, a space an empty corridor. Our own layouts ship with the package
(:func:`layout_names`: tiny, small, medium, open, maze, trapped); a path to a ``.lay`` file
works too.

Player 0 is Pacman (actions North, South, East, West, Stop); players 1..k are the ghosts,
moving in turn after Pacman (any open direction; ghosts never stop). Scoring is the classic
one: -1 for every Pacman move, +10 per food, +500 for clearing the board, -500 for being
caught, +200 for eating a frightened ghost (a capsule frightens every ghost for 40 of its
moves; an eaten ghost goes back to its start). Pacman's utility is the score; each ghost's is
minus the score, so minimax with every ghost a MIN agent and expectimax against random ghosts
run unchanged. A game also ends, with the score as it stands, after ``max_moves`` Pacman
moves.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.game import Game

FOOD_SCORE, WIN_SCORE, LOSE_SCORE, TIME_PENALTY, GHOST_SCORE = 10, 500, -500, 1, 200
SCARED_TIME = 40
DIRECTIONS = {"North": (-1, 0), "South": (1, 0), "East": (0, 1), "West": (0, -1)}
STOP = "Stop"
PLAYING, WON, LOST, OUT_OF_TIME = 0, 1, 2, 3
UNREACHABLE = 10**6
LAYOUTS = Path(__file__).resolve().parent.parent / "data" / "pacman"


class Layout:
    """A maze: walls, food, capsules and the agents' start cells, from the text format."""

    def __init__(self, text: str, name: str = "layout") -> None:
        lines = [line.rstrip("\n") for line in text.strip("\n").splitlines()]
        if not lines:
            raise FileFormatError(f"{name}: the layout is empty")
        width = max(len(line) for line in lines)
        self.name, self.height, self.width = name, len(lines), width
        self.walls: set[tuple[int, int]] = set()
        self.food: list[tuple[int, int]] = []
        self.capsules: list[tuple[int, int]] = []
        self.pacman: tuple[int, int] | None = None
        self.ghosts: list[tuple[int, int]] = []
        for r, line in enumerate(lines):
            for c, ch in enumerate(line.ljust(width)):
                cell = (r, c)
                if ch == "%":
                    self.walls.add(cell)
                elif ch == ".":
                    self.food.append(cell)
                elif ch == "o":
                    self.capsules.append(cell)
                elif ch == "P":
                    if self.pacman is not None:
                        raise FileFormatError(f"{name}: line {r + 1}: a second Pacman 'P'")
                    self.pacman = cell
                elif ch == "G":
                    self.ghosts.append(cell)
                elif ch != " ":
                    raise FileFormatError(f"{name}: line {r + 1}, column {c + 1}: unknown "
                                          f"character {ch!r} (use % . o P G or space)")
        if self.pacman is None:
            raise FileFormatError(f"{name}: no Pacman 'P' in the layout")
        if not self.food:
            raise FileFormatError(f"{name}: no food '.' in the layout")
        open_cells = [(r, c) for r in range(self.height) for c in range(width)
                      if (r, c) not in self.walls]
        self.cells = open_cells
        self.index = {cell: i for i, cell in enumerate(open_cells)}
        self.neighbours: dict[tuple[int, int], list[tuple[str, tuple[int, int]]]] = {}
        for r, c in open_cells:
            moves = []
            for action, (dr, dc) in DIRECTIONS.items():
                nxt = (r + dr, c + dc)
                if nxt in self.index:
                    moves.append((action, nxt))
            self.neighbours[(r, c)] = moves
        self._distances: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
        for r, c in self.food + self.capsules + self.ghosts:
            if self.distance(self.pacman, (r, c)) >= UNREACHABLE:
                raise FileFormatError(f"{name}: line {r + 1}, column {c + 1} cannot be "
                                      "reached from Pacman's start")

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """The maze distance between two open cells (breadth-first, cached per source)."""
        table = self._distances.get(a)
        if table is None:
            table = {a: 0}
            queue = deque([a])
            while queue:
                cell = queue.popleft()
                for _, nxt in self.neighbours[cell]:
                    if nxt not in table:
                        table[nxt] = table[cell] + 1
                        queue.append(nxt)
            self._distances[a] = table
        return table.get(b, UNREACHABLE)


class PacmanState(NamedTuple):
    """Where everyone is, what is left to eat, the score, and whose move it is."""

    pacman: tuple[int, int]
    ghosts: tuple[tuple[int, int], ...]
    scared: tuple[int, ...]
    food: int  # bit i set: food on the layout's i-th open cell
    capsules: int  # bit i set: a capsule on the i-th open cell
    score: int
    agent: int
    status: int
    moves: int


class Pacman(Game):
    """Pacman and ``len(layout.ghosts)`` ghosts on a layout; see the module docstring."""

    name = "pacman"

    def __init__(self, layout: str = "small", max_moves: int = 500,
                 evaluation: str = "better") -> None:
        self.layout = load_layout(layout)
        if evaluation not in EVALUATIONS:
            raise GameSearchError(f"pacman: unknown evaluation {evaluation!r}; use "
                                  f"{', '.join(EVALUATIONS)}")
        self.evaluation = evaluation
        self.max_moves = max_moves
        self.num_players = 1 + len(self.layout.ghosts)
        self.zero_sum = self.num_players == 2

    # --- the formalization --------------------------------------------------------------
    def initial_state(self) -> PacmanState:
        lay = self.layout
        food = sum(1 << lay.index[c] for c in lay.food)
        capsules = sum(1 << lay.index[c] for c in lay.capsules)
        n = len(lay.ghosts)
        return PacmanState(lay.pacman, tuple(lay.ghosts), (0,) * n, food, capsules, 0, 0,
                           PLAYING, 0)

    def to_move(self, s: PacmanState) -> int:
        return s.agent

    def actions(self, s: PacmanState) -> list[str]:
        if s.agent == 0:
            return [a for a, _ in self.layout.neighbours[s.pacman]] + [STOP]
        return [a for a, _ in self.layout.neighbours[s.ghosts[s.agent - 1]]]

    def result(self, s: PacmanState, action: str) -> PacmanState:
        if s.agent == 0:
            return self._pacman_moves(s, action)
        return self._ghost_moves(s, s.agent - 1, action)

    def is_terminal(self, s: PacmanState) -> bool:
        return s.status != PLAYING

    def utilities(self, s: PacmanState) -> tuple[float, ...]:
        return (float(s.score),) + (float(-s.score),) * (self.num_players - 1)

    # --- the rules -------------------------------------------------------------------------
    def _step(self, cell: tuple[int, int], action: str) -> tuple[int, int]:
        if action == STOP:
            return cell
        dr, dc = DIRECTIONS[action]
        nxt = (cell[0] + dr, cell[1] + dc)
        return nxt if nxt in self.layout.index else cell

    def _pacman_moves(self, s: PacmanState, action: str) -> PacmanState:
        lay = self.layout
        cell = self._step(s.pacman, action)
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
                            1 % self.num_players, status, moves)
        if status == PLAYING:
            for g in range(len(s.ghosts)):
                state = self._collide(state, g)
                if state.status != PLAYING:
                    break
        if state.status == PLAYING and moves >= self.max_moves:
            state = state._replace(status=OUT_OF_TIME)
        return state

    def _ghost_moves(self, s: PacmanState, g: int, action: str) -> PacmanState:
        ghosts = list(s.ghosts)
        ghosts[g] = self._step(ghosts[g], action)
        scared = list(s.scared)
        if scared[g] > 0:
            scared[g] -= 1
        state = s._replace(ghosts=tuple(ghosts), scared=tuple(scared),
                           agent=(s.agent + 1) % self.num_players)
        return self._collide(state, g)

    def _collide(self, s: PacmanState, g: int) -> PacmanState:
        """Pacman and ghost g on one cell: a frightened ghost is eaten, else Pacman is."""
        if s.ghosts[g] != s.pacman:
            return s
        if s.scared[g] > 0:
            ghosts = list(s.ghosts)
            ghosts[g] = self.layout.ghosts[g]
            scared = list(s.scared)
            scared[g] = 0
            return s._replace(ghosts=tuple(ghosts), scared=tuple(scared),
                              score=s.score + GHOST_SCORE)
        return s._replace(score=s.score + LOSE_SCORE, status=LOST)

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
    def render(self, s: PacmanState) -> str:
        lay = self.layout
        rows = []
        ghosts = {cell: g for g, cell in enumerate(s.ghosts)}
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
        return f"Pacman({self.layout.name!r}, ghosts={len(self.layout.ghosts)})"


def score_evaluation(game: Pacman, s: PacmanState) -> float:
    """The score alone: the lectures' example of an evaluation that lets Pacman starve
    (far from food, waiting looks as good as walking towards it)."""
    return float(s.score)


def better_evaluation(game: Pacman, s: PacmanState) -> float:
    """Score, plus pull towards the nearest food and away from hunting ghosts, plus a
    reward for every food eaten beyond its points, so that eating always beats waiting."""
    if s.status != PLAYING:
        return float(s.score)
    lay = game.layout
    food = game.food_cells(s)
    nearest = min(lay.distance(s.pacman, f) for f in food) if food else 0
    value = s.score - 2.0 * nearest - 5.0 * len(food) - 20.0 * s.capsules.bit_count()
    for g, cell in enumerate(s.ghosts):
        d = lay.distance(s.pacman, cell)
        if s.scared[g] > d:
            value += 100.0 / (d + 1)  # a frightened ghost within reach: chase it
        elif d <= 2:
            value -= 300.0 / (d + 1)  # a hunting ghost close by: keep away
    return value


EVALUATIONS = {"score": score_evaluation, "better": better_evaluation}


@lru_cache(maxsize=32)
def _layout_from(name: str) -> Layout:
    path = Path(name)
    if path.suffix == ".lay" or path.exists():
        if not path.exists():
            raise FileFormatError(f"layout file {name!r} does not exist")
        return Layout(path.read_text(), name=path.stem)
    shipped = LAYOUTS / f"{name}.lay"
    if not shipped.exists():
        raise GameSearchError(f"unknown pacman layout {name!r}; shipped layouts: "
                              f"{', '.join(layout_names())} (or give a .lay file)")
    return Layout(shipped.read_text(), name=name)


def load_layout(name: str) -> Layout:
    """A shipped layout by name, or a ``.lay`` file by path."""
    return _layout_from(str(name))


def layout_names() -> list[str]:
    """The layouts shipped with gamesearch."""
    return sorted(p.stem for p in LAYOUTS.glob("*.lay"))
