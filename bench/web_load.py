"""Load test of the web app: many clients play against an alpha-beta agent at once.

Starts ``gamesearch serve`` on loopback, then plays in two phases measured in the same run:
one client alone (the reference), then ``--clients`` clients at once. Each client plays
``--games`` games: its own moves are random legal moves (checked with /api/position), the
AI's come from /api/move with ``alphabeta:time=BUDGET``. Every AI move's latency is timed
at the client, from sending the request to reading the answer. Bounded: ``--max-seconds``
stops the clients (each finishes the request in flight).

    python bench/web_load.py                        # 50 clients, tic-tac-toe, 0.2 s
    python bench/web_load.py --game connect4 --games 1

The target (issue 7): no errors, and the 95th percentile of AI-move latency within the
budget plus 150 ms. Issue 12: under 5% fallback moves with 20 clients at about one move a
second each, with the page's defaults (Connect Four, alpha-beta 1 s, a verdict for every
position, the previous one dropped as the page does):

    python bench/web_load.py --clients 20 --game connect4 --budget 1 --pause 1 \
        --verdicts --repeats 1 --max-seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from collections import Counter

MARGIN = 0.150


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: one per simulated person, so
    that the load generator itself spends little CPU (it shares the machine with the server)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, data: dict) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        body = json.dumps(data).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        self.writer.write(head.encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    code = ("from gamesearch.cli.main import main; "
            f"main(['serve', '--host', '127.0.0.1', '--port', '0', '--workers', '{workers}'])")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, match.group(0)


class Verdicts:
    """The page's verdict line: one verdict request per position on its own connection;
    a new position drops (closes) the previous request, as the page's abort does."""

    def __init__(self, host: str, port: int, game: str, counts: Counter) -> None:
        self.host, self.port, self.game, self.counts = host, port, game, counts
        self.task: asyncio.Task | None = None
        self.conn: Connection | None = None

    def ask(self, moves: list[str]) -> None:
        self.drop()
        self.conn = Connection(self.host, self.port)
        self.task = asyncio.create_task(self._run(self.conn, list(moves)))

    async def _run(self, conn: Connection, moves: list[str]) -> None:
        try:
            status, data = await conn.post("/api/verdict", {"game": self.game, "moves": moves})
            self.counts[f"{status} {data.get('kind', data.get('error', ''))}"[:40]] += 1
        except (OSError, ValueError, asyncio.IncompleteReadError):
            self.counts["dropped"] += 1

    def drop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            self.counts["cancelled"] += 1
        if self.conn is not None and self.conn.writer is not None:
            self.conn.writer.close()
        self.task = self.conn = None


async def play(client: Connection, game: str, agent: str, games: int, seed: int,
               stop_at: float, record: list, errors: list, pause: float = 0.0,
               verdicts: Verdicts | None = None) -> None:
    rng = random.Random(seed)
    for g in range(games):
        moves: list[str] = []
        human = (seed + g) % 2  # alternate who starts
        status, view = await client.post("/api/position", {"game": game, "moves": moves})
        while not view["terminal"] and time.monotonic() < stop_at:
            if verdicts is not None:
                verdicts.ask(view["moves"])
            if view["to_move"] == human:
                if pause:  # a person looks at the board before moving
                    await asyncio.sleep(rng.uniform(0.5 * pause, 1.5 * pause))
                moves.append(rng.choice(view["legal"]))
                status, view = await client.post("/api/position", {"game": game,
                                                                   "moves": moves})
                if status != 200:
                    errors.append(f"position {status}: {view}")
                    return
                continue
            t0 = time.perf_counter()
            try:
                status, data = await client.post("/api/move", {"game": game, "moves": moves,
                                                               "agent": agent})
            except (OSError, ValueError, asyncio.IncompleteReadError) as err:
                errors.append(f"move: {type(err).__name__}: {err}")
                return
            latency = time.perf_counter() - t0
            if status != 200:
                errors.append(f"move {status}: {data}")
                return
            record.append((latency, data["source"], data["latency"]))
            moves = data["position"]["moves"]
            view = data["position"]
    if verdicts is not None:
        verdicts.drop()


VERDICT_COUNTS: Counter = Counter()


async def phase(url: str, clients: int, game: str, agent: str, games: int,
                max_seconds: float, pause: float = 0.0, seed: int = 0,
                verdicts: bool = False) -> tuple[list, list, float]:
    record: list = []
    errors: list = []
    host, port = re.match(r"http://([\d.]+):(\d+)/", url).groups()
    connections = [Connection(host, int(port)) for _ in range(clients)]
    lines = [Verdicts(host, int(port), game, VERDICT_COUNTS) if verdicts else None
             for _ in range(clients)]
    t0 = time.monotonic()
    stop_at = t0 + max_seconds
    try:
        await asyncio.gather(*(play(c, game, agent, games, seed + i, stop_at, record, errors,
                                    pause, lines[i]) for i, c in enumerate(connections)))
    finally:
        for c in connections:
            await c.close()
    return record, errors, time.monotonic() - t0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def row(name: str, record: list, errors: list, seconds: float, budget: float) -> list[str]:
    lat = [r[0] for r in record]
    sources = Counter(r[1] for r in record)
    searched = sources["search"] + sources["deadline"] + sources["stopped"] + sources["cache"]
    p95 = percentile(lat, 95)
    ok = not errors and p95 <= budget + MARGIN
    searched += sources["shared"]
    fallback = sources["fallback"] / max(1, len(record))
    return [name, str(len(record)), str(len(errors)), f"{statistics.median(lat) * 1000:.0f}",
            f"{p95 * 1000:.0f}", f"{max(lat) * 1000:.0f}", f"{p95 / (budget + MARGIN):.2f}",
            f"{searched / max(1, len(record)):.0%}", f"{fallback:.1%}", f"{seconds:.1f}",
            "yes" if ok else "NO"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=2, help="games per client")
    parser.add_argument("--game", default="tictactoe")
    parser.add_argument("--budget", type=float, default=0.2, help="the agent's time (s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--repeats", type=int, default=3, help="runs of the loaded phase")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="mean seconds a client waits before its own move (0: none)")
    parser.add_argument("--reference-seconds", type=float, default=15,
                        help="bound of the one-client reference phase")
    parser.add_argument("--verdicts", action="store_true",
                        help="ask a verdict for every position, as the page does")
    args = parser.parse_args()
    if not 1 <= args.clients <= 200:
        raise SystemExit("--clients: 1 to 200")
    agent = f"alphabeta:time={args.budget}"
    proc, url = start_server(args.workers)
    try:
        ref = asyncio.run(phase(url, 1, args.game, agent, args.games,
                                min(args.max_seconds, args.reference_seconds)))
        loads = [asyncio.run(phase(url, args.clients, args.game, agent, args.games,
                                   args.max_seconds, args.pause, seed=1000 * (k + 1),
                                   verdicts=args.verdicts))
                 for k in range(max(1, args.repeats))]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    header = ["phase", "AI moves", "errors", "p50 ms", "p95 ms", "max ms",
              "p95/target", "searched", "fallback", "wall s", "target met"]
    rows = [row("1 client (reference)", *ref, args.budget)]
    rows += [row(f"{args.clients} clients, run {k + 1}", *load, args.budget)
             for k, load in enumerate(loads)]
    load = (sum((x[0] for x in loads), []), sum((x[1] for x in loads), []),
            sum(x[2] for x in loads))
    rows.append(row(f"{args.clients} clients, all runs", *load, args.budget))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"web load: {args.game}, agent {agent}, {args.workers} workers, "
          f"client pause {args.pause:g} s, "
          f"target p95 <= {(args.budget + MARGIN) * 1000:.0f} ms")
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("-+-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths)))
    server = [r[2] for r in load[0]]
    print(f"server-side latency under load (arrival to answer): p50 "
          f"{statistics.median(server) * 1000:.0f} ms, p95 {percentile(server, 95) * 1000:.0f} ms")
    sources = Counter(r[1] for r in load[0])
    print("sources under load:", dict(sources))
    share = sources["fallback"] / max(1, len(load[0]))
    print(f"fallback moves under load: {sources['fallback']} of {len(load[0])} = {share:.1%} "
          f"(target < 5%: {'met' if share < 0.05 else 'NOT met'})")
    if args.verdicts:
        print("verdicts under load:", dict(VERDICT_COUNTS))
    print("  search: finished; cache: an exact answer found before; deadline: best completed "
          "depth;\n  shared: best completed depth, cut short for a waiting move;"
          "\n  fallback: first move in the game's order (no worker free or no depth "
          "completed in time)")
    for err in load[1][:5]:
        print("error:", err)


if __name__ == "__main__":
    main()
