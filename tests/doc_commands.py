"""The ``gamesearch ...`` commands quoted in markdown, checked without running them.

A command is found in inline code or on a line of a fenced block (``$ `` prompts, ``\\``
continuations, ``&&`` chains, ``python -m gamesearch`` and ``nice``/``env`` prefixes
understood). It is parsed by the command line's own click tree (``make_context``: its
commands, options, types and ranges), and the specs it names are checked as the commands
check them: a game by :func:`gamesearch.games.check_game_spec`, an agent by
:func:`gamesearch.agents.check_agent_spec`, both without building anything. The options a
command reads at run time from the game's ENTRY (``solve connect4 --weak``: the solver's;
``analyze``: the analyzer's; everywhere: the game's parameters) are split and converted by
the command's own :func:`gamesearch.cli.game_options.split_options`.

A synopsis is checked too: an optional part (``[--weak]``) counts as given, each side of
``a|b`` is a command of its own, and a placeholder (``GAME``, ``FILE.efg``, ``N``, ``...``)
stands for any good value: a sample of the option's type takes its place, and no spec check
is made of it. A command named alone (``gamesearch solve``) or asking for help only has to
exist.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import itertools
import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer

try:  # Typer >= 0.2x parses with its own copy of click
    from typer._click.exceptions import BadParameter, ClickException, NoSuchOption
except ImportError:  # pragma: no cover - older Typer: click itself
    from click.exceptions import BadParameter, ClickException, NoSuchOption

Command = Any
"""A click command of the tree (Typer's copy of click or click's own)."""
PLACEHOLDER = re.compile(r"\.\.\.|[A-Z][A-Z0-9_]*(?:\.[a-z][\w.]*)?(?:\.\.\.)?")
"""A word that stands for a value: ``GAME``, ``FILE.efg``, ``N``, ``FILE...``, ``...``."""

OPERATORS = {"&&", "||", ";", "|", ">", ">>", "<", "2>", "2>&1", "&"}
"""Shell words that end one command (another may follow)."""

PREFIXES = {"nice", "time", "env", "sudo", "uv", "run"}
"""Words that may come before the command (``nice python -m gamesearch ...``)."""

GAME_METAVAR = "GAME"
"""Arguments whose metavar names a game take a game spec (or, where the command also reads
files, a file name: one with a suffix or a folder is not a spec)."""

AGENT_PARAMS = {"player1", "player2", "spec_a", "spec_b", "players", "gauntlet", "agent"}
"""Parameters that take agent specs (``--player2 mcts:iterations=2000``)."""

PACMAN_PARAMS = {"pacman": "pacman", "ghosts": "ghosts"}
"""``gamesearch pacman``'s short specs (``--ghosts directional``), read by its own
readers."""

QUOTED_CODE = re.compile(r"`([^`]*)`")
"""Inline code (it may go on to the next line)."""
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INDENTED = re.compile(r"(?:^(?: {4}|\t).*\n?)+", re.M)
"""An indented code block (or a list's indented paragraph: only its commands count)."""


def placeholder(word: str) -> bool:
    return bool(PLACEHOLDER.fullmatch(word))


def _words(text: str) -> list[str]:
    """Shell words with their quotes kept (``'[[3,12,8]]'`` is a quoted word, ``[--weak]``
    an optional part); a ``#`` word starts a comment."""
    lexer = shlex.shlex(text, posix=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _quoted(word: str) -> bool:
    return len(word) >= 2 and word[0] == word[-1] and word[0] in "'\""


def commands_in(text: str) -> list[str]:
    """The ``gamesearch`` commands of one line of shell (continuations joined), each as the
    text after ``gamesearch``; a quoted word holding a command is searched too."""
    try:
        words = _words(text)
    except ValueError:  # an unclosed quote: a command quoted inside prose's quotes
        cut = max(text.rfind('"'), text.rfind("'"))
        return commands_in(text[:cut]) if cut > 0 else []
    found: list[str] = []
    segment: list[str] = []
    for word in [*words, "&&"]:
        if word not in OPERATORS:
            segment.append(word)
            continue
        found += _command_of(segment)
        segment = []
    for word in words:
        if _quoted(word) and "gamesearch" in word and not word[1:].startswith("gamesearch"):
            found += commands_in(_unquote(word))
    return found


def _command_of(words: list[str]) -> list[str]:
    """The command in one segment of shell words: ``gamesearch ...`` or ``python -m
    gamesearch ...`` after any prefixes and ``NAME=value`` assignments."""
    i = 0
    while i < len(words) and (words[i] in PREFIXES or re.fullmatch(r"\w+=\S*", words[i])):
        i += 1
    rest = words[i:]
    if rest[:1] == ["gamesearch"]:
        return [" ".join(rest[1:])]
    if len(rest) >= 3 and re.fullmatch(r"python3?", rest[0]) and rest[1:3] == ["-m",
                                                                              "gamesearch"]:
        return [" ".join(rest[3:])]
    return []


def quoted_commands(text: str) -> list[str]:
    """The ``gamesearch ...`` commands quoted in markdown (lines of fenced or indented code
    blocks, inline code), each written as ``gamesearch`` and its words."""
    found = []
    prose = FENCE.sub("", text)
    for span in QUOTED_CODE.findall(prose):
        if "gamesearch" in span and "\n\n" not in span:
            found += commands_in(" ".join(span.split()))
    for block in [*(m.group(0) for m in FENCE.finditer(text)), *INDENTED.findall(prose)]:
        for line in re.sub(r"\\\n", " ", block).splitlines():
            found += commands_in(re.sub(r"^\s*\$\s+", "", line))
    return ["gamesearch " + c if c else "gamesearch" for c in found]


def variants(line: str) -> list[list[str]]:
    """The word lists a quoted command (or synopsis) stands for: optional parts given,
    ``a|b`` expanded into one list per choice (at most 16), quotes removed."""
    choices: list[list[str]] = []
    for word in _words(line)[1:]:
        if _quoted(word):
            choices.append([_unquote(word)])
            continue
        bare = word.strip("[]")
        if bare != word and ("[" in bare or "]" in bare or not bare):
            bare = word  # a list (``[[3,12],[2,4]]``), not an optional part
        choices.append(bare.split("|") if "|" in bare else [bare])
    return [list(words) for words in itertools.islice(itertools.product(*choices), 16)]


def command_tree() -> Command:
    """The command line's click tree, every command module loaded."""
    from gamesearch.cli.main import _load_commands, app

    _load_commands(None)
    return typer.main.get_command(app)


def check_command(root: Command, line: str) -> str | None:
    """Why a quoted ``gamesearch ...`` command would be refused (an unknown command,
    option, value, game or agent), or None. Nothing runs."""
    commands = commands_in(line)
    if not commands:
        return f"{line!r}: no gamesearch command"
    for words in (w for command in commands for w in variants("gamesearch " + command)):
        why = _check_words(root, words)
        if why is not None:
            return f"{line!r}: {why}"
    return None


def _check_words(root: Command, words: list[str]) -> str | None:
    from gamesearch.cli.main import ALIASES
    from gamesearch.errors import GameSearchError

    if len(words) >= 2 and (words[0], words[1].lower()) in ALIASES:
        words = ALIASES[(words[0], words[1].lower())] + words[2:]
    command, path = root, ["gamesearch"]
    while hasattr(command, "commands") and words and not words[0].startswith("-"):
        if placeholder(words[0]):
            return None  # ``gamesearch COMMAND --help``: a synopsis of the group
        sub = command.commands.get(words[0])
        if sub is None:
            return f"{' '.join(path)} has no command {words[0]!r}"
        command, path = sub, [*path, words.pop(0)]
    if not words or "--help" in words:
        return None  # the command named, or its help asked for
    words = [w for w in _fill_options(command, words) if w != "..."]  # "and so on"
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # --version says its number
            ctx = command.make_context(" ".join(path), list(words))
    except typer.Exit:  # --version
        return None
    except NoSuchOption as err:
        return f"{' '.join(path)} has no option {err.option_name}"
    except ClickException as err:
        return f"{' '.join(path)}: {err.format_message()}"
    try:
        return _check_specs(path[1:], ctx)
    except GameSearchError as err:
        return str(err)


def _fill_options(command: Command, words: list[str]) -> list[str]:
    """The words with each placeholder given to an option of the command (``--pieces N``)
    replaced by a good value of the option's type."""
    options = {name: p for p in command.params if p.param_type_name == "option"
               for name in p.opts}
    out = list(words)
    for i in range(1, len(out)):
        option = options.get(out[i - 1])
        if option is not None and not option.is_flag and placeholder(out[i]):
            low = getattr(option, "min", getattr(getattr(option, "type", None), "min", None))
            out[i] = _sample(lambda v, o=option: _convert(o, v), low)
    return out


def _convert(param: Any, value: str) -> Any:
    """A command-line value as the parameter reads it (Typer's coercion, or click's type)."""
    if hasattr(param, "get_runtime_param"):  # Typer >= 0.2x
        return param.get_runtime_param().coerce(value, param=param, ctx=None)
    return param.type.convert(value, param, None)


def _sample(read: Callable[[str], Any], low: Any = None) -> str:
    """A value ``read`` accepts: the type's least, or a small number, a flag's word, a
    name."""
    from gamesearch.errors import GameSearchError

    for value in ([str(low)] if low is not None else []) + ["1", "2", "4", "0.5", "true", "x"]:
        try:
            read(value)
            return value
        except (BadParameter, GameSearchError, ValueError):
            continue
    return "x"


def _check_specs(command: list[str], ctx: Any) -> str | None:
    """The game and agent specs of a parsed command, and the options its game's entry
    accepts, checked as the command checks them."""
    from gamesearch.games import check_game_spec

    game = None
    for param in ctx.command.params:
        values = ctx.params.get(param.name)
        values = values if isinstance(values, (list, tuple)) else [values]
        for value in [v for v in values if isinstance(v, str) and not placeholder(v)]:
            if GAME_METAVAR in (param.metavar or "") and not _file_name(value):
                value = _filled(value, check_game_spec)
                game = (value, check_game_spec(value))
            elif param.name in AGENT_PARAMS and command[0] != "pacman":
                _check_agent(value, game[1] if game else None)
            elif param.name in PACMAN_PARAMS and command[0] == "pacman":
                _check_pacman(PACMAN_PARAMS[param.name], value)
    _check_offered(command, game)
    if not ctx.allow_extra_args:  # the commands that take a game's options
        return None
    if game is not None:
        return _check_entry_options(command[-1], ctx, *game)
    return _check_any_game_options(command[-1], ctx)


def _check_any_game_options(command: str, ctx: Any) -> str | None:
    """The options after a game's placeholder (``solve GAME --plot FILE``): each an option
    of some game."""
    from gamesearch.cli.common import extra_params
    from gamesearch.cli.game_options import game_parameters
    from gamesearch.games import entries

    known = {name for entry in entries() for name in
             [*game_parameters(entry), *(entry.solver_options if command == "solve" else
                                         entry.analyzer.options if command == "analyze"
                                         and entry.analyzer else {})]}
    unknown = [k for k in extra_params(ctx) if k not in known]
    if unknown:
        return (f"gamesearch {command} has no option --{unknown[0].replace('_', '-')} "
                "(nor has any game)")
    return None


OFFERS = {"analyze": ("analyzer", "analyzer"), "book": ("book", "opening book"),
          "tables": ("tables", "endgame tables")}
"""Commands for the games whose entry offers something: the field, in words."""


def _check_offered(command: list[str], game: tuple[str, Any] | None) -> None:
    """The game offers what the command needs: ``train METHOD`` a trainer of that name (or,
    with no game named, one game does; a method no game declares takes any game),
    ``analyze`` an analyzer, ``book`` a book maker,
    ``tables`` endgame tables."""
    from gamesearch.cli.train_group import trainer_for
    from gamesearch.errors import GameSearchError
    from gamesearch.games import entries
    from gamesearch.spec import parse_spec

    methods = {method for entry in entries() for method in entry.trainers}
    if command[0] == "train" and command[-1] in methods:  # cfr trains any game it fits
        trainer_for(command[1], parse_spec(game[0])[0] if game else None)
    elif game is not None and command[0] in OFFERS:
        field, what = OFFERS[command[0]]
        if getattr(game[1], field) is None:
            raise GameSearchError(f"{command[0]} {game[1].name}: it has no {what}")


def _file_name(value: str) -> bool:
    return "/" in value or bool(re.search(r"\.[A-Za-z]\w*$", value))


def _filled(spec: str, check: Callable[[str], Any]) -> str:
    """The spec with each placeholder value (``playouts=N``) replaced by one ``check``
    accepts (the others as they are)."""
    from gamesearch.spec import parse_spec

    name, params = parse_spec(spec)
    for key, value in params.items():
        if placeholder(value):
            params[key] = _sample(lambda v, k=key: check(_spec(name, {**params, k: v})))
    return _spec(name, params) if params else spec


def _spec(name: str, params: dict[str, str]) -> str:
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())


def _check_agent(spec: str, entry: Any) -> None:
    from gamesearch.agents import AGENTS, check_agent_spec
    from gamesearch.errors import SpecError
    from gamesearch.spec import parse_spec

    check_agent_spec(_filled(spec, check_agent_spec))
    games = AGENTS[parse_spec(spec)[0]].needs.games
    if entry is not None and games and entry.name not in games:
        raise SpecError(f"agent {spec!r} plays {', '.join(games)} only, not {entry.name}")


def _check_pacman(role: str, spec: str) -> None:
    from gamesearch.engines.pacman.agents import ghost_agents, pacman_agent

    if role == "pacman":
        pacman_agent(spec)
    else:
        ghost_agents(spec, 1)


def _check_entry_options(command: str, ctx: Any, spec: str, entry: Any) -> str | None:
    """The options after the game (``--piles 3,4,5``, ``--weak``): each a parameter of the
    game or an option the command takes from the game's entry, with a good value."""
    from gamesearch.cli.common import extra_params
    from gamesearch.cli.game_options import game_parameters, split_options, split_solve_options
    from gamesearch.games import check_game_spec
    from gamesearch.spec import parse_spec

    declared = (entry.solver_options if command == "solve"
                else entry.analyzer.options if command == "analyze" and entry.analyzer
                else {})
    given = extra_params(ctx)
    unknown = [k for k in given if k not in game_parameters(entry) and k not in declared]
    if unknown:
        return (f"gamesearch {command} has no option --{unknown[0].replace('_', '-')} "
                f"(nor has {entry.name})")
    for key, value in given.items():
        if placeholder(value):
            read = ((lambda v, o=declared[key], k=key: o.read(v, k)) if key in declared
                    else (lambda v, k=key: check_game_spec(spec, **{k: v})))
            given[key] = _sample(read)
    given = {**parse_spec(spec)[1], **given}
    if command == "solve":
        params, _ = split_solve_options(entry, given, ctx.params.get("depth"),
                                        ctx.params.get("time"))
    else:
        params, _ = split_options(entry, given, command, declared)
    check_game_spec(entry.name, **params)
    return None


ENTRY_POINTS = re.compile(r'^\[project\.entry-points\."gamesearch\.games"\]\n(.*?)(?:^\[|\Z)',
                          re.M | re.S)


@functools.cache
def _example_entries(examples: Path) -> tuple[Any, ...]:
    """The ENTRY of each example package's game in ``examples``, each loaded once from its
    file (the package never goes on ``sys.path``)."""
    found = []
    for project in sorted(examples.glob("*/pyproject.toml")):
        section = ENTRY_POINTS.search(project.read_text(encoding="utf-8"))
        for name, module_name, attribute in re.findall(
                r'^(\w+)\s*=\s*"([\w.]+):(\w+)"', section.group(1) if section else "", re.M):
            path = project.parent.joinpath("src", *module_name.split(".")).with_suffix(".py")
            spec = importlib.util.spec_from_file_location(f"_doc_example_{name}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            found.append(getattr(module, attribute))
    return tuple(found)


@contextlib.contextmanager
def example_games(examples: Path) -> Iterator[list[str]]:
    """The games of the example packages in ``examples`` (``gamesearch-bachet``) registered
    as if installed, for the duration only: the docs quote them as a reader who installed
    one would type them. The registries are as they were afterwards."""
    from gamesearch.agents import AGENTS
    from gamesearch.catalog.entries import add
    from gamesearch.games import REGISTRY, entries

    entries()  # the built-in and installed games first
    games, agents = dict(REGISTRY), dict(AGENTS)
    try:
        new = [entry for entry in _example_entries(examples) if entry.name not in REGISTRY]
        add(new)
        yield [entry.name for entry in new]
    finally:
        REGISTRY.clear()
        REGISTRY.update(games)
        AGENTS.clear()
        AGENTS.update(agents)
