"""One meaning for a score across games (issue #37): every kind converts to a win probability
in [0, 1] (0.5 at an even value, monotone in the value, 0 or 1 for a proof), reads as text
(``+1.25``, ``#5``, ``+12 discs``, ``win in 7``) and as plain data from player 0's viewpoint;
each engine declares its unit once (its ENTRY's ``scale``), and a won position reads as a
win for the winner in every engine, a start position as about even.

Facts from outside: 6k1/5ppp/8/8/8/8/8/R5K1 w is mate in one (Ra8#, a back-rank mate); FFO
#40 is +38 for Black with best play (Edax's fforum-40-59.obf, tests/data); after 44455554221
Connect Four's second player has lost (score -15, Pascal Pons's solver)."""

from __future__ import annotations

import json
import math
import random

import pytest

from gamesearch.agent import Agent
from gamesearch.agents import make_agent
from gamesearch.games import game_entry, load_game
from gamesearch.result import SCORE_KINDS, UTILITY, Score, SearchResult, SearchStats, ValueScale
from gamesearch.testing import GameCheckError, check_agent

SCALES = {"utility": 1.0, "centipawns": 272.0, "discs": 5.0, "moves-to-win": 1.0,
          "win-probability": 1.0}


def even_value(kind: str) -> float:
    return 0.5 if kind == "win-probability" else 0.0


def values(kind: str) -> list[float]:
    """Estimates of the kind, from bad to good for the side to move."""
    if kind == "win-probability":
        return [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]
    top = {"utility": 1.0, "centipawns": 900.0, "discs": 30.0, "moves-to-win": 20.0}[kind]
    return [top * x for x in (-1.0, -0.6, -0.2, -0.01, 0.0, 0.01, 0.2, 0.6, 1.0)]


# --- the kinds ---------------------------------------------------------------------------


def test_the_kinds_are_the_documented_five() -> None:
    assert SCORE_KINDS == ("utility", "centipawns", "discs", "moves-to-win", "win-probability")
    with pytest.raises(ValueError, match="score kind"):
        ValueScale("furlongs")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        ValueScale("discs", 0.0)


@pytest.mark.parametrize("kind", SCORE_KINDS)
def test_win_probability_is_monotone_and_even_at_the_even_value(kind: str) -> None:
    chances = [Score(v, 0, False, kind, SCALES[kind]).win_probability() for v in values(kind)]
    assert all(0.0 <= p <= 1.0 for p in chances)
    assert chances == sorted(chances)
    assert Score(even_value(kind), 0, False, kind, SCALES[kind]).win_probability() == 0.5
    for v, p in zip(values(kind), chances):  # on the side of 0.5 that the value says
        lead = Score(v, 0, False, kind, SCALES[kind]).lead()
        assert (lead > 0 and p > 0.5) or (lead < 0 and p < 0.5) or (lead == 0 and p == 0.5)


@pytest.mark.parametrize("kind", SCORE_KINDS)
def test_the_other_player_gets_the_complement(kind: str) -> None:
    for v in values(kind):
        score = Score(v, 1, False, kind, SCALES[kind])
        assert score.win_probability(0) == pytest.approx(1 - score.win_probability(1))
        assert score.win_probability() == score.win_probability(1)
        assert score.expectation(1) == pytest.approx(2 * score.win_probability(1) - 1)


def test_logistic_scales_read_one_scale_as_73_percent() -> None:
    for kind, scale in (("centipawns", 272.0), ("discs", 5.0)):
        assert Score(scale, 0, False, kind, scale).win_probability() == \
            pytest.approx(1 / (1 + math.e ** -1))
    assert Score(1e6, 0, False, "centipawns", 272.0).win_probability() == 1.0  # no overflow
    assert Score(-1e6, 0, False, "centipawns", 272.0).win_probability() == 0.0


def test_proofs_are_certain() -> None:
    """A mate, an exact disc margin, a solver's win: 1 or 0 (a draw 0.5), however small."""
    assert Score(29999, 0, True, "centipawns", 272.0, 1).win_probability() == 1.0
    assert Score(-29998, 0, True, "centipawns", 272.0, -1).win_probability() == 0.0
    assert Score(2, 0, True, "discs", 5.0).win_probability() == 1.0
    assert Score(-2, 0, True, "discs", 5.0).win_probability() == 0.0
    assert Score(0, 0, True, "discs", 5.0).win_probability() == 0.5
    assert Score(1, 0, True, "moves-to-win").win_probability() == 1.0
    assert Score(-21, 0, True, "moves-to-win").win_probability() == 0.0
    assert Score(1, 0, True).win_probability() == 1.0 and Score(-1, 0, True).win_probability() == 0
    assert Score(16, 0, True).win_probability() == 1.0  # a utility beyond a plain win: clipped
    # a chance game's exact expected utility is no certainty: (1 + 0.2) / 2
    assert Score(0.2, 0, True).win_probability() == pytest.approx(0.6)


def test_no_single_value_has_no_probability() -> None:
    assert Score(None, 0).win_probability() is None
    assert Score((3.0, -1.0, 2.0), None).win_probability(0) is None
    assert str(Score((3.0, -1.0), None)) == "+3, -1"


# --- text and plain data -----------------------------------------------------------------


@pytest.mark.parametrize(("score", "text"), [
    (Score(0.35, 0), "+0.35"),
    (Score(-0.5, 0), "-0.50"),
    (Score(1, 0, True), "win"),
    (Score(-1.0, 0, True), "loss"),
    (Score(0, 0, True), "draw"),
    (Score(16, 0, True), "win (+16)"),
    (Score(0.25, 0, True), "+0.25 (exact)"),
    (Score(125, 0, False, "centipawns", 272.0), "+1.25"),
    (Score(-40, 0, False, "centipawns", 272.0), "-0.40"),
    (Score(29991, 0, True, "centipawns", 272.0, 5), "#5"),
    (Score(-29994, 0, True, "centipawns", 272.0, -3), "#-3"),
    (Score(20000, 0, True, "centipawns", 150.0), "win"),
    (Score(12, 0, True, "discs", 5.0), "+12 discs"),
    (Score(-4, 0, True, "discs", 5.0), "-4 discs"),
    (Score(0, 0, True, "discs", 5.0), "draw (0 discs)"),
    (Score(2.34, 0, False, "discs", 5.0), "+2.3 discs"),
    (Score(12, 0, True, "moves-to-win", 1.0, 7), "win in 7"),
    (Score(-3, 0, True, "moves-to-win", 1.0, -4), "lose in 4"),
    (Score(1, 0, True, "moves-to-win"), "win"),
    (Score(0, 0, True, "moves-to-win"), "draw"),
    (Score(0.62, 0, False, "win-probability"), "62%"),
])
def test_each_kind_reads_as_text(score: Score, text: str) -> None:
    assert str(score) == text


@pytest.mark.parametrize(("score", "first"), [
    (Score(125, 1, False, "centipawns", 272.0), "-1.25"),
    (Score(29991, 1, True, "centipawns", 272.0, 5), "#-5"),
    (Score(12, 1, True, "discs", 5.0), "-12 discs"),
    (Score(12, 1, True, "moves-to-win", 1.0, 7), "lose in 7"),
    (Score(0.62, 1, False, "win-probability"), "38%"),
    (Score(0.3, 1), "-0.30"),
    (Score(0.0, 1), "+0"),  # seen from player 0 it is -0.0, which read "-0" on the bar
    (Score(0, 1, False, "centipawns", 272.0), "+0.00"),
])
def test_as_dict_shows_player_0s_viewpoint(score: Score, first: str) -> None:
    """As lichess shows White's advantage: the same position reads the same whoever moves."""
    data = score.as_dict()
    assert data["text"] == first and data["pov"] == 0 and data["kind"] == score.kind
    assert data["win_probability"] == pytest.approx(score.win_probability(0), abs=1e-4)
    assert data["value"] == pytest.approx(score.for_player(0))
    assert data.get("mate_in") == (None if score.mate_in is None else -score.mate_in)
    assert score.as_dict(1)["text"] == str(score)
    json.dumps(data)  # plain data


def test_for_player_and_seen_by_turn_every_kind_around() -> None:
    assert Score(125, 0, False, "centipawns").for_player(1) == -125
    assert Score(0.7, 0, False, "win-probability").for_player(1) == pytest.approx(0.3)
    assert Score((1.0, 2.0), None).for_player(1) == 2.0
    mate = Score(29995, 0, True, "centipawns", 272.0, 3).seen_by(1)
    assert (mate.value, mate.pov, mate.mate_in, mate.exact) == (-29995, 1, -3, True)
    assert mate.seen_by(0) == Score(29995, 0, True, "centipawns", 272.0, 3)
    assert Score(0.7, 0, False, "win-probability").seen_by(1).win_probability() == \
        pytest.approx(0.3)


def test_a_search_result_without_an_engine_score_reads_its_value_as_utility() -> None:
    result = SearchResult(-0.4, 3, [3], SearchStats(), pov=1)
    assert result.score == Score(-0.4, 1, False, "utility", 1.0)
    assert result.as_dict()["score"]["text"] == "+0.40"  # player 0's viewpoint
    assert UTILITY.score(-0.4, 1) == result.score
    assert "score" not in SearchResult((1.0, 0.0), 0).as_dict()  # one utility per player


# --- each engine: a won position reads as a win, a start as about even ----------------------


def test_chess_mate_in_one_and_the_start() -> None:
    game, agent = load_game("chess"), make_agent("chess-engine:depth=3")
    state = game.state_from_string("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = agent(game, state)
    score = result.score
    assert (score.kind, score.mate_in, str(score), score.exact) == ("centipawns", 1, "#1", True)
    # the value as the agent always gave it (what a tournament's thresholds compare) stays
    assert result.value == 1.0 and result.value_score == Score(1.0, 0, True)
    assert score.win_probability(0) > 0.9 and score.as_dict()["text"] == "#1"
    # the same mate seen from the loser's side (Black to move, mated next move)
    black = game.state_from_string("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    assert agent(game, black).score.win_probability(0) > 0.5
    start = agent(game, game.initial_state()).score
    assert start.kind == "centipawns" and start.mate_in is None and not start.exact
    assert 0.4 < start.win_probability(0) < 0.6
    assert game_entry("chess").scale.kind == "centipawns"


def test_checkers_won_endgame_and_the_start() -> None:
    """Three kings against a man at the edge: White (player 1: Black moves first in
    checkers) wins soon, leaving Black no move."""
    game, agent = load_game("checkers"), make_agent("checkers-engine:depth=10")
    state = game.state_from_string("W:WK14,K18,K22:B1")
    score = agent(game, state).score
    assert score.kind == "centipawns" and score.exact and score.mate_in is not None
    assert game.to_move(state) == score.pov == 1
    assert score.mate_in > 0 and score.win_probability(1) > 0.9
    assert str(score) == f"#{score.mate_in}" and score.as_dict()["text"] == f"#-{score.mate_in}"
    start = agent(game, game.initial_state()).score
    assert 0.4 < start.win_probability(0) < 0.6 and not start.exact


def ffo_40_after_two_moves():
    from test_othello_solver import ffo_positions

    game = load_game("othello")
    board, best, _ = ffo_positions()[0]
    state = game.state_from_string(board)
    for move in ("a2", "b1"):
        state = game.result(state, game.string_to_action(state, move))
    return game, state, best


def test_othello_exact_endgame_and_the_start() -> None:
    """FFO #40 two plies on (18 empties, Black to move): +38 discs, exact; the solver's report
    says the same."""
    from gamesearch.engines.othello.solver import solve_entry

    game, state, best = ffo_40_after_two_moves()
    score = make_agent("othello:solve=18")(game, state).score
    assert (score.kind, score.value, score.exact, str(score)) == ("discs", best, True, "+38 discs")
    assert score.win_probability(0) == 1.0
    report = solve_entry(game, state, {})
    assert report["score"]["text"] == "+38 discs" and report["score"]["win_probability"] == 1
    start = make_agent("othello:depth=4")(game, game.initial_state()).score
    assert start.kind == "discs" and 0.3 < start.win_probability(0) < 0.7


@pytest.mark.parametrize("seed", range(3))
def test_othello_search_to_the_end_reads_the_exact_margin(seed: int) -> None:
    """A search as deep as the empty squares ends every line (finished games score 1000 per
    disc): its score is the solver's exact margin, not 1000 times it."""
    from gamesearch.engines.othello.solver import solve_entry
    from test_othello_solver import random_position

    game = load_game("othello")
    state = random_position(game, 8, random.Random(seed))
    result = make_agent("othello:depth=10,solve=0")(game, state)
    want = solve_entry(game, state, {})["value"]
    assert abs(result.value) >= 1000 or want == 0  # the search's own encoding
    assert result.score.value == want and result.score.exact


def test_connect4_solved_position_reads_win_in_n() -> None:
    """The distance the score names is the number of moves the winner needs when both play
    perfectly (played out with the solver agent)."""
    game, agent = load_game("connect4"), make_agent("solver")
    state = game.state_from_string("44455554221")
    score = agent(game, state).score
    assert (score.kind, score.value, score.exact) == ("moves-to-win", -15, True)
    assert score.win_probability(0) > 0.9 and score.win_probability(1) < 0.1
    assert str(score) == f"lose in {-score.mate_in}"
    assert score.as_dict()["text"] == f"win in {-score.mate_in}"
    winner_moves, line = 0, state
    while not game.is_terminal(line):
        if game.to_move(line) == 0:
            winner_moves += 1
        line = game.result(line, agent(game, line).action)
    assert game.utilities(line)[0] > 0 and winner_moves == -score.mate_in
    # a deeper win: the first player, eight stones in, wins in 17 (from "4444" it is a win in
    # 19 too, but solving and playing it out took 25 s of the suite's 10 minutes)
    deeper = game.state_from_string("44444432")
    score = agent(game, deeper).score
    moves, line = 0, deeper
    while not game.is_terminal(line):
        moves += game.to_move(line) == game.to_move(deeper)
        line = game.result(line, agent(game, line).action)
    won = game.utilities(line)[game.to_move(deeper)]
    assert (score.value > 0) == (won > 0)
    if score.value > 0:
        assert score.mate_in == moves and str(score) == f"win in {moves}"


def test_connect4_solver_report_and_weak_solve() -> None:
    from gamesearch.engines.connect4.solve import solve_entry

    game = load_game("connect4")
    state = game.state_from_string("44455554221")
    report = solve_entry(game, state, {})
    assert report["score"] == -15 and report["evaluation"]["kind"] == "moves-to-win"
    assert report["evaluation"]["win_probability"] == 1 and report["evaluation"]["mate_in"] > 0
    weak = solve_entry(game, state, {"weak": True})["evaluation"]
    assert "mate_in" not in weak and weak["text"] == "win"  # the sign only: no distance
    assert str(make_agent("solver:weak=true")(game, state).score) == "loss"


def test_pig_gives_its_win_probability() -> None:
    game = load_game("pig:goal=20")
    result = make_agent("pig-optimal")(game, game.initial_state())
    score = result.score
    assert score.kind == "win-probability" and 0.5 < score.value < 0.7  # the mover's edge
    assert score.win_probability() == score.value
    assert score.expectation() == pytest.approx(result.value)


def test_each_engine_declares_its_scale_once_and_its_mate_score_agrees() -> None:
    """The ENTRY's scale is the one the agents use; the scale modules' MATE is the compiled
    searches' (the scale module is light: the catalog imports it with every ENTRY)."""
    from gamesearch.engines.checkers import scale as checkers_scale
    from gamesearch.engines.checkers import search as checkers_search
    from gamesearch.engines.chess import engine as chess_engine
    from gamesearch.engines.chess import scale as chess_scale
    from gamesearch.engines.chess import search as chess_search

    assert chess_scale.MATE == chess_engine.MATE == chess_search.MATE
    assert checkers_scale.MATE == checkers_search.MATE
    kinds = {name: game_entry(name).scale.kind for name in
             ("chess", "checkers", "othello", "connect4", "pig", "tictactoe")}
    assert kinds == {"chess": "centipawns", "checkers": "centipawns", "othello": "discs",
                     "connect4": "moves-to-win", "pig": "win-probability",
                     "tictactoe": "utility"}


# --- check_agent catches a score that breaks the contract ---------------------------------


class BadScore(Agent):
    """Plays the first move with a value whose Score is wrong in the way given."""

    def __init__(self, how: str) -> None:
        self.how = how
        self.spec = f"bad-score:{how}"

    def __call__(self, game, state):
        action = list(game.actions(state))[0]
        mover = game.to_move(state)
        score = {"kind": Score(0.5, mover, False, "furlongs"),  # type: ignore[arg-type]
                 "sign": Score(-300, mover, False, "centipawns", 272.0),
                 "pov": Score(0.5, 1 - mover),
                 "range": Score(0.5, mover, False, "utility", -1.0)}[self.how]
        return SearchResult(0.5, action, [action], SearchStats(), pov=mover,
                            engine_score=score)


@pytest.mark.parametrize("how", ["kind", "sign", "pov", "range"])
def test_check_agent_catches_a_broken_score(how: str) -> None:
    with pytest.raises(GameCheckError) as err:
        check_agent(load_game("tictactoe"), BadScore(how), timing=False)
    assert err.value.check == "score"


# --- the faces: --json and the web's think replies carry the Score --------------------------


def test_cli_solve_json_and_text_show_the_score(capsys) -> None:
    from gamesearch.cli.main import main

    def run(*argv: str) -> str:
        try:
            main(list(argv))
        except SystemExit as stop:
            assert not stop.code
        return capsys.readouterr().out

    data = json.loads(run("solve", "tictactoe", "--json"))
    assert data["score"]["kind"] == "utility" and data["score"]["text"] == "draw"
    assert data["score"]["win_probability"] == 0.5 and data["score"]["exact"]
    text = run("solve", "tictactoe", "--position", "xx.oo....")
    assert "score: win for X (utility; X 100%)" in " ".join(text.split()), text


def test_web_think_replies_carry_the_score() -> None:
    """The reply built from a SearchResult (progress and move events alike) gains the
    Score's plain data beside its value: player 0's win probability and text."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from gamesearch.web.app import create_app
    from gamesearch.web.worker import describe

    game = load_game("chess")
    state = game.state_from_string("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    reply = describe(make_agent("chess-engine:depth=3")(game, state), game, state)
    assert reply["score"]["text"] == "#1" and reply["score"]["kind"] == "centipawns"
    assert reply["value"] == 1.0 and reply["score"]["win_probability"] == 1.0

    with TestClient(create_app(workers=1, warm=False)) as client:
        got, name = [], None
        body = {"game": "tictactoe", "moves": ["5", "2"],  # X won: the edge reply loses
                "agent": "alphabeta:time=5,pure=true"}
        with client.stream("POST", "/api/think", json=body) as response:
            assert response.status_code == 200
            for line in response.iter_lines():
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    got.append((name, json.loads(line[6:])))
    move = got[-1][1]
    assert got[-1][0] == "move" and move["source"] == "search", got[-1]
    assert move["score"] == {"value": 1, "kind": "utility", "pov": 0, "exact": True,
                             "win_probability": 1.0, "text": "win"}
    assert all("score" in data for name, data in got if name == "progress")
