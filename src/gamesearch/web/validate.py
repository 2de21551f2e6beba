"""Checks on everything a request brings: sizes, names, specs. Nothing from a request is
executed or used as a path: games and agents come from the registries, their parameters
are plain values (no path separators, no file parameters, bounded numbers)."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

from gamesearch.errors import GameSearchError, UnknownNameError
from gamesearch.spec import parse_spec

MAX_BODY = 64 * 1024
"""Bytes a request body may hold (413 beyond)."""
MAX_MOVES = 600
MAX_TIME = 30.0
"""Seconds an agent may be given per move."""
DEFAULT_BUDGET = 10.0
"""The search time of an agent spec that bounds itself otherwise (a depth, iterations)."""
HARD_MARGIN = 9.0
"""Seconds the server waits past a move's search time, at least (and at least the search
time again), before it tells the search to answer now: the queue, a loaded machine and a
search that reports nothing as it goes (expectiminimax, MCTS) fit in it. A move of 1 s has
a hard budget of 10 s; only a worker that dies leaves the server without a searched move."""
BOUNDS = {"time", "depth", "iterations", "playouts", "simulations", "samples", "nodes",
          "plies", "level"}
"""Agent parameters that bound a search: a spec naming one keeps it."""
MAX_DEPTH = 64
MAX_NUMBER = 1000
"""The largest number a game or agent parameter may hold (bounded work per request)."""
MAX_COUNT = 1_000_000
"""The largest count of iterations, simulations or samples: the deadline bounds the work."""
COUNT_PARAMS = {"iterations", "simulations", "samples"}
MAX_POSITION_TEXT = 120
"""Characters a position's text (a FEN) may hold in a game spec."""
MAX_RECORD_TEXT = 60_000
"""Characters of a record (PGN, SGF, PDN) the page may send to be read."""
MAX_MOVE_TEXT = 32
"""Characters one move's text may hold (a 10,000-digit column is refused, not parsed)."""
FILE_LIKE = re.compile(r"\.[A-Za-z]")
"""A dot followed by a letter (``pyproject.toml``, ``x.lay``): a file name, never a value."""
EXCLUDED_GAMES = {"tree"}  # trees belong to the tree lab (and the game reads a file)
EXCLUDED_AGENTS = {"human"}
FILE_PARAMS = re.compile(r"file|path|dir|book|weights|model|table|load|save|^net$", re.I)
"""Parameters that name a file (``net``: a chess network): never taken from a request."""
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.+\-]*$")


class PositionRequest(BaseModel):
    game: str = Field(max_length=200)
    moves: list[Annotated[str, Field(max_length=MAX_MOVE_TEXT)]] = Field(
        default_factory=list, max_length=MAX_MOVES)
    viewer: int | None = Field(default=None, ge=0, le=64)
    """The seat whose information set is shown (hidden-information games; none: all)."""
    deal: str | None = Field(default=None, max_length=64)
    """The token of the hidden outcomes, as the server last sent it (web/hidden.py)."""
    browse: bool = False
    """Looking back at a position of the game: no chance outcome drawn, the deal kept."""
    resigned: int | None = Field(default=None, ge=0, le=64)
    """The seat that resigned after these moves: the game is over, that seat lost."""
    seed: int | None = Field(default=None, ge=0, le=2**53 - 1)
    """Draws the chance outcomes (dice, deals) from this seed and the ply (the page link's
    ``seed``): the same link replays the same dice and cards. None: a fresh draw."""


class ThinkRequest(PositionRequest):
    agent: str = Field(max_length=200)


class AnalyseRequest(PositionRequest):
    agent: str | None = Field(default=None, max_length=200)
    """The engine (an agent spec); None: the default agent of the seat to move."""
    lines: int = Field(default=1, ge=1, le=3)
    """How many best lines (multi-PV) to show."""
    time: float = Field(default=2.0, gt=0, le=10)
    """Seconds the analysis of the position may take."""


class RecordRequest(PositionRequest):
    players: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list,
                                                                 max_length=8)
    """The seats' names for the record's tags (agent specs or "human")."""


class ImportRequest(BaseModel):
    text: str = Field(max_length=MAX_RECORD_TEXT)
    """A record file's text (PGN, SGF, PDN) or a position's text (a FEN)."""
    game: str = Field(default="", max_length=200)
    """The game on the page (its record format is tried first)."""
    name: str = Field(default="", max_length=200)
    """The opened file's name: only its suffix is read (it picks the format)."""


class EndRequest(PositionRequest):
    kind: str = Field(pattern="^(resign|draw|agreed)$")
    """``resign``: ``seat`` gives up; ``draw``: ``seat`` offers a draw to the AI;
    ``agreed``: a draw both sides agreed to (a reloaded link)."""
    seat: int = Field(ge=0, le=64)
    value: float | None = None
    """The last search value of the AI asked (its own viewpoint), if any."""


PAGE_HEADER = "X-Gamesearch-Page"
"""The header in which a page names itself (a random word per browser tab, static/js/api.js):
the analysis lane shares its worker fairly between pages, not only between addresses (a
class behind one router is many pages)."""
PAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def client_key(request: Any) -> str:
    """Who sent ``request``, for fair sharing: its address, and the page's own name where it
    gives one. A malformed name is one line (400)."""
    host = request.client.host if request.client is not None else "unknown"
    page = request.headers.get(PAGE_HEADER)
    if page is None:
        return host
    if not PAGE_ID.fullmatch(page):
        raise GameSearchError(f"header {PAGE_HEADER}: 1 to 64 letters, digits, '-' or '_'")
    return f"{host} {page}"


class StopRequest(BaseModel):
    search: str = Field(max_length=64)


class TreeRequest(BaseModel):
    tree: Any
    algorithm: str = Field(default="alphabeta", max_length=32)
    depth: int | None = Field(default=None, ge=0, le=12)


class MatrixFileRequest(BaseModel):
    text: str = Field(max_length=60_000)
    name: str = Field(default="", max_length=200)


class EfgRequest(BaseModel):
    text: str = Field(max_length=60_000)
    method: str = Field(default="auto", max_length=16)
    lam: float | None = Field(default=None, alias="lambda")


class MatrixRequest(BaseModel):
    payoffs: list[list[Any]] = Field(max_length=32)
    row_names: list[str] | None = Field(default=None, max_length=32)
    column_names: list[str] | None = Field(default=None, max_length=32)


PATH_TEXT = re.compile(r"(?<![\w.~-])(?:~|\.{1,2})?(?:/[^\s'\"/:,;()\[\]]+)+")
"""An absolute (or home/relative-parent) file path inside a message."""


def public_message(text: str) -> str:
    """``text`` as a web reply may say it: every file path cut to its last part, so no reply
    tells a visitor where the server keeps its programs, data or code."""
    return PATH_TEXT.sub(lambda m: m.group(0).rstrip("/").rsplit("/", 1)[-1] or "/", text)


def _shown(text: str) -> str:
    """A name as it may appear in a one-line message: escaped if it holds control
    characters (a newline in a key must not split the error)."""
    return text if text.isprintable() else repr(text)


def _check_params(params: dict[str, str], where: str) -> None:
    for key, value in params.items():
        if FILE_PARAMS.search(key):
            raise GameSearchError(f"{where}: parameter {key!r} is not available on the web")
        if not SAFE_VALUE.match(value) or ".." in value:
            raise GameSearchError(f"{where}: parameter {_shown(key)}={value!r} has characters "
                                  "that are not allowed (letters, digits, . + - _ only)")
        if not value.strip():  # an empty path names the server's working folder
            raise GameSearchError(f"{where}: parameter {key!r} has no value")
        if FILE_LIKE.search(value) or Path(value).exists():
            raise GameSearchError(f"{where}: parameter {_shown(key)}={value!r} looks like a file "
                                  "name; the web app reads no files (use a built-in name)")
        largest = MAX_COUNT if key in COUNT_PARAMS else MAX_NUMBER
        for number in re.findall(r"\d+(?:\.\d+)?", value):
            if float(number) > largest:
                raise GameSearchError(f"{where}: parameter {_shown(key)}={value!r} is too large "
                                      f"(at most {largest})")


def game_spec(spec: str) -> str:
    """A checked game spec (registered, not excluded, plain parameters)."""
    from gamesearch.games import entries, game_entry

    name, params = parse_spec(spec)
    names = {entry.name for entry in entries()}
    if name not in names or name in EXCLUDED_GAMES:
        known = ", ".join(sorted(names - EXCLUDED_GAMES))
        raise UnknownNameError(f"unknown game {name!r}; known games: {known}")
    position = game_entry(name).position_text
    if position is not None and position.param in params:  # a FEN: the rules check it
        if len(params[position.param]) > MAX_POSITION_TEXT:
            raise GameSearchError(f"{position.title} of {len(params[position.param])} "
                                  f"characters; at most {MAX_POSITION_TEXT}")
        position.check(params.pop(position.param))
    _check_params(params, f"game {spec!r}")
    return spec.strip()


def offered_agents(programs: Collection[str]) -> list[str]:
    """The agent kinds the page may offer: every registered kind but the excluded ones, and
    those that drive an outside program only where the server offers programs."""
    from gamesearch.agents import AGENTS, outside_agents

    outside = outside_agents()
    return [name for name in AGENTS if name not in EXCLUDED_AGENTS
            and (name not in outside or programs)]


def hard_budget(search: float) -> float:
    """The server's hard budget of a move whose search time is ``search`` seconds."""
    return search + max(HARD_MARGIN, search)


def move_times(spec: str, move_time: float) -> tuple[str, float, float]:
    """A checked agent spec as a move runs it, its search time and its hard budget: a spec
    that names no bound (no time, depth, iterations...) searches for the game's
    ``move_time`` (its entry's, the page's clock), told so where its agent takes a time."""
    import inspect

    from gamesearch.agents import AGENTS

    name, params = parse_spec(spec)
    if "time" in params:
        search = float(params["time"])
    elif params.keys() & BOUNDS:
        search = DEFAULT_BUDGET
    else:
        search = move_time
        if "time" in inspect.signature(AGENTS[name].factory).parameters:
            spec = f"{spec},time={move_time:g}" if params else f"{name}:time={move_time:g}"
    return spec, search, hard_budget(search)


def agent_spec(spec: str, programs: Collection[str] = ()) -> tuple[str, float]:
    """A checked agent spec and its time budget in seconds (its ``time``, else the
    default budget), bounded by MAX_TIME. An agent that drives an outside program is
    refused unless the server offers ``programs`` (names, ``serve --program``) and its
    ``cmd``, if given, names one of them: a request never starts a program of its own."""
    from gamesearch.agents import outside_agents

    name, params = parse_spec(spec)
    known = offered_agents(programs)
    if name not in known:
        if name in outside_agents():
            raise UnknownNameError(f"agent {name!r} drives an outside program, and this server "
                                   "offers none (its operator can offer some with "
                                   "`gamesearch serve --program NAME`)")
        raise UnknownNameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(known))}")
    _check_params(params, f"agent {spec!r}")
    if name in outside_agents() and "cmd" in params and params["cmd"] not in programs:
        raise UnknownNameError(f"agent {spec!r}: this server offers no program named "
                               f"{params['cmd']!r} (it offers: {', '.join(sorted(programs))})")
    budget = DEFAULT_BUDGET
    if "time" in params:
        try:
            budget = float(params["time"])
        except ValueError:
            raise GameSearchError(f"agent {spec!r}: time must be a number of seconds") from None
        if not 0 < budget <= MAX_TIME:
            raise GameSearchError(f"agent {spec!r}: time must be between 0 and {MAX_TIME:g} s")
    if "depth" in params:
        try:
            depth = int(params["depth"])
        except ValueError:
            raise GameSearchError(f"agent {spec!r}: depth must be a whole number") from None
        if not 0 < depth <= MAX_DEPTH:
            raise GameSearchError(f"agent {spec!r}: depth must be between 1 and {MAX_DEPTH}")
    return spec.strip(), budget
