"""Output that tells the truth (issue 13): times and nodes that cover the whole work, best
moves that agree with the score, exact values, no raw dicts, one notation for moves."""

from __future__ import annotations

import json
import time

from gamesearch.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: exit code, stdout, stderr."""
    code = 0
    try:
        main(list(argv))
    except SystemExit as exit_:
        code = exit_.code or 0
    out, err = capsys.readouterr()
    return code, out, err


# a Connect Four position where a column that also wins (4: +8) is not the best (3: +12);
# scores from the solver's own analysis of each column, the position found by a search
WINNING_BUT_NOT_BEST = "174165632431323775"


def test_solve_pv_0_gives_the_move_that_keeps_the_score(capsys):
    code, out, _ = run(capsys, "analyze", "connect4", WINNING_BUT_NOT_BEST, "--json")
    scores = json.loads(out)["scores"]
    assert code == 0 and scores["3"] == 12 and scores["4"] < 12 < scores["4"] + 10
    code, out, _ = run(capsys, "solve", "connect4", "--position", WINNING_BUT_NOT_BEST,
                       "--pv", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["score"] == 12
    assert scores[str(data["best_move"])] == data["score"]
    assert "pv" not in data


def test_solve_time_and_nodes_cover_the_principal_variation(capsys):
    position = "44455554221"  # score -15 (Pons' benchmark)
    run(capsys, "solve", "connect4", "--position", position, "--pv", "0")  # compile, warm
    started = time.perf_counter()
    code, out, _ = run(capsys, "solve", "connect4", "--position", position, "--pv", "20",
                       "--json")
    wall = time.perf_counter() - started
    data = json.loads(out)
    assert code == 0 and data["score"] == -15 and len(data["pv"].split()) >= 2
    assert data["pv_nodes"] > 0 and data["nodes"] == data["solve_nodes"] + data["pv_nodes"]
    assert data["seconds"] >= data["solve_seconds"] + data["pv_seconds"] - 1e-3
    assert data["seconds"] > 0.7 * wall - 0.05  # the reported time is the time it took


def test_solve_pv_must_be_a_move_count(capsys):
    for bad in ("x", "-1", "43", "⁴"):
        code, _, err = run(capsys, "solve", "connect4", "--pv", bad)
        assert code == 2 and "--pv" in err and len(err.strip().splitlines()) == 1


def test_solver_agent_reports_its_nodes_and_time():
    from gamesearch.agents import make_agent
    from gamesearch.games import load_game

    game = load_game("connect4")
    state = game.state_from_string("44455554221")
    result = make_agent("solver")(game, state)
    assert result.value == -15 and result.stats.nodes > 0 and result.stats.seconds > 0


def test_sequence_form_value_of_kuhn_poker_is_exactly_minus_1_18(capsys):
    # Kuhn (1950): the first player's value is -1/18
    code, out, _ = run(capsys, "sequence-form", "kuhn_poker", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "-1/18" and data["exact"] is True
    code, out, _ = run(capsys, "sequence-form", "kuhn_poker")
    assert code == 0 and "-1/18 (exact)" in out


def test_wilson_interval_reaches_exactly_1_at_a_perfect_score():
    from gamesearch.arena.match import wilson_interval

    assert wilson_interval(1.0, 30)[1] == 1.0 and wilson_interval(0.0, 30)[0] == 0.0


def test_match_of_all_wins_reports_an_elo_bound_not_infinity(capsys):
    # perfect nim play against random from 3,4,5 (a first-player win) wins every game
    code, out, _ = run(capsys, "match", "nim", "alphabeta", "random", "-n", "30", "--seed",
                       "1", "--piles", "3,4,5")
    elo_line = next(line for line in out.splitlines() if line.startswith("Elo"))
    assert code == 0 and "30 wins" in out
    assert "inf" not in elo_line and "at least +357" in elo_line
    code, out, _ = run(capsys, "match", "nim", "alphabeta", "random", "-n", "30", "--seed",
                       "1", "--piles", "3,4,5", "--json")
    data = json.loads(out)
    assert data["elo"] is None and data["elo_interval"] == [357.1, None]
