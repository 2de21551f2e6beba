"""Chess endgame tables: the generic retrograde build (tables/) joined to the chess board
(games/chess/board.py) and its table index (games/chess/tables_index.py), and probing.

Tables hold White's material against a bare black king (KQvK, KRvK, KPvK, KBNvK, ...) or
one piece each (KQvKR, KRvKB, KQvKP, ...); a position whose stronger material is Black's
is stored as its colour-flipped image, which has the same value (games/chess/
tables_index.py). KPvKP's index has an en passant bit (tables_index.py). Values are depth
to mate in plies for the side to move (a win in d plies is mate in (d + 1) / 2 moves),
ignoring the 50-move rule, as Nalimov's tables do.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.games.chess import tables_index as T
from gamesearch.games.chess.board import EPSQ, SIDE
from gamesearch.tables import levels, store, sweep
from gamesearch.tables.build import TableSpec, solve_bytes

P, N, B, R, Q = 1, 2, 3, 4, 5
BLACK = 8
MAX_PIECES = 4
SLICES = {
    2: [[]],
    3: [[N], [B], [R], [Q], [P]],  # KPvK last: its promotions reach the other four
    4: [[N, N], [B, N], [B, B], [R, N], [R, B], [R, R], [Q, N], [Q, B], [Q, R], [Q, Q],
        [N, P], [B, P], [R, P], [Q, P], [P, P],
        [N, BLACK | N], [B, BLACK | N], [B, BLACK | B], [R, BLACK | N], [R, BLACK | B],
        [R, BLACK | R], [Q, BLACK | N], [Q, BLACK | B], [Q, BLACK | R], [Q, BLACK | Q],
        [N, BLACK | P], [B, BLACK | P], [R, BLACK | P], [Q, BLACK | P], [P, BLACK | P]],
}
"""The pieces besides the kings (White's 1-5, Black's 9-13), by piece count, in build
order: every capture and promotion leads into a slice built earlier (or its colour-flipped
image)."""
LONGEST_MATES = {"KQvK": 10, "KRvK": 16, "KPvK": 28, "KBBvK": 19, "KBNvK": 33,
                 "KQvKR": 35, "KRvKP": 43}
"""Mate in this many moves at most, with the stronger side to move: the 3- and 4-piece
maxima of depth-to-mate tables (Ströhlein 1970, Thompson, Nalimov; as listed from Peter
Karrer's statistics, and KRvKP's 85 plies from Helmut Conrady's 2000 survey of Nalimov's
files). tests/test_chess_tables.py checks the 3-piece ones on tables built in the test,
bench/chess_tables.py the others."""


def slices_up_to(pieces: int) -> list[list[int]]:
    """Every slice of 2 .. ``pieces`` pieces, in build order."""
    if not 2 <= pieces <= MAX_PIECES:
        raise GameSearchError(f"chess tables: --pieces is 2-{MAX_PIECES}, not {pieces}")
    return [codes for n in range(2, pieces + 1) for codes in SLICES[n]]


@functools.cache
def compiled_sweep() -> Any:
    """The sweep templates compiled against the chess board and table index."""
    from gamesearch.games.chess import bitboards as bitboards_module
    from gamesearch.games.chess import board as board_module
    from gamesearch.games.chess import legal as legal_module
    from gamesearch.kernels.specialize import source_tag, specialize

    templates = (*sweep.TEMPLATES, *levels.TEMPLATES)
    sources = source_tag(*templates, T, board_module, legal_module, bitboards_module)
    tag = f"chess_tables_{sources}"
    bindings = {f.__name__: f for f in T.TABLE_FUNCTIONS}
    return specialize(templates, bindings, tag)


def table_spec(pieces: int, only: list[str] | None = None) -> TableSpec:
    """The build plan of every table of 2 .. ``pieces`` pieces (``only``: these tables and
    what they depend on, e.g. ``["KQvK"]``)."""
    chosen = slices_up_to(pieces)
    if only:
        names = {T.name_of(c) for c in chosen}
        unknown = [o for o in only if o not in names]
        if unknown:
            raise GameSearchError(f"chess tables: no table {unknown[0]!r} of up to {pieces} "
                                  f"pieces; tables: {', '.join(sorted(names))}")
        chosen = _with_dependencies([c for c in chosen if T.name_of(c) in only], chosen)
    meta, where = T.table_layout(chosen)
    names = [T.name_of(c) for c in chosen]
    return TableSpec(game="chess", slices=names,
                     where={name: where[sid] for sid, name in enumerate(names)}, meta=meta,
                     code=compiled_sweep(), max_actions=256,
                     slice_ids={name: sid for sid, name in enumerate(names)})


def _with_dependencies(wanted: list[list[int]], order: list[list[int]]) -> list[list[int]]:
    """``wanted`` and every slice a capture or promotion from them reaches, in ``order``."""
    need = {T.signature(c) for c in wanted}
    frontier = list(wanted)
    while frontier:
        codes = frontier.pop()
        reach = [codes[:i] + codes[i + 1:] for i in range(len(codes))]  # a capture
        for i, c in enumerate(codes):
            if c & 7 == P:
                reach += [codes[:i] + [promo | (c & BLACK)] + codes[i + 1:]
                          for promo in (N, B, R, Q)]
        for r in map(T.canonical, reach):
            if T.signature(r) not in need:
                need.add(T.signature(r))
                frontier.append(r)
    return [c for c in order if T.signature(c) in need]


MOVES_IN_PER_SLOT = 10
"""The moves into a slice per slot, at most, that the level solve lists: 9.4 in KRvKR, the
most of the 4-piece tables' manifests (2026-11-26)."""


def estimate(pieces: int) -> dict[str, float]:
    """Slots and bytes a build of 2 .. ``pieces`` pieces needs: in memory two bytes a slot,
    and for the level solve (the default method) ``solve_bytes`` more for the largest
    slice; on disk a quarter byte plus a byte a slot."""
    sizes = [T.slice_slots(c) for c in slices_up_to(pieces)]
    slots = sum(sizes)
    return {"slots": slots, "memory_bytes": 2 * slots,
            "solve_bytes": solve_bytes(max(sizes), MOVES_IN_PER_SLOT),
            "disk_bytes": slots // 4 + slots}


class Tables:
    """Probing a built folder: (value, distance) of a position, memory-mapped."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not (self.folder / store.MANIFEST).is_file():
            raise GameSearchError(f"no chess tables in {str(self.folder)!r} (build them "
                                  "with: gamesearch tables build chess --pieces 3)")
        self.manifest = store.read_manifest(self.folder, "chess")
        self.names = {T.signature(c): T.name_of(c) for n in SLICES for c in SLICES[n]}
        self.loaded: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def search_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every built table in one array for the compiled search (``chess_search.search``'s
        ``tb``): packed values, distances, the slice of each signature, each slice's first
        slot. Read into memory: 1.25 bytes a slot (every 3-piece table: 0.7 MB)."""
        built = [c for n in SLICES for c in SLICES[n] if T.name_of(c) in self.manifest["slices"]]
        meta, where = T.table_layout(built)
        packed, dist = [], []
        for sid, codes in enumerate(built):
            p, d = store.load_slice(self.folder, T.name_of(codes), self.manifest)
            assert where[sid][1] % 4 == 0  # slices start on a packed byte
            packed.append(np.asarray(p))
            dist.append(np.asarray(d))
        return (np.concatenate(packed), np.concatenate(dist), meta[0], meta[1])

    def probe_board(self, board: Any) -> tuple[int, int] | None:
        """(WIN/LOSS/DRAW for the side to move, plies to mate) of a python-chess board, or
        None where the tables do not hold it (more pieces, castling rights, a table not
        built)."""
        from gamesearch.games.chess.kernel import arrays_of

        if board.castling_rights or len(board.piece_map()) > MAX_PIECES:
            return None
        b, st, _ = arrays_of(board)  # the en passant square only where a pawn can take
        key = int(T.position_key(b, st[SIDE], st[EPSQ]))
        name = self.names.get(key & (T.SIGNATURES - 1))
        if name is None or name not in self.manifest["slices"]:
            return None
        if name not in self.loaded:
            self.loaded[name] = store.load_slice(self.folder, name, self.manifest, mmap=True)
        packed, dist = self.loaded[name]
        value, plies = store.probe_slot(packed, dist, key >> 8)
        return None if plies == sweep.NO_POSITION_DISTANCE else (value, plies)

    def probe(self, state: Any) -> tuple[int, int]:
        """(WIN/LOSS/DRAW for the side to move, plies to mate) of a chess rules state."""
        from gamesearch.games.chess.rules import board_of

        found = self.probe_board(board_of(state))
        if found is None:
            raise GameSearchError(f"the tables in {str(self.folder)!r} do not hold this "
                                  "position (tables: one side's king, up to "
                                  f"{MAX_PIECES} pieces, no castling rights)")
        return found

    def best_move(self, board: Any) -> Any | None:
        """The perfect move of a position the tables hold: the quickest mate, else a draw,
        else the longest resistance (None where they do not hold it)."""
        if self.probe_board(board) is None:
            return None
        best, best_key = None, None
        for move in board.legal_moves:
            board.push(move)
            outcome = board.outcome()
            child = None if outcome is not None else self.probe_board(board)
            board.pop()
            if outcome is not None:
                key = (0, 0) if outcome.winner is not None else (1, 0)
            elif child is None:
                continue
            elif child[0] == sweep.LOSS:
                key = (0, child[1])  # the child loses: win, the sooner the better
            elif child[0] == sweep.DRAW:
                key = (1, 0)
            else:
                key = (2, -child[1])  # lose as late as possible
            if best_key is None or key < best_key:
                best, best_key = move, key
        return best


def random_positions(name: str, count: int, rng: random.Random) -> list[Any]:
    """``count`` legal, unfinished positions of table ``name`` (e.g. "KBNvK", "KQvKR"),
    either side to move: what the tests and the benchmark check the tables on
    (python-chess boards). In KPvKP every other one, where a pawn can advance two squares
    beside the other, is the position after that advance (en passant possible)."""
    import chess

    letters = {"P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK,
               "Q": chess.QUEEN}
    white, black = name.split("v")
    pieces = [(letters[c], chess.WHITE) for c in white[1:]] + \
        [(letters[c], chess.BLACK) for c in black[1:]]
    found: list[chess.Board] = []
    for _ in range(1000 * count):  # a dead material (KBvK) has no unfinished position
        if len(found) == count:
            break
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, (kind, colour) in zip(squares[2:], pieces):
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                break
            board.set_piece_at(sq, chess.Piece(kind, colour))
        else:
            board.turn = rng.choice([chess.WHITE, chess.BLACK])
            if board.is_valid() and not board.is_game_over():
                if name == "KPvKP" and len(found) % 2:
                    board = _en_passant_position(rng) or board
                found.append(board)
    return found


def _en_passant_position(rng: random.Random) -> Any | None:
    """A random KPvKP position just after a two-square pawn advance beside the other pawn
    (en passant possible), or None if the kings drawn make it illegal or over."""
    import chess

    mover = rng.choice([chess.WHITE, chess.BLACK])
    f = rng.randrange(8)
    g = f + rng.choice([-1, 1]) if 0 < f < 7 else (1 if f == 0 else 6)
    start = chess.square(f, 1 if mover == chess.WHITE else 6)
    beside = chess.square(g, 3 if mover == chess.WHITE else 4)
    board = chess.Board(None)
    board.set_piece_at(start, chess.Piece(chess.PAWN, mover))
    board.set_piece_at(beside, chess.Piece(chess.PAWN, not mover))
    free = [sq for sq in range(64) if board.piece_at(sq) is None
            and sq != start + (8 if mover == chess.WHITE else -8)]
    for sq, colour in zip(rng.sample(free, 2), (chess.WHITE, chess.BLACK)):
        board.set_piece_at(sq, chess.Piece(chess.KING, colour))
    board.turn = mover
    if not board.is_valid():
        return None
    board.push(chess.Move(start, start + (16 if mover == chess.WHITE else -16)))
    if not board.is_valid() or board.is_game_over() or not board.has_legal_en_passant():
        return None
    return board
