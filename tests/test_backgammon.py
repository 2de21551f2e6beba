"""Backgammon rules that need no outside program, and the depth-2 player."""

import pytest

from gamesearch.agents import make_agent
from gamesearch.errors import IllegalActionError
from gamesearch.game import CHANCE, check_chance_outcomes
from gamesearch.games import load_game
from gamesearch.games.backgammon import START, Backgammon, BackgammonState


def position(mine: dict, theirs: dict, bar=(0, 0), dice=(3, 1)) -> BackgammonState:
    """Player 1 (X) to move; ``mine``/``theirs`` map each side's own point numbers to counts."""
    points = [0] * 24
    for p, n in mine.items():
        points[p - 1] += n
    for p, n in theirs.items():
        points[24 - p] -= n
    off = (15 - sum(mine.values()) - bar[0], 15 - sum(theirs.values()) - bar[1])
    return BackgammonState(tuple(points), bar, off, 0, dice)


def moves(game: Backgammon, s: BackgammonState) -> set[str]:
    return {game.action_to_string(s, a) for a in game.actions(s)}


def test_chance_nodes_and_opening() -> None:
    game = Backgammon()
    s = game.initial_state()
    assert game.to_move(s) == CHANCE and s.points == START
    check_chance_outcomes(game.chance_outcomes(s))  # 30 opening rolls, no doubles
    assert all(a != b for (a, b), _ in game.chance_outcomes(s))
    after = game.result(s, (2, 5))  # player 2 rolled higher: it starts with 5-2
    assert after.player == 1 and after.dice == (5, 2)
    rolled = game.result(after, game.actions(after)[0])
    check_chance_outcomes(game.chance_outcomes(rolled))  # the 21 rolls
    assert len(game.chance_outcomes(rolled)) == 21


def test_must_enter_from_the_bar_first() -> None:
    game = Backgammon()
    s = position({6: 5, 8: 3, 13: 5, 24: 1}, {1: 2, 2: 2, 3: 2, 6: 5, 8: 2, 13: 2},
                 bar=(1, 0), dice=(6, 4))
    # entering with 6 lands on 19 (their 6-point: closed); with 4 on 21 (their 4-point: open)
    assert all(a[0] == (25, 21) for a in game.actions(s))


def remaining(game: Backgammon, s: BackgammonState) -> set[tuple[int, ...]]:
    """After each play: the points (the mover's numbering) where the mover still has checkers."""
    out = set()
    for a in game.actions(s):
        t = game.result(s, a)
        out.add(tuple(p for p in range(1, 25) for _ in range(max(t.points[p - 1], 0))))
    return out


def test_larger_die_when_only_one_can_be_played() -> None:
    game = Backgammon()
    # a lone checker on 22; their 7-point (our 18) is made. 22/21 and 22/19 are each legal,
    # but neither can continue with the other die: only the larger (3) may be played
    s = position({22: 1}, {7: 2}, dice=(3, 1))
    assert moves(game, s) == {"22/19"}
    # when the larger cannot be played at all, the smaller must be: block our 19 too
    s = position({22: 1}, {7: 2, 6: 2}, dice=(3, 1))
    assert moves(game, s) == {"22/21"}
    # when both dice can be used, a play using only one is not legal
    s = position({22: 1, 13: 1}, {7: 2}, dice=(3, 1))
    assert all(len(a) == 2 for a in game.actions(s))


def test_bearing_off_with_a_larger_die_only_from_the_highest_point() -> None:
    game = Backgammon()
    # 6-1 with checkers on 4 and 2: 4/off 2/1, or 4/3 3/off (a 6 bears off the highest)
    assert remaining(game, position({4: 1, 2: 1}, {1: 2}, dice=(6, 1))) == {(1,), (2,)}
    # 6-3 with checkers on 5 and 2: the 3 may not bear off from 2 while 5 is occupied;
    # 5/off 2/off, or 5/2 2/off
    assert remaining(game, position({5: 1, 2: 1}, {1: 2}, dice=(6, 3))) == {(), (2,)}
    # no bearing off while a checker is outside the home board
    # (7/5 then 1/off is fine: by then every checker is home)
    assert remaining(game, position({7: 1, 1: 1}, {1: 2}, dice=(2, 1))) == {(1, 4), (5,)}


def test_doubles_play_four_times_and_gammons() -> None:
    game = Backgammon()
    s = BackgammonState(START, (0, 0), (0, 0), 0, (1, 1))
    assert all(len(a) == 4 for a in game.actions(s))
    won = BackgammonState(tuple([0] * 23 + [-15]), (0, 0), (15, 0), 1, None)
    assert game.is_terminal(won) and game.utilities(won) == (2, -2)  # gammon
    bg = BackgammonState(tuple([-1] + [0] * 22 + [-14]), (0, 0), (15, 0), 1, None)
    assert game.utilities(bg) == (3, -3)  # a checker still in the winner's home: backgammon


def test_move_notation_round_trips() -> None:
    game = load_game("backgammon")
    s = BackgammonState(START, (0, 0), (0, 0), 0, (6, 5))
    for a in game.actions(s):
        assert game.string_to_action(s, game.action_to_string(s, a)) == a
    assert game.string_to_action(s, "24/13") == game.string_to_action(s, "24/18 18/13")
    with pytest.raises(IllegalActionError):
        game.string_to_action(s, "24/20")
    with pytest.raises(IllegalActionError, match="malformed"):
        game.string_to_action(s, "twenty/four")


@pytest.mark.parametrize("dice, best", [
    # standard opening theory (gnubg's hint ranks these first): make the 5-, 4-, bar-
    # and 3-points, and the "lover's leap" with 6-5
    ((3, 1), {"8/5 6/5"}),
    ((4, 2), {"8/4 6/4"}),
    ((6, 1), {"13/7 8/7"}),
    ((6, 5), {"24/18 18/13", "24/13"}),
])
def test_depth_two_player_finds_the_standard_opening_plays(dice, best) -> None:
    game = Backgammon()
    s = BackgammonState(START, (0, 0), (0, 0), 0, dice)
    for spec in ("gammon", "gammon:kernel=false"):  # compiled, and Star2 in Python
        result = make_agent(spec)(game, s)
        assert game.action_to_string(s, result.action) in best, spec


def test_sampled_chance_nodes_in_a_pruned_search_report_their_sample_size() -> None:
    from gamesearch.search.chance import expectiminimax

    game = Backgammon()
    s = BackgammonState(START, (0, 0), (0, 0), 0, (4, 2))
    result = expectiminimax(game, s, depth=2, pruning="star2", samples=5, seed=1)
    assert result.stats.extra["sample_size"] == 5
    assert result.stats.extra["samples_drawn"] % 5 == 0 and result.stats.iterations > 0
    assert -3 <= result.value <= 3 and result.action in game.actions(s)
    exact = expectiminimax(game, s, depth=2, pruning="star2")
    assert result.stats.visited < exact.stats.visited  # 5 of 21 rolls per chance node
