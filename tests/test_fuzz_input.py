"""Property-based fuzzing of every input parser and of the command line (issue 13).

Each parser, given any text, either returns a value or raises a :class:`GameSearchError`
(one clear line for the CLI); the command line, given any arguments drawn from its own
vocabulary and from junk, ends with exit status 0, 1 or 2 and, on 2, one ``error:`` line,
never a traceback (an uncaught exception fails the test).

The default profile runs in well under 30 s; ``GAMESEARCH_FUZZ=long`` runs many more
examples (minutes) before a release.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError

LONG = os.environ.get("GAMESEARCH_FUZZ") == "long"
FAST = settings(max_examples=4000 if LONG else 60, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.function_scoped_fixture])
CLI = settings(FAST, max_examples=2000 if LONG else 40)

# Text that looks like what parsers expect, mixed with what breaks them: superscript and
# other scripts' digits, huge numbers, brackets, quotes, control characters.
NASTY = st.sampled_from(["⁴", "٣", "1" * 5000, "-1", "1e400", "nan", "inf", "0", "", " ",
                         "{", "}", "[", "]", '"', "\\", "\x00", "\xff", "💥", ":", ",", "=",
                         "/", "-", "--", "bar", "off", "pass", "1/2", "1:2", "13/7", "999",
                         "4" * 50, "\n", "\t", "é"])
TEXT = st.one_of(st.text(max_size=40), st.lists(NASTY, max_size=8).map("".join),
                 st.lists(st.one_of(NASTY, st.text(alphabet="0123456789 ,-:/", max_size=6)),
                          max_size=6).map(" ".join))


def accepted_or_refused(parse, *args) -> None:
    """``parse(*args)`` returns, or raises a GameSearchError with a message."""
    try:
        parse(*args)
    except GameSearchError as err:
        assert str(err).strip(), f"{parse.__qualname__}: an empty message"


# --- positions and moves of every game ----------------------------------------------------------


@pytest.fixture(scope="module")
def games():
    from gamesearch.games import REGISTRY, load_game

    return [load_game(name) for name in REGISTRY]


@FAST
@given(text=TEXT)
def test_positions_of_every_game(games, text):
    for game in games:
        accepted_or_refused(game.state_from_string, text)


@pytest.fixture(scope="module")
def positions(games):
    """For every game, a few positions along a seeded random play-out: the first where a
    player moves (after the deal or the dice), and some later ones."""
    import random

    rng = random.Random(13)
    found = []
    for game in games:
        state, kept = game.initial_state(), 0
        for ply in range(40):
            if game.is_terminal(state):
                break
            if game.to_move(state) >= 0 and (kept == 0 or ply % 7 == 0):
                found.append((game, state))
                kept += 1
            state = game.result(state, rng.choice(list(game.actions(state))))
    return found


@FAST
@given(text=TEXT)
def test_moves_of_every_game(positions, text):
    for game, state in positions:
        accepted_or_refused(game.string_to_action, state, text)


# --- specs: agents and games --------------------------------------------------------------------

KEYS = st.sampled_from(["depth", "time", "tt", "iterations", "simulations", "samples", "c",
                        "seed", "pvs", "pure", "weak", "chase", "kind", "pruning", "piles",
                        "goal", "width", "height", "suits", "ranks", "players", "sticks",
                        "max_take", "misere", "layout", "max_moves", "colour"])
VALUES = st.one_of(NASTY, st.integers(-10**25, 10**25).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(str),
                   st.sampled_from(["true", "false", "none", "3-4-5", "-1,2", "1 -2", "small"]))


def spec_text(names: list[str]) -> st.SearchStrategy[str]:
    pairs = st.lists(st.tuples(KEYS, VALUES).map(lambda kv: f"{kv[0]}={kv[1]}"), max_size=3)
    return st.one_of(
        st.tuples(st.sampled_from(names), pairs).map(lambda t: f"{t[0]}:{','.join(t[1])}"),
        st.tuples(st.sampled_from(names), pairs).map(lambda t: f"{t[0]}({','.join(t[1])})"),
        TEXT,
    )


AGENT_NAMES = ["alphabeta", "minimax", "mcts", "kernel-mcts", "expectiminimax", "gammon",
               "pimc", "ismcts", "random", "ghost", "pacman", "solver", "maxn", "oracle"]
GAME_NAMES = ["tictactoe", "nim", "connect4", "takeaway", "pig", "whist", "tree", "chess"]


@FAST
@given(spec=spec_text(AGENT_NAMES))
def test_agent_specs(spec):
    from gamesearch.agents import make_agent

    accepted_or_refused(make_agent, spec)


@FAST
@given(spec=spec_text(GAME_NAMES))
def test_game_specs(spec):
    from gamesearch.games import load_game

    if "layout" in spec or "file" in spec:
        return  # these name files: the pacman and tree parsers are fuzzed below
    accepted_or_refused(load_game, spec)


@FAST
@given(value=VALUES, kind=st.sampled_from([int, float, bool, str, tuple[int, ...],
                                           int | None, float | None]))
def test_spec_values(value, kind):
    from gamesearch.spec import convert

    accepted_or_refused(convert, value, kind, "x")


# --- files: tree JSON, normal-form games, Pacman test cases -------------------------------------

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["name", "player", "children", "value", "eval",
                                         "action", "probability", "root", "A", "B",
                                         "payoffs", "players", "strategies", "title"]),
                        inner, max_size=4)),
    max_leaves=20)
JSON_TEXT = st.one_of(JSON_VALUES.map(json.dumps), TEXT,
                      st.integers(1, 400).map(lambda n: "[" * n + "1" + "]" * n))


@FAST
@given(text=JSON_TEXT)
def test_tree_json(text):
    from gamesearch.games.tree import TreeGame

    accepted_or_refused(TreeGame.from_json, text, "fuzz.json")


@FAST
@given(text=st.one_of(JSON_TEXT, TEXT.map(lambda t: 'NFG 1 R "" { "A" "B" } ' + t),
                      TEXT.map(lambda t: ",L,R\nU," + t)),
       suffix=st.sampled_from([".nfg", ".json", ".csv", ".txt"]))
def test_normal_form_files(text, suffix):
    from gamesearch.theory.formats import parse_game

    accepted_or_refused(parse_game, text, "fuzz" + suffix)


CASE_LINES = st.sampled_from([
    'alg: "MinimaxAgent"', 'alg: "AlphaBetaAgent"', 'alg: "Deep"', 'depth: "2"', 'depth: "⁴"',
    'num_agents: "2"', 'num_agents: "0"', 'start_state: "A"', 'successors: """',
    'evaluation: """', '"""', "A l B", "A r C", "B 3", "C 5", "B x", 'expected_value: "abc"',
    'expected_value: "nan"', 'win_states: "B"', "# a comment", 'key "no colon"'])


@FAST
@given(lines=st.lists(st.one_of(CASE_LINES, TEXT), max_size=14))
def test_pacman_test_cases(lines):
    from gamesearch.engines.pacman.course_trees import parse_case

    def parse_and_run(text: str) -> None:
        parse_case(text, "fuzz.test").run()

    accepted_or_refused(parse_and_run, "\n".join(lines))


BENCHMARK_LINES = st.one_of(st.sampled_from(["4453 -2", "4 0", "44 ⁴", "", "1" * 60 + " 1",
                                              "12 3 4", "x 1", "4453"]), TEXT)


@FAST
@given(lines=st.lists(BENCHMARK_LINES, max_size=6))
def test_connect4_benchmark_files(tmp_path_factory, lines):
    from gamesearch.engines.connect4.solve import read_benchmark

    path = tmp_path_factory.mktemp("bench") / "b.txt"
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    accepted_or_refused(read_benchmark, str(path))


# --- the command line ---------------------------------------------------------------------------

def _tree_file(tmp: str) -> str:
    path = os.path.join(tmp, "t.json")
    with open(path, "w") as f:
        f.write("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    return path


COMMANDS = [
    ["solve", "tictactoe"], ["solve", "nim"], ["solve", "pig"], ["solve", "connect4"],
    ["solve", "kuhn_poker"], ["solve", "takeaway"], ["count", "tictactoe"], ["count", "pig"],
    ["count", "nim"], ["perft", "tictactoe"], ["perft", "nim"], ["spe", "nim:piles=1-2"],
    ["spe", "pig"], ["tree", "TREE"], ["tree", "[[1,2],[3]]"], ["nash", "DIR"],
    ["play", "tictactoe"], ["play", "nim"], ["agents"], ["agents", "pig"], ["games"],
    ["match", "tictactoe", "random", "random", "--games", "2"], ["match", "nim", "random"],
    ["dominance", "DIR"], ["normal-form", "TREE"], ["chess"], [],
]
OPTIONS = st.sampled_from([
    "--depth", "--time", "--position", "-p", "--json", "--limit", "--piles", "--goal",
    "--gaol", "--table", "--weak", "--misere", "--player1", "--player2", "--seed", "--pure",
    "--algorithm", "-a", "--iterations", "--sticks", "--max-take", "--help", "--version",
    "--method", "--pv", "--tolerance", "--games", "-n", "--iterated", "--mixed"])
ARG_VALUES = st.one_of(
    NASTY, st.sampled_from(["1", "2", "3", "-3", "0", "1,2", "3-4", "11", "5", "random",
                            "alphabeta:depth=2", "alphabeta:tt=0", "minimax", "ismcts",
                            "pig-optimal", "expectimax", "cfr", "support", "100000"]),
    st.text(max_size=8))

# Values that would ask for long (if honest) work: a user asking for them gets the work, with
# progress and Ctrl-C; the fuzz keeps to arguments that answer at once.
LONG_WORK = {("solve", "pig"): {"--goal"}, ("solve", "connect4"): {"--pure", "--table"},
             ("perft", "tictactoe"): {"--depth"}, ("perft", "nim"): {"--depth", "--piles"},
             ("solve", "nim"): {"--piles", "--position", "-p"},
             ("count", "nim"): {"--piles", "--position", "-p"},
             ("solve", "kuhn_poker"): {"--iterations"}, ("solve", "takeaway"): {"--sticks"}}


@pytest.fixture
def cli(cli, tmp_path):
    """conftest's command line, with ``TREE`` (a tree file) and ``DIR`` (a folder) in the
    arguments replaced, and a person who types ``quit``."""
    tree = _tree_file(str(tmp_path))

    def run(args: list[str]) -> tuple[int, str, str]:
        args = [tree if a == "TREE" else str(tmp_path) if a == "DIR" else a for a in args]
        return cli(*args, stdin="quit\n")
    return run


def _real_work(value: str) -> bool:
    """A depth or limit from 4 to 1000: accepted, and then honoured (which takes time)."""
    text = value.strip()
    return text.isascii() and text.isdigit() and len(text) <= 4 and 3 < int(text) <= 1000


@CLI
@given(command=st.sampled_from(COMMANDS),
       extra=st.lists(st.tuples(OPTIONS, ARG_VALUES), max_size=3))
def test_command_line(cli, command, extra):
    long_work = LONG_WORK.get(tuple(command[:2]), set())
    args = list(command)
    for option, value in extra:
        if option in long_work or option in ("--depth", "--limit", "--games", "-n") \
                and _real_work(value):
            continue
        args += [option, value]
    if args[:2] in (["solve", "pig"], ["solve", "connect4"], ["solve", "kuhn_poker"]):
        args += ["--help"]  # the solvers run seconds: check parsing up to the help
    if args[:1] in (["count"], ["spe"]) and "--limit" not in args:
        args += ["--limit", "2000"]
    if args[:1] == ["perft"] and "--depth" not in args:
        args += ["--depth", "2"]
    code, _, err = cli(args)
    assert code in (0, 1, 2, 130), (args, code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)


# --- special files as inputs and outputs (issue 39) ----------------------------------------

def _read_openings(path: str) -> object:
    from gamesearch.arena.schedule import read_openings
    from gamesearch.games import load_game

    game = load_game("tictactoe")
    return read_openings(game, path, game.initial_state())


def _special_readers() -> dict:
    """Every kind of reader of user files, by name."""
    from gamesearch.engines.connect4.book import OpeningBook
    from gamesearch.games.tree import TreeGame
    from gamesearch.learn.checkpoint import load_checkpoint
    from gamesearch.textinput import read_text
    from gamesearch.theory.efg import load_efg
    from gamesearch.theory.formats import load_normal_form

    return {"tree": TreeGame.from_file, "normal form": load_normal_form, "efg": load_efg,
            "openings": _read_openings, "book": OpeningBook.load,
            "checkpoint": lambda p: load_checkpoint(p, "alphazero"), "text": read_text}


SPECIAL_READERS = ["tree", "normal form", "efg", "openings", "book", "checkpoint", "text"]


@settings(FAST, max_examples=200 if LONG else 25)
@given(reader=st.sampled_from(SPECIAL_READERS),
       kind=st.sampled_from(["fifo", "socket", "dir", "dangling link", "link to fifo",
                             "link to dir"]),
       writer=st.sampled_from(["atomic_write", "check_output", "check_output --force",
                               "line log"]))
def test_special_files_are_refused_by_every_reader_and_writer(tmp_path_factory, reader, kind,
                                                              writer):
    """Any reader given a pipe, socket, folder or link to one answers at once with one
    GameSearchError (a pipe would block a reader that opens it; the test's pipe has no
    writer, so a regression hangs the run rather than passing); any writer refuses it and
    leaves it as it was."""
    import socket
    import stat

    from gamesearch.durable import LineLog, atomic_write, check_output

    folder = tmp_path_factory.mktemp("special")
    path = folder / "f"
    keep = None
    if kind in ("fifo", "link to fifo"):
        os.mkfifo(folder / "pipe")
    if kind == "socket":
        keep = socket.socket(socket.AF_UNIX)
        keep.bind(str(path))
    if kind in ("dir", "link to dir"):
        (folder / "d").mkdir()
    target = {"fifo": "pipe", "dangling link": "missing", "link to fifo": "pipe",
              "link to dir": "d", "dir": "d"}.get(kind)
    if kind == "fifo" or kind == "dir":
        path = folder / target
    elif target is not None:
        path.symlink_to(target)
    before = os.lstat(path).st_mode
    try:
        with pytest.raises(GameSearchError) as refused:
            _special_readers()[reader](str(path))
        assert str(refused.value).strip() and "\n" not in str(refused.value)
        writes = {"atomic_write": lambda: atomic_write(path, b"x"),
                  "check_output": lambda: check_output(path, lambda p: True),
                  "check_output --force": lambda: check_output(path, None, force=True),
                  "line log": lambda: LineLog(path, "{}", lambda line: True, force=True)}
        with pytest.raises(GameSearchError):
            writes[writer]()
        assert os.lstat(path).st_mode == before, stat.filemode(os.lstat(path).st_mode)
    finally:
        if keep is not None:
            keep.close()


# --- long argument text, huge numbers, options in conflict (issue 39) ---------------------------

FILE_COMMANDS = [["tree"], ["normal-form"], ["spe"], ["sequence-form"], ["efg"], ["nash"],
                 ["dominance"], ["qre"], ["efg", "--json"], ["nash", "--json"]]
LONG_TEXT = st.one_of(st.text(min_size=256, max_size=600),
                      st.sampled_from(["a" * 300, "a" * 300 + ".efg", "a" * 300 + ".json",
                                       "d/" * 200 + "x.nfg", "\udcff" * 300]))
HUGE = st.sampled_from(["1" * 45, "9" * 120, "-" + "9" * 45, "1e400", "nan", "inf"])


@CLI
@given(command=st.sampled_from(FILE_COMMANDS), name=LONG_TEXT)
def test_long_file_names_are_one_line(cli, command, name):
    code, _, err = cli([*command, name])
    assert code == 2, (command, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (command, err)


@CLI
@given(args=st.sampled_from([
    ["train", "cfr", "kuhn_poker", "--iterations"], ["train", "cfr", "kuhn_poker", "--total"],
    ["perft", "tictactoe", "--depth"], ["solve", "nim", "--nodes"],
    ["perft", "pig", "--depth", "1000", "--time"], ["spe", "nim", "--limit"],
    ["solve", "nim", "--depth"]]), value=HUGE)
def test_huge_numbers_are_refused_in_one_line(cli, tmp_path, args, value):
    extra = ["--out", str(tmp_path / "run")] if args[0] == "train" else []
    code, _, err = cli([*args, value, *extra])
    assert code == 2, (args, value, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)
