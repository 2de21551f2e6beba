"""The one game loop (gamesearch.loop.run_game, issue 37): the match plays through it, an
illegal move in a hidden-information game is caught, repetition applies to any game that
defines it, chance follows the seed, and a seat never sees another seat's private card."""

from __future__ import annotations

import random
import time

import pytest

from gamesearch.agent import Agent
from gamesearch.agents import make_agent
from gamesearch.arena.match import play_game, run_match
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.games import load_game
from gamesearch.imperfect.match import deal, duplicate_match, play
from gamesearch.loop import Fault, run_game
from gamesearch.result import SearchResult, SearchStats


class Recorder(Agent):
    """Plays the first legal action and keeps every state it was given."""

    def __init__(self, delay: float = 0.0) -> None:
        self.spec, self.delay = "recorder", delay
        self.seen: list[State] = []

    def __call__(self, game: Game, state: State) -> SearchResult:
        time.sleep(self.delay)
        self.seen.append(state)
        action = game.actions(state)[0]
        return SearchResult(None, action, [action], SearchStats())


class Answer(Agent):
    """Answers ``action`` whatever the position."""

    def __init__(self, action) -> None:
        self.spec, self.action = f"answer:{action}", action

    def __call__(self, game: Game, state: State) -> SearchResult:
        return SearchResult(None, self.action, [self.action], SearchStats())


@pytest.mark.parametrize("name", ["pig", "kuhn_poker"])
def test_a_seeded_match_game_is_the_loops_game(name: str) -> None:
    # the match seeds game i's chance with "seed/i" and agent A (B) with seed*1000003 + 2i
    # (+1), A sitting in seat i % 2; the loop given the same gives the same record
    game, seed = load_game(name), 11
    match = run_match(game, "random", "random", games=4, seed=seed)
    for record in match.records:
        i = record.index
        a = make_agent("random", seed=seed * 1_000_003 + 2 * i)
        b = make_agent("random", seed=seed * 1_000_003 + 2 * i + 1)
        seats = [a, b] if i % 2 == 0 else [b, a]
        direct = run_game(game, seats, rng=random.Random(f"{seed}/{i}"))
        assert direct.moves == record.moves and list(direct.utilities) == record.utilities
        assert direct.reason == "end of game"
    assert len({tuple(r.moves) for r in match.records}) > 1  # the games are not all one


def test_match_play_game_returns_the_loops_final_state_and_actions() -> None:
    game = load_game("kuhn_poker")
    told: list = []
    final, actions = play_game(game, [make_agent("random", seed=1), make_agent("random", seed=2)],
                               rng=random.Random(5), on_move=lambda s, a, r: told.append(a))
    record = run_game(game, [make_agent("random", seed=1), make_agent("random", seed=2)],
                      rng=random.Random(5))
    assert (final, actions) == (record.final, record.actions) and told == actions
    assert game.is_terminal(final)


CHEAT = "pbp"
"""A Kuhn 'move' that is no legal action: it passes, bets and folds for both players at
once, and Kuhn's rules (which trust their caller) would end the hand with it."""


def test_an_illegal_move_in_kuhn_is_caught_by_the_duplicate_match() -> None:
    game = load_game("kuhn_poker")
    rng = random.Random(3)
    start = deal(game, rng)
    assert CHEAT not in game.actions(start) and game.is_terminal(game.result(start, CHEAT))
    with pytest.raises(GameSearchError, match=r"'answer:pbp' played the illegal move 'pbp'"):
        play(game, start, [Answer(CHEAT), Recorder()], rng)
    with pytest.raises(GameSearchError, match="illegal move"):
        duplicate_match(game, Answer(CHEAT), make_agent("random", seed=1), deals=1)


def test_an_illegal_move_forfeits_where_faults_are_forfeited() -> None:
    game = load_game("leduc_poker")
    record = run_game(game, [Recorder(), Answer("x")], rng=random.Random(1), faults="forfeit")
    assert record.forfeit == 1 and record.utilities == (1.0, -1.0)
    assert record.reason == "forfeit: answer:x played the illegal move 'x'"
    assert [p.player for p in record.plies].count(1) == 0  # the fault is not a move


def test_a_slow_answer_loses_on_time_or_raises() -> None:
    game = load_game("tictactoe")
    slow = [make_agent("random", seed=1), Recorder(delay=0.05)]
    record = run_game(game, slow, movetime=0.01, faults="forfeit")
    assert record.forfeit == 1 and "lost on time" in record.reason
    assert record.utilities == (1.0, -1.0) and len(record.plies) == 1
    with pytest.raises(Fault, match="'recorder' lost on time"):
        run_game(game, slow, movetime=0.01)
    assert run_game(game, slow, movetime=5).reason == "end of game"


class Bluff(Game):
    """A hidden-information game that can repeat: chance gives player 1 a secret bit, then
    the players take turns to 'wait' or 'show' (player 1 wins the show with a 1). Waiting
    four times brings the first position back a third time."""

    name = "bluff"

    def initial_state(self) -> State:
        return (None, 0, False)

    def to_move(self, state: State) -> int:
        return CHANCE if state[0] is None else state[1] % 2

    def actions(self, state: State) -> list:
        return [0, 1] if state[0] is None else ["wait", "show"]

    def chance_outcomes(self, state: State) -> list:
        return [(0, 0.5), (1, 0.5)]

    def result(self, state: State, action) -> State:
        secret, waits, _ = state
        if secret is None:
            return (action, 0, False)
        return (secret, waits + 1, False) if action == "wait" else (secret, waits, True)

    def is_terminal(self, state: State) -> bool:
        return state[2]

    def utilities(self, state: State) -> tuple[float, float]:
        return (1.0, -1.0) if state[0] == 1 else (-1.0, 1.0)

    def repetition_key(self, state: State):
        return (state[0], state[1] % 2) if state[0] is not None else None

    def information_set(self, state: State, player: int):
        return (state[0] if player == 0 else None, state[1], state[2])

    def sample_state(self, info, player: int, rng: random.Random) -> State:
        secret = info[0] if info[0] is not None else rng.choice([0, 1])
        return (secret, info[1], info[2])


def test_repetition_ends_a_hidden_information_game_that_defines_it() -> None:
    # no shipped hidden-information game can repeat a position (poker's betting and a
    # trick-taking hand only go forward), so a small one that can is made here
    game = Bluff()
    waiters = [Recorder(), Recorder()]  # 'wait' is the first action
    record = run_game(game, waiters, rng=random.Random(2))
    assert record.reason == "draw by repetition" and record.utilities == (0.0, 0.0)
    assert record.moves[1:] == ["wait"] * 4 and record.plies[0].player == CHANCE
    assert play(game, deal(game, random.Random(2)), [Recorder(), Recorder()],
                random.Random(2)) == (0.0, 0.0)
    assert all(s[0] in (0, 1) for s in waiters[1].seen)  # a guess of the secret, not None


def test_chance_follows_the_seed() -> None:
    game = load_game("pig")

    def moves(seed: int) -> list[str]:
        seats = [make_agent("random", seed=1), make_agent("random", seed=2)]
        return run_game(game, seats, rng=random.Random(seed)).moves

    assert moves(7) == moves(7) and moves(8) == moves(8)
    assert len({tuple(moves(s)) for s in range(5)}) > 1  # the agents alone do not fix it


def test_a_seat_sees_nothing_of_the_other_seats_private_card() -> None:
    # two Kuhn deals that differ only in player 1's card: player 2 is shown the very same
    # states, so nothing it is given depends on the card it may not see
    game = load_game("kuhn_poker")
    start = deal(game, random.Random(0))
    other = next(c for c in game.actions(game.initial_state()) if c not in start[0])
    swapped = ((other, start[0][1]), start[1])
    assert game.information_set(swapped, 1) == game.information_set(start, 1)
    seen = []
    for first in (start, swapped):
        seats = [Recorder(), Recorder()]
        run_game(game, seats, first, rng=random.Random(4), views=random.Random(9))
        assert seats[1].seen
        seen.append(seats[1].seen)
    assert seen[0] == seen[1]
    assert seen[0][0][0][0] != start[0][0] or seen[1][0][0][0] != swapped[0][0]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "whist"])
def test_each_view_is_drawn_from_the_movers_information_set_alone(name: str) -> None:
    # a twin of the views generator, drawn in step with the loop's: every state a seat was
    # given is the one its information set (and nothing else) yields
    game = load_game(name)
    twin = random.Random()
    checked = []

    def check(state: State, ply) -> None:
        if ply.player == CHANCE:
            return
        info = game.information_set(state, ply.player)
        assert ply.seen == game.sample_state(info, ply.player, twin)
        assert game.information_set(ply.seen, ply.player) == info
        checked.append(ply.player)

    for seed in range(5):
        seats = [make_agent("random", seed=seed * 10 + p) for p in range(game.num_players)]
        twin.seed(100 + seed)
        run_game(game, seats, rng=random.Random(seed), views=random.Random(100 + seed),
                 on_move=check)
    assert set(checked) == set(range(game.num_players))


class Confident(Agent):
    """Plays the first legal action and reports ``value`` from its own viewpoint."""

    def __init__(self, value: float) -> None:
        self.spec, self.value = f"confident:{value}", value

    def __call__(self, game: Game, state: State) -> SearchResult:
        action = game.actions(state)[0]
        return SearchResult(self.value, action, [action], SearchStats(),
                            pov=game.to_move(state))


@pytest.mark.parametrize(("rules", "scores", "expected"), [
    # each side twice sure of its own score (+5 and -5): the doubter resigns at ply 4
    (dict(resign_score=3, resign_moves=2), (5, -5), ((1.0, -1.0), "adjudicated: resign", 4)),
    # both near 0 for 3 plies, counted from ply 5: a draw after the fifth move
    (dict(draw_score=1, draw_moves=3, draw_after=5), (0, 0), ((0.0, 0.0), "adjudicated: draw", 5)),
    (dict(max_plies=6), (0, 0), ((0.0, 0.0), "adjudicated: draw after 6 plies", 6)),
])
def test_the_tournaments_adjudication_is_the_loops_hook(rules, scores, expected) -> None:
    from gamesearch.arena.play import Rules, _play

    class Task:
        seed = 1

        class pairing:
            index = 0

    Task.rules = Rules(**rules)
    game, moves = load_game("connect4"), []
    utilities, reason = _play(game, game.initial_state(), [Confident(s) for s in scores],
                              Task, moves)
    assert (tuple(utilities), reason, len(moves)) == expected
    assert [m[2] for m in moves] == [scores[i % 2] for i in range(len(moves))]


def test_a_person_in_the_terminal_is_a_seat_given_its_own_view() -> None:
    # `gamesearch play`'s loop: the human agent's prompt is asked with a state drawn from
    # the person's information set, and the moves typed are checked like any agent's
    import io

    from gamesearch.agents import HumanAgent
    from gamesearch.cli.common import Output
    from gamesearch.cli.play import _play

    game = load_game("kuhn_poker")
    asked: list[State] = []

    def ask(g: Game, state: State) -> str:
        asked.append(state)
        return "p"

    guessed_wrong = 0
    for seed in range(12):
        moves: list[str] = []
        before = len(asked)
        final = _play(game, game.initial_state(), [HumanAgent(ask),
                      make_agent("random", seed=seed)], random.Random(seed),
                      Output(file=io.StringIO()), moves, random.Random(50 + seed))
        assert moves[2] == "p" and game.is_terminal(final)  # two deals, then the person
        mine = asked[before:]
        assert mine and all(s[0][0] == final[0][0] for s in mine)  # its own card: true
        guessed_wrong += any(s[0][1] != final[0][1] for s in mine)
    assert 1 <= guessed_wrong <= 11  # the other card: a guess, not the truth
