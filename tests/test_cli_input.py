"""Issue 13, "bad input": every case listed there, run as a user runs it. Each must end
with exit status 2 and one line on stderr, within a second or so, never a traceback (an
uncaught exception fails the test), a hang or a huge allocation."""

from __future__ import annotations

import io
import json
import sys
import time

import pytest

from gamesearch.cli.main import main
from gamesearch.errors import SpecError
from gamesearch.spec import convert


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run the command line in-process: (exit status, stdout, stderr, seconds)."""
    def run(*args: str, stdin: str = "") -> tuple[int, str, str, float]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        began = time.perf_counter()
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        seconds = time.perf_counter() - began
        out, err = capsys.readouterr()
        return code, out, err, seconds
    return run


def refused(cli, *args: str, words: str, seconds: float = 10.0) -> str:
    """Assert the command is refused in one line containing ``words``; return that line.

    Each takes well under a second on an idle machine; the bound is generous because the
    test machines are shared, and what it must catch is a hang or a table being filled."""
    code, _, err, took = cli(*args)
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert words in lines[0], lines[0]
    assert took < seconds, f"{args}: {took:.1f} s"
    return lines[0]


# --- spec values -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("-1,2", (-1, 2)), ("3-4-5", (3, 4, 5)), ("3,4,5", (3, 4, 5)), ("1 -2", (1, -2)),
    ("1/2/3", (1, 2, 3)), ("-1,-2", (-1, -2)),
])
def test_tuple_values_keep_their_signs(text, expected):
    assert convert(text, tuple[int, ...], "piles") == expected


@pytest.mark.parametrize("text", ["⁴", "٣", "1e400", "inf", "nan", "1" * 5000, "", "0x10"])
def test_numbers_are_ascii_finite_and_short(text):
    with pytest.raises(SpecError):
        convert(text, float if "e" in text or text in ("inf", "nan") else int, "x")


# --- agent parameters ------------------------------------------------------------------------

@pytest.mark.parametrize("spec, words", [
    ("alphabeta:tt=0", "tt: 0 is out of range (give 2.."),
    ("alphabeta:depth=-3", "depth: -3 is out of range (give 1..1000)"),
    ("alphabeta:depth=100000000000000000000", "out of range"),
    ("mcts:time=0", "time: 0 is out of range (give > 0"),
    ("mcts:time=inf", "time: expected a number, got 'inf'"),
    ("alphabeta:depth=⁴", "expected a whole number"),
])
def test_agent_parameters_are_checked_against_their_ranges(cli, spec, words):
    refused(cli, "play", "tictactoe", "--player1", spec, "--player2", "random", words=words)


def test_kernel_mcts_simulations_must_be_positive(cli):
    refused(cli, "play", "connect4", "--player1", "kernel-mcts:simulations=-5", "--player2",
            "random", words="simulations: -5 is out of range")


@pytest.mark.parametrize("game, spec, words", [
    ("tictactoe", "pig-optimal", "plays pig only"),
    ("connect4", "ismcts", "for hidden-information games"),
])
def test_an_agent_that_does_not_fit_names_the_ones_that_do(cli, game, spec, words):
    line = refused(cli, "play", game, "--player1", spec, "--player2", "random", words=words)
    assert f"agents for {game}:" in line and "alphabeta" in line


# --- files -----------------------------------------------------------------------------------

def test_tree_json_nested_3000_deep(cli, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 3000 + "1" + "]" * 3000)
    refused(cli, "tree", str(path), words="nested more than 200 levels")


def test_legal_tree_700_deep_is_refused_cleanly_and_200_is_evaluated(cli, tmp_path):
    def chain(levels: int) -> str:
        text = "1"
        for i in range(levels):
            text = f"[{text},{i % 5}]"
        return text

    deep = tmp_path / "deep700.json"
    deep.write_text(chain(700))
    refused(cli, "tree", str(deep), words="nested 700 levels deep; the limit is 200")
    ok = tmp_path / "deep199.json"
    ok.write_text(chain(199))
    for algorithm in ("minimax", "alphabeta", "expectimax"):
        code, out, err, _ = cli("tree", str(ok), "-a", algorithm, "--json")
        assert code == 0, err
        # MAX at even levels takes the max of (subtree, i % 5); checked by a loop here.
        value = 1
        for level in range(199):
            i, maximizing = level, (199 - 1 - level) % 2 == 0
            value = max(value, i % 5) if maximizing else min(value, i % 5)
        assert json.loads(out)["value"] == value


def test_tree_leaf_with_an_empty_value_list(cli, tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"value": []}')
    refused(cli, "tree", str(path), words="one utility per player")


def test_tree_file_not_utf8_and_directory(cli, tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b"[1, 2, \xff]")
    refused(cli, "tree", str(path), words="not UTF-8 text (byte 0xff on line 1)")
    refused(cli, "tree", str(tmp_path), words="is a directory")
    refused(cli, "nash", str(tmp_path), words="is a directory")
    refused(cli, "nash", str(path), words="not UTF-8")


def test_json_integers_over_4300_digits(cli, tmp_path):
    tree = tmp_path / "big.json"
    tree.write_text("[" + "9" * 5000 + ", 1]")
    refused(cli, "tree", str(tree), words="an integer of 5,000 digits")
    game = tmp_path / "big_game.json"
    game.write_text('{"A": [[' + "9" * 5000 + ", 1]]}")
    refused(cli, "nash", str(game), words="an integer of 5,000 digits")
    nfg = tmp_path / "big.nfg"
    nfg.write_text('NFG 1 R "" { "A" "B" } { 1 1 } ' + "9" * 5000 + " 1\n")
    refused(cli, "nash", str(nfg), words="5,000 characters")


def test_nfg_declaring_a_billion_strategies_is_refused_before_allocating(cli, tmp_path):
    path = tmp_path / "bomb.nfg"
    path.write_text('NFG 1 R "" { "A" "B" } { 1000000000 2 }\n')
    assert len(path.read_bytes()) < 50
    refused(cli, "nash", str(path), words="1,000,000,000 profiles; the limit is 1,000,000")


def test_json_game_strategies_must_be_lists(cli, tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"strategies": 7, "payoffs": [[[1, 2]]]}')
    refused(cli, "nash", str(path), words="'strategies' must hold one list of names")


def _case(successors: str, evaluation: str, extra: str = "", depth: int = 1) -> str:
    return (f'alg: "MinimaxAgent"\ndepth: "{depth}"\nnum_agents: "2"\nstart_state: "s0"\n'
            f'successors: """\n{successors}\n"""\nevaluation: """\n{evaluation}\n"""\n{extra}')


def test_pacman_test_case_with_900_states(cli, tmp_path):
    path = tmp_path / "chain.test"
    path.write_text(_case("\n".join(f"s{i} a s{i + 1}" for i in range(899)), "s899 1",
                          depth=1000))
    refused(cli, "pacman", "tree", str(path), words="levels deep; the limit is 100")


def test_pacman_test_case_expected_value_not_a_number(cli, tmp_path):
    path = tmp_path / "abc.test"
    path.write_text(_case("s0 l s1", "s1 3", 'expected_value: "abc"\n'))
    refused(cli, "pacman", "tree", str(path), words="expected_value 'abc' is not a number")


# --- solve: sizes, options and limits --------------------------------------------------------

@pytest.fixture
def small_machine(monkeypatch):
    """Pretend the machine has 8 GiB, so the memory checks do not depend on the host."""
    import gamesearch.resources as resources

    monkeypatch.setattr(resources, "physical_memory", lambda: 8 << 30)


@pytest.mark.parametrize("args, words", [
    (("solve", "tictactoe", "--depth", "100000000000000000000"), "less than or equal to 1000"),
    (("solve", "tictactoe", "--time", "-1"), "--time"),
    (("solve", "nim", "--piles", "100000000000"), "piles: 100000000000 is out of range"),
    (("solve", "nim", "--position", "100000000000"), "over the limit 1000"),
    (("solve", "connect4", "--table", "abc"), "--table: expected a whole number, got 'abc'"),
    (("solve", "connect4", "--table", "40"), "--table: 40 is out of range (give 8..32)"),
    (("solve", "takeaway", "--max-take", "10000000000"), "max_take: 10000000000 is out of"),
])
def test_sizes_are_checked_before_anything_is_allocated(cli, args, words):
    refused(cli, *args, words=words)


def test_tables_say_what_memory_they_would_need(cli, small_machine):
    refused(cli, "solve", "pig", "--goal", "100000", words="solving pig to goal 100,000 "
            "would need")
    refused(cli, "solve", "connect4", "--table", "32",
            words="a Connect Four table of 2^32 slots would need 16.0 GiB of memory; this "
                  "machine allows 4.0 GiB")


def test_unknown_game_options_are_an_error_listing_the_known_ones(cli):
    line = refused(cli, "solve", "pig", "--gaol", "50", words="unknown option --gaol")
    assert "--goal INT" in line and "--tolerance FLOAT" in line
    refused(cli, "solve", "tictactoe", "--size", "4",
            words="unknown option --size; tictactoe takes: no options")
    refused(cli, "solve", "kuhn_poker", "--iterations", "0", words="--iterations: 0 is out")


def test_depth_and_time_are_refused_where_the_solver_ignores_them(cli):
    refused(cli, "solve", "connect4", "--time", "1", "--depth", "3",
            words="--depth and --time apply with --pure only")
    refused(cli, "solve", "whist", "--depth", "3", words="--depth does not apply")


def test_depth_is_honoured_by_the_pure_connect4_search(cli):
    code, out, err, _ = cli("solve", "connect4", "--pure", "--depth", "3", "--position",
                            "4444", "--json")
    assert code == 0, err
    assert json.loads(out)["stats"]["depth"] == 3


@pytest.mark.parametrize("position, words", [
    ("⁴⁴", "malformed move '⁴'"),
    ("1" * 10_000, "position of 10,000 moves: a 7x6 board holds 42"),
])
def test_connect4_positions(cli, position, words):
    line = refused(cli, "solve", "connect4", "--position", position, words=words)
    assert len(line) <= 310


def test_a_10000_digit_move_typed_in_play_is_explained_and_asked_again(cli):
    code, _, err, _ = cli("play", "connect4", "--player2", "random", "--seed", "1",
                          stdin="1" * 10_000 + "\n⁴\nquit\n")
    assert code == 0, err
    code, _, err, _ = cli("play", "nim", "--player2", "random",
                          stdin="1:" + "9" * 10_000 + "\nquit\n")
    assert code == 0, err


def test_long_messages_are_shortened_to_one_line():
    from gamesearch.cli.main import MAX_MESSAGE, one_line

    text = one_line("position " + "7" * 10_000 + "\nthe end")
    assert len(text) <= MAX_MESSAGE and "\n" not in text
    assert text.startswith("position 777") and text.endswith("the end")


# --- count and spe: --limit bounds the work ---------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("count", "pig", "--limit", "1000"), "a position repeats along a line of play"),
    (("count", "backgammon", "--limit", "1000"), "a position repeats along a line of play"),
    (("spe", "pig"), "a position repeats along a line of play"),
    (("count", "connect4", "--limit", "1000"), "more than 1,000 positions"),
    (("spe", "connect4", "--limit", "1000"), "more than 1,000 positions"),
])
def test_limit_bounds_count_and_spe(cli, args, words):
    refused(cli, *args, words=words)


def test_count_without_recursion_keeps_the_known_figures(cli):
    # Tic-tac-toe: 255,168 games, 549,946 tree nodes, 5,478 positions (Schaefer, "Tic-Tac-Toe
    # (Naughts and Crosses, Cheese and Crackers, etc.)", and OEIS A008907's total).
    code, out, err, _ = cli("count", "tictactoe", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["games"], data["nodes"], data["positions"]) == (255_168, 549_946, 5_478)


# --- what a terminal user expects --------------------------------------------------------------

def test_version(cli):
    from gamesearch import __version__

    code, out, _, _ = cli("--version")
    assert code == 0 and out.strip() == f"gamesearch {__version__}"


def test_agents_lists_parameters_ranges_defaults_and_games(cli):
    code, out, err, _ = cli("agents", "--json")
    assert code == 0, err
    agents = {row["agent"]: row for row in json.loads(out)["agents"]}
    tt = next(p for p in agents["alphabeta"]["parameters"] if p["name"] == "tt")
    assert tt == {"name": "tt", "type": "INT", "range": "2..67108864", "default": 262144}
    assert agents["pig-optimal"]["games"] == ["pig"]
    assert "connect4" not in agents["ismcts"]["games"] and "kuhn_poker" in agents["ismcts"]["games"]
    code, out, err, _ = cli("agents", "tictactoe", "--json")
    names = {row["agent"] for row in json.loads(out)["agents"]}
    assert "alphabeta" in names and "pig-optimal" not in names and "ismcts" not in names
    refused(cli, "agents", "mahjong", words="unknown game 'mahjong'")


def test_solve_help_lists_each_games_options_with_types(cli):
    code, out, _, _ = cli("solve", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "<bool>" not in out and "<int" not in out and "<str>" not in out
    assert "--piles INTS (0..1000, default 3,4,5)" in text
    assert "--goal INT (2..1000000000, default 100)" in text
    assert "--table INT (solve only, 8..32)" in text
    assert "--depth INT [1<=x<=1000]" in text


# --- more numbers that asked for endless work -----------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("perft", "tictactoe", "--depth", "100000000000000000000"), "less than or equal to 1000"),
    (("match", "tictactoe", "random", "random", "--games", "100000000000000000000"),
     "less than or equal to 10000000"),
    (("tree", "[[1,2],[3,4]]", "--depth", "-1"), "greater than or equal to 0"),
    (("solve", "pig", "--goal", "2", "--plot", "no-such-folder/x.png"),
     "cannot write picture 'no-such-folder/x.png'"),
])
def test_numbers_and_paths_that_asked_for_endless_work_or_failed_late(cli, args, words):
    refused(cli, *args, words=words)


def test_perft_stops_once_every_game_has_ended(cli):
    code, out, err, took = cli("perft", "tictactoe", "--depth", "1000", "--json")
    assert code == 0, err
    table = json.loads(out)["table"]
    # 255,168 games end by ply 9 at the latest: depth 10 has no sequences, and perft stops.
    assert [row["leaves"] for row in table][-2:] == [127_872, 0] and len(table) == 10


@pytest.mark.parametrize("content, words", [
    (b"4453 \xff\n", "not UTF-8 text (byte 0xff on line 1)"),
    ("4453 ⁴\n".encode(), "line 1: expected 'MOVES SCORE'"),
    (b"44 " + b"9" * 5000 + b"\n", "line 1: expected 'MOVES SCORE'"),
])
def test_connect4_benchmark_files(cli, tmp_path, content, words):
    path = tmp_path / "bench.txt"
    path.write_bytes(content)
    refused(cli, "solve", "connect4", "--batch", str(path), words=words)


def test_match_seeds_derived_for_agents_are_not_checked_as_typed(cli):
    # A match derives each agent's seed from --seed (seed * 1,000,003 + game): the agent
    # ranges bound what a person types, not these.
    code, out, err, _ = cli("match", "tictactoe", "random", "random", "--games", "2", "--seed",
                            "4294967295", "--json")
    assert code == 0, err
    refused(cli, "match", "tictactoe", "random", "random", "--seed", "-1", words="--seed")
    refused(cli, "match", "tictactoe", "random:seed=-1", "random", words="seed: -1 is out")


@pytest.mark.parametrize("failure, words", [
    (RecursionError, "deeper than Python's stack allows"),
    (MemoryError, "out of memory"),
])
def test_the_last_resort_for_stack_and_memory_is_one_line(cli, monkeypatch, failure, words):
    import importlib

    module = importlib.import_module("gamesearch.search.alphabeta")

    def fail(*args, **kwargs):
        raise failure()

    monkeypatch.setattr(module, "alphabeta", fail)
    refused(cli, "solve", "tictactoe", words=words)


def test_an_option_given_without_its_value_says_so(cli):
    refused(cli, "solve", "nim", "--piles", words="piles: needs a value (INTS)")
    refused(cli, "solve", "pig", "--tolerance", words="--tolerance: needs a value (FLOAT)")
    code, out, err, _ = cli("solve", "nim", "--piles", "2,2", "--misere", "--json")
    assert code == 0, err
    # Misère Nim with a pile above 1 is won by the mover iff the piles' XOR is non-zero
    # (Bouton 1901): 2 XOR 2 = 0, so the mover loses (the lectures' II-Nim).
    assert json.loads(out)["value"] == -1
