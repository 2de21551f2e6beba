"""The match library: scoring, the interval and Elo against published figures, both colours,
resuming from the results file, and Ctrl-C keeping the finished games."""

import json
import math

import pytest

from gamesearch.arena.match import (
    elo_difference,
    run_match,
    score_for,
    wilson_interval,
)
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game


@pytest.mark.parametrize(("successes", "n", "low", "high"), [
    # Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
    # seven methods", Statistics in Medicine 17 (1998), Table I, method 3 (Wilson score).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_interval_matches_newcombe(successes: int, n: int, low: float,
                                          high: float) -> None:
    lo, hi = wilson_interval(successes / n, n)
    assert lo == pytest.approx(low, abs=6e-5)
    assert hi == pytest.approx(high, abs=6e-5)


def test_elo_difference_is_the_logistic_model() -> None:
    # Elo's logistic expectation E = 1 / (1 + 10^(-D/400)): E = 0.75 <=> D = 400 log10(3).
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(0.5) == 0
    assert elo_difference(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_score_for_counts_wins_draws_and_losses_per_seat() -> None:
    assert score_for((1, -1), 0) == 1 and score_for((1, -1), 1) == 0
    assert score_for((0, 0), 1) == 0.5
    assert score_for((3, 5, 5), 1) == 0.5 and score_for((3, 5, 4), 1) == 1


def test_perfect_play_never_loses_and_seats_alternate() -> None:
    game = load_game("tictactoe")
    match = run_match(game, "alphabeta", "random", 6, seed=5)
    assert len(match.records) == 6
    assert [r.a_seat for r in match.records] == [0, 1, 0, 1, 0, 1]
    assert match.losses == 0 and match.wins + match.draws == 6
    for r in match.records:  # A's utility is the utility of the seat it played
        assert (r.utilities[r.a_seat] > 0) == (r.score_a == 1)
    summary = match.summary()
    assert summary["value"] == summary["score"] == (match.wins + match.draws / 2) / 6
    lo, hi = summary["score_interval"]
    assert lo <= summary["score"] <= hi


def test_two_perfect_players_draw_every_game() -> None:
    match = run_match(load_game("tictactoe"), "alphabeta", "alphabeta:pvs=true", 4)
    assert (match.wins, match.draws, match.losses) == (0, 4, 0)
    assert match.summary()["elo"] == 0


def test_seeded_matches_are_reproducible() -> None:
    game = load_game("connect4")
    first = run_match(game, "random", "random", 4, seed=11)
    again = run_match(game, "random", "random", 4, seed=11)
    other = run_match(game, "random", "random", 4, seed=12)
    assert [r.moves for r in first.records] == [r.moves for r in again.records]
    assert [r.moves for r in first.records] != [r.moves for r in other.records]
    # the random agents got a different seed in every game
    assert len({tuple(r.moves) for r in first.records}) == 4


def test_results_file_resumes_and_keeps_games(tmp_path) -> None:
    out = tmp_path / "m.jsonl"
    game = load_game("nim:piles=2-3")
    run_match(game, "alphabeta", "random", 3, seed=1, out=out, game_label="nim")
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "match" and len(lines) == 4
    played = []
    match = run_match(game, "alphabeta", "random", 5, seed=1, out=out, game_label="nim",
                      on_game=lambda record, m: played.append(record.index))
    assert played == [3, 4]  # the first three came from the file
    assert [r.index for r in match.records] == [0, 1, 2, 3, 4]
    assert out.read_text().splitlines()[:4] == lines
    # a game line cut short by a kill is played again
    out.write_text("\n".join(out.read_text().splitlines()[:-1]) + '\n{"type": "ga')
    replayed = []
    run_match(game, "alphabeta", "random", 5, seed=1, out=out, game_label="nim",
              on_game=lambda record, m: replayed.append(record.index))
    assert replayed == [4]
    # the file of another match is refused, not overwritten
    with pytest.raises(GameSearchError, match="another match"):
        run_match(game, "random", "random", 5, seed=1, out=out, game_label="nim")


def test_ctrl_c_keeps_finished_games(tmp_path) -> None:
    out = tmp_path / "m.jsonl"
    game = load_game("tictactoe")

    def stop_after_two(record, match) -> None:
        if len(match.records) == 2:
            raise KeyboardInterrupt

    match = run_match(game, "random", "random", 10, seed=3, out=out, on_game=stop_after_two)
    assert match.interrupted and len(match.records) == 2
    assert len(out.read_text().splitlines()) == 3  # header and two games
    rest = run_match(game, "random", "random", 10, seed=3, out=out)
    assert not rest.interrupted and len(rest.records) == 10


def test_bad_matches_are_refused() -> None:
    game = load_game("tictactoe")
    with pytest.raises(GameSearchError, match="needs a person"):
        run_match(game, "human", "random", 2)
    with pytest.raises(GameSearchError, match="unknown agent"):
        run_match(game, "deep-blue", "random", 2)
    with pytest.raises(GameSearchError, match="at least one game"):
        run_match(game, "random", "random", 0)


def test_every_registered_game_can_be_played_as_a_match() -> None:
    from gamesearch.games import REGISTRY

    for name in REGISTRY:
        game = load_game(name)
        match = run_match(game, "random", "random", 2, seed=4, game_label=name)
        assert len(match.records) == 2, name
        for record in match.records:
            assert len(record.utilities) == game.num_players and record.moves


def test_agents_are_reset_between_games() -> None:
    from gamesearch.agents import AGENTS, RandomAgent, register_agent

    resets = []

    class Counting(RandomAgent):
        def reset(self) -> None:
            resets.append(self)

    register_agent("counting-test", lambda: Counting(seed=1), "test only")
    try:
        run_match(load_game("tictactoe"), "counting-test", "random:seed=2", 3)
    finally:
        del AGENTS["counting-test"]
    assert len(resets) == 3  # before every game


@pytest.mark.parametrize(("edit", "words"), [
    (lambda g: {**g, "score_a": 1.0 - g["score_a"]}, "not what its moves give"),
    (lambda g: {**g, "utilities": [-u for u in g["utilities"]]}, "not what its moves give"),
    (lambda g: {**g, "moves": ["9", *g["moves"][1:]]}, "is not legal there"),
    (lambda g: {**g, "moves": g["moves"][:-1]}, "stops before the end"),
    (lambda g: {**g, "moves": [*g["moves"], "1"]}, "goes on after its end"),
    (lambda g: {**g, "a_seat": 1 - g["a_seat"]}, "seats alternate"),
])
def test_a_resumed_match_counts_only_games_that_replay(tmp_path, edit, words) -> None:
    """A stored game must replay by the rules to the utilities and score it claims: an edited
    line is one error naming the game, and the file is left as it was."""
    out = tmp_path / "m.jsonl"
    game = load_game("tictactoe")
    run_match(game, "random", "alphabeta", 2, seed=4, out=out)
    lines = out.read_text().splitlines()
    record = json.loads(lines[2])
    if words == "is not legal there":  # a square the game's first move already took
        record["moves"] = [record["moves"][0], record["moves"][0], *record["moves"][2:]]
    else:
        record = edit(record)
    lines[2] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    before = out.read_bytes()
    with pytest.raises(GameSearchError, match=words):
        run_match(game, "random", "alphabeta", 4, seed=4, out=out)
    assert out.read_bytes() == before
