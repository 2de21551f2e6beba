"""Checkers' endgame databases: the generic retrograde build (tables/) joined to the
checkers kernel and its perfect index (games/checkers/index.py), and probing by FEN.

Values ignore the 40-move rule, as Chinook's databases did: they are the game-theoretic
result with the side to move, and the distance in plies to the end under best play.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.games.checkers import index as I
from gamesearch.games.checkers import kernel as K
from gamesearch.games.checkers.kernel import MAX_ACTIONS, encode_state, primitives
from gamesearch.tables import levels, store, sweep
from gamesearch.tables.build import TableSpec, solve_bytes

MAX_PIECES = 8
"""Chinook's databases went to 8 pieces; a bigger request is refused before any work."""
PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232,
             6: 2_503_611_964, 7: 34_779_531_480, 8: 406_309_208_481}
"""Placements per piece count (Schaeffer et al., Science 2007, Table 1)."""


def name_of(config: tuple[int, int, int, int]) -> str:
    """A slice's file name: black men, black kings, white men, white kings."""
    return "-".join(map(str, config))


@functools.cache
def compiled_sweep() -> Any:
    """The sweep templates compiled against the checkers kernel and index."""
    from gamesearch.kernels.specialize import source_tag, specialize

    prims = primitives()
    # the tag names every source compiled in, the kernel's too: numba's cache does not
    # notice a change in a function that a cached one calls
    templates = (*sweep.TEMPLATES, *levels.TEMPLATES, *sweep.DEFAULT_END, *I.TEMPLATES)
    tag = f"checkers_tables_{source_tag(*templates, *K.TEMPLATES)}"
    return specialize(templates,
                      {"legal": prims.legal, "play": prims.play}, tag)


def configs_up_to(pieces: int) -> list[tuple[int, int, int, int]]:
    return [c for n in range(1, pieces + 1) for c in I.slices_of(n)]


def table_spec(pieces: int, only: list[str] | None = None) -> TableSpec:
    """The build plan of every position of 1 .. ``pieces`` pieces (``only`` is chess's:
    checkers' slices are built all together, so naming some is refused)."""
    if only:
        raise GameSearchError("tables: --only names chess tables (KQvK, KBNvK, ...); "
                              "checkers builds every slice of up to --pieces pieces")
    if not 1 <= pieces <= MAX_PIECES:
        raise GameSearchError(f"checkers tables: --pieces is 1-{MAX_PIECES}, not {pieces}")
    configs = configs_up_to(pieces)
    meta, where = I.table_layout(configs)
    return TableSpec(game="checkers", slices=[name_of(c) for c in configs],
                     where={name_of(c): w for c, w in where.items()}, meta=meta,
                     code=compiled_sweep(), max_actions=MAX_ACTIONS,
                     slice_ids={name_of(c): I.slice_id(*c) for c in configs})


MOVES_IN_PER_SLOT = 8
"""The moves into a slice per slot that the level solve lists, with room: at most 5.5 in
the 1-4 piece manifests (four kings, 2026-11-26); more kings move more."""


def estimate(pieces: int) -> dict[str, float]:
    """Slots and bytes a build of 1 .. ``pieces`` pieces needs: in memory two bytes a slot,
    and for the level solve (the default method) ``solve_bytes`` more for the largest
    slice; on disk a quarter byte plus a byte a slot."""
    slots = 2 * sum(PUBLISHED[n] for n in range(1, pieces + 1))
    largest = 2 * max(I.counted_slice_size(c) for c in I.slices_of(pieces))  # at once
    return {"slots": slots, "memory_bytes": 2 * slots,
            "solve_bytes": solve_bytes(largest, MOVES_IN_PER_SLOT),
            "disk_bytes": slots // 4 + slots}


def config_of(cells: str) -> tuple[int, int, int, int]:
    return (cells.count("b"), cells.count("B"), cells.count("w"), cells.count("W"))


class Tables:
    """Probing a built folder: (value, distance) of a position, memory-mapped."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not (self.folder / store.MANIFEST).is_file():
            raise GameSearchError(f"no checkers tables in {str(self.folder)!r} (build them "
                                  "with: gamesearch tables build checkers --pieces N)")
        self.manifest = store.read_manifest(self.folder, "checkers")
        self.loaded: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def covers(self, cells: str) -> bool:
        return name_of(config_of(cells)) in self.manifest["slices"]

    def probe(self, state: tuple) -> tuple[int, int]:
        """(WIN/LOSS/DRAW for the side to move, plies to the end) of a rules state."""
        config = config_of(state[0])
        name = name_of(config)
        if name not in self.manifest["slices"]:
            pieces = sum(config)
            raise GameSearchError(f"the tables in {str(self.folder)!r} do not hold "
                                  f"{pieces}-piece positions like this one ({name})")
        if name not in self.loaded:
            self.loaded[name] = store.load_slice(self.folder, name, self.manifest, mmap=True)
        packed, dist = self.loaded[name]
        black, white, kings, mover, _ = encode_state(state)
        offsets, _, kb, kw = I.slice_layout(config)
        i = int(I.compiled().position_index(black, white, kings, offsets, config[2], kb, kw))
        return store.probe_slot(packed, dist, 2 * i + int(mover))

    def complete_pieces(self) -> int:
        """The largest N such that every slice of 1 .. N pieces is in the folder."""
        n = 0
        while n < MAX_PIECES and all(name_of(c) in self.manifest["slices"]
                                     for c in I.slices_of(n + 1)):
            n += 1
        return n

    def search_arrays(self) -> tuple[tuple, np.ndarray, int]:
        """``(meta, packed values, pieces)`` for the compiled search to probe: every slice
        of up to ``complete_pieces()`` pieces, checked and loaded into one byte array. A
        slice's ``base`` is four times its first byte, so ``locate``'s slot divided by four
        is the byte and its remainder the 2-bit field."""
        pieces = self.complete_pieces()
        configs = configs_up_to(pieces) if pieces else [(0, 0, 0, 1)]
        meta, _ = I.table_layout(configs)
        base = np.full_like(meta[0], -1)
        chunks, at = [], 0
        for config in configs if pieces else []:
            packed, _ = store.load_slice(self.folder, name_of(config), self.manifest)
            base[I.slice_id(*config)] = 4 * at
            chunks.append(packed)
            at += len(packed)
        packed_all = np.concatenate(chunks) if chunks else np.zeros(1, np.uint8)
        return (base, *meta[1:]), packed_all, pieces
