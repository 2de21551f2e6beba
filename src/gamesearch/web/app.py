"""The FastAPI application: API routes, static page, limits and error answers.

``create_app(workers=2)`` builds an app whose searches run in a :class:`WorkerPool`
started and stopped with the app. Every refused input answers 4xx with ``{"error": ...}``.
"""

from __future__ import annotations

import collections
import json
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from gamesearch.errors import GameSearchError, UnknownNameError
from gamesearch.web.api_play import Fallbacks
from gamesearch.web.lag import LagMonitor
from gamesearch.web.pool import JobFailed, WorkerPool
from gamesearch.web.validate import MAX_BODY, public_message

STATIC = Path(__file__).parent / "static"
NOT_FOUND = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found - gamesearch</title><link rel="stylesheet" href="/static/style.css"></head>
<body><header><h1>gamesearch</h1></header><main class="not-found">
<h2>There is no page here</h2>
<p>The address may be mistyped, or the page has moved.</p>
<p><a href="/">Go to the home page</a> to play a game or open a lab.</p>
</main></body></html>
"""


class BodyLimit:
    """ASGI middleware: refuse bodies over ``limit`` bytes (413), declared or streamed,
    and stamp each request with its arrival time (deadlines count from it)."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        scope.setdefault("state", {})["arrival"] = time.monotonic()
        declared = dict(scope.get("headers", [])).get(b"content-length")
        too_big = JSONResponse({"error": f"request body over {self.limit} bytes"}, 413)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await too_big(scope, receive, send)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise GameSearchError(f"request body over {self.limit} bytes")
            return message

        return await self.app(scope, limited, send)


START_WAIT = 900.0
"""Seconds the server waits at its start for every worker to be ready (warm) before it takes
requests: one taken sooner could only wait in the queue (a move answered by the fallback, a
lab's 503 after a minute). Under load (22 and more) or with no numba cache, three workers
warming at once took over a minute where 60 s were allowed (issue 39: three API tests
failed so). The bound only stops a pool that never gets ready from holding the start."""


def create_app(workers: int | None = None, warm: bool = True,
               programs: dict[str, list[str]] | None = None) -> FastAPI:
    """The web app with a pool of ``workers`` search processes for moves (default: CPU
    count) and one for verdicts and the labs. ``warm`` (default): the analysis worker loads
    the compiled kernels (compiling them if no cache holds them) before it takes jobs, so no
    verdict's budget pays for a compile; ``gamesearch serve`` compiles them first, with
    progress lines. ``programs`` (name -> argv, ``serve --program``) are the only outside
    programs a request may choose, by name; without them no request starts a program."""
    size = workers or int(os.environ.get("GAMESEARCH_WEB_WORKERS", 0)) or os.cpu_count() or 2

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        pool = WorkerPool(size, warm=warm, programs=programs)
        await pool.start(wait=START_WAIT)
        app.state.pool = pool
        app.state.programs = dict(programs or {})
        app.state.searches = {}
        app.state.proven = collections.OrderedDict()  # exact answers, see api_play
        app.state.verdicts = collections.OrderedDict()  # solved positions, see api_play
        app.state.fallbacks = Fallbacks()  # moves answered unsearched, see api_play
        app.state.lag = LagMonitor()
        app.state.lag.start()
        try:
            yield
        finally:
            app.state.lag.stop()
            await pool.close()

    app = FastAPI(title="gamesearch", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(BodyLimit)

    @app.exception_handler(UnknownNameError)
    async def unknown(request: Request, err: UnknownNameError):
        return JSONResponse({"error": public_message(str(err))}, 404)

    @app.exception_handler(GameSearchError)
    async def bad_input(request: Request, err: GameSearchError):
        status = 413 if "request body over" in str(err) else 400
        status = 501 if type(err).__name__ == "Unavailable" else status
        return JSONResponse({"error": public_message(str(err))}, status)

    @app.exception_handler(JobFailed)
    async def failed(request: Request, err: JobFailed):
        return JSONResponse({"error": public_message(str(err))}, err.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError):
        parts = []
        for e in err.errors()[:5]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "invalid request: " + "; ".join(parts)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException):
        """JSON for the API; for a browser elsewhere (a mistyped address) a page."""
        if request.url.path.startswith("/api/") or err.status_code != 404:
            return JSONResponse({"error": str(err.detail)}, err.status_code,
                                headers=getattr(err, "headers", None))
        return HTMLResponse(NOT_FOUND, 404)

    @app.exception_handler(json.JSONDecodeError)
    async def not_json(request: Request, err: json.JSONDecodeError):
        return JSONResponse({"error": f"request body is not valid JSON: {err.msg}"}, 400)

    from gamesearch.web.api_board import router as board
    from gamesearch.web.api_labs import router as labs
    from gamesearch.web.api_play import router as play
    from gamesearch.web.api_seats import router as seats

    app.include_router(play, prefix="/api")
    app.include_router(labs, prefix="/api")
    app.include_router(seats, prefix="/api")
    app.include_router(board, prefix="/api")

    @app.get("/api/health")
    async def health(request: Request) -> dict:
        """The pool (workers, replacements by cause), the moves answered without a search
        (fallbacks by cause, of all AI moves) and the event loop's lag."""
        return {"ok": True, "pool": request.app.state.pool.status(),
                "fallbacks": request.app.state.fallbacks.status(),
                "loop_lag": round(request.app.state.lag.estimate(), 4)}

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
