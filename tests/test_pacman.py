"""Pacman: layout reading, the classic scoring, agents with depth in rounds, the CLI."""

import json

import pytest

from gamesearch.cli.main import main
from gamesearch.engines.pacman.agents import GhostAgent, PacmanAgent, play_game, rounds_to_plies
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.games.pacman import (
    LOST,
    OUT_OF_TIME,
    SCARED_TIME,
    WON,
    Layout,
    Pacman,
    layout_names,
)
from gamesearch.search.chance import expectimax
from gamesearch.search.minimax import minimax


def game_from(text: str, **options) -> Pacman:
    return Pacman(Layout(text, name="inline"), **options)


def test_shipped_layouts_cover_the_variety() -> None:
    names = layout_names()
    assert len(names) >= 5
    games = [Pacman(name) for name in names]
    assert {g.num_players - 1 for g in games} >= {1, 2, 3}  # one and several ghosts
    assert any(g.layout.capsules for g in games) and any(not g.layout.capsules for g in games)
    sizes = sorted(len(g.layout.cells) for g in games)
    assert sizes[-1] > 5 * sizes[0]  # small to large


@pytest.mark.parametrize("text, message", [
    ("%%%\n%.%\n%%%", "no Pacman"),
    ("%%%%\n%PP%\n%%%%", "second Pacman"),
    ("%%%%\n%P %\n%%%%", "no food"),
    ("%%%%%\n%P%.%\n%%%%%", "cannot be reached"),
    ("%%%%\n%P.x\n%%%%", "unknown character"),
])
def test_bad_layouts_are_named(text: str, message: str) -> None:
    with pytest.raises(FileFormatError, match=message):
        Layout(text, name="bad")


def test_scoring_food_win_time_penalty() -> None:
    game = game_from("%%%%%\n%P..%\n%%%%%")
    s = game.initial_state()
    s = game.result(s, "East")
    assert s.score == 10 - 1 and s.status == 0
    s = game.result(s, "East")
    assert s.score == 9 + 10 - 1 + 500 and s.status == WON and game.is_terminal(s)
    assert game.utilities(s) == (518.0,)  # Pacman alone: one utility


def test_caught_and_frightened_ghosts() -> None:
    game = game_from("%%%%%%%\n%Po.G.%\n%%%%%%%")
    s = game.initial_state()
    assert game.to_move(s) == 0 and game.actions(s) == ["Stop", "East"]  # the course's order
    s = game.result(s, "East")  # the capsule: the ghost is frightened
    assert s.scared == (SCARED_TIME,) and s.score == -1 and game.to_move(s) == 1
    s = game.result(s, "West")  # the ghost walks onto the food cell... and
    s = game.result(s, "East")  # Pacman eats the food and the frightened ghost on it
    assert s.score == -1 - 1 + 10 + 200 and s.ghosts == ((1, 4),) and s.scared == (0,)
    assert s.status == 0 and s.food.bit_count() == 1
    game = game_from("%%%%%%\n%P.G.%\n%%%%%%")
    s = game.result(game.result(game.initial_state(), "East"), "West")  # ghost meets Pacman
    assert s.status == LOST and s.score == 10 - 1 - 500
    assert game.utilities(s) == (-491.0, 491.0)


def test_game_ends_after_max_moves() -> None:
    game = game_from("%%%%%%\n%P %.%\n%%%%%%".replace("%.%", " .%"), max_moves=3)
    s = game.initial_state()
    for _ in range(3):
        s = game.result(s, "Stop")
    assert s.status == OUT_OF_TIME and s.score == -3


def test_depth_counts_full_rounds() -> None:
    game = Pacman("medium")  # Pacman and two ghosts
    assert rounds_to_plies(game, 2) == 6
    s = game.initial_state()
    result = PacmanAgent("minimax", depth=1)(game, s)
    assert result.stats.depth == 3  # one round = three plies
    assert result.value == minimax(game, s, depth=3).value


def test_expectimax_agent_equals_the_search_and_avoids_starving() -> None:
    # food far away: with the score alone every move looks alike and Pacman takes the first
    # in the course's order, Stop (the lectures' starving Pacman); the better evaluation
    # walks to it and wins
    text = "%%%%%%%%%%%\n%P       .%\n%%%%%%%%%%%"
    starving = play_game(game_from(text, evaluation="score", max_moves=40),
                         [PacmanAgent("expectimax", depth=1)])
    assert starving.status == OUT_OF_TIME  # waiting was as good as walking
    fed = play_game(game_from(text, evaluation="better"), [PacmanAgent("expectimax", 1)])
    assert fed.status == WON and fed.score == 10 - 8 + 500


def test_searching_pacman_beats_random_ghosts_on_small() -> None:
    game = Pacman("small")
    wins = 0
    for seed in range(3):
        final = play_game(game, [PacmanAgent("alphabeta", depth=1),
                                 GhostAgent("random", seed=seed)])
        wins += final.status == WON
    assert wins >= 2


def test_ghost_kinds_play_legal_moves_and_directional_chases() -> None:
    game = Pacman("medium")
    s = game.result(game.initial_state(), "Stop")
    chaser = GhostAgent("directional", seed=1, chase=1.0)
    a = chaser(game, s).action
    after = game.layout.moves[s.ghosts[0]][a]
    assert game.layout.distance(after, s.pacman) < game.layout.distance(s.ghosts[0], s.pacman)
    adversary = GhostAgent("adversarial", depth=1, seed=1)
    assert adversary(game, s).action in game.actions(s)
    with pytest.raises(GameSearchError, match="ghost kind"):
        GhostAgent("blue")


def test_expectimax_is_the_average_over_random_ghosts() -> None:
    game = game_from("%%%%%%%\n%P . G%\n%%%%%%%")
    s = game.result(game.initial_state(), "East")  # the ghost's move next
    children = [game.result(s, a) for a in game.actions(s)]
    by_hand = sum(game.evaluate(c, 0) for c in children) / len(children)
    s0 = game.initial_state()
    result = expectimax(game, s0, depth=2)
    assert result.action_values["East"] == pytest.approx(by_hand)


def test_cli_match_reports_win_rate_and_average(capsys) -> None:
    main(["pacman", "match", "--layout", "tiny", "--games", "2", "--pacman",
          "alphabeta:depth=1", "--ghosts", "directional", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and 0 <= data["win_rate"] <= 1
    assert data["average_score"] == pytest.approx(sum(data["scores"]) / 2)
    main(["pacman", "play", "--layout", "tiny", "--pacman", "greedy", "--seed", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["layout"] == "tiny" and isinstance(data["score"], int)
