"""The web app under uvicorn's uvloop loop, as `gamesearch serve` runs it (issue 12): a tree
result over 16 KB answers 200 (it answered 503 and killed a worker), and a verdict whose
client hangs up stops holding the analysis worker."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from budget import load_factor

pytest.importorskip("uvloop")
uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from gamesearch.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def server():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(workers=1), loop="uvloop", log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/health", timeout=5).json()["pool"]["ready"] == 2:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    yield url
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


def health(url: str) -> dict:
    return httpx.get(url + "/api/health", timeout=5).json()["pool"]


def test_a_big_tree_result_answers_under_uvloop(server):
    tree = {"player": 0, "children": [
        {"player": 1, "children": [{"value": (5 * i + j) % 13} for j in range(18)]}
        for i in range(20)]}  # 381 nodes: under the 400-node limit
    before = health(server)["replaced"]
    for _ in range(20):  # the old pool failed 16 of 40 such requests here (a race)
        r = httpx.post(server + "/api/tree", json={"tree": tree, "algorithm": "minimax"},
                       timeout=30)
        assert r.status_code == 200 and len(r.content) > 16_000
        assert len(r.json()["nodes"]) == 381
    assert health(server)["replaced"] == before  # no worker was taken for dead


def test_a_verdict_whose_client_hangs_up_frees_the_analysis_worker(server):
    """A dropped Connect Four verdict frees the analysis worker long before its 5 s
    budget: the solver reads its halt flag and stops, so the worker is kept (it used to be
    recycled: the solver could not be interrupted)."""
    host, port = server.removeprefix("http://").split(":")
    body = json.dumps({"game": "connect4", "moves": []}).encode()
    conn = socket.create_connection((host, int(port)))
    conn.sendall(b"POST /api/verdict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    analysis = health(server)["analysis"]
    recycled = health(server)["recycled"]
    for _ in range(50):
        if set(health(server)["busy"]) & set(analysis):
            break
        time.sleep(0.05)
    assert set(health(server)["busy"]) & set(analysis)  # the solver is running
    t0 = time.monotonic()
    conn.close()
    while set(health(server)["busy"]) & set(analysis) and time.monotonic() - t0 < 4:
        time.sleep(0.05)
    assert time.monotonic() - t0 < min(2 * load_factor(), 4)  # before the 5 s budget ran out
    after = health(server)
    assert after["recycled"] == recycled and after["analysis"] == analysis  # kept
