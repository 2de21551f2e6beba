"""Fair sharing of the web's analysis worker between pages, through the API (issue #39: small
lab requests queued behind a big one got 422 "try a smaller input"). One page's three matrix
analyses and another's two are answered in turns, not one page's all first; a page that
floods the lane is told so (429); a malformed page name is one line (400)."""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.web import theory_api  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402
from gamesearch.web.pool import MAX_PER_CLIENT  # noqa: E402

pytestmark = pytest.mark.skipif(not theory_api.available(), reason=theory_api.MISSING)


def coordination(n: int) -> list:
    """An n x n coordination game: 2^n - 1 equilibria, every support pair to try (about 3 s
    at n = 9 and 0.5 s at n = 7 on an idle core): a lab job whose length is known."""
    return [[[int(i == j), int(i == j)] for j in range(n)] for i in range(n)]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, warm=False)) as c:
        # the theory package's first call imports scipy: paid here, before any order counts
        assert c.post("/api/matrix", json={"payoffs": [[1, -1], [-1, 1]]}).status_code == 200
        yield c


def queued(client: TestClient) -> int:
    return client.get("/api/health").json()["pool"]["queued_analysis"]


def wait_for(what, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < end, "the server did not get there in time"
        time.sleep(0.02)


def test_two_pages_analyses_interleave(client):
    answers: list[tuple[str, int]] = []
    lock = threading.Lock()

    def ask(name: str, n: int) -> None:
        response = client.post("/api/matrix", json={"payoffs": coordination(n)},
                               headers={"X-Gamesearch-Page": name[0]})
        with lock:
            answers.append((name, response.status_code))

    def send(*requests: tuple[str, int]) -> list[threading.Thread]:
        threads = [threading.Thread(target=ask, args=r) for r in requests]
        for thread in threads:
            thread.start()
            time.sleep(0.05)  # arrival order as listed
        return threads

    threads = send(("A1", 9))
    wait_for(lambda: client.get("/api/health").json()["pool"]["busy"])
    threads += send(("A2", 7), ("A3", 7))
    wait_for(lambda: queued(client) == 2)
    threads += send(("B1", 7), ("B2", 7))
    wait_for(lambda: queued(client) == 4 or answers)
    assert not answers, "the first analysis ended before the others queued: too fast a machine"
    for thread in threads:
        thread.join(timeout=120)
    assert all(status == 200 for _, status in answers), answers
    assert [name for name, _ in answers] == ["A1", "B1", "A2", "B2", "A3"]


def test_a_page_that_floods_the_lane_gets_429_and_others_are_served(client):
    statuses: list[int] = []

    def ask(n: int, page: str) -> None:
        statuses.append(client.post("/api/matrix", json={"payoffs": coordination(n)},
                                    headers={"X-Gamesearch-Page": page}).status_code)

    first = threading.Thread(target=ask, args=(9, "C"))
    first.start()
    wait_for(lambda: client.get("/api/health").json()["pool"]["busy"])
    rest = [threading.Thread(target=ask, args=(2, "C")) for _ in range(MAX_PER_CLIENT - 1)]
    for thread in rest:
        thread.start()
    wait_for(lambda: queued(client) == MAX_PER_CLIENT - 1 or len(statuses) > 0)
    refused = client.post("/api/matrix", json={"payoffs": coordination(2)},
                          headers={"X-Gamesearch-Page": "C"})
    other = client.post("/api/matrix", json={"payoffs": coordination(2)},
                        headers={"X-Gamesearch-Page": "D"})
    for thread in [first, *rest]:
        thread.join(timeout=120)
    assert refused.status_code == 429 and "too many analysis requests" in refused.json()["error"]
    assert other.status_code == 200
    assert statuses == [200] * MAX_PER_CLIENT


@pytest.mark.parametrize("page", ["", "x" * 65, "a b", "../etc"])
def test_a_malformed_page_name_is_one_line(client, page):
    response = client.post("/api/matrix", json={"payoffs": [[1, -1], [-1, 1]]},
                           headers={"X-Gamesearch-Page": page})
    assert response.status_code == 400
    assert "X-Gamesearch-Page" in response.json()["error"]
