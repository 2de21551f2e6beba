"""Play routes: the games, positions, the AI's move (streamed live or in one answer), stop,
and the verdict of solved games."""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from gamesearch.game import CHANCE, drawn_by_repetition, replay, replay_game
from gamesearch.web import hidden, validate
from gamesearch.web.pool import KILL_GRACE, Job, JobFailed, WorkerCrashed
from gamesearch.web.validate import (
    AnalyseRequest,
    PositionRequest,
    RecordRequest,
    StopRequest,
    ThinkRequest,
)
from gamesearch.web.views import (
    chance_rng,
    first_move,
    position_view,
    resigned_utilities,
    roll_chance,
)

router = APIRouter()
log = logging.getLogger("gamesearch.web")

LAG_RESERVE = 2.0
"""The AI answers ``LAG_RESERVE`` times the event loop's recent lag before its budget ends
(at most ``MAX_RESERVE`` of the budget): under load a request waits about that long before
it is read and again before its answer is sent, and the promise is the budget counted at
the client."""
MAX_RESERVE = 0.5
PROVEN_CACHE_SIZE = 20_000
"""Exact answers remembered across requests (see :func:`cache_key`)."""
SOLVER_BUDGET = 5.0
"""Seconds a game's own solver gets for a verdict."""
VERDICT_BUDGET = 1.0
"""Seconds exact alpha-beta gets for a verdict (games without a solver)."""
VERDICT_CACHE_SIZE = 5_000
"""Finished verdicts remembered across requests."""
DISCONNECT_POLL = 0.25
"""Seconds between checks that the client of a long job is still there."""
ANALYSIS_GRACE = 3.0
"""Seconds an analysis may run past its time before its worker is stopped (its replies'
searches may overrun by a little each)."""
ANALYSIS_QUEUE = 10.0
"""Seconds an analysis may wait for the analysis lane (behind a verdict: a solver gets
5 s) and still get its whole time once it starts."""
ANSWER_WAIT = 1.0
"""Seconds the server waits, past the moment a worker overrunning its hard budget is
killed, for the pool to say so (a safety: the pool always ends a job)."""


class Fallbacks:
    """The moves answered without a search (the first move in the game's order), counted by
    cause for ``/api/health`` and logged: each one is a fault to find."""

    def __init__(self) -> None:
        self.causes: collections.Counter[str] = collections.Counter()
        self.moves = 0  # every AI move answered

    def note(self, cause: str, spec: str, agent: str, moves: int) -> None:
        self.causes[cause.split(":")[0]] += 1
        log.warning("fallback move (the first in the game's order) in %s after %d moves for "
                    "%s: %s", spec, moves, agent, cause)

    def status(self) -> dict:
        return {"total": sum(self.causes.values()), "causes": dict(self.causes),
                "moves": self.moves}


@functools.lru_cache(maxsize=64)
def cached_game(spec: str) -> Any:
    """Games hold only rules and parameters (never mutated), so one object per spec serves
    every request; building one parses the spec against the factory's signature."""
    from gamesearch.games import load_game

    return load_game(validate.game_spec(spec))


def load_position(game_spec: str, moves: list[str]) -> tuple[str, Any, Any, bool]:
    """The game, the state after ``moves`` and whether they ended it by repetition."""
    spec = game_spec.strip()
    game = cached_game(spec)
    return (spec, game, *replay_game(game, moves))


@router.get("/games")
async def games() -> dict:
    """The built-in games the page can play, with their parameters, solver hook and record
    format (``pgn``, ``sgf``, ``pdn`` or None: whether the page offers "Save game")."""
    import inspect

    from gamesearch.games import entries

    out = []
    for entry in entries():
        if entry.name in validate.EXCLUDED_GAMES:
            continue
        params = {k: (None if p.default is inspect.Parameter.empty else str(p.default))
                  for k, p in inspect.signature(entry.factory).parameters.items()}
        out.append({"name": entry.name, "title": entry.display_name,
                    "summary": entry.summary, "params": params,
                    "picture": entry.svg is not None,
                    "solver": entry.solver is not None,
                    "record": entry.record.suffix if entry.record is not None else None,
                    "opens": entry.record is not None and entry.record.read is not None,
                    "position": None if entry.position_text is None else
                    {"param": entry.position_text.param, "title": entry.position_text.title}})
    return {"games": out}


@functools.lru_cache(maxsize=64)
def _picture(name: str) -> str:
    """The game's own drawing (its entry's ``svg``) of its starting position."""
    from gamesearch.games import game_entry

    entry = game_entry(name)
    if entry.svg is None:
        raise validate.UnknownNameError(f"game {name!r} has no picture")
    game = cached_game(name)
    return str(entry.svg(game, game.initial_state(), None, ()))


@router.get("/picture")
async def picture(game: str = Query(max_length=60)) -> Response:
    """A registered game's starting position as an SVG picture (the home page's thumbnails;
    the same drawing as ``gamesearch.display``); 404 for a game without one."""
    name = validate.game_spec(game).split(":")[0]
    return Response(_picture(name), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=3600"})


@router.get("/agents")
async def agents(request: Request) -> dict:
    """The agent kinds the page can offer (every registered one but the human; those that
    drive an outside program only with the programs the server offers, by name)."""
    import inspect

    from gamesearch.agents import AGENTS

    return {"agents": [{"name": n, "summary": AGENTS[n].summary,
                        "params": list(inspect.signature(AGENTS[n].factory).parameters)}
                       for n in validate.offered_agents(request.app.state.programs)],
            "programs": sorted(request.app.state.programs)}


def unmasked(request: Request, body: Any) -> Any:
    """The request with its true move list: hidden outcomes (``?``) put back from its deal."""
    spec = body.game.strip()
    moves = hidden.unmask(request.app, cached_game(spec), spec, body.moves, body.deal,
                          body.viewer)
    return body.model_copy(update={"moves": moves})


def shown(request: Request, body: Any, data: dict) -> dict:
    """A move answer as its viewer may see it (web/hidden.py): the position masked, and in
    a hidden-information game none of the AI's values or lines."""
    spec = body.game.strip()
    game = cached_game(spec)
    view = data["position"]
    view = hidden.present(request.app, game, spec, view, replay(game, view["moves"]),
                          body.deal, body.viewer)
    data = {**data, "position": view}
    if body.viewer is not None and hidden.is_hidden_game(game) and not view["terminal"]:
        data = hidden.redact_search(data)
    return data


@router.post("/position")
async def position(request: Request, body: PositionRequest) -> JSONResponse:
    """The position after the moves: board, players, legal moves, outcome."""
    body = unmasked(request, body)
    spec, game, state, repeated = load_position(body.game, body.moves)
    moves = body.moves
    if not body.browse and body.resigned is None:
        state, moves = roll_chance(game, state, moves, chance_rng(body.seed, moves))
    view = position_view(spec, game, moves, state, repeated, body.resigned)
    return JSONResponse(hidden.present(request.app, game, spec, view, state, body.deal,
                                       body.viewer, store=not body.browse))


@router.post("/record")
async def record(request: Request, body: RecordRequest) -> dict:
    """The game so far as its kind's record file (PGN for chess, SGF for Go, PDN for
    checkers), for the page's "Save game"; 400 for a game without a record format. A
    resignation (``resigned``, the seat that gave up) is the record's result."""
    from gamesearch.catalog.game_records import record_format, record_text
    from gamesearch.game import final_utilities

    spec, game, state, repeated = load_position(body.game, body.moves)
    suffix, _ = record_format(game)
    over = game.is_terminal(state) or repeated
    utilities = list(final_utilities(game, state)) if over else None
    if body.resigned is not None:  # checked as the position checks it: a seat, in play
        position_view(spec, game, body.moves, state, repeated, body.resigned)
        utilities = resigned_utilities(game, body.resigned)
    text = record_text(game, game.initial_state(), body.moves, body.players, utilities)
    return {"format": suffix, "filename": f"gamesearch-{game.name}.{suffix}", "text": text}


def cache_key(spec: str, moves: list[str], agent: str) -> tuple | None:
    """The key of a proven (exact) alpha-beta answer: the position and the parameters that
    change what the agent plays (its depth and variant; not its time, since an exact answer
    is the same however long the search may run). Only alpha-beta answers are cached."""
    from gamesearch.spec import parse_spec

    name, params = parse_spec(agent)
    if name != "alphabeta":
        return None
    return (spec, tuple(moves), params.get("depth"), params.get("pvs"))


def remember(proven: collections.OrderedDict, key: tuple | None, data: dict) -> None:
    """Keep an exact answer (least recently stored ones go first)."""
    if key is None or not data.get("proven"):
        return
    proven[key] = data
    proven.move_to_end(key)
    while len(proven) > PROVEN_CACHE_SIZE:
        proven.popitem(last=False)


def checked(request: Request, body: ThinkRequest
            ) -> tuple[str, Any, Any, str, tuple[float, float]]:
    """The position and the agent of a move request (as it runs, with its search time and
    hard budget: ``validate.move_times``), refused if either is wrong, the agent does not
    fit the game or the seat (the catalog says why), or there is no move for an agent to
    make."""
    from gamesearch.catalog import check_agent_fits
    from gamesearch.games import game_entry

    spec, game, state, repeated = load_position(body.game, body.moves)
    agent, _ = validate.agent_spec(body.agent, request.app.state.programs)
    agent, search, hard = validate.move_times(agent, game_entry(game.name).move_time)
    if game.is_terminal(state):
        raise validate.GameSearchError("the game is over: there is no move to make")
    if repeated:
        raise validate.GameSearchError("the game is over: drawn by repetition")
    if body.resigned is not None:
        raise validate.GameSearchError("the game is over: a player resigned")
    if game.to_move(state) == CHANCE:
        raise validate.GameSearchError("chance is to move: ask /api/position to roll it")
    check_agent_fits(agent, game, game.to_move(state))
    return spec, game, state, agent, (search, hard)


async def think(request: Request, body: ThinkRequest,
                on_event: Callable[[str, Any], Awaitable[None]] | None = None) -> dict:
    """Let the agent move within its search time, counted from the request's arrival, and
    wait for it up to the hard budget; always answers with a legal move: the search's, its
    best answer so far, or (only when its worker died, logged and counted) a fallback."""
    arrival = request.scope.get("state", {}).get("arrival", time.monotonic())
    spec, game, state, agent, (budget, hard) = checked(request, body)
    app = request.app
    app.state.fallbacks.moves += 1
    key = cache_key(spec, body.moves, agent)
    known = app.state.proven.get(key) if key is not None else None
    if known is not None:  # solved before: answer at once, no worker needed
        if on_event is not None:
            await on_event("start", {"search": "", "budget": budget})
            await on_event("progress", known)
        return answer(game, state, spec, body.moves, known, "cache", "", budget, arrival,
                      body.seed)
    pool = app.state.pool
    reserve = min(MAX_RESERVE * budget, LAG_RESERVE * app.state.lag.estimate())
    now = time.monotonic()
    deadline = arrival + hard - reserve
    job: Job = pool.submit("think", {"game": spec, "moves": body.moves, "agent": agent},
                           deadline - now, search=max(0.001, arrival + budget - reserve - now))
    search_id = secrets.token_hex(8)
    app.state.searches[search_id] = job
    best, source, cause = None, "fallback", ""
    try:
        if on_event is not None:
            await on_event("start", {"search": search_id, "budget": budget, "hard": hard})
        best, source, cause = await wait_for_answer(
            job, arrival + budget - reserve, deadline + KILL_GRACE + ANSWER_WAIT, on_event)
        if source in ("search", "shared", "deadline") and best is job.result:
            remember(app.state.proven, key, best)
    except WorkerCrashed as err:
        source, cause = "deadline", f"worker died: {err}"
    finally:
        app.state.searches.pop(search_id, None)
        if not job.finished:  # answered from its search so far: it ends in its own time
            (pool.release if best is not None else pool.cancel)(job)
    if best is None or best.get("action") is None:
        move = game.action_to_string(state, first_move(game, state))
        cause = cause or "no answer"
        best = {"action": move, "value": None, "pv": [move], "stats": {}, "nps": 0,
                "note": cause}
        source = "fallback"
        app.state.fallbacks.note(cause, spec, agent, len(body.moves))
    return answer(game, state, spec, body.moves, best, source, search_id, budget, arrival,
                  body.seed)


async def wait_for_answer(job: Job, soft_end: float, last_wait: float,
                          on_event: Callable[[str, Any], Awaitable[None]] | None
                          ) -> tuple[dict | None, str, str]:
    """The search's answer (its result, else its best so far: a report that names a move),
    where it came from and, when there is none, why. With an answer so far the move is due
    when its search time ends
    (``soft_end``, or later when it waited for a worker); without one the server waits up
    to ``last_wait`` (past the hard budget and the kill that follows it). Raises
    WorkerCrashed when the worker died."""
    best, source, cause = None, "fallback", ""
    waiting = True
    while waiting:
        until = last_wait if best is None else max(soft_end, job.search_end or soft_end)
        waiting = False
        async for kind, data in job.stream(until):
            if kind == "progress":
                if on_event is not None:
                    await on_event("progress", data)
                if not isinstance(data, dict) or data.get("action") is None:
                    continue  # a report with no move is no answer: wait for one
                first, best = best is None, data
                if first:  # now due at the end of its search time
                    waiting = True
                    break
            elif kind == "result":
                source = "deadline" if job.overdue else "shared" if job.shared else "search"
                best = job.result = data
            elif kind == "stopped":  # Move now: its best so far, else the result it sends
                source = "stopped"
                if best is None:
                    async for kind2, data2 in job.stream(last_wait):
                        if kind2 == "result":
                            best = data2
                            break
            elif kind == "late":
                source = "queue"
                cause = f"queue: no worker was free within {job.deadline - job.submitted:.1f} s"
            elif kind == "timeout":
                source = "deadline"
                if best is None:
                    cause = "no answer: the pool never ended the job"
    return best, source, cause


def answer(game: Any, state: Any, spec: str, moves: list[str], best: dict, source: str,
           search_id: str, budget: float, arrival: float, seed: int | None = None) -> dict:
    """The move answer: the search's data, where it came from, and the new position (its
    chance outcomes drawn from ``seed`` where the request gives one)."""
    move = best["action"]
    after = game.result(state, game.string_to_action(state, move))
    played = [*moves, move]
    after, moves = roll_chance(game, after, played, chance_rng(seed, played))
    return {**best, "search": search_id, "move": move, "source": source, "budget": budget,
            "latency": round(time.monotonic() - arrival, 4),
            "position": position_view(spec, game, moves, after,
                                      drawn_by_repetition(game, moves))}


@router.post("/move")
async def move(request: Request, body: ThinkRequest) -> JSONResponse:
    """The agent's move in one answer (no live view)."""
    body = unmasked(request, body)
    return JSONResponse(shown(request, body, await think(request, body)))


@router.post("/think")
async def think_stream(request: Request, body: ThinkRequest) -> StreamingResponse:
    """The agent's move as server-sent events: "start", "progress" per completed depth,
    then "move" (or "error"). Closing the stream cancels the search."""
    body = unmasked(request, body)
    checked(request, body)  # bad input answers 4xx before the stream starts
    secret = body.viewer is not None and hidden.is_hidden_game(cached_game(body.game.strip()))
    queue: asyncio.Queue = asyncio.Queue()

    async def emit(kind: str, data: Any) -> None:
        if secret and kind == "progress":
            return  # an AI's values and lines tell of its cards
        await queue.put((kind, data))

    async def run() -> None:
        try:
            await emit("move", shown(request, body, await think(request, body, emit)))
        except Exception as err:  # every failure reaches the page as a message
            await emit("error", {"error": validate.public_message(str(err)),
                                 "status": getattr(err, "status", 400)})
        await queue.put(None)

    async def closed(task: asyncio.Task) -> None:
        # The closed page is seen here, not through a failed write: a deep search may
        # write nothing for many seconds, and a write to a closed connection can wait on
        # flow control for ever. The body is read already: the next message is the end.
        while (await request.receive())["type"] != "http.disconnect":
            pass
        task.cancel()

    async def events() -> AsyncIterator[str]:
        task = asyncio.create_task(run())
        watch = asyncio.create_task(closed(task))
        try:
            while (item := await queue.get()) is not None:
                kind, data = item
                yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
        finally:
            task.cancel()
            watch.cancel()

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})


def analysed(request: Request, body: AnalyseRequest) -> tuple[str, str]:
    """The game spec and the engine of an analysis request, refused (4xx, one line) where
    there is nothing to analyse or the engine cannot play the side to move. The engine is
    the request's agent, else the default agent of that side."""
    from gamesearch.catalog import check_agent_fits, default_agent

    spec, game, state, repeated = load_position(body.game, body.moves)
    if body.viewer is not None and hidden.is_hidden_game(game):
        raise validate.GameSearchError("no analysis while cards are hidden "
                                       "(it would tell what the others hold)")
    if game.is_terminal(state) or repeated or body.resigned is not None:
        raise validate.GameSearchError("the game is over: there is nothing to analyse")
    mover = game.to_move(state)
    if mover == CHANCE:
        raise validate.GameSearchError("chance is to move: there is nothing to analyse")
    agent = body.agent if body.agent else default_agent(game, mover)
    agent, _ = validate.agent_spec(agent, request.app.state.programs)
    check_agent_fits(agent, game, mover)
    return spec, agent


@router.post("/analyse")
async def analyse(request: Request, body: AnalyseRequest) -> StreamingResponse:
    """Analyse the position after the moves, in the analysis lane: server-sent events
    "start" (the engine), "progress" per completed depth of the first line (its ``score``
    drives the page's evaluation bar and arrows), "lines" (the best ``lines`` moves, each
    with its principal variation and score, where the engine can give several), then
    "done" (every line and a note: why there is only one) or "error". A page that moves on
    closes the stream, which stops the search."""
    body = unmasked(request, body)
    spec, agent = analysed(request, body)
    job = request.app.state.pool.submit(
        "analyse", {"game": spec, "moves": body.moves, "agent": agent, "lines": body.lines,
                    "time": body.time}, body.time + ANALYSIS_GRACE + ANALYSIS_QUEUE)

    def event(kind: str, data: Any) -> str:
        return f"event: {kind}\ndata: {json.dumps(data)}\n\n"

    async def events() -> AsyncIterator[str]:
        yield event("start", {"agent": agent, "lines": body.lines})
        try:
            async for kind, data in until_done(request, job, job.deadline + ANSWER_WAIT):
                if kind in ("progress", "lines"):
                    yield event(kind, data)
                elif kind == "result":
                    yield event("done", {"lines": data["lines"], "note": data["note"]})
                    return
                elif kind in ("late", "timeout"):
                    yield event("error", {"error": "no worker was free for the analysis"
                                          if kind == "late" else "the analysis overran"})
                    return
        except JobFailed as err:
            yield event("error", {"error": validate.public_message(str(err))})

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})


@router.post("/stop")
async def stop(request: Request, body: StopRequest) -> dict:
    """Make a running search move now with its best completed depth."""
    job = request.app.state.searches.get(body.search)
    if job is None:
        return {"stopped": False}
    job.stop()
    return {"stopped": True}


async def until_done(request: Request, job: Job,
                     until: float | None = None) -> AsyncIterator[tuple]:
    """The job's events, ending early (cancelling the job) when the client disconnects: a
    page that moved on must not keep a worker busy. ``until`` (monotonic): when to give up;
    None: half a second past the job's deadline, which moves when a job timed from its
    start gets a worker."""
    pool = request.app.state.pool
    try:
        while True:
            end = job.deadline + 0.5 if until is None else until
            step = min(end, time.monotonic() + DISCONNECT_POLL)
            last = None
            async for kind, data in job.stream(step):
                last = kind
                if kind != "timeout":
                    yield kind, data
            if last != "timeout":
                return
            if time.monotonic() >= (job.deadline + 0.5 if until is None else until):
                yield "timeout", None
                return
            if await request.is_disconnected():
                return
    finally:
        if not job.finished:
            pool.cancel(job)


@router.post("/verdict")
async def verdict(request: Request, body: PositionRequest) -> dict:
    """The game-theoretic value of the position: the game's solver where it has one,
    else exact alpha-beta when it finishes within the budget. Runs in the analysis lane
    (never in a move's way); solved positions are remembered."""
    from gamesearch.games import game_entry
    from gamesearch.spec import parse_spec

    body = unmasked(request, body)
    spec, game, state, _ = load_position(body.game, body.moves)
    if (body.viewer is not None and hidden.is_hidden_game(game)
            and not game.is_terminal(state)):
        return {"kind": "hidden", "message": "no verdict while cards are hidden "
                "(it would tell what the others hold)"}
    key = (spec, tuple(body.moves))
    known = request.app.state.verdicts.get(key)
    if known is not None:
        request.app.state.verdicts.move_to_end(key)
        return known
    solver = game_entry(parse_spec(spec)[0]).solver is not None
    budget = SOLVER_BUDGET if solver else VERDICT_BUDGET
    job = request.app.state.pool.submit("verdict", {"game": spec, "moves": body.moves}, budget,
                                        client=validate.client_key(request))
    async for kind, data in until_done(request, job, job.deadline + 0.5):
        if kind == "result":
            if data.get("kind") != "unknown":
                remember_verdict(request.app.state.verdicts, key, data)
            return data
        if kind == "late":
            break
        if kind == "compiling":  # the worker goes on compiling; this answer need not wait
            return {"kind": "unknown", "message": data["message"]}
    return {"kind": "unknown", "message": f"not solved within {budget:g} s"}


def remember_verdict(verdicts: collections.OrderedDict, key: tuple, data: dict) -> None:
    """Keep a finished verdict (a position's value never changes); oldest out first."""
    verdicts[key] = data
    while len(verdicts) > VERDICT_CACHE_SIZE:
        verdicts.popitem(last=False)
