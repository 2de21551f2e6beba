"""Pacman mazes: the layout text format, maze distances, and the shipped layouts.

``%`` wall, ``.`` food, ``o`` power capsule, ``P`` Pacman, ``G`` a ghost (``1``-``4`` a
ghost with that number), a space an empty corridor. Cells are ``(row, column)`` with row 0
at the top. A layout is a rectangle as wide as its first line (walls beyond that width are
dropped, as the course's engine drops them); at most MAX_LAYOUT_CELLS cells.

Ghosts are numbered as the Pacman course's engine numbers them (its layout.py sorts the
agents' start cells): plain ``G`` ghosts (and ``1``) first, then ``2``, ``3``, ``4``; among
equals, by column from the left, then by row from the *bottom*. A game places only as many
ghosts as it has ghost agents (the first ones in this order).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.shipped import shipped

DIRECTIONS = {"North": (-1, 0), "South": (1, 0), "East": (0, 1), "West": (0, -1)}
UNREACHABLE = 10**6
LAYOUTS = shipped("pacman")
MAX_LAYOUT_CELLS = 10_000  # the course's largest layouts have under 1,000 cells
MAX_DISTANCE_TABLES = 2_000  # cached breadth-first tables (one per source cell) kept at once

Cell = tuple[int, int]


class Layout:
    """A maze: walls, food, capsules and the agents' start cells, from the text format."""

    def __init__(self, text: str, name: str = "layout") -> None:
        lines = [line.rstrip("\r\n") for line in text.strip("\n").splitlines()]
        if not lines or not any(line.strip() for line in lines):
            raise FileFormatError(f"{name}: the layout is empty")
        width = max(len(line) for line in lines)
        if width * len(lines) > MAX_LAYOUT_CELLS:
            raise FileFormatError(f"{name}: {width}x{len(lines)} is too large a layout "
                                  f"(at most {MAX_LAYOUT_CELLS} cells)")
        width = len(lines[0])  # the course's engine reads this many columns of every line
        for r, line in enumerate(lines):
            if len(line) < width or line[width:].strip("%"):
                raise FileFormatError(f"{name}: line {r + 1} has {len(line)} characters, "
                                      f"the first {width} (a layout is a rectangle)")
        lines = [line[:width] for line in lines]  # extra walls (capsuleClassic has one)
        self.name, self.height, self.width = name, len(lines), width
        self.walls: set[Cell] = set()
        self.food: list[Cell] = []
        self.capsules: list[Cell] = []
        self.pacman: Cell | None = None
        numbered: list[tuple[int, int, int, Cell]] = []
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
                elif ch == "G" or ch in "1234":
                    number = 1 if ch == "G" else int(ch)
                    numbered.append((number, c, self.height - 1 - r, cell))
                elif ch != " ":
                    raise FileFormatError(f"{name}: line {r + 1}, column {c + 1}: unknown "
                                          f"character {ch!r} (use % . o P G 1-4 or space)")
        if self.pacman is None:
            raise FileFormatError(f"{name}: no Pacman 'P' in the layout")
        if not self.food:
            raise FileFormatError(f"{name}: no food '.' in the layout")
        self.ghosts: list[Cell] = [cell for *_, cell in sorted(numbered)]
        self.cells = [(r, c) for r in range(self.height) for c in range(width)
                      if (r, c) not in self.walls]
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.moves: dict[Cell, dict[str, Cell]] = {}
        for r, c in self.cells:
            self.moves[(r, c)] = {a: (r + dr, c + dc) for a, (dr, dc) in DIRECTIONS.items()
                                  if (r + dr, c + dc) in self.index}
        self._distances: dict[Cell, dict[Cell, int]] = {}
        for r, c in self.food + self.capsules + self.ghosts:
            if self.distance(self.pacman, (r, c)) >= UNREACHABLE:
                raise FileFormatError(f"{name}: line {r + 1}, column {c + 1} cannot be "
                                      "reached from Pacman's start")
        # No two open cells are further apart than twice the furthest from Pacman's start.
        self.diameter_bound = 2 * max(self._table(self.pacman).values())

    def _table(self, a: Cell) -> dict[Cell, int]:
        table = self._distances.get(a)
        if table is None:
            if len(self._distances) >= MAX_DISTANCE_TABLES:
                self._distances.clear()  # bounded memory on large mazes
            table = {a: 0}
            queue = deque([a])
            while queue:
                cell = queue.popleft()
                for nxt in self.moves[cell].values():
                    if nxt not in table:
                        table[nxt] = table[cell] + 1
                        queue.append(nxt)
            self._distances[a] = table
        return table

    def distance(self, a: Cell, b: Cell) -> int:
        """The maze distance between two open cells (breadth-first, cached per source)."""
        return self._table(a).get(b, UNREACHABLE)


@lru_cache(maxsize=32)
def _layout_from(name: str) -> Layout:
    path = Path(name)
    if path.suffix == ".lay" or path.exists():
        from gamesearch.textinput import read_input

        data = read_input(path, "layout file", 4 * MAX_LAYOUT_CELLS)  # regular files only
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FileFormatError(f"cannot read layout file {name!r}: not UTF-8 text") \
                from None
        return Layout(text, name=path.stem)
    shipped = LAYOUTS / f"{name}.lay"
    if not shipped.exists():
        raise GameSearchError(f"unknown pacman layout {name!r}; shipped layouts: "
                              f"{', '.join(layout_names())} (or give a .lay file)")
    return Layout(shipped.read_text(), name=name)


def load_layout(name: str | Layout) -> Layout:
    """A shipped layout by name, a ``.lay`` file by path, or a Layout as it is."""
    if isinstance(name, Layout):
        return name
    return _layout_from(str(name))


def layout_names() -> list[str]:
    """The layouts shipped with gamesearch."""
    return sorted(p.stem for p in LAYOUTS.glob("*.lay"))
