"""The board data the game entries give the web page (engines/<game>): backgammon's step
graph reaches every legal play and only legal plays; poker's tables name the bets in
words and hide what a viewer may not see; Pacman's maze; the extensive-form lab's check
for non-credible threats.

Facts: backgammon's opening position has 15 checkers a side; in Kuhn poker each player
antes 1 and a bet or a call adds 1 (Kuhn 1950); in entry deterrence (out, fight) is a Nash
equilibrium resting on a threat the incumbent would not carry out (Selten 1978).
"""

from __future__ import annotations

import random

from gamesearch.games import game_entry, load_game


def walk(routes: list[dict]) -> set[str]:
    """Every play text at the end of a route of the step graph."""
    found, stack = set(), [0]
    while stack:
        node = routes[stack.pop()]
        if node["move"] is not None:
            found.add(node["move"])
        stack.extend(step[2] for step in node["next"])
    return found


def test_backgammon_steps_reach_exactly_the_legal_plays() -> None:
    game, entry = load_game("backgammon"), game_entry("backgammon")
    rng, state, checked = random.Random(7), load_game("backgammon").initial_state(), 0
    while checked < 60:
        if game.is_terminal(state):
            state = game.initial_state()
        if game.to_move(state) >= 0:
            board = entry.board(game, state)
            legal = {game.action_to_string(state, a) for a in game.actions(state)}
            assert walk(board["routes"]) == legal
            assert sum(abs(v) for v in board["points"]) + sum(board["bar"]) \
                + sum(board["off"]) == 30
            checked += 1
        state = game.result(state, rng.choice(list(game.actions(state))))


def test_kuhn_table_names_bets_and_hides_the_other_card() -> None:
    game, entry = load_game("kuhn_poker"), game_entry("kuhn_poker")
    state = ((2, 0), "pb")  # K against J: a check, then a bet
    seen = entry.hidden_board(game, state, 0)
    assert seen["hands"] == [["K"], [None]]
    assert [a["word"] for a in seen["log"]] == ["check", "bet"]
    assert seen["labels"] == {"p": "fold", "b": "call"}
    assert seen["stakes"] == [1, 2] and seen["pot"] == 3
    assert entry.board(game, ((2, 0), "pbb"))["hands"] == [["K"], ["J"]]


def test_leduc_table_says_raise_after_a_bet() -> None:
    game, entry = load_game("leduc_poker"), game_entry("leduc_poker")
    board = entry.hidden_board(game, ((0, 5), "r", ""), 1)
    assert board["hands"] == [[None], ["Kh"]]  # card 5: king of hearts
    assert board["labels"] == {"f": "fold", "c": "call", "r": "raise"}
    assert board["stakes"] == [3, 1] and board["public"] == []


def test_pacman_maze_holds_the_layout() -> None:
    game, entry = load_game("pacman"), game_entry("pacman")
    board = entry.board(game, game.initial_state())
    assert board["style"] == "maze" and board["pacman"] not in board["walls"]
    assert len(board["food"]) == game.initial_state().food.bit_count()
    # who made the last move, for the page's last-move marks: Pacman, then each ghost
    state = game.initial_state()
    for mover in (0, *range(1, game.num_players), 0):
        state = game.result(state, game.actions(state)[0])
        assert entry.board(game, state)["mover"] == mover


def test_entry_deterrence_lcp_rests_on_a_non_credible_threat() -> None:
    from gamesearch.web.efglab import EXAMPLES, efg_view

    text = (EXAMPLES / "entry_deterrence.efg").read_text()
    lcp = efg_view(text, "lcp")["solution"]
    assert [(t["plays"], t["better"], t["reach"]) for t in lcp["threats"]] == \
        [(["fight"], "accommodate", "0")]
    assert efg_view(text, "spe")["solution"]["threats"] == []
