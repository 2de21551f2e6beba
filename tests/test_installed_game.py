"""A game from an installed package is as good as a built-in one (issue #37): the example
package examples/gamesearch-bachet, installed into a folder of its own, is listed, solved,
played in a match and answered by the web API's move endpoint, through the entry-point
group ``gamesearch.games`` alone.

Facts from outside: in Bachet's game (take 1-3 sticks, the last one wins) a pile that is a
multiple of 4 is lost for the player to move (Winning Ways, ch. 4): 20 sticks are lost, 21
are won by taking 1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "gamesearch-bachet"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example package installed (pip, no network, no build isolation) into a folder
    that only the subprocesses below put on their path."""
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    source = build / EXAMPLE.name  # built from a copy: no egg-info left in the repository
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns(
        "*.egg-info", "build", "__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=300, cwd=build)
    if done.returncode != 0:
        pytest.skip(f"pip could not install the example package here: {done.stderr[-300:]}")
    assert any(target.glob("gamesearch_bachet-*.dist-info/entry_points.txt"))
    return target


def run(site: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    """``gamesearch ARGS`` (or a Python snippet) with the example's folder on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")])}
    command = [sys.executable, "-c", code] if code else \
        [sys.executable, "-m", "gamesearch", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)


def test_the_installed_game_is_listed(site: Path) -> None:
    listed = run(site, "games", "--json")
    assert listed.returncode == 0, listed.stderr
    names = [g["name"] for g in json.loads(listed.stdout)["games"]]
    assert "bachet" in names and "chess" in names  # beside the built-in games
    agents = run(site, "agents", "bachet")
    assert agents.returncode == 0 and "bachet-perfect" in agents.stdout


def test_the_installed_game_is_solved_by_its_own_solver(site: Path) -> None:
    lost = json.loads(run(site, "solve", "bachet", "--sticks", "20", "--json").stdout)
    won = json.loads(run(site, "solve", "bachet", "--json").stdout)
    assert lost["value"] == -1 and lost["best_move"] is None
    assert won["value"] == 1 and won["best_move"] == 1
    bad = run(site, "solve", "bachet", "--sticks", "5000")
    assert bad.returncode == 2 and "sticks" in bad.stderr and "Traceback" not in bad.stderr


def test_the_generic_analyze_uses_the_installed_games_analyzer(site: Path) -> None:
    """``analyze`` names no game: Bachet's entry declares an analyzer and the command finds
    it. From 21 sticks only taking 1 wins (it leaves 20, a multiple of 4); from 20 every
    take loses. A game without one is refused on one line that names Bachet's too."""
    won = run(site, "analyze", "bachet", "--json")
    assert won.returncode == 0, won.stderr
    data = json.loads(won.stdout)
    assert data["scores"] == {"1": 1, "2": -1, "3": -1} and data["best"] == ["1"]
    lost = json.loads(run(site, "analyze", "bachet", "--sticks=20", "--json").stdout)
    assert set(lost["scores"].values()) == {-1}
    shown = run(site, "analyze", "bachet", "--max-take=4")  # 21 = 5*4 + 1: take 1 wins
    assert shown.returncode == 0 and "best: 1 (win)" in shown.stdout
    refused = run(site, "analyze", "tictactoe")
    lines = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(lines) == 1 and "bachet" in lines[0]


def test_the_installed_game_plays_a_match(site: Path) -> None:
    """Its own perfect agent against random: it wins every game it starts from 21 sticks
    (a won pile), and the match refuses its agent for another game."""
    done = run(site, "match", "bachet", "bachet-perfect", "random", "--games", "6",
               "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 6 and report["wins"] >= 3  # every game it opens is won
    refused = run(site, "match", "tictactoe", "bachet-perfect", "random", "--games", "2")
    assert refused.returncode == 2 and "plays bachet only" in refused.stderr


def test_the_web_api_answers_the_installed_game(site: Path) -> None:
    code = textwrap.dedent("""
        import json
        from fastapi.testclient import TestClient
        from gamesearch.web.app import create_app

        with TestClient(create_app(workers=1, warm=False)) as client:
            games = [g["name"] for g in client.get("/api/games").json()["games"]]
            seats = client.get("/api/seats", params={"game": "bachet"}).json()["seats"]
            move = client.post("/api/move", json={"game": "bachet:sticks=21", "moves": [],
                                                  "agent": seats[0]["default"]}).json()
            print(json.dumps({"games": games, "default": seats[0]["default"], "move": move}))
    """)
    pytest.importorskip("fastapi")
    done = run(site, code=code)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert "bachet" in answer["games"] and answer["default"] == "bachet-perfect"
    assert answer["move"]["move"] == "1" and answer["move"]["source"] == "search"


def test_the_installed_game_is_a_pettingzoo_and_gymnasium_environment(site: Path) -> None:
    """Issue #40: PettingZoo's api_test passes on the installed game (its action space is
    derived by enumeration: it numbers no actions), and a random learner loses every
    Gymnasium episode from a lost pile (20 sticks) against the game's own perfect agent."""
    pytest.importorskip("pettingzoo")
    code = textwrap.dedent("""
        import json, warnings
        import numpy as np
        from pettingzoo.test import api_test
        from gamesearch.games import load_game
        from gamesearch.interop.gymnasium import SeatEnv
        from gamesearch.interop.pettingzoo import env

        game = load_game("bachet")
        environment = env(game)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(environment, num_cycles=1000)
        seat = SeatEnv(load_game("bachet:sticks=20"), "bachet-perfect", seat=0)
        rng, rewards = np.random.default_rng(0), []
        for seed in range(5):
            obs, _ = seat.reset(seed=seed)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                obs, reward, done, _, _ = seat.step(action)
            rewards.append(reward)
        print(json.dumps({"actions": environment.actions.size,
                          "derived": environment.actions.derived, "rewards": rewards}))
    """)
    done = run(site, code=code)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["actions"] == 3 and answer["derived"]  # take 1, 2 or 3
    assert answer["rewards"] == [-1.0] * 5
