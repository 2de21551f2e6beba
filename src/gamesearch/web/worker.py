"""What runs inside a worker process: a fixed table of job kinds, nothing else.

A job names one of the kinds below and carries plain, already validated data (a game spec,
moves as text, an agent spec, a tree in object form). Messages back are
``(job_id, kind, data)`` with kind "progress", "result" or "error".
"""

from __future__ import annotations

import contextlib
import inspect
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.result import SearchTimeout, plain_data

SAFETY = 0.03
"""Seconds kept back from a search's budget for sending the answer."""

Send = Callable[[str, Any], None]


def agent_margin(seconds: float) -> float:
    """Seconds kept back from an agent that streams no progress (MCTS, paranoid, ...): if
    it answers late the server has nothing to play but the fallback, so it keeps more than
    alpha-beta does (15% of the budget, from 50 ms to 250 ms)."""
    return min(0.25, max(0.05, 0.15 * seconds))


def worker_main(jobs: Any, results: Any, stop_flag: Any, options: dict | None = None) -> None:
    """The worker loop: receive a job on ``jobs``, run it, send its messages on ``results``
    (framed for a reader that never blocks, :mod:`gamesearch.web.channel`); None ends the
    loop. ``options``: ``nice`` (lower this process's CPU priority), ``warm`` (load the
    compiled kernels before saying ready)."""
    import os
    import sys

    from gamesearch.web.channel import MessageWriter
    from gamesearch.web.validate import public_message

    options = options or {}
    from gamesearch.outside.programs import offer

    offer(options.get("programs") or {})  # before any job: no other program can be started
    if options.get("nice"):
        with contextlib.suppress(OSError):
            os.nice(options["nice"])
    import gamesearch.agents  # noqa: F401  (warm the imports before saying ready)
    import gamesearch.games  # noqa: F401
    import gamesearch.search.alphabeta  # noqa: F401

    if options.get("warm"):
        from gamesearch.web.warm import warm_engines, warm_worker

        try:
            warm_engines() if options["warm"] == "engines" else warm_worker()
        except Exception as err:  # noqa: BLE001  a failed warm-up costs speed, not the lane
            print(f"gamesearch web: warming the analysis worker failed: {err}",
                  file=sys.stderr)
    out = MessageWriter(results.fileno())
    out.send((0, "ready", None))
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        job_id = job["id"]

        def send(kind: str, data: Any, job_id: int = job_id) -> None:
            if kind == "error":  # no reply names a path on the server
                data = {**data, "message": public_message(data["message"])}
            out.send((job_id, kind, data))

        try:
            handler = JOBS[job["kind"]]
            handler(job["payload"], job["seconds"], stop_flag, send)
        except GameSearchError as err:
            status = 501 if type(err).__name__ == "Unavailable" else 400
            send("error", {"status": status, "message": str(err)})
        except RecursionError:
            send("error", {"status": 422, "message": "this position is too deep for the "
                                                     "search (recursion limit): not available"})
        except KeyboardInterrupt:
            return
        except Exception as err:  # a bug: report it, keep the worker alive
            send("error", {"status": 500,
                           "message": f"internal error: {type(err).__name__}: {err}"})


# --- the job kinds ---------------------------------------------------------------------------


def position(game_spec: str, moves: list[str]) -> tuple[Any, Any]:
    """The game and the state after ``moves`` (text, parsed and checked by the game)."""
    from gamesearch.game import replay
    from gamesearch.games import load_game

    game = load_game(game_spec)
    return game, replay(game, moves)


def describe(result: Any, game: Any, state: Any) -> dict:
    """A SearchResult as plain data, with nodes per second for the live view. A generic
    search's value that proves the end (Connect Four's +12: a won game's score, not a
    heuristic) is read by the game's ENTRY scale ("win in 1"), so the page never shows a
    bare number that means a win; an estimate stays an estimate (``exact`` false)."""
    data = result.as_dict(game, state)
    proven = entry_score(result, game, state)
    if proven is not None:
        data["score"] = proven.as_dict()
        data["pv"] = winning_end(game, state, data["pv"])
    data["nps"] = round(result.stats.nodes_per_second)
    value = data.get("value")
    if isinstance(value, float) and not math.isfinite(value):
        data["value"] = str(value)
    return data


def entry_score(result: Any, game: Any, state: Any) -> Any:
    """The game's own reading of a generic search's value where its ENTRY scale proves a
    distance to the end from it (a Score), else None: the engine's own score, an estimate,
    or a game whose scale says no distance."""
    from gamesearch.games import game_entry

    value = result.value
    if result.engine_score is not None or not isinstance(value, (int, float)) or state is None:
        return None
    if result.pov is None or not math.isfinite(value):
        return None
    scale = game_entry(game.name).scale
    if scale.distance is None or scale.distance(value, game, state) is None:
        return None
    return scale.score(value, result.pov, True, game, state)


def winning_end(game: Any, state: Any, pv: list[str]) -> list[str]:
    """A proven line with the move that wins at its end where the search's table cut it
    short (Connect Four's "lose in 1" with only the loser's move): the mover's move that
    ends the game in its favour, one look ahead."""
    from gamesearch.game import final_utilities

    at = state
    try:
        for text in pv:
            at = game.result(at, game.string_to_action(at, text))
    except (GameSearchError, ValueError):
        return pv
    if game.is_terminal(at):
        return pv
    mover = game.to_move(at)
    for action in game.actions(at):
        child = game.result(at, action)
        if game.is_terminal(child) and final_utilities(game, child)[mover] > 0:
            return [*pv, game.action_to_string(at, action)]
    return pv


def timed_agent(spec: str, seconds: float) -> Any:
    """The agent of ``spec``, built by its own factory (one parser for CLI and web), held to
    the server's deadline: an agent that takes ``time`` gets the smaller of its own and the
    ``seconds`` left (also when it names only iterations or a depth, as a cap), so it
    answers before the server stops waiting."""
    from gamesearch.agents import AGENTS, make_agent
    from gamesearch.spec import parse_spec

    name, params = parse_spec(spec)
    factory = AGENTS[name].factory
    if "time" not in inspect.signature(factory).parameters:
        return make_agent(spec)
    own = float(params["time"]) if "time" in params else math.inf
    return make_agent(spec, time=max(0.001, min(own, seconds - agent_margin(seconds))))


def think(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Let an agent choose a move. Alpha-beta deepens iteratively and reports every completed
    depth, on the game's compiled kernel where the agent chooses it (``pure=true`` keeps
    the readable search); the stop flag (set by the server) ends it inside the running
    depth. Every other agent gets the server's deadline as its time limit where it takes
    one, and reports its best answer so far where it can (``Agent.on_progress``)."""
    from gamesearch.catalog import check_agent_fits

    game, state = position(payload["game"], payload["moves"])
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is no move to make")
    spec = payload["agent"]
    check_agent_fits(spec, game, game.to_move(state))
    send("result", search_position(game, state, spec, seconds, stop_flag,
                                   with_notation(game, state, send)))


def with_notation(game: Any, state: Any, send: Send) -> Send:
    """``send``, with each answer's line also as people write it (``notation``: SAN for
    chess), as the thinking table and the analysis's lines show it."""
    def relay(kind: str, data: Any) -> None:
        if isinstance(data, dict) and "pv" in data:
            data = {**data, "notation": notation_of(game, state, data.get("pv") or [])}
        send(kind, data)

    return relay


def search_position(game: Any, state: Any, spec: str, seconds: float, stop_flag: Any,
                    send: Send, agent: Any = None) -> dict:
    """The agent's answer in ``state`` as plain data, each answer so far sent as "progress"
    (a move's search and an analysis's first line are the same search). ``agent``: one
    already made for ``seconds`` (an analysis searches many replies with one engine)."""
    from gamesearch.search.alphabeta import iterative_deepening
    from gamesearch.spec import parse_spec

    agent = agent if agent is not None else timed_agent(spec, seconds)
    if parse_spec(spec)[0] != "alphabeta":
        # an agent that reports as it searches (the chess engine, go-mcts) streams its
        # answers so far; the others send only their move
        def report(so_far: Any) -> bool:
            send("progress", describe(so_far, game, state))
            return bool(stop_flag.value)  # a person's stop, or the pool sharing workers

        agent.on_progress = report
        try:
            with passing_stop(stop_flag, agent):
                result = agent(game, state)
        finally:  # an outside program (gnubg, GNU Go, Stockfish, Edax) ends with the move
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        return describe(result, game, state)
    budget = max(0.001, seconds - SAFETY)
    stop = lambda: bool(stop_flag.value)  # noqa: E731
    if agent.uses_kernel(game):  # the compiled engine, loaded by this worker's warm-up
        from gamesearch.kernels.search import KernelTable, kernel_deepening

        results = kernel_deepening(game, state, agent.depth, time=budget, stop=stop,
                                   table=KernelTable(WEB_TABLE_MB))
    else:
        results = iterative_deepening(
            game, state, agent.depth, time=budget, stop=stop,
            null_window=agent.null_window,
            tt=agent.table_type(max(1024, min(agent.table_capacity, 1 << 20))),
        )
    depths = []
    last, stopped = None, False
    for result in results:
        again = last is not None and result.stats.depth == last.stats.depth
        last = result
        depths.append(result.stats.depth)
        if not again:  # the driver's last answer repeats its deepest depth: shown once
            send("progress", describe(result, game, state))
        if stop_flag.value:
            stopped = True
            break
    data = describe(last, game, state)
    data["proven"] = not stopped and (last.exact if last.stats.extra.get("kernel")
                                      else proven(depths, agent.depth))
    return data


STOP_POLL = 0.01
"""Seconds between looks at the stop flag while an agent searches (the engine's own stop
then cuts its depth: the pool's ``CANCEL_GRACE`` is far longer)."""


@contextmanager
def passing_stop(stop_flag: Any, agent: Any) -> Iterator[None]:
    """While the block runs, a set stop flag (a person's cancel, the pool sharing workers)
    reaches ``agent.stop`` (the chess engine's own stop, which cuts the running depth), so
    the search ends at once and the worker is not killed. Called again while the flag
    stays set: a stop that comes before the search cleared its own flag is not lost."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(STOP_POLL):
            if stop_flag.value:
                agent.stop()

    watcher = threading.Thread(target=watch, name="stop-passer", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


MULTI_PV_MOVES = 40
"""The most legal moves for which an analysis computes more lines than one: each other
move's reply is searched on its own (no engine here has a multi-PV search of its own), so
the lines cost one search per move; Go's 82 points would leave each a few milliseconds."""
MIN_CHILD_SECONDS = 0.02
"""The least time a move's own search gets in a multi-line analysis (else one line)."""
REPLY_SLACK = 1.0
"""Seconds past its time that an analysis may go on searching replies (each may overrun a
little; the server waits ``api_play.ANALYSIS_GRACE``, more than this, before it stops it)."""


def analyse(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Analyse a position: the agent's search of it streams as "progress" (the first line,
    the evaluation bar and arrow), then, for ``lines`` > 1, every other legal move's reply is
    searched in what is left of the time and the best lines are sent as "lines". A game
    with chance or more than two players, or too many moves to search each, gets one line
    and a note that says why. The result names the lines and that note. ``seconds`` is the
    time to the job's deadline; the analysis takes the payload's ``time`` of it, whenever it
    started (a job that waited in the queue still gets its whole time), less where the
    deadline is nearer."""
    from gamesearch.agents import AGENTS
    from gamesearch.catalog import check_agent_fits
    from gamesearch.game import CHANCE, has_chance
    from gamesearch.spec import parse_spec

    began = time.monotonic()
    seconds = min(float(payload.get("time", seconds)),
                  max(MIN_CHILD_SECONDS, seconds - REPLY_SLACK - SAFETY))
    game, state = position(payload["game"], payload["moves"])
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to analyse")
    spec, wanted = payload["agent"], int(payload.get("lines", 1))
    mover = game.to_move(state)
    check_agent_fits(spec, game, mover)
    legal = list(game.actions(state))
    note = ""
    if wanted > 1:
        note = ("1 line: chance moves in this game" if has_chance(game)
                else "1 line: more than two players" if game.num_players != 2
                else "1 line: an outside program" if AGENTS[parse_spec(spec)[0]].outside
                else f"1 line: {len(legal)} moves are too many to search each"
                if len(legal) > MULTI_PV_MOVES
                else f"1 line: too little time to search {len(legal)} moves each"
                if seconds / 2 / max(1, len(legal) - 1) < MIN_CHILD_SECONDS else "")
    multi = wanted > 1 and not note

    first = search_position(game, state, spec, seconds / 2 if multi else seconds,
                            stop_flag, with_notation(game, state, send))
    lines = [line_of(first, [])]
    if multi and first.get("action") is not None and not stop_flag.value:
        others = [a for a in legal if game.action_to_string(state, a) != first["action"]]
        each = max(MIN_CHILD_SECONDS, seconds / 2 / max(1, len(others)))
        # the engine's own clock gets all of `each` (timed_agent keeps a margin back)
        found, engine = [], timed_agent(spec, each + agent_margin(each))
        for action in others:
            if stop_flag.value or time.monotonic() - began > seconds + REPLY_SLACK:
                break
            text = game.action_to_string(state, action)
            child = game.result(state, action)
            if game.is_terminal(child) or game.to_move(child) == CHANCE:
                found.append(ended_line(game, child, text))
                continue
            reply = search_position(game, child, spec, each, stop_flag, lambda *_: None,
                                    engine)
            found.append({**line_of(reply, [text]), "score": one_move_earlier(
                reply.get("score"), mover)})
        searched = len(found)
        found = [line for line in found if line["score"] is not None]
        found.sort(key=lambda line: -mover_share(line["score"], mover))
        lines += found[:wanted - 1]
        if searched < len(others):  # stopped, or out of time: say so
            note = (f"{len(lines)} of {min(wanted, len(legal))} lines: the time ran out "
                    f"after {searched} of the other {len(others)} moves")
    for line in lines:
        line["notation"] = notation_of(game, state, line["pv"])
    if multi:
        send("lines", {"lines": lines, "note": note})
    send("result", {**first, "lines": lines, "note": note})


def notation_of(game: Any, state: Any, pv: list[str]) -> list[str]:
    """A line's moves as people write them (the entry's ``notation``: chess's SAN), else
    as the game writes them; the moves as given where one does not read."""
    from gamesearch.games import game_entry

    write = game_entry(game.name).notation
    if write is None:
        return list(pv)
    out, at = [], state
    try:
        for text in pv:
            action = game.string_to_action(at, text)
            out.append(write(game, at, action))
            at = game.result(at, action)
    except (GameSearchError, ValueError):
        return list(pv)
    return out


def line_of(data: dict, before: list[str]) -> dict:
    """One line of an analysis: its moves (``before``, then the search's principal
    variation), its score (player 1's viewpoint, as every answer's) and depth."""
    pv = [*before, *(data.get("pv") or [])]
    return {"move": pv[0] if pv else None, "pv": pv, "score": data.get("score"),
            "depth": (data.get("stats") or {}).get("depth")}


def one_move_earlier(score: dict | None, mover: int) -> dict | None:
    """A reply's score (player 1's viewpoint) as the root sees it: a won game's distance
    (``mate_in``, the winner's moves to the end) is one move longer when the winner is the
    player who moves at the root, whose move led to the reply."""
    from gamesearch.result import Score

    if not score or score.get("mate_in") is None:
        return score
    mate = score["mate_in"]
    if (0 if mate > 0 else 1) != mover:
        return score
    longer = mate + 1 if mate > 0 else mate - 1
    return Score(score["value"], 0, score["exact"], score["kind"], mate_in=longer).as_dict()


def ended_line(game: Any, state: Any, move: str) -> dict:
    """The line of a move that ends the game (or hands it to chance: no score)."""
    from gamesearch.game import final_utilities
    from gamesearch.result import Score

    if not game.is_terminal(state):
        return {"move": move, "pv": [move], "score": None, "depth": 0}
    first = final_utilities(game, state)[0]
    return {"move": move, "pv": [move], "depth": 0,
            "score": Score(first, 0, exact=True).as_dict()}


def mover_share(score: dict, mover: int) -> float:
    """The win probability of the player to move from a score's dict (player 1's view)."""
    p = score.get("win_probability")
    p = 0.5 if p is None else float(p)
    return p if mover == 0 else 1.0 - p


WEB_TABLE_MB = 16
"""The compiled search's table in the web (made for every move: 16 MB is filled in a few
milliseconds; the 64 MB default took 0.1 s of a 1 s budget on a loaded machine)."""


def proven(depths: list[int], max_depth: int | None) -> bool:
    """Did iterative deepening end because its value is exact (the search reached the end of
    the game everywhere)? Its documented endings: exact (the last depth is new), out of time
    (the deepest result again, or depth 0), or the depth limit reached."""
    if not depths or depths[-1] < 1:
        return False
    if len(depths) > 1 and depths[-1] == depths[-2]:
        return False
    return max_depth is None or depths[-1] < max_depth


def verdict(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """The game-theoretic value of a position: the game's own solver where it has one
    (Connect Four's), else exact alpha-beta on every move within the time budget."""
    from gamesearch.games import game_entry
    from gamesearch.spec import parse_spec

    game, state = position(payload["game"], payload["moves"])
    entry = game_entry(parse_spec(payload["game"])[0])
    if game.is_terminal(state):
        send("result", {"kind": "over", "utilities": list(game.utilities(state))})
        return
    unsolved = no_verdict_reason(game, state)
    if unsolved is not None:
        send("result", {"kind": "none", "message": unsolved})
        return
    if entry.solver is not None:
        if compile_first(game, send) and stop_flag.value:  # the request has gone meanwhile
            send("result", {"kind": "unknown", "message": "compiled; ask again"})
            return
        budget = max(0.05, seconds - 0.1)
        end = time.monotonic() + budget

        def stop() -> bool:  # the request has gone (or the pool says time), or the budget
            return bool(stop_flag is not None and stop_flag.value) or time.monotonic() > end

        stopping = entry.verdict.stopping
        try:
            with stopping(game, stop) if stopping is not None else contextlib.nullcontext():
                report = entry.solver(game, state, {"depth": None, "budget": budget})
                values = entry.verdict.move_values
                if values is not None:  # the board shows every move's perfect-play value
                    report["action_values"] = {game.action_to_string(state, a): value
                                               for a, value in values(game, state).items()}
        except SearchTimeout:
            send("result", {"kind": "unknown", "message": f"not solved within {budget:.1f} s"
                            if time.monotonic() > end else "stopped"})
            return
        send("result", {"kind": "solver", "report": _plain(report)})
        return
    if game.num_players != 2 or not game.zero_sum:
        send("result", {"kind": "none", "message": "no verdict for this kind of game"})
        return
    stop = (lambda: bool(stop_flag.value)) if stop_flag is not None else None
    send("result", exact_action_values(game, state, seconds - SAFETY, stop))


def no_verdict_reason(game: Any, state: Any) -> str | None:
    """Why no exact verdict is tried here (the game's verdict policy: positions no search
    solves within a verdict's budget); ``None`` to try."""
    from gamesearch.games import game_entry

    refuse = game_entry(game.name).verdict.refuse
    return refuse(game, state) if refuse is not None else None


def compile_first(game: Any, send: Send) -> bool:
    """Compile the game's solver if no cache holds it, between "compiling" and "compiled"
    messages: the pool neither kills nor recycles a worker while it compiles (a verdict
    killed at its deadline would never finish compiling), and the person is told to ask
    again. True when it compiled."""
    from gamesearch.web.warm import compile_solver, solver_needs_compile

    if not solver_needs_compile(game):
        return False
    send("compiling", {"message": f"compiling the solver for {game.name} (first use on "
                                  "this server); ask again in a few seconds"})
    compile_solver(game)
    send("compiled", None)
    return True


def exact_action_values(game: Any, state: Any, seconds: float,
                        stop: Callable[[], bool] | None = None) -> dict:
    """Every legal move's exact value for the player to move, or 'unknown' when the budget
    runs out first or ``stop`` says so (alpha-beta to the end of the game, one table for
    all moves)."""
    from gamesearch.result import Clock, SearchTimeout
    from gamesearch.search.alphabeta import AlphaBeta

    mover = game.to_move(state)
    searcher = AlphaBeta(game, clock=Clock(seconds, stop))
    values = {}
    try:
        for action in game.actions(state):
            child = game.result(state, action)
            if game.is_terminal(child):
                v = game.utilities(child)[mover]
            else:
                v = searcher.search(child, None).value
                if game.to_move(child) != mover:
                    v = -v
            values[game.action_to_string(state, action)] = _plain(v)
    except SearchTimeout:
        return {"kind": "unknown",
                "message": f"not solved within {seconds:.1f} s by alpha-beta"}
    best = max(values.values())
    return {"kind": "alphabeta", "value": best, "to_move": game.player_name(mover),
            "action_values": values,
            "best": [a for a, v in values.items() if v == best]}


def tree(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Run a search on a tree from the tree lab and record its trace."""
    from gamesearch.web.treelab import run_tree

    send("result", run_tree(payload["tree"], payload["algorithm"], payload.get("depth")))


def matrix(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Analyse a normal-form game (through the theory adapter)."""
    from gamesearch.web import theory_api

    send("result", _plain(theory_api.analyze(payload)))


def matrix_file(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Read a normal-form game file's text (through the theory adapter)."""
    from gamesearch.web import theory_api

    send("result", _plain(theory_api.parse_file(payload["text"], payload["name"])))


def efg(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """Draw and solve an extensive-form game from .efg text (web/efglab.py)."""
    from gamesearch.web.efglab import efg_view

    send("result", _plain(efg_view(payload["text"], payload["method"], payload["lambda"])))


def tree_matrix(payload: dict, seconds: float, stop_flag: Any, send: Send) -> None:
    """The normal form of a tree from the tree lab (through the theory adapter)."""
    from gamesearch.web import theory_api
    from gamesearch.web.treelab import build

    send("result", _plain(theory_api.tree_to_matrix(build(payload["tree"]))))


_plain = plain_data  # the one JSON normaliser (gamesearch.result), as the CLI's


JOBS: dict[str, Callable[[dict, float, Any, Send], None]] = {
    "think": think,
    "analyse": analyse,
    "verdict": verdict,
    "tree": tree,
    "matrix": matrix,
    "matrix_file": matrix_file,
    "tree_matrix": tree_matrix,
    "efg": efg,
}
