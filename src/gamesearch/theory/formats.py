"""Reading and writing normal-form games: Gambit's .nfg (payoff and outcome versions), and a
plain JSON and CSV form. Errors name the file, the line and what is wrong.

Gambit .nfg (https://gambitproject.readthedocs.io, "Game representation formats"): a header
``NFG 1 R "title" { "P1" "P2" }``, then the strategies, either as counts ``{ 3 2 }`` or as
names ``{ { "U" "D" } { "L" "R" } }``, an optional comment string, and then either

* payoff version: the payoffs of every player for each profile, the first player's
  strategy changing fastest; or
* outcome version: ``{ { "name" 1, 2 } ... }`` outcomes, then one outcome number per
  profile in the same order (0 is the null outcome, paying 0 to all).

Numbers may be integers, decimals or fractions ``p/q``; integers and fractions make the game
exact.

JSON: ``{"players": [...], "strategies": [[...], ...], "payoffs": P}`` where P nests one
list level per player and ends in one payoff per player (``P[i][j] = [a, b]`` for two
players); or ``{"A": matrix, "B": matrix}`` (bimatrix) or ``{"A": matrix}`` (zero-sum).

CSV (two players): the first row names the columns (its first cell is ignored), each later
row starts with the row's name; a cell holds the two payoffs separated by a space or ``;``
(``3 1``), or one number for a zero-sum game.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import atomic_write
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.textinput import MAX_NUMBER_DIGITS, load_json, read_text
from gamesearch.theory.normal_form import NormalFormGame

NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?(/[0-9]+)?$")

MAX_PROFILES = 1_000_000
"""Games with more strategy profiles than this are refused before anything is allocated
(each profile holds one payoff per player)."""


def parse_number(text: str, where: str) -> int | Fraction | float:
    """An integer, a fraction ``p/q`` (exact) or a decimal (float)."""
    text = text.strip()
    if len(text) > MAX_NUMBER_DIGITS:
        raise FileFormatError(f"{where}: a number of {len(text):,} characters (the limit is "
                              f"{MAX_NUMBER_DIGITS})")
    if not NUMBER.match(text):
        raise FileFormatError(f"{where}: {text!r} is not a number")
    if "/" in text:
        num, den = text.split("/")
        if int(den) == 0:
            raise FileFormatError(f"{where}: {text!r} divides by zero")
        if re.search(r"[.eE]", num):
            return float(num) / int(den)
        return Fraction(int(num), int(den))
    if re.search(r"[.eE]", text):
        return float(text)
    return int(text)


# --- Gambit .nfg --------------------------------------------------------------------------
TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([{}])|([^\s{},"]+)|(,)|(\s+)')


def _tokens(text: str, source: str) -> list[tuple[str, str, int]]:
    """(kind, value, line) for strings, braces and words; commas and space are skipped."""
    out, pos, line = [], 0, 1
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            raise FileFormatError(f"{source}: line {line}: unexpected character "
                                  f"{text[pos]!r}")
        if m.group(1) is not None:
            out.append(("string", m.group(1).replace('\\"', '"'), line))
        elif m.group(2):
            out.append((m.group(2), m.group(2), line))
        elif m.group(3):
            out.append(("word", m.group(3), line))
        line += m.group(0).count("\n")
        pos = m.end()
    return out


class _Reader:
    def __init__(self, tokens: list[tuple[str, str, int]], source: str) -> None:
        self.tokens, self.pos, self.source = tokens, 0, source

    def where(self) -> str:
        line = self.tokens[min(self.pos, len(self.tokens) - 1)][2] if self.tokens else 1
        return f"{self.source}: line {line}"

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def take(self, kind: str, what: str) -> str:
        if self.pos >= len(self.tokens):
            raise FileFormatError(f"{self.where()}: the file ends where {what} was expected")
        k, value, _ = self.tokens[self.pos]
        if k != kind:
            raise FileFormatError(f"{self.where()}: expected {what}, found {value!r}")
        self.pos += 1
        return value

    def number(self, what: str) -> int | Fraction | float:
        where = self.where()
        return parse_number(self.take("word", what), f"{where} ({what})")


def read_nfg(text: str, source: str = "game.nfg") -> NormalFormGame:
    """A game from Gambit .nfg text (payoff or outcome version)."""
    r = _Reader(_tokens(text, source), source)
    if r.take("word", "the header 'NFG'") != "NFG":
        raise FileFormatError(f"{source}: line 1: a .nfg file starts with 'NFG 1 R'")
    version = r.take("word", "the version number 1")
    if version != "1":
        raise FileFormatError(f"{r.where()}: version {version!r} is not supported (only 1)")
    r.take("word", "the letter R or D")
    title = r.take("string", "the game's title in quotes")
    r.take("{", "'{' before the player names")
    players = []
    while r.peek() == "string":
        players.append(r.take("string", "a player name"))
    r.take("}", "'}' after the player names")
    if not players:
        raise FileFormatError(f"{r.where()}: the game has no players")
    r.take("{", "'{' before the strategies")
    strategies: list[list[str]] = []
    if r.peek() == "{":
        for p in players:
            r.take("{", f"'{{' before the strategies of {p}")
            names = []
            while r.peek() == "string":
                names.append(r.take("string", "a strategy name"))
            r.take("}", f"'}}' after the strategies of {p}")
            strategies.append(names)
    else:
        for p in players:
            count = r.number(f"the number of strategies of {p}")
            if not isinstance(count, int) or count < 1:
                raise FileFormatError(f"{r.where()}: {p} needs a positive number of strategies")
            _check_profiles([len(s) for s in strategies] + [count], r.where())
            strategies.append([str(k + 1) for k in range(count)])
    r.take("}", "'}' after the strategies")
    if len(strategies) != len(players) or any(not s for s in strategies):
        raise FileFormatError(f"{r.where()}: every one of {len(players)} players needs "
                              "strategies")
    if r.peek() == "string":
        r.take("string", "the comment")
    shape = [len(s) for s in strategies]
    _check_profiles(shape, r.where())
    cells = math.prod(shape)
    n = len(players)
    if r.peek() == "{":
        per_profile = _read_outcomes(r, n, cells)
    else:
        per_profile = []
        for c in range(cells):
            per_profile.append([r.number(f"payoff {k + 1} of profile {c + 1}")
                                for k in range(n)])
    if r.pos != len(r.tokens):
        raise FileFormatError(f"{r.where()}: unexpected text after the {cells} profiles")
    return _from_profiles(per_profile, players, strategies, title)


def _check_profiles(shape: list[int], where: str) -> None:
    """Refuse a game with more than :data:`MAX_PROFILES` profiles, saying how many."""
    cells = math.prod(shape)
    if cells > MAX_PROFILES:
        raise FileFormatError(f"{where}: {' x '.join(map(str, shape))} strategies make "
                              f"{cells:,} profiles; the limit is {MAX_PROFILES:,}")


def _read_outcomes(r: _Reader, n: int, cells: int) -> list[list]:
    r.take("{", "'{' before the outcomes")
    outcomes = []
    while r.peek() == "{":
        r.take("{", "'{' opening an outcome")
        r.take("string", "the outcome's name")
        payoffs = [r.number(f"payoff {k + 1} of outcome {len(outcomes) + 1}") for k in range(n)]
        r.take("}", f"'}}' closing outcome {len(outcomes) + 1} (it needs {n} payoffs)")
        outcomes.append(payoffs)
    r.take("}", "'}' after the outcomes")
    per_profile = []
    for c in range(cells):
        where = r.where()
        k = r.number(f"the outcome of profile {c + 1}")
        if not isinstance(k, int) or not 0 <= k <= len(outcomes):
            raise FileFormatError(f"{where}: outcome {k} of profile {c + 1} is not 0.."
                                  f"{len(outcomes)}")
        per_profile.append([0] * n if k == 0 else outcomes[k - 1])
    return per_profile


def _from_profiles(per_profile: list[list], players: list[str], strategies: list[list[str]],
                   title: str) -> NormalFormGame:
    """Profiles in Gambit order (first player fastest) to the payoff array."""
    shape = [len(s) for s in strategies]
    n = len(players)
    payoffs = np.empty([n, *shape], dtype=object)
    for c, profile in enumerate(itertools.product(*[range(s) for s in reversed(shape)])):
        index = tuple(reversed(profile))
        for i in range(n):
            payoffs[(i, *index)] = per_profile[c][i]
    return NormalFormGame(payoffs, players, strategies, title)


def _nfg_number(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    v = float(value)
    return str(int(v)) if v.is_integer() else repr(v)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def write_nfg(game: NormalFormGame, outcomes: bool = False) -> str:
    """The game as Gambit .nfg text, payoff version (or outcome version)."""
    source = game.exact_payoffs if game.exact else game.payoffs
    players = " ".join(_quoted(p) for p in game.players)
    names = " ".join("{ " + " ".join(_quoted(s) for s in strategies) + " }"
                     for strategies in game.strategies)
    profiles = [tuple(reversed(p)) for p in
                itertools.product(*[range(s) for s in reversed(game.shape)])]
    head = f"NFG 1 R {_quoted(game.title)} {{ {players} }}\n{{ {names} }}\n\"\"\n\n"
    if not outcomes:
        body = " ".join(_nfg_number(source[(i, *p)]) for p in profiles
                        for i in range(game.num_players))
        return head + body + "\n"
    lines = ["{"]
    for c, p in enumerate(profiles):
        pay = ", ".join(_nfg_number(source[(i, *p)]) for i in range(game.num_players))
        lines.append(f'{{ "{c + 1}" {pay} }}')
    lines.append("}")
    return head + "\n".join(lines) + "\n" + " ".join(str(c + 1) for c in range(len(profiles))) \
        + "\n"


# --- JSON ---------------------------------------------------------------------------------
def payoff_number(value: Any, where: str) -> int | Fraction | float:
    """A payoff given as a JSON value (an int, a finite float, or text for
    :func:`parse_number`): the one payoff reader of game files, the CLI and the web app."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise FileFormatError(f"{where}: {value!r} is not a number")
    if isinstance(value, str):
        return parse_number(value, where)
    if isinstance(value, float) and not math.isfinite(value):
        raise FileFormatError(f"{where}: {value!r} is not a finite number")
    if isinstance(value, int) and abs(value) >= 10 ** MAX_NUMBER_DIGITS:
        raise FileFormatError(f"{where}: a number of {len(str(abs(value))):,} digits (the "
                              f"limit is {MAX_NUMBER_DIGITS})")
    return value


def read_json(text: str, source: str = "game.json") -> NormalFormGame:
    """A game from the JSON form."""
    data = load_json(text, source)
    if not isinstance(data, dict):
        raise FileFormatError(f"{source}: the JSON must be an object with 'payoffs' or 'A'")
    known = {"title", "players", "strategies", "payoffs", "A", "B"}
    unknown = set(data) - known
    if unknown:
        raise FileFormatError(f"{source}: unknown keys {sorted(unknown)}; allowed: "
                              f"{sorted(known)}")
    title = str(data.get("title", ""))
    names = {"players": _names(data.get("players"), source, "players"),
             "strategies": _strategy_names(data.get("strategies"), source), "title": title}
    try:
        if "payoffs" in data:
            place = _JsonPlace(text, source, "payoffs")
            raw = np.array(_map_numbers(data["payoffs"], place), dtype=object)
            if raw.ndim < 2 or raw.shape[-1] != raw.ndim - 1:
                raise FileFormatError(f"{source}: 'payoffs' must nest one level per player "
                                      f"and end in one payoff per player; shape {raw.shape}")
            return NormalFormGame(np.moveaxis(raw, -1, 0), **names)
        if "A" in data:
            a = np.array(_map_numbers(data["A"], _JsonPlace(text, source, "A")), dtype=object)
            if "B" in data:
                b = np.array(_map_numbers(data["B"], _JsonPlace(text, source, "B")), dtype=object)
                return NormalFormGame.bimatrix(a, b, **names)
            return NormalFormGame.zero_sum(a, **names)
    except GameSearchError as err:
        if isinstance(err, FileFormatError):
            raise
        raise FileFormatError(f"{source}: {err}") from None
    except ValueError as err:
        raise FileFormatError(f"{source}: ragged payoff lists ({err})") from None
    raise FileFormatError(f"{source}: give 'payoffs', or 'A' (and 'B')")


def _names(value: Any, source: str, key: str) -> list[str] | None:
    """A JSON list of names (strings or numbers), or None when absent."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        raise FileFormatError(f"{source}: '{key}' must be a list of names, got "
                              f"{_short(value)}")
    return [str(v) for v in value]


def _strategy_names(value: Any, source: str) -> list[list[str]] | None:
    """The JSON 'strategies': one list of names per player."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise FileFormatError(f"{source}: 'strategies' must hold one list of names per "
                              f"player, got {_short(value)}")
    return [_names(v, source, f"strategies[{k}]") or [] for k, v in enumerate(value)]


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _JsonPlace:
    """Where a value sits in a JSON file: the key, the list indices, and so its line."""

    def __init__(self, text: str, source: str, key: str, indices: tuple[int, ...] = ()) -> None:
        self.text, self.source, self.key, self.indices = text, source, key, indices

    def child(self, index: int) -> _JsonPlace:
        return _JsonPlace(self.text, self.source, self.key, (*self.indices, index))

    def line(self) -> int | None:
        """The line of the value, found by walking the text's brackets (None if lost)."""
        m = re.search(r'"' + re.escape(self.key) + r'"\s*:', self.text)
        if m is None:
            return None
        pos, text = m.end(), self.text
        try:
            for index in self.indices:
                pos = text.index("[", pos) + 1
                count, depth = 0, 0
                while count < index:
                    c = text[pos]
                    if c == '"':
                        pos = text.index('"', pos + 1)
                    elif c in "[{":
                        depth += 1
                    elif c in "]}":
                        depth -= 1
                    elif c == "," and depth == 0:
                        count += 1
                    pos += 1
            while text[pos] in " \t\r\n":
                pos += 1
        except (ValueError, IndexError):
            return None
        return text.count("\n", 0, pos) + 1

    def __str__(self) -> str:
        line = self.line()
        at = f"line {line}, " if line else ""
        return f"{self.source}: {at}{self.key}" + "".join(f"[{i}]" for i in self.indices)


def _map_numbers(value: Any, place: _JsonPlace) -> Any:
    if isinstance(value, list):
        if not value:
            raise FileFormatError(f"{place}: an empty list")
        kinds = {isinstance(v, list) for v in value}
        lengths = {len(v) for v in value if isinstance(v, list)}
        if len(kinds) > 1 or len(lengths) > 1:
            raise FileFormatError(f"{place}: ragged payoff lists (rows of lengths "
                                  f"{sorted(lengths)})")
        return [_map_numbers(v, place.child(k)) for k, v in enumerate(value)]
    return payoff_number(value, str(place))


def write_json(game: NormalFormGame) -> str:
    """The game in the JSON form (exact numbers as integers or "p/q" strings)."""
    from gamesearch.theory.exact import json_number

    source = game.exact_payoffs if game.exact else game.payoffs
    cells = np.moveaxis(source, 0, -1)

    def convert(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return [convert(x) for x in v]
        if isinstance(v, Fraction) and v.denominator == 1:
            return v.numerator
        return json_number(v)

    rows = ",\n  ".join(json.dumps(row) for row in convert(cells))
    return (f'{{"title": {json.dumps(game.title)},\n "players": {json.dumps(game.players)},\n'
            f' "strategies": {json.dumps(game.strategies)},\n "payoffs": [\n  {rows}]}}\n')


# --- CSV ----------------------------------------------------------------------------------
def read_csv(text: str, source: str = "game.csv") -> NormalFormGame:
    """A two-player game from the CSV form."""
    try:
        rows = [(k + 1, row) for k, row in enumerate(csv.reader(io.StringIO(text, newline="")))
                if any(cell.strip() for cell in row)]
    except csv.Error as err:
        raise FileFormatError(f"{source}: not valid CSV ({err})") from None
    if len(rows) < 2:
        raise FileFormatError(f"{source}: needs a header row and at least one strategy row")
    header_line, header = rows[0]
    columns = [c.strip() for c in header[1:]]
    if not columns:
        raise FileFormatError(f"{source}: line {header_line}: no column strategies")
    row_names, cells = [], []
    width = None
    for line, row in rows[1:]:
        if len(row) != len(columns) + 1:
            raise FileFormatError(f"{source}: line {line}: {len(row) - 1} cells, the header "
                                  f"has {len(columns)} columns")
        row_names.append(row[0].strip())
        parsed = []
        for k, cell in enumerate(row[1:]):
            parts = cell.replace(";", " ").split()
            where = f"{source}: line {line}, column {k + 2}"
            if width is None:
                width = len(parts)
            if len(parts) not in (1, 2) or len(parts) != width:
                raise FileFormatError(f"{where}: {cell!r} must hold {width or '1 or 2'} "
                                      "payoff(s)")
            parsed.append([parse_number(p, where) for p in parts])
        cells.append(parsed)
    names = {"strategies": [row_names, columns], "title": Path(source).stem}
    if width == 1:
        return NormalFormGame.zero_sum([[c[0] for c in r] for r in cells], **names)
    a = [[c[0] for c in r] for r in cells]
    b = [[c[1] for c in r] for r in cells]
    return NormalFormGame.bimatrix(a, b, **names)


def write_csv(game: NormalFormGame) -> str:
    """A two-player game in the CSV form."""
    if game.num_players != 2:
        raise GameSearchError("the CSV form holds two-player games only; use .nfg or JSON")
    source = game.exact_payoffs if game.exact else game.payoffs
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["", *game.strategies[1]])
    for i, name in enumerate(game.strategies[0]):
        writer.writerow([name, *(f"{_nfg_number(source[0, i, j])} {_nfg_number(source[1, i, j])}"
                                 for j in range(game.shape[1]))])
    return out.getvalue()


# --- files --------------------------------------------------------------------------------
def load_normal_form(path: str | Path) -> NormalFormGame:
    """A game from a .nfg, .json or .csv file (chosen by its extension, else its content)."""
    text = read_text(path, "game file")  # the name as given: "" is no name, not "."
    return parse_game(text, Path(path).name)


def parse_game(text: str, source: str) -> NormalFormGame:
    """A game from text in any of the three forms."""
    suffix = Path(source).suffix.lower()
    stripped = text.lstrip()
    if suffix == ".nfg" or stripped.startswith("NFG"):
        return read_nfg(text, source)
    if suffix == ".json" or stripped.startswith("{"):
        return read_json(text, source)
    if suffix == ".csv" or "," in stripped.split("\n", 1)[0]:
        return read_csv(text, source)
    raise FileFormatError(f"{source}: not a .nfg, .json or .csv game")


def save_normal_form(game: NormalFormGame, path: str | Path, outcomes: bool = False) -> None:
    """Write a game in the form its extension names (.nfg, .json, .csv), atomically."""
    path = Path(path)
    suffix = path.suffix.lower()
    writers = {".nfg": lambda: write_nfg(game, outcomes), ".json": lambda: write_json(game),
               ".csv": lambda: write_csv(game)}
    if suffix not in writers:
        raise GameSearchError(f"{path.name}: write .nfg, .json or .csv")
    atomic_write(path, writers[suffix]())  # all or nothing, also when killed
