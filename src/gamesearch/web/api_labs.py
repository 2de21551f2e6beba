"""Tree lab and matrix lab routes."""

from __future__ import annotations

from fastapi import APIRouter, Request

from gamesearch.errors import GameSearchError
from gamesearch.web import efglab, theory_api, treelab
from gamesearch.web.pool import JobFailed
from gamesearch.web.trees import TREES
from gamesearch.web.validate import (
    EfgRequest,
    MatrixFileRequest,
    MatrixRequest,
    TreeRequest,
    client_key,
)

router = APIRouter()

LAB_BUDGET = 10.0
MATRIX_BUDGET = 30.0
"""The theory package's first call in a worker imports scipy and may compile kernels."""
QUEUE_WAIT = 60.0
"""How long a lab job may wait for the analysis worker before the answer is 503, busy."""


async def run_job(request: Request, kind: str, payload: dict,
                  budget: float = LAB_BUDGET) -> dict:
    """Run a lab job in the analysis lane and return its result (or fail with its message).
    A job that overruns its budget is stopped and answered 422: the input is too large for
    the web, not the server broken. The budget runs from the job's start: one that waited
    ``QUEUE_WAIT`` for the worker (others' jobs ahead of it, shared fairly between pages)
    is answered 503, busy, never "too large"."""
    from gamesearch.web.api_play import until_done

    job = request.app.state.pool.submit(kind, payload, budget, client=client_key(request),
                                        wait=QUEUE_WAIT)
    async for event, data in until_done(request, job):
        if event == "result":
            return data
        if event == "late":
            raise JobFailed(f"the server is busy: no worker was free within {QUEUE_WAIT:g} s",
                            503)
    raise JobFailed(f"the job did not finish within {budget:g} s: try a smaller input", 422)


@router.get("/trees")
async def trees() -> dict:
    """The lectures' trees the lab can load, and which algorithms this build has."""
    return {"trees": [{"name": k, **v} for k, v in TREES.items()],
            "algorithms": {a: treelab.available(a) for a in treelab.ALGORITHMS}}


@router.post("/tree")
async def run_tree(request: Request, body: TreeRequest) -> dict:
    """Search a tree and return its nodes, the steps of the search and the answer."""
    if body.algorithm not in treelab.ALGORITHMS:
        raise GameSearchError(f"unknown algorithm {body.algorithm!r}; use one of "
                              f"{', '.join(treelab.ALGORITHMS)}")
    if not treelab.available(body.algorithm):
        raise treelab.Unavailable(f"{body.algorithm} is not available in this build "
                                  f"({treelab.CHANCE_MODULE} is missing)")
    treelab.check_shape(body.tree)
    return await run_job(request, "tree", {"tree": body.tree, "algorithm": body.algorithm,
                                           "depth": body.depth})


@router.post("/tree/matrix")
async def tree_matrix(request: Request, body: TreeRequest) -> dict:
    """The normal form of a tree, as a payoff table for the matrix lab."""
    if not theory_api.available():
        raise JobFailed(theory_api.MISSING, 501)
    treelab.check_shape(body.tree)
    return await run_job(request, "tree_matrix", {"tree": body.tree}, MATRIX_BUDGET)


@router.post("/matrix")
async def matrix(request: Request, body: MatrixRequest) -> dict:
    """Analyse a matrix game: dominance, best responses, equilibria, zero-sum value."""
    payload = body.model_dump()
    theory_api.read_matrix(payload)  # malformed tables answer 400 without the pool
    if not theory_api.available():
        raise JobFailed(theory_api.MISSING, 501)
    return await run_job(request, "matrix", payload, MATRIX_BUDGET)


@router.post("/matrix/file")
async def matrix_file(request: Request, body: MatrixFileRequest) -> dict:
    """A game from a file's text (Gambit .nfg, JSON or CSV), as a payoff table."""
    if not theory_api.available():
        raise JobFailed(theory_api.MISSING, 501)
    return await run_job(request, "matrix_file", body.model_dump(), MATRIX_BUDGET)


@router.get("/efg/examples")
async def efg_examples() -> dict:
    """The extensive-form lab's example trees (.efg text)."""
    return {"examples": efglab.examples()}


@router.post("/efg")
async def efg(request: Request, body: EfgRequest) -> dict:
    """An extensive-form game from .efg text: its tree for drawing and its solution."""
    if not theory_api.available():
        raise JobFailed(theory_api.MISSING, 501)
    return await run_job(request, "efg", {"text": body.text, "method": body.method,
                                          "lambda": body.lam}, MATRIX_BUDGET)
