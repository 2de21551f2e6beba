"""What a game brings to gamesearch, in one object: its ``ENTRY``.

Every game has one :class:`GameEntry`, exported as ``ENTRY`` by its engine (the package or
module ``gamesearch.engines.<game>``, or an installed package's module named in the entry-point
group ``gamesearch.games``). It holds everything the faces need: the rules' factory and
parameters, the game's own agent kinds with what they need, a default agent per seat, the
solver of ``gamesearch solve`` (and the picture of its answer), the analyzer of ``gamesearch
analyze``, the opening book of ``gamesearch book``, the training methods of ``gamesearch
train``, the warm-up of its compiled code, its record format and its tournament judge. The
catalog collects the entries and joins them; the command line and the web app look them up
and name no game.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gamesearch.result import UTILITY, ValueScale
from gamesearch.spec import Option, Range


@dataclass(frozen=True)
class Needs:
    """What an agent kind needs of a game (every field is a requirement when set)."""

    perfect_information: bool = False
    """It searches the true state: hidden-information games would let it see hidden cards."""
    no_chance: bool = False
    """It has no chance nodes (minimax, alpha-beta, paranoid): use expectiminimax there."""
    hidden_information: bool = False
    """It samples hidden states (``information_set`` and ``sample_state``)."""
    kernel: bool = False
    """It runs on the game's compiled kernel."""
    games: tuple[str, ...] = ()
    """It plays only these games (a game-specific agent)."""
    seats: str = "any"
    """``first``: only player 1's seat (Pacman); ``others``: every seat but player 1's."""


PERFECT = Needs(perfect_information=True)
DETERMINISTIC = Needs(perfect_information=True, no_chance=True)


class AgentKind(NamedTuple):
    """A kind of agent, built from spec strings ``name:params`` by ``factory(**params)``."""

    factory: Callable[..., Any]
    summary: str
    needs: Needs = Needs()
    outside: bool = False
    """It starts the outside program its ``cmd`` parameter names (UCI, GTP, gnubg)."""


@dataclass(frozen=True)
class AgentDecl:
    """An agent kind as a game's entry declares it (registered by the catalog)."""

    name: str
    factory: Callable[..., Any]
    summary: str
    seats: str = "any"
    """``first``: only player 1's seat; ``others``: every seat but player 1's."""
    outside: bool = False


@dataclass(frozen=True)
class RecordFormat:
    """A game's own record format (PGN, SGF, PDN): a played game written so that other
    programs of that game open it."""

    suffix: str
    """The file suffix, also the format's name in lower case (``pgn``)."""
    title: str
    """What the file is called in messages (``PGN file``)."""
    write: Callable[..., str]
    """``write(game, start, actions, moves, players, utilities, end) -> text``: the game
    from ``start`` (``actions`` and their texts ``moves``, already checked, ending at
    ``end``), the two players' names, ``utilities`` None while unfinished."""
    looks_like: Callable[[str], bool]
    """Whether a text reads as a file of this format (for appending to one of ours)."""
    separator: str = "\n\n"
    """What stands between two games of one file."""
    read: Callable[[str], tuple[dict[str, str], list[str]]] | None = None
    """``read(text) -> (params, moves)``: the first game of a record text as the game's
    parameters (a spec's, as text) and its moves in the game's notation, every move checked
    by the rules; GameSearchError with one line otherwise (the web page's "Open")."""


@dataclass(frozen=True)
class PositionText:
    """A game's one-line text of a position (chess's FEN): shown by the web page and
    accepted as the game parameter ``param`` to start there."""

    param: str
    """The factory's parameter that starts the game at a position (``fen``)."""
    title: str
    """What the text is called (``FEN``)."""
    write: Callable[[Any, Any], str]
    """``write(game, state) -> text``."""
    check: Callable[[str], str]
    """``check(text) -> text``: the text, checked by the rules (normalised); GameSearchError
    with one line for a malformed or impossible position."""


WarmupStep = tuple[str, Callable[[], object]]


@dataclass(frozen=True)
class VerdictPolicy:
    """Which positions an exact verdict (the web's "perfect play" answer) may try, and what
    it needs first; the default tries every position within the verdict's budget."""

    refuse: Callable[[Any, Any], str | None] | None = None
    """``refuse(game, state)``: why no exact verdict is tried there (a search could not
    finish it in a verdict's budget), or None to try."""
    needs_compile: Callable[[Any], bool] | None = None
    """``needs_compile(game)``: the solver for this game (its size) is in no cache yet, so
    the first verdict compiles it, outside any budget."""
    move_values: Callable[[Any, Any], dict] | None = None
    """``move_values(game, state) -> {action: value}``: every legal move's exact value, shown
    on the board beside the solver's report."""
    stopping: Callable[[Any, Callable[[], bool]], AbstractContextManager] | None = None
    """``stopping(game, stop)``: a context inside which the game's solver (the solve and the
    move values) ends by raising ``result.SearchTimeout`` soon after ``stop()`` turns true:
    a verdict nobody waits for, or past its budget, ends and keeps its worker. None: the
    solver cannot be stopped (the web replaces the worker of a cancelled verdict)."""


@dataclass(frozen=True)
class Analyzer:
    """Every move's exact value at a position, for ``gamesearch analyze GAME POSITION``."""

    analyze: Callable[[Any, Any, dict], dict]
    """``analyze(game, state, options) -> {action: value or None}``: each move's value for
    the player to move, in the order shown; None marks a move the position does not allow
    (shown as ``blank``). ``state`` is never over: the command refuses an ended game."""
    options: dict[str, Option] = field(default_factory=dict)
    """The options ``analyze`` passes on (``--weak``); others are refused."""
    describe: Callable[[Any], str] | None = None
    """``describe(value) -> words`` for the best value (``win``); None: no words."""
    blank: str = "-"
    """What a move without a value shows in the table."""


@dataclass(frozen=True)
class BookMaker:
    """An opening book made by the game's solver, for ``gamesearch book GAME --depth N``."""

    build: Callable[..., dict]
    """``build(game, depth, path, progress, force, backend) -> {"positions": n, "bytes":
    b}``: solve every position up to ``depth`` moves into ``path`` (resumable from
    ``path + ".partial"``), calling ``progress(done, total)``; ``backend`` is an arena
    backend that solves positions at once, or None for one at a time."""
    is_book: Callable[[Any], bool]
    """Whether an existing file is one of these books (only those are replaced unasked)."""
    max_depth: Callable[[Any], int]
    """``max_depth(game)``: the deepest book of this game (every move of the longest game)."""
    file_name: Callable[[Any, int], str]
    """``file_name(game, depth)``: the file written when the command names none."""
    kept: Callable[[str], int | None]
    """``kept(partial)``: how many solved positions an interrupted build's file holds
    (None: unreadable, the last progress report counts)."""


@dataclass(frozen=True)
class Trainer:
    """A training method as a game offers it to ``gamesearch train METHOD``: the library's
    call for this game and the game's settings for it. What ``make`` returns and which
    settings a method reads are the method's (each ``train`` command documents its own);
    the command's options and the training code stay where they are."""

    make: Callable[..., Any]
    """The game's part of the method: the run itself (``td``), the library module of the
    method for this game (``samuel``) or the problem a generic trainer learns
    (``alphazero``, ``alphazero-jax``)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """The game's settings for the method: titles, what the curve measures, readers."""


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its rules and everything its engine offers the faces."""

    name: str
    summary: str
    factory: Callable[..., Any]
    solver: Callable[..., dict] | None = None
    """``solver(game, state, options) -> dict`` for ``gamesearch solve`` (else the generic
    search); a caller with a wall-clock budget passes ``budget`` (seconds) in options."""
    solver_options: dict[str, Option] = field(default_factory=dict)
    """The options ``gamesearch solve`` passes on to ``solver`` (others are refused)."""
    plot: Callable[[Any, dict], Any] | None = None
    """``plot(game, options) -> matplotlib Figure``: the picture of the solver's answer,
    drawn after it ran with the same ``options``, for ``solve --plot FILE`` (declare
    ``plot`` among ``solver_options`` too); the command line saves it."""
    analyzer: Analyzer | None = None
    """Every move's value, for ``gamesearch analyze``."""
    book: BookMaker | None = None
    """The opening book of ``gamesearch book``."""
    trainers: dict[str, Trainer] = field(default_factory=dict)
    """The training methods of ``gamesearch train METHOD`` this game offers, by name."""
    ranges: dict[str, Range] = field(default_factory=dict)
    """The accepted range of numeric game parameters (each item of a tuple)."""
    perft: Callable[[Any, Any, int], int] | None = None
    """A fast ``perft(game, state, depth) -> leaves`` (a compiled kernel's) for ``gamesearch
    perft``; without one the generic pure-Python count over the protocol is used."""
    agents: tuple[AgentDecl, ...] = ()
    """The game's own agent kinds (they play this game only)."""
    defaults: tuple[str, ...] = ()
    """The default agent spec per seat from player 1 on, the last repeated (empty: the
    catalog's choice by the game's kind); each answers within about a second."""
    move_time: float = 1.0
    """Seconds a move of this game's agents takes on the web page's clock when their spec
    names no bound of its own (no time, depth, iterations...): an agent that takes a
    ``time`` is given this much; the server's hard budget of such a move is far larger
    (docs/WEB.md, "Budgets and fallbacks")."""
    warmups: Callable[[Any], list[WarmupStep]] | None = None
    """``warmups(game) -> [(label, step)]``: what compiles (or loads) its compiled code."""
    record: RecordFormat | None = None
    judge: Callable[[int], Any] | None = None
    """``judge(after) -> judge``: a tournament judge (``--judge N``) that rules from
    ``after`` plies on: ``judge(game, state, ply) -> utilities or None``."""
    tables: str | None = None
    """The module of the game's endgame tables (``table_spec``, ``estimate``, ``Tables``,
    ``random_positions``...) for ``gamesearch tables``, by its dotted name."""
    tables_probe: Callable[[str], Callable[[Any], Any]] | None = None
    """``tables_probe(folder) -> probe``: the endgame tables built in ``folder``, as
    ``probe(state) -> (value, distance)`` or None where they do not hold the position (the
    values of tables/sweep.py, for the side to move); used by ``--tables`` judges."""
    verdict: VerdictPolicy = VerdictPolicy()
    board: Callable[[Any, Any], dict] | None = None
    """``board(game, state) -> dict``: the position as the web page's renderer of its
    ``style`` draws it (squares, grid, piles...); None: the text picture and move buttons."""
    svg: Callable[[Any, Any, Any, tuple], str] | None = None
    """``svg(game, state, lastmove, arrows) -> drawing.Svg``: the position as an SVG picture
    (notebooks, ``gamesearch.display.svg``), built with gamesearch/drawing.py; ``lastmove``
    is the action that led to it (or None) and ``arrows`` are actions of this position to
    draw as arrows (an action may also be given as its text)."""
    hidden_text: Callable[[Any, Any, int], str] | None = None
    """``hidden_text(game, state, viewer)``: what one player sees of a hidden-information
    position, in words (never another player's cards)."""
    aliases: tuple[str, ...] = ()
    """Other names the command line accepts for the game."""
    title: str = ""
    """The game's name as people write it ("Kuhn poker"); empty: the summary's first words
    (see :attr:`display_name`)."""
    hidden_board: Callable[[Any, Any, int], dict] | None = None
    """``hidden_board(game, state, viewer)``: the board data of :attr:`board` as one
    player sees it (another player's cards as None, drawn face down)."""
    position_text: PositionText | None = None
    notation: Callable[[Any, Any, Any], str] | None = None
    """``notation(game, state, action) -> text``: a move as people write it (chess's SAN),
    for the web page's move list; None: the game's own ``action_to_string``."""
    ending: Callable[[Any, Any], str | None] | None = None
    """``ending(game, state) -> words``: how a finished game ended, with its reason and
    margin, said after "White wins" or "draw" ("by checkmate", "(W+3.5 ...)", "a
    gammon"); None where there is nothing to add."""
    scale: ValueScale = UTILITY
    """How the values of the game's own engine read (centipawns, discs, moves to a win...):
    the one place an engine declares its unit and its conversion to a win probability; its
    agents and solver turn their raw values into a :class:`~gamesearch.result.Score` with
    it. The generic searches give the game's utility (``UTILITY``)."""

    @property
    def display_name(self) -> str:
        """What the web page and tables call the game: :attr:`title`, else the summary up
        to its first colon, comma, semicolon or parenthesis."""
        if self.title:
            return self.title
        cut = min((i for i in (self.summary.find(c) for c in ":,;(") if i > 0),
                  default=len(self.summary))
        return self.summary[:cut].strip() or self.name


__all__ = ["DETERMINISTIC", "PERFECT", "AgentDecl", "AgentKind", "Analyzer", "BookMaker",
           "GameEntry", "Needs", "PositionText", "RecordFormat", "Trainer", "ValueScale",
           "VerdictPolicy", "WarmupStep"]
