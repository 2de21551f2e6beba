"""Every web move is a searched move (issue 38): MCTS answers with a child it searched however
short its time, go-mcts passes when nothing but its own territory is left, a worker killed
mid-move gives one logged and counted fallback (and the next move is searched), the health
endpoint reports fallbacks and replacements by cause, and Go's pass and resign end the game
with the right reason and score through the API.

Go facts used: under Tromp-Taylor area scoring a player's area is its stones plus the empty
points that reach only its stones, White adds komi; a stone with no liberty that captures
nothing is suicide (illegal here)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

import pytest

from budget import load_factor
from gamesearch.game import Game
from gamesearch.search.mcts import mcts

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402

PLY_SECONDS = 0.002


class SlowChoice(Game):
    """One choice among four for player 0, then two forced plies that each take
    ``PLY_SECONDS``: a simulation takes longer than the budgets below. Choice 0 (the first
    legal move) loses, 1 and 3 draw, 2 wins."""

    name = "slow_choice"
    num_players = 2
    zero_sum = True

    def initial_state(self):
        return (None, 0)

    def to_move(self, state):
        return 0 if state[0] is None else 1 - state[1] % 2

    def actions(self, state):
        return [0, 1, 2, 3] if state[0] is None else ["on"]

    def result(self, state, action):
        if state[0] is None:
            return (action, 0)
        time.sleep(PLY_SECONDS)
        return (state[0], state[1] + 1)

    def is_terminal(self, state):
        return state[0] is not None and state[1] >= 2

    def utilities(self, state):
        won = {0: -1.0, 1: 0.0, 2: 1.0, 3: 0.0}[state[0]]
        return (won, -won)


@pytest.mark.parametrize("seed", range(5))
def test_mcts_with_too_little_time_still_answers_a_searched_best_child(seed):
    """A budget far below one simulation: the answer is still a child the search
    simulated (never the first legal move by order), the winning one, since every root
    child gets its one simulation before the clock may end the search."""
    game = SlowChoice()
    result = mcts(game, game.initial_state(), time=1e-4, seed=seed)
    assert result.stats.iterations >= 1
    visits = result.stats.extra["visits"]
    assert visits[str(result.action)] >= 1
    assert result.action == 2 and result.action != game.actions(game.initial_state())[0]
    # the sweep is bounded: four simulations, not more (they sleep: the load stretches them)
    assert result.stats.seconds < 1.0 * load_factor()


def go_moves(*points: str) -> list[str]:
    """Black's and White's moves in turn (``-`` for a pass)."""
    return ["pass" if p == "-" else p for p in points]


# 5x5: Black holds column C, White column D and E1, E3, E5 (two eyes, E2 and E4). Black's
# only legal moves are in its own area (A and B: a stone on E2 or E4 is suicide).
WALLS = go_moves("C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5",
                 "-", "E1", "-", "E3", "-", "E5")


def test_go_mcts_passes_when_every_move_fills_its_own_territory():
    from gamesearch.engines.go.mcts import GoMCTSAgent, fills_own_territory
    from gamesearch.game import replay
    from gamesearch.games import load_game

    game = load_game("go:size=5")
    state = replay(game, WALLS)
    assert fills_own_territory(game, state)
    result = GoMCTSAgent(time=0.05)(game, state)
    assert result.action == game.pass_action
    # a move that gains a point is still played: not the empty board's first move
    opening = GoMCTSAgent(time=0.05, seed=1)(game, game.initial_state())
    assert opening.action != game.pass_action and opening.stats.iterations >= 1


def test_go_mcts_with_a_tiny_budget_plays_a_searched_capture_not_the_first_point():
    """The first point in order (A9, an empty corner) is what the old fallback played: a
    search of any length answers with its most visited child, here the capture."""
    from gamesearch.engines.go.mcts import GoMCTSAgent
    from gamesearch.game import replay
    from gamesearch.games import load_game

    game = load_game("go")
    # White's E5 has one liberty left, E4; Black to move takes it
    state = replay(game, go_moves("D5", "E5", "F5", "A1", "E6", "A2"))
    result = GoMCTSAgent(time=1e-4, seed=3)(game, state)
    assert result.stats.iterations >= 1
    assert game.action_to_string(state, result.action) == "E4"
    assert game.action_to_string(state, game.actions(state)[0]) == "A9"


# Black has just taken White's D5 with E5 (a ko): White's retake at D5 would repeat the board
# (illegal by positional superko), and it is a capture, the move Go knowledge likes best.
KO_TAKEN = go_moves("C5", "D5", "D6", "E6", "D4", "E4", "J9", "F5", "E5")


@pytest.mark.parametrize("seed", [1, 8, 12])
def test_go_mcts_reports_a_legal_move_from_its_first_batch_after_a_ko_capture(seed):
    """The soak's Go fallback ("no answer"): the kernel's root knew no ko, so the forbidden
    retake was the most visited root child and every report so far named no move; a move
    answered from a report at the page's deadline then fell back to A9. Every report now
    names a legal move, the first after one batch of simulations."""
    from gamesearch.engines.go.mcts import FIRST_BATCH, GoMCTSAgent
    from gamesearch.game import replay
    from gamesearch.games import load_game

    game = load_game("go")
    state = replay(game, KO_TAKEN)
    retake = game.string_to_action(replay(game, KO_TAKEN[:1]), "D5")  # White to move there
    legal = set(game.actions(state))
    assert retake not in legal  # the rules forbid it
    agent = GoMCTSAgent(time=30.0, seed=seed)  # timed as the web's: a small first batch
    seen = []
    agent.on_progress = lambda so_far: len(seen.append(so_far) or seen) == 3  # then move
    result = agent(game, state)
    assert len(seen) == 3 and seen[0].stats.iterations == FIRST_BATCH
    for so_far in seen:
        assert so_far.action in legal and so_far.pv[0] == so_far.action
    assert result.action in legal and result.action != game.pass_action
    first, count = agent.tree[1][0], agent.tree[2][0]
    root_moves = {agent._action(game, int(m)) for m in agent.tree[0][first:first + count]}
    assert retake not in root_moves and root_moves <= legal


def test_a_report_without_a_move_is_not_taken_as_the_answer():
    """The server answers from a search's report at the end of its search time only when the
    report names a move; one without waits for the search's result (today it fell back)."""
    import asyncio

    from gamesearch.web.api_play import wait_for_answer
    from gamesearch.web.pool import Job

    async def scenario():
        now = time.monotonic()
        job = Job(1, "think", {}, now + 5.0, search=0.1)
        job.events.put_nowait(("progress", {"action": None, "pv": []}))
        seen = []

        async def on_event(kind, data):
            seen.append(kind)

        asyncio.get_running_loop().call_later(
            0.4, job.events.put_nowait, ("result", {"action": "E5", "pv": ["E5"]}))
        answer = await wait_for_answer(job, now + 0.1, now + 3.0, on_event)
        return answer, seen

    (best, source, cause), seen = asyncio.run(scenario())
    assert best is not None and best["action"] == "E5" and source == "search" and not cause
    assert seen == ["progress"]  # the live view still saw the report


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, warm=False)) as c:
        yield c


def idle(client, count: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if client.get("/api/health").json()["pool"]["idle"] >= count:
            return
        time.sleep(0.05)
    raise AssertionError("the pool's workers did not become idle")


def test_a_worker_killed_mid_move_gives_a_logged_counted_fallback_then_searches(
        client, caplog):
    """MCTS reports nothing as it goes, so a worker killed under it leaves no answer: the
    move is the fallback, logged with its cause and counted in /api/health with the
    replacement; the next move is searched by the replacement."""
    idle(client, 2)
    before = client.get("/api/health").json()
    result = {}

    def long_move():
        result["r"] = client.post("/api/move", json={"game": "tictactoe", "moves": ["5"],
                                                     "agent": "mcts:time=8"})

    caplog.set_level(logging.WARNING, logger="gamesearch.web")
    thread = threading.Thread(target=long_move)
    thread.start()
    busy = []
    for _ in range(100):
        busy = client.get("/api/health").json()["pool"]["busy"]
        if busy:
            break
        time.sleep(0.05)
    assert busy
    time.sleep(0.2)
    os.kill(busy[0], signal.SIGKILL)
    thread.join(timeout=20)
    answer = result["r"]
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["source"] == "fallback" and "worker died" in data["note"]
    assert data["move"] in client.post("/api/position", json={
        "game": "tictactoe", "moves": ["5"]}).json()["legal"]
    health = client.get("/api/health").json()
    assert health["fallbacks"]["total"] == before["fallbacks"]["total"] + 1
    assert health["fallbacks"]["causes"].get("worker died", 0) >= 1
    assert health["pool"]["replaced"] == before["pool"]["replaced"] + 1
    assert sum(health["pool"]["replacements"].values()) == health["pool"]["replaced"]
    logged = [r.getMessage() for r in caplog.records if r.name == "gamesearch.web"]
    assert any("fallback move" in m and "worker died" in m for m in logged), logged
    assert any("replaced" in m and "signal 9" in m for m in logged), logged
    idle(client, 2)
    again = client.post("/api/move", json={"game": "tictactoe", "moves": ["5"],
                                           "agent": "mcts:time=0.3"}).json()
    assert again["source"] == "search" and again["stats"]["iterations"] >= 1
    assert client.get("/api/health").json()["fallbacks"]["total"] == \
        health["fallbacks"]["total"]


def test_go_two_passes_end_the_game_with_the_score(client):
    game = "go:size=5"
    over = client.post("/api/position", json={"game": game, "moves": WALLS + ["pass", "pass"]})
    view = over.json()
    assert over.status_code == 200 and view["terminal"] and view["end"] == "rules"
    # Black: 5 stones + 10 points (A, B); White: 8 stones + 2 eyes + komi 7 = 17
    assert view["utilities"] == [-1.0, 1.0]
    assert "W+2" in view["outcome"] and "both passed" in view["outcome"]
    assert "area black 15" in view["outcome"] and "white 10" in view["outcome"]


def test_go_mcts_passes_through_the_api_and_the_game_ends_by_two_passes(client):
    """Black has nothing left but its own area and passes; White, ahead on the count after
    that pass, passes too: the game ends by two passes with the score."""
    game = "go:size=5"
    first = client.post("/api/move", json={"game": game, "moves": WALLS,
                                           "agent": "go-mcts:time=0.3"}).json()
    assert first["move"] == "pass" and first["source"] == "search"
    second = client.post("/api/move", json={"game": game, "moves": first["position"]["moves"],
                                            "agent": "go-mcts:time=0.3"}).json()
    assert second["move"] == "pass"
    view = second["position"]
    assert view["terminal"] and "W+2" in view["outcome"] and "both passed" in view["outcome"]


def test_resign_through_the_api_ends_the_game_with_the_reason(client):
    body = {"game": "go:size=5", "moves": ["C3"], "resigned": 1}
    view = client.post("/api/position", json=body).json()
    assert view["terminal"] and view["end"] == "resignation" and view["resigned"] == 1
    assert view["utilities"] == [1.0, -1.0]
    assert view["outcome"] == "White resigned: Black wins"
    assert view["legal"] == [] and view["to_move"] is None
    refused = client.post("/api/move", json={**body, "agent": "go-mcts:time=0.2"})
    assert refused.status_code == 400 and "resigned" in refused.json()["error"]
    chess = client.post("/api/position", json={"game": "tictactoe", "moves": ["5"],
                                               "resigned": 0}).json()
    assert chess["outcome"] == "X resigned: O wins"
    late = client.post("/api/position", json={"game": "tictactoe", "resigned": 0,
                                              "moves": ["1", "4", "2", "5", "3"]})
    assert late.status_code == 400 and "over" in late.json()["error"]
    seat = client.post("/api/position", json={"game": "tictactoe", "moves": [],
                                              "resigned": 5})
    assert seat.status_code == 400 and "not a player" in seat.json()["error"]


def test_one_failing_warm_up_step_leaves_the_later_games_warm(monkeypatch, capsys):
    """A worker's warm-up used to stop at the first step that raised: every later game's
    kernel then compiled inside a move's budget, the worker was killed at the deadline and
    its replacement did the same (issue 38's backgammon, degraded until a restart)."""
    from gamesearch.web import warm

    ran = []

    def broken() -> None:
        raise ValueError("a changed signature")

    monkeypatch.setattr(warm, "_steps", lambda: [("first game", broken),
                                                 ("backgammon-like", lambda: ran.append(1))])
    warm.warm_engines()
    assert ran == [1]
    assert "warming first game failed: ValueError" in capsys.readouterr().err


def dying_worker(jobs, results, stop_flag, options) -> None:
    """A worker that dies before it is ready (a broken install, say)."""
    os._exit(3)


def test_workers_that_die_while_starting_are_replaced_after_pauses_never_given_up():
    """The pool used to stop replacing after five early deaths: a lane without workers for
    the server's whole life. Now it keeps replacing them, after pauses that double."""
    import asyncio

    from gamesearch.web.pool import MAX_EARLY_DEATHS, RESPAWN_PAUSE, WorkerPool

    async def main() -> tuple[float, dict]:
        pool = WorkerPool(1, "fork", analysis=0, target=dying_worker)
        await pool.start(wait=0.1)
        t0 = time.monotonic()
        try:
            while pool.status()["replaced"] < MAX_EARLY_DEATHS + 2 \
                    and time.monotonic() - t0 < 30:
                await asyncio.sleep(0.05)
            return time.monotonic() - t0, pool.status()
        finally:
            await pool.close()

    seconds, status = asyncio.run(main())
    assert status["replaced"] >= MAX_EARLY_DEATHS + 2  # not given up
    assert seconds >= RESPAWN_PAUSE  # the sixth replacement waited: no tight loop
    assert status["replacements"] == {"it exited with code 3": status["replaced"]}
