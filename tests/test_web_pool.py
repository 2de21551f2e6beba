"""The web worker pool on its own (issue 12): results of any size under asyncio and uvloop,
cancelled jobs that stop (or whose worker is recycled), the analysis lane, fair share."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import load_factor

pytest.importorskip("fastapi")

from gamesearch.web.channel import MessageReader, MessageWriter  # noqa: E402
from gamesearch.web.pool import WorkerPool  # noqa: E402


def echo_worker(jobs, results, stop_flag, options) -> None:
    """A worker speaking the real channel: ``{"size": n}`` answers n bytes of text;
    ``{"sleep": s}`` sleeps s seconds without ever looking at the stop flag."""
    out = MessageWriter(results.fileno())
    out.send((0, "ready", None))
    while (job := jobs.recv()) is not None:
        payload = job["payload"]
        if "sleep" in payload:
            time.sleep(payload["sleep"])
        out.send((job["id"], "result", "x" * payload.get("size", 1)))


def run(loop_name: str, main) -> object:
    """Run ``main()`` on a fresh event loop of the named kind."""
    if loop_name == "uvloop":
        uvloop = pytest.importorskip("uvloop")
        return uvloop.run(main())
    return asyncio.run(main())


async def result_of(job) -> tuple[str, object]:
    async for kind, data in job.stream(job.deadline + 1):
        if kind in ("result", "timeout", "late"):
            return kind, data
    return "none", None


@pytest.mark.parametrize("loop_name", ["asyncio", "uvloop"])
def test_results_of_a_megabyte_arrive_whole(loop_name):
    """uvloop puts a watched pipe in non-blocking mode: the old pool read a result over
    about 16 KB as a dead worker (503). Every size must arrive whole, the worker kept."""

    async def main():
        pool = WorkerPool(1, "fork", analysis=0, target=echo_worker)
        await pool.start()
        try:
            sizes = [10, 20_000, 1 << 20, 3 << 20]
            for size in sizes:
                job = pool.submit("think", {"size": size}, 10)
                kind, data = await result_of(job)
                assert kind == "result" and data == "x" * size
            return pool.status()
        finally:
            await pool.close()

    status = run(loop_name, main)
    assert status["replaced"] == 0 and status["workers"] == 1


@pytest.mark.parametrize("loop_name", ["asyncio", "uvloop"])
def test_a_real_tree_job_over_16_kb_under_uvloop(loop_name):
    """The symptom as met: a tree-lab tree of 300 nodes (result about 100 KB) through the
    real worker."""
    tree = {"player": 0, "children": [
        {"player": 1, "children": [{"value": (7 * i + j) % 11} for j in range(14)]}
        for i in range(20)]}

    async def main():
        pool = WorkerPool(0, analysis=1)  # lab jobs run in the analysis lane
        await pool.start(wait=30)
        try:
            job = pool.submit("tree", {"tree": tree, "algorithm": "alphabeta"}, 20)
            kind, data = await result_of(job)
            return kind, data, pool.status()
        finally:
            await pool.close()

    kind, data, status = run(loop_name, main)
    assert kind == "result" and len(data["nodes"]) == 1 + 20 + 20 * 14
    assert data["value"] == max(min((7 * i + j) % 11 for j in range(14)) for i in range(20))
    assert status["replaced"] == 0


def test_a_cancelled_job_that_ignores_its_stop_flag_gets_its_worker_recycled():
    async def main():
        pool = WorkerPool(1, "fork", analysis=0, target=echo_worker)
        await pool.start()
        try:
            job = pool.submit("think", {"sleep": 60}, 100)
            await asyncio.sleep(0.2)
            assert job.worker is not None
            t0 = time.monotonic()
            pool.cancel(job)
            while pool.status()["recycled"] == 0 and time.monotonic() - t0 < 5:
                await asyncio.sleep(0.05)
            stopped_in = time.monotonic() - t0
            while pool.status()["ready"] < 1 and time.monotonic() - t0 < 10:
                await asyncio.sleep(0.05)
            again = pool.submit("think", {"size": 5}, 5)  # the replacement works
            kind, data = await result_of(again)
            return stopped_in, kind, data, pool.status()
        finally:
            await pool.close()

    stopped_in, kind, data, status = run("asyncio", main)
    assert stopped_in < 1.5  # not the 60 s the job would have slept, nor its 100 s budget
    assert status["recycled"] == 1 and kind == "result" and data == "xxxxx"


def test_a_long_analysis_job_never_holds_a_move():
    """Verdicts and labs have their own lane: a move is answered while every analysis worker
    is busy."""
    async def main():
        pool = WorkerPool(1, "fork", analysis=1, target=echo_worker)
        await pool.start()
        try:
            slow = pool.submit("verdict", {"sleep": 3, "size": 2}, 10)
            await asyncio.sleep(0.1)
            t0 = time.monotonic()
            move = pool.submit("think", {"size": 3}, 1)
            kind, data = await result_of(move)
            waited = time.monotonic() - t0
            pool.cancel(slow)
            return kind, data, waited
        finally:
            await pool.close()

    kind, data, waited = run("asyncio", main)
    assert kind == "result" and data == "xxx" and waited < 0.5 * load_factor()


def test_analysis_jobs_of_two_clients_take_turns():
    """One analysis worker; client A queues three jobs, then B two: the worker alternates
    between them (first come first served made B wait for all of A's)."""
    async def main():
        pool = WorkerPool(0, "fork", analysis=1, target=echo_worker)
        await pool.start()
        try:
            jobs = [pool.submit("tree", {"sleep": 0.4, "size": 1}, 20, client="A")]
            await asyncio.sleep(0.1)  # A's first job runs; the rest queue behind it
            jobs += [pool.submit("tree", {"size": size}, 20, client=client)
                     for size, client in ((2, "A"), (3, "A"), (4, "B"), (5, "B"))]
            finished = []
            pending = {asyncio.ensure_future(result_of(job)): job for job in jobs}
            while pending:
                done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in sorted(done, key=lambda t: pending[t].started):
                    kind, data = task.result()
                    assert kind == "result"
                    finished.append((pending.pop(task).client, len(data)))
            return finished, sorted(jobs, key=lambda j: j.started)
        finally:
            await pool.close()

    finished, by_start = run("asyncio", main)
    assert [(j.client, j.id) for j in by_start] == [("A", 1), ("B", 4), ("A", 2), ("B", 5),
                                                    ("A", 3)]
    assert [c for c, _ in finished] == ["A", "B", "A", "B", "A"]


def test_the_analysis_queue_order_and_its_memory_are_bounded():
    """The choice alone (no processes): round robin over clients, first come first served
    within one; the memory of who was served last stays bounded however many clients come."""
    from types import SimpleNamespace

    from gamesearch.web.pool import ANALYSIS, SERVED_KEPT

    pool = WorkerPool(0, analysis=0)
    analyst = SimpleNamespace(lane=ANALYSIS)
    for n, client in enumerate("AAABBC"):
        pool.submit("tree", {"n": n}, 60, client=client)
    order = [pool._next_job(analyst, time.monotonic()) for _ in range(6)]
    assert [(j.client, j.payload["n"]) for j in order] == [
        ("A", 0), ("B", 3), ("C", 5), ("A", 1), ("B", 4), ("A", 2)]
    for n in range(3 * SERVED_KEPT):
        pool.submit("tree", {}, 60, client=f"page{n}")
        pool._next_job(analyst, time.monotonic())
    assert len(pool.served) <= SERVED_KEPT


def test_one_client_may_not_flood_the_analysis_lane():
    from gamesearch.web.pool import MAX_PER_CLIENT, JobFailed

    async def main():
        pool = WorkerPool(0, "fork", analysis=1, target=echo_worker)
        await pool.start()
        try:
            jobs = [pool.submit("tree", {"sleep": 0.3}, 20, client="A")
                    for _ in range(MAX_PER_CLIENT)]
            with pytest.raises(JobFailed, match="too many analysis requests") as refused:
                pool.submit("tree", {}, 20, client="A")
            other = pool.submit("tree", {"size": 7}, 20, client="B")  # another page may
            pool.cancel(jobs[-1])  # a cancelled job frees its place
            again = pool.submit("tree", {"size": 8}, 20, client="A")
            results = [await result_of(job) for job in (other, again)]
            return refused.value.status, results
        finally:
            await pool.close()

    status, results = run("asyncio", main)
    assert status == 429
    assert results == [("result", "x" * 7), ("result", "x" * 8)]


def test_a_lab_job_s_budget_runs_from_its_start_not_its_arrival():
    """A job queued behind a long one keeps its whole budget once it runs (labs: a small
    input was answered 422, "too large", because it had waited)."""
    async def main():
        pool = WorkerPool(0, "fork", analysis=1, target=echo_worker)
        await pool.start()
        try:
            long = pool.submit("tree", {"sleep": 1.2, "size": 1}, 1.5, client="A", wait=10)
            small = pool.submit("tree", {"sleep": 0.5, "size": 2}, 1.0, client="B", wait=10)
            return [await result_of(job) for job in (long, small)], pool.status()
        finally:
            await pool.close()

    results, status = run("asyncio", main)
    assert results == [("result", "x"), ("result", "xx")]
    assert status["replaced"] == 0  # nobody was killed for overrunning


def test_fair_share_gives_a_waiting_move_a_real_search():
    """One worker, two moves of 4 s each: without fair share the second waits 4 s and gets
    the fallback; with it, the first answers with its completed depths and both search."""
    async def main():
        pool = WorkerPool(1, analysis=0)
        await pool.start(wait=30)
        try:
            body = {"game": "connect4", "moves": [], "agent": "alphabeta:time=4"}
            first = pool.submit("think", body, 4)
            await asyncio.sleep(0.3)
            t0 = time.monotonic()
            second = pool.submit("think", {**body, "moves": ["4"]}, 2)
            results = []
            for job in (first, second):
                last = None
                async for kind, data in job.stream(job.deadline + 1):
                    last = (kind, data)
                results.append(last)
            return results, first.shared, time.monotonic() - t0
        finally:
            await pool.close()

    results, shared, seconds = run("asyncio", main)
    (k1, r1), (k2, r2) = results
    assert shared and k1 == "result" and r1["stats"]["depth"] >= 1
    assert k2 == "result" and r2["stats"]["depth"] >= 1 and r2["action"] is not None
    assert seconds < 2.5


def frame(message: object) -> bytes:
    """The bytes MessageWriter writes for ``message``."""
    r, w = os.pipe()
    try:
        MessageWriter(w).send(message)
        return os.read(r, 1 << 20)
    finally:
        os.close(r)
        os.close(w)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=3000), min_size=1, max_size=6),
       st.lists(st.integers(1, 5000), min_size=1, max_size=20))
def test_the_reader_reassembles_messages_split_anywhere(messages, cuts):
    """Whatever pieces the pipe delivers, the reader hands out exactly the messages sent."""
    collector = []
    r, w = os.pipe()
    try:
        MessageWriter(w).send(messages)  # the real framing, read back whole first
        assert MessageReader(r).read() == [messages]
        stream = b"".join(frame(m) for m in messages)
        reader = MessageReader(r)
        pos, k = 0, 0
        while pos < len(stream):
            step = cuts[k % len(cuts)]
            k += 1
            os.write(w, stream[pos:pos + step])
            pos += step
            collector.extend(reader.read())
        assert reader.read() == []
    finally:
        os.close(r)
        os.close(w)
    assert collector == messages


def test_a_cancelled_stream_ends_even_when_an_event_arrives_at_the_same_moment():
    """A page that closes its live view cancels the request's task; if a progress event
    arrives in the same instant, asyncio.wait_for (Python 3.11) returned the event and lost
    the cancellation, so the search ran on for its whole budget (1 time in 6 in the server).
    """
    from gamesearch.web.pool import Job

    async def main() -> list[bool]:
        ended = []
        for _ in range(20):
            job = Job(1, "think", {}, time.monotonic() + 30)

            async def consume(job: Job = job) -> None:
                async for _ in job.stream(time.monotonic() + 30):
                    pass

            task = asyncio.create_task(consume())
            await asyncio.sleep(0.01)  # the consumer waits for an event
            job.events.put_nowait(("progress", {}))  # the event and the cancel, together
            task.cancel()
            done, _ = await asyncio.wait([task], timeout=2)
            ended.append(task in done and task.cancelled())
            if task not in done:
                task.cancel()
        return ended

    assert all(asyncio.run(main()))


def test_a_cancelled_job_whose_worker_waits_for_a_cpu_is_not_recycled(monkeypatch):
    """The grace of a cancel is CPU time where the system says: a worker that waited for a
    CPU the whole time (the soak's niced analysis worker at load 12, stopping its Connect
    Four solve as asked) is not replaced; one asleep that ignores its flag still is (the
    test above, on the real /proc)."""
    from gamesearch.web import pool as pool_module

    # as /proc says of a starved worker: waiting to run, hardly any CPU time used
    monkeypatch.setattr(pool_module.Worker, "cpu_state", lambda self: ("R", 0.01))

    async def main():
        pool = WorkerPool(1, "fork", analysis=0, target=echo_worker)
        await pool.start()
        try:
            job = pool.submit("think", {"sleep": 1.5}, 100)  # answers 1.5 s in, stop or not
            await asyncio.sleep(0.2)
            assert job.worker is not None
            pool.cancel(job)
            t0 = time.monotonic()
            while not job.finished and time.monotonic() - t0 < 5:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            return job.finished, pool.status()
        finally:
            await pool.close()

    finished, status = run("asyncio", main)
    assert finished and status["recycled"] == 0 and status["replaced"] == 0, status
