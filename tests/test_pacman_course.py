"""Pacman under ``rules=course`` against games recorded with the course's own engine.

tests/data/pacman_course_games.json holds 7 games (748 moves) that the Berkeley CS188
engine played with random Pacman and random ghosts on four course layouts: after every move
the mover's legal actions in the engine's order, everyone's position (frightened ghosts
stand half-way between cells), the fright timers, the score and the outcome. Our rules must
give the same at every step.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from gamesearch.errors import GameSearchError
from gamesearch.games.pacman import Layout, Pacman, layout_names, outcome
from gamesearch.games.pacman_agents import GhostAgent, PacmanAgent, play_game, rounds_to_plies
from gamesearch.search.minimax import minimax
from gamesearch.search.strict_alphabeta import alphabeta_strict

DATA = json.loads((Path(__file__).parent / "data" / "pacman_course_games.json").read_text())
LETTERS = {"W": "West", "X": "Stop", "E": "East", "N": "North", "S": "South"}


def _position(text: str) -> tuple[float, float]:
    r, c = text.split(",")
    return float(r), float(c)


@pytest.mark.parametrize("number", range(len(DATA["games"])))
def test_recorded_course_game_replays_exactly(number: int) -> None:
    record = DATA["games"][number]
    game = Pacman(Layout(record["text"], name=record["layout"]), ghosts=record["ghosts"],
                  max_moves=10_000)
    s = game.initial_state()
    for step, line in enumerate(record["steps"]):
        action, legal, pacman, ghosts, scared, score, result = line.split(" ")
        where = f"{record['layout']} step {step}: {line}"
        assert game.actions(s) == [LETTERS[a] for a in legal], where
        s = game.result(s, LETTERS[action])
        assert s.pacman == _position(pacman), where
        assert s.ghosts == tuple(_position(g) for g in ghosts.split(";")), where
        assert s.scared == tuple(int(t) for t in scared.split(",")), where
        assert s.score == int(score), where
        assert outcome(s) == ("playing" if result == "-" else result), where
    assert game.is_terminal(s)


@pytest.mark.parametrize("depth, value", [(1, 9), (2, 8), (3, 7), (4, -492)])
def test_minimax_classic_values_are_the_courses(depth: int, value: int) -> None:
    # the course's project text: minimaxClassic's minimax values at depths 1-4 are
    # 9, 8, 7, -492 (with its score evaluation)
    game = Pacman("minimaxClassic", evaluation="score")
    for algorithm in ("minimax", "alphabeta"):
        result = PacmanAgent(algorithm, depth=depth)(game, game.initial_state())
        assert result.value == value


def test_our_old_rules_gave_another_value() -> None:
    # ghosts turning back (rules=simple) change the depth-4 value: the issue's -493
    game = Pacman("minimaxClassic", evaluation="score", rules="simple")
    assert PacmanAgent("alphabeta", depth=4)(game, game.initial_state()).value == -493


def course_states(game: Pacman, search, **options) -> tuple:
    """The search's result and how many distinct states it looked at, states compared as
    the course's GameState compares them (Pacman's heading is part of a state: after Stop
    he keeps the last one)."""
    seen, stack = set(), []
    headings = {(-1, 0): "North", (1, 0): "South", (0, 1): "East", (0, -1): "West"}

    def trace(event: str, s, **_) -> None:
        if event in ("enter", "leaf"):
            heading = "Stop"
            if stack:
                parent, heading = stack[-1]
                if s.pacman != parent.pacman:
                    move = (s.pacman[0] - parent.pacman[0], s.pacman[1] - parent.pacman[1])
                    heading = headings[move]
            seen.add((s.pacman, heading, s.ghosts, s.directions, s.scared, s.food,
                      s.capsules, s.score))
            if event == "enter":
                stack.append((s, heading))
        elif event == "exit":
            stack.pop()

    result = search(game, game.initial_state(), trace=trace, **options)
    return result, len(seen)


@pytest.mark.parametrize("search, states", [(minimax, 59), (alphabeta_strict, 39)])
def test_expansions_match_the_course_autograder(search, states: int) -> None:
    # the course's q2/q3 8-pacman-game.solution, first move on smallClassic (two ghosts,
    # depth 2, Stop kept): West and East optimal, 59 states for minimax, 39 for alpha-beta
    game = Pacman("smallClassic", evaluation="score", ghosts=2)
    result, seen = course_states(game, search, depth=rounds_to_plies(game, 2))
    assert result.action == "West" and seen == states
    assert PacmanAgent("alphabeta", depth=2)(game, game.initial_state()).action == "West"


def test_fast_pruning_is_an_option_with_the_same_value() -> None:
    game = Pacman("minimaxClassic", evaluation="score")
    s = game.initial_state()
    course = PacmanAgent("alphabeta", depth=4)(game, s)
    fast = PacmanAgent("alphabeta", depth=4, pruning="fast")(game, s)
    assert fast.value == course.value == -492
    assert fast.stats.nodes < course.stats.nodes
    with pytest.raises(GameSearchError, match="pruning"):
        PacmanAgent("alphabeta", pruning="sloppy")


def _outcomes(game: Pacman, algorithm: str, depth: int, games: int) -> Counter:
    results = Counter()
    for seed in range(games):
        ghosts = [GhostAgent("random", seed=seed * 10 + g) for g in range(game.num_players - 1)]
        results[outcome(play_game(game, [PacmanAgent(algorithm, depth=depth), *ghosts]))] += 1
    return results


def test_trapped_classic_expectimax_gambles_alphabeta_gives_up() -> None:
    # the course's text: on trappedClassic at depth 3 against random ghosts "your
    # ExpectimaxAgent wins about half the time, while your AlphaBetaAgent always loses"
    game = Pacman("trappedClassic", evaluation="score")
    expecting = _outcomes(game, "expectimax", 3, 40)
    assert 0.3 <= expecting["won"] / 40 <= 0.7  # measured 18 of 40
    assert _outcomes(game, "alphabeta", 3, 40) == Counter(lost=40)


def test_better_evaluation_clears_every_layout_alone() -> None:
    # guaranteed progress: with no ghost about, one round of look-ahead always eats
    for name in layout_names():
        game = Pacman(name, ghosts=0)
        for algorithm in ("expectimax", "greedy"):
            final = play_game(game, [PacmanAgent(algorithm, depth=1)])
            assert outcome(final) == "won", (name, algorithm)
            assert final.moves <= len(game.layout.food) * game.layout.diameter_bound


def test_better_evaluation_rarely_runs_out_of_moves() -> None:
    # before: 39 of 200 games on smallClassic ran out of moves (the course engine: ~2%);
    # now 0 of 200 (expectimax depth 2 against random ghosts)
    results = _outcomes(Pacman("smallClassic"), "expectimax", 2, 20)
    assert results["out of moves"] <= 1 and results["won"] >= 16
