"""The repetition rule of chess and checkers: the same position (same side to move) standing
for the third time draws. States hold no history, so the drivers keep it (game.Repetitions):
match, tournament, the terminal's play, the web app; the compiled checkers search sees it
along its own line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from gamesearch.arena.match import play_game
from gamesearch.game import drawn_by_repetition, final_utilities, replay, replay_game
from gamesearch.games import load_game
from gamesearch.result import SearchResult

KNIGHTS = ["g1f3", "g8f6", "f3g1", "f6g8"]  # four plies back to the start
KINGS = ["1-5", "32-28", "5-1", "28-32"]  # the same, for a king each on 1 and 32
TWO_KINGS = "B:WK32:BK1"


class Script:
    """An agent that plays the given moves in turn (as written)."""

    interactive = False
    spec = "script"

    def __init__(self, moves: list[str]) -> None:
        self.moves = list(moves)

    def prepare(self, game) -> None:
        pass

    def reset(self) -> None:
        pass

    def __call__(self, game, state) -> SearchResult:
        return SearchResult(None, game.string_to_action(state, self.moves.pop(0)))


def test_the_third_occurrence_draws_and_not_the_second():
    chess = load_game("chess")
    assert not drawn_by_repetition(chess, KNIGHTS)  # the start stands twice
    assert not drawn_by_repetition(chess, (KNIGHTS * 2)[:-1])  # every position twice
    assert drawn_by_repetition(chess, KNIGHTS * 2)  # and now three times
    with pytest.raises(Exception, match="drawn by repetition"):
        replay(chess, KNIGHTS * 2 + ["e2e4"])
    checkers = load_game("checkers")
    start = checkers.state_from_string(TWO_KINGS)
    assert drawn_by_repetition(checkers, KINGS * 2, start)
    assert not drawn_by_repetition(checkers, KINGS + ["1-6"], start)


def test_move_counters_do_not_hide_a_repetition():
    """Chess FENs differ in their clocks, checkers states in the plies without progress:
    neither is part of the position that repeats."""
    chess = load_game("chess")
    s0 = chess.initial_state()
    s4 = replay(chess, KNIGHTS)
    assert s0 != s4 and chess.repetition_key(s0) == chess.repetition_key(s4)
    checkers = load_game("checkers")
    t0 = checkers.state_from_string(TWO_KINGS)
    t4 = replay(checkers, KINGS, t0)
    assert t0 != t4 and checkers.repetition_key(t0) == checkers.repetition_key(t4)
    assert load_game("tictactoe").repetition_key(load_game("tictactoe").initial_state()) is None


@pytest.mark.parametrize("name, moves, start", [("chess", KNIGHTS, None),
                                                 ("checkers", KINGS, TWO_KINGS)])
def test_a_match_game_ends_drawn_at_the_third_occurrence(name, moves, start):
    game = load_game(name)
    state = game.state_from_string(start) if start else game.initial_state()
    first, second = moves[0::2] * 5, moves[1::2] * 5
    final, actions = play_game(game, [Script(first), Script(second)], state)
    assert len(actions) == 8 and not game.is_terminal(final)
    assert final_utilities(game, final) == (0.0, 0.0)


def test_the_tournament_game_says_draw_by_repetition():
    from gamesearch.arena.play import Rules, _play

    class Task:
        rules = Rules()
        seed = 1

        class pairing:
            index = 0

    game = load_game("chess")
    seats = [Script(KNIGHTS[0::2] * 5), Script(KNIGHTS[1::2] * 5)]
    moves: list = []
    utilities, reason = _play(game, game.initial_state(), seats, Task, moves)
    assert (utilities, reason, len(moves)) == ((0.0, 0.0), "draw by repetition", 8)


def test_the_web_view_ends_the_game_and_refuses_a_move_after_it():
    from gamesearch.web.views import position_view

    game = load_game("chess")
    state, repeated = replay_game(game, KNIGHTS * 2)
    assert repeated
    view = position_view("chess", game, KNIGHTS * 2, state, repeated)
    assert view["terminal"] and view["legal"] == [] and view["board"]["moves"] == {}
    assert "repetition" in view["outcome"] and view["utilities"] == [0.0, 0.0]
    seven = (KNIGHTS * 2)[:-1]
    before = position_view("chess", game, seven, *replay_game(game, seven))
    assert not before["terminal"] and before["legal"]


def test_play_in_the_terminal_says_draw_by_repetition():
    moves = "\n".join(KINGS * 2) + "\n"
    out = subprocess.run([sys.executable, "-m", "gamesearch", "play", "checkers", "--position",
                          TWO_KINGS, "--player1", "human", "--player2", "human"],
                         input=moves, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "draw by repetition" in out.stdout


def test_the_compiled_checkers_search_sees_a_repetition_on_its_line():
    from gamesearch.engines.checkers import search as S
    from gamesearch.games.checkers.kernel import encode_state

    game = load_game("checkers")
    code = S.compiled()
    trail = np.zeros((S.MAX_PLY + 1, 3), np.int64)
    state = game.state_from_string(TWO_KINGS)
    seen = []
    for ply, move in enumerate(KINGS * 2 + ["1-5"]):
        seen.append(bool(code.repeats(encode_state(state), ply, trail)))
        state = game.result(state, game.string_to_action(state, move))
    assert seen == [False] * 4 + [True] * 5  # from ply 4 on, each stood 4 plies before
    # a man's move between them resets the count: the earlier position cannot come back
    state = game.state_from_string("B:WK32:BK1,12")
    line = ["1-5", "32-28", "12-16", "28-32", "5-1", "32-28"]
    flags = []
    for ply, move in enumerate(line):
        flags.append(bool(code.repeats(encode_state(state), ply, trail)))
        state = game.result(state, game.string_to_action(state, move))
    assert not any(flags)
