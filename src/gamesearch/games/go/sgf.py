"""SGF (Smart Game Format, FF[4]) for Go games and positions, through sgfmill: a match's
games open in Sabaki, GoGui or any Go program, and SGF files from elsewhere replay here
(every move checked by our rules, superko included).

Read: the board size (``SZ``, 2-19), komi (``KM``), set-up stones (``AB``/``AW``/``AE`` in
the root) and the side to move (``PL``; without it the first move says, and Black's
stones alone are a handicap, White to move), then the main line's moves (a pass is ``B[]``
or, on boards up to 19x19, ``B[tt]``). Written: the same, with the players (``PB``,
``PW``), the result (``RE``: ``B+3.5``, ``W+R``, ``0`` for a draw) and, for a handicap
start, ``HA``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.games.go.notation import MAX_SIZE, MIN_SIZE
from gamesearch.games.go.rules import Go

MAX_BYTES = 10_000_000


@dataclass
class SgfRecord:
    """A game: size, komi, the start (cells and side to move; None: the empty board,
    Black first), the moves as rules actions, players and result."""

    size: int
    komi: float
    moves: list[int]
    start: tuple[str, int] | None = None
    players: dict[str, str] = field(default_factory=dict)
    result: str | None = None

    def game(self) -> Go:
        return Go(size=self.size, komi=self.komi)

    def states(self) -> list:
        """Every position of the game, from the start, the rules checking each move."""
        game = self.game()
        state = game.initial_state()
        if self.start is not None:
            cells, mover = self.start
            state = (cells, mover, 0, 0, frozenset((cells,)))
        out = [state]
        for number, action in enumerate(self.moves, 1):
            try:
                state = game.result(state, action)
            except IllegalActionError as err:
                raise GameSearchError(f"move {number}: {err}") from None
            out.append(state)
        return out


def _point(rc: tuple[int, int], size: int) -> int:
    row, col = rc
    return (size - 1 - row) * size + col


def read_sgf(data: bytes | str) -> list[SgfRecord]:
    """Every game of an SGF collection (its main lines), each replayed by the rules; one
    clear error, naming the game, otherwise."""
    from sgfmill import sgf_grammar

    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise GameSearchError(f"SGF of {len(raw):,} bytes; at most {MAX_BYTES:,}")
    try:
        trees = sgf_grammar.parse_sgf_collection(raw)
    except ValueError as err:
        raise GameSearchError(f"not a readable SGF file: {err}") from None
    records = []
    for number, tree in enumerate(trees, 1):
        try:
            records.append(_read_game(tree))
        except GameSearchError as err:
            raise GameSearchError(f"SGF game {number}: {err}") from None
    return records


def _read_game(tree) -> SgfRecord:
    """One game of a parsed collection."""
    from sgfmill import sgf

    try:
        parsed = sgf.Sgf_game.from_coarse_game_tree(tree)
        size = parsed.get_size()
        komi = parsed.get_komi()
    except (ValueError, KeyError, IndexError) as err:
        raise GameSearchError(f"not a readable game: {err}") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise GameSearchError(f"board size {size}: gamesearch plays {MIN_SIZE}-{MAX_SIZE}")
    if komi * 2 != int(komi * 2):
        raise GameSearchError(f"komi {komi}: a multiple of 0.5 is needed")
    root = parsed.get_root()
    number = 0
    try:
        black, white, empty = root.get_setup_stones()
        moves, number = [], 0
        for node in parsed.get_main_sequence()[1:]:
            colour, rc = node.get_move()
            if colour is None:
                continue
            number += 1
            moves.append((colour, size * size if rc is None else _point(rc, size)))
        players = {k: parsed.get_player_name(c) or "?" for k, c in (("black", "b"),
                                                                    ("white", "w"))}
        result = root.get("RE") if root.has_property("RE") else None
    except (ValueError, KeyError, IndexError) as err:  # sgfmill's ValueError may be empty
        raise GameSearchError(f"move {number + 1}: "
                              f"{str(err) or 'a point off the board or a malformed value'}") \
            from None
    if root.has_property("PL"):
        mover = 1 if root.get_raw("PL").upper() == b"W" else 0
    elif moves:  # no PL: the first move says (a handicap game's is White's)
        mover = "bw".index(moves[0][0])
    else:  # Black's stones alone are a handicap: White moves next
        mover = 1 if black and not white else 0
    start = None
    if black or white:
        cells = ["."] * (size * size)
        for rc in black:
            cells[_point(rc, size)] = "X"
        for rc in white:
            cells[_point(rc, size)] = "O"
        for rc in empty:
            cells[_point(rc, size)] = "."
        start = ("".join(cells), mover)
    elif moves and moves[0][0] == "w":
        start = ("." * (size * size), 1)
    record = SgfRecord(size, float(komi), [], start, players, result)
    expected = 0 if start is None else start[1]
    for number, (colour, action) in enumerate(moves, 1):
        if "bw".index(colour) != expected:
            raise GameSearchError(f"move {number}: {colour.upper()} plays twice in a row "
                                  "(gamesearch games alternate)")
        record.moves.append(action)
        expected = 1 - expected
    record.states()  # every move checked
    return record


def write_sgf(record: SgfRecord) -> str:
    """The SGF text of ``record`` (FF[4], the main line only), marked as ours by its
    application property ``AP[gamesearch:VERSION]`` (gamesearch/records.py)."""
    from sgfmill import sgf

    from gamesearch import __version__
    from gamesearch.records import GENERATOR

    game = sgf.Sgf_game(size=record.size)
    root = game.get_root()
    root.set("AP", (GENERATOR, __version__))
    root.set("KM", record.komi)
    root.set("RU", "Tromp-Taylor")
    for key, colour in (("black", "PB"), ("white", "PW")):
        if record.players.get(key):
            root.set(colour, record.players[key])
    if record.result:
        root.set("RE", record.result)
    mover = 0
    if record.start is not None:
        cells, mover = record.start
        n = record.size
        stones = {c: {(n - 1 - p // n, p % n) for p, x in enumerate(cells) if x == c}
                  for c in "XO"}
        root.set_setup_stones(stones["X"], stones["O"])
        root.set("PL", "bw"[mover])
        if mover == 1 and len(stones["X"]) >= 2 and not stones["O"]:  # a handicap start
            root.set("HA", len(stones["X"]))
    for action in record.moves:
        node = game.extend_main_sequence()
        n = record.size
        node.set_move("bw"[mover], None if action == n * n else (n - 1 - action // n,
                                                                  action % n))
        mover = 1 - mover
    return game.serialise().decode()


def result_text(game: Go, state) -> str:
    """``B+3.5``, ``W+7`` or ``0`` from the final position's area score."""
    margin = game.score(state)
    return "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"
