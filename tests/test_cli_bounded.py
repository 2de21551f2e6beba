"""Bounded work and one-line refusals (issue 39): every command estimates its work before it
starts and refuses what it cannot finish, saying what it would need, or runs under a limit it
prints; odd argument text is one line and exit status 2, never a traceback."""

from __future__ import annotations

import json

import pytest

LONG_NAME = "a" * 300


def one_line_error(code: int, err: str) -> str:
    """The single ``error:`` line of a refusal (exit status 2)."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    return lines[0]


# --- argument text ------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["tree", "normal-form", "spe", "sequence-form", "efg",
                                     "nash", "dominance", "qre"])
@pytest.mark.parametrize("suffix", ["", ".json", ".efg"])
def test_a_file_name_too_long_is_one_line(cli, command, suffix):
    line = one_line_error(*cli(command, LONG_NAME + suffix)[::2])
    assert "too long" in line and len(line) < 200


def test_an_empty_file_name_is_not_the_current_folder(cli):
    for command in ("tree", "nash"):
        line = one_line_error(*cli(command, "")[::2])
        assert "'.'" not in line and "empty" in line


def test_serve_host_that_no_host_name_encodes(cli):
    line = one_line_error(*cli("serve", "--host", "a\udcffb")[::2])
    assert "--host" in line


# --- bounded work -------------------------------------------------------------------------

@pytest.mark.timeout(120)  # unbounded before: hours, or gigabytes (6.5 GB at 5-5)
@pytest.mark.parametrize("game", ["nim:piles=5-5", "connect4", "nim:piles=1000-1000",
                                  "tictactoe"])
@pytest.mark.parametrize("reduced", [[], ["--reduced"]])
def test_normal_form_refuses_a_tree_too_large_at_once(cli, game, reduced):
    line = one_line_error(*cli("normal-form", game, *reduced)[::2])
    assert "strategies" in line or "too large" in line or "cells" in line


def test_normal_form_still_builds_a_small_tree(cli):
    code, out, _ = cli("normal-form", "nim:piles=2-2", "--json")
    data = json.loads(out)
    assert code == 0 and [len(s) for s in data["strategies"]] == [32, 36]


def test_normal_form_counts_plans_exactly_past_numpy_integers():
    from gamesearch.games import load_game
    from gamesearch.theory.extensive import full_plans

    with pytest.raises(Exception, match="10\\^20 pure strategies"):
        full_plans(load_game("nim:piles=5-5"), load_game("nim:piles=5-5").initial_state(), 0)


@pytest.mark.timeout(120)
def test_spe_bounds_the_moves_it_follows_not_only_the_positions(cli):
    line = one_line_error(*cli("spe", "nim:piles=1000-1000")[::2])
    assert "moves" in line and "--limit" in line


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["pig", "backgammon"])
def test_perft_starts_no_depth_estimated_past_its_time_limit(cli, game):
    code, out, err = cli("perft", game, "--depth", "1000", "--time", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["time_limit"] == 1 and data["depth"] < 1000
    assert data["stopped"].startswith(f"depth {data['depth'] + 1} not started")
    assert "stopped: depth" in err


def test_perft_prints_its_default_limit(cli):
    code, out, _ = cli("perft", "tictactoe", "--depth", "2")
    assert code == 0 and "within 60 s (--time)" in out
    assert json.loads(cli("perft", "tictactoe", "--depth", "2", "--json")[1])["time_limit"] == 60


def test_perft_times_the_kernel_apart_from_depth_1(cli):
    data = json.loads(cli("perft", "checkers", "--depth", "1", "--json")[1])
    assert data["compile_seconds"] is not None and data["compile_seconds"] >= 0
    assert data["table"] == [{"depth": 1, "leaves": 7, "seconds": data["table"][0]["seconds"]}]
    generic = json.loads(cli("perft", "tictactoe", "--depth", "1", "--json")[1])
    assert generic["compile_seconds"] is None
