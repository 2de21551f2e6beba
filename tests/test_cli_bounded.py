"""Bounded work and one-line refusals (issue 39): every command estimates its work before it
starts and refuses what it cannot finish, saying what it would need, or runs under a limit it
prints; odd argument text is one line and exit status 2, never a traceback."""

from __future__ import annotations

import json
import time

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
def test_normal_form_refuses_a_tree_too_large_at_once(cli, game, reduced, monkeypatch):
    if reduced or game == "connect4":  # the same refusal at a tenth of the work limit (the
        # full one: 10-30 s here; the other games meet it at once)
        from gamesearch.theory import extensive

        monkeypatch.setattr(extensive, "MAX_STEPS", extensive.MAX_STEPS // 10)
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


def write_nfg(path, shape: tuple[int, ...], seed: int = 1) -> str:
    """A general-sum game of ``shape`` with random integer payoffs, as a .nfg file."""
    import math
    import random

    rng = random.Random(seed)
    players = " ".join(f'"P{i + 1}"' for i in range(len(shape)))
    names = " ".join("{ " + " ".join(f'"s{k}"' for k in range(n)) + " }" for n in shape)
    numbers = " ".join(str(rng.randint(-9, 9)) for _ in range(math.prod(shape) * len(shape)))
    path.write_text(f'NFG 1 R "random" {{ {players} }}\n{{ {names} }}\n""\n\n{numbers}\n')
    return str(path)


@pytest.mark.timeout(120)  # each ran for ever before (the web caps sizes, the CLI did not)
@pytest.mark.parametrize("command", [["nash", "--method", "support"],
                                     ["nash", "--method", "lemke-howson"],
                                     ["nash", "--method", "logit"], ["dominance"],
                                     ["dominance", "--mixed"], ["qre"],
                                     ["qre", "--lambda", "2"]])
def test_matrix_commands_refuse_a_40_by_2001_game_at_once(cli, tmp_path, command):
    big = write_nfg(tmp_path / "big.nfg", (40, 2001))
    line = one_line_error(*cli(*command, big)[::2])
    assert "40 x 2001" in line and "at most" in line


@pytest.mark.timeout(300)
def test_nash_by_default_answers_a_40_by_2001_game_with_a_method_that_fits(cli, tmp_path):
    big = write_nfg(tmp_path / "big.nfg", (40, 2001))
    code, out, err = cli("nash", big, "--json")
    assert code == 0 and json.loads(out)["method"] == "pure", err


def test_nash_picks_a_method_that_fits_the_game(cli, tmp_path):
    three = write_nfg(tmp_path / "three.nfg", (2, 2, 2))
    code, out, err = cli("nash", three, "--json")
    assert code == 0, err
    assert json.loads(out)["method"] == "simpdiv"
    bimatrix = write_nfg(tmp_path / "bimatrix.nfg", (12, 12))  # 2.7 million support pairs
    code, out, _ = cli("nash", bimatrix, "--json")
    assert code == 0 and json.loads(out)["method"] == "support enumeration"
    larger = write_nfg(tmp_path / "larger.nfg", (16, 16))  # 600 million: one equilibrium
    code, out, _ = cli("nash", larger, "--json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "lemke-howson" and data["equilibria"]


def test_nash_solves_a_tree_as_efg_solve_does(cli):
    from pathlib import Path

    import gamesearch

    folder = Path(gamesearch.__file__).parent / "data" / "efg"
    beer_quiche = str(folder / "beer_quiche.efg")
    code, out, err = cli("nash", beer_quiche, "--json")
    assert code == 0, err
    solved = json.loads(out)
    code, out, _ = cli("efg", beer_quiche, "--solve", "--json")
    assert code == 0 and json.loads(out) == solved and solved["max_regret"] in (0, "0")
    line = one_line_error(*cli("nash", str(folder / "seltens_horse.efg"))[::2])
    assert "3 players" in line and "qre" in line


def test_efg_takes_json_like_every_command(cli):
    code, out, _ = cli("efg", "kuhn_poker", "--json", "--max-lines", "5")
    data = json.loads(out)
    assert code == 0 and len(data["lines"]) == 6 and data["complete"] is False


def test_solve_without_a_limit_gives_up_past_its_node_limit(cli):
    fen = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"  # a legal endgame: searched for ever before
    line = one_line_error(*cli("solve", "chess", "--fen", fen, "--nodes", "2000")[::2])
    assert "2,000 nodes (--nodes)" in line and "--depth or --time" in line
    line = one_line_error(*cli("solve", "takeaway", "--sticks", "40", "--nodes", "500")[::2])
    assert "500 nodes" in line  # max^n too
    code, out, _ = cli("solve", "nim", "--json")
    assert code == 0 and json.loads(out)["node_limit"] == 200_000
    code, out, _ = cli("solve", "nim")
    assert "within 200,000 nodes (--nodes)" in out


@pytest.mark.parametrize("flag", ["--iterations", "--total"])
def test_train_cfr_refuses_an_iteration_count_it_could_never_finish(cli, tmp_path, flag):
    line = one_line_error(*cli("train", "cfr", "kuhn_poker", flag, "1" + "0" * 44,
                               "--out", str(tmp_path / "run"))[::2])
    assert flag in line and "45 digits" in line and "1,000,000,000" in line
    assert not (tmp_path / "run").exists()


@pytest.mark.timeout(60)  # it refused only after about 30 s of counting
def test_tables_build_refuses_8_checkers_pieces_from_its_estimate_at_once(cli, tmp_path):
    from gamesearch.engines.checkers.tables import estimate

    began = time.process_time()
    assert estimate(8)["memory_bytes"] > 2**40
    assert time.process_time() - began < 5  # a formula, not a slice layout per slice
    line = one_line_error(*cli("tables", "build", "checkers", "--pieces", "8",
                               "--dir", str(tmp_path / "t"))[::2])
    assert "GiB of memory" in line


def test_counted_slice_sizes_agree_with_the_layouts():
    from gamesearch.games.checkers import index

    for pieces in range(1, 5):
        for config in index.slices_of(pieces):
            assert index.counted_slice_size(config) == index.slice_size(config)
