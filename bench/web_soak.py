"""Soak test of the web app (issue 38): whole games of every game with the page's default
agents while ``bench/web_load.py``'s clients keep the server busy.

Starts ``gamesearch serve`` on loopback, starts ``--clients`` load clients from
``bench/web_load.py`` (each plays ``--load-game`` against ``alphabeta:time=--load-budget``
with a pause before its own moves, and asks a verdict for every position with
``--verdicts``), then plays ``--games`` whole games of every game the home page offers
(``/api/games``). By default every game is played by the page itself in Chromium
(``/usr/bin/chromium`` through Playwright), as a person watching it: every seat that seat's
default agent (``/api/seats``: the page offers an AI for every seat), "New game" between
games. ``--browser none`` (or a list of names) plays the others through the API the page
uses (``/api/position`` to roll chance, ``/api/think`` streamed).

It counts fallback moves (each move's ``source`` in the page's move list, and the server's
``/api/health`` count before and after), the longest move (request to answer) and how each
game ended: a game must reach its real end (no resignation; Go by two passes, with the score
shown). A line per game as it ends; ``--progress FILE`` keeps a JSON line per finished
browser game, and a soak started again with the same file plays only what is left. At the
end: a table, and a JSON record (``--record``, default
``bench/records/web-soak/<time>.json``) with the server's health (fallbacks and worker
replacements by cause).

    python bench/web_soak.py --progress soak.jsonl            # everything, 3 games each
    python bench/web_soak.py --only go --games 1 --clients 4  # one Go game, light load

Bounded: ``--max-seconds`` stops every game (an unfinished game is reported as such),
``--game-seconds`` one browser game, ``--max-plies`` an API game that runs past it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_load  # noqa: E402  (the load clients and the server start, shared)

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]
SKIP = {"openspiel"}
"""Games the page lists that need an optional outside library (skipped when it is absent)."""


class Tally:
    """What one game kind's games did: moves, sources, the longest move, how each ended."""

    def __init__(self, game: str, via: str) -> None:
        self.game, self.via = game, via
        self.games = 0
        self.moves = 0
        self.sources: Counter[str] = Counter()
        self.max_move = 0.0
        self.ends: list[str] = []
        self.errors: list[str] = []

    def row(self) -> dict:
        return {"game": self.game, "via": self.via, "games": self.games, "moves": self.moves,
                "fallbacks": self.sources["fallback"], "sources": dict(self.sources),
                "max_move_s": round(self.max_move, 2), "ends": self.ends,
                "errors": self.errors}


async def think(client: httpx.AsyncClient, body: dict) -> tuple[dict | None, str | None]:
    """The ``move`` event of /api/think (or the error) as the page reads it."""
    name, move, error = None, None, None
    async with client.stream("POST", "/api/think", json=body) as response:
        if response.status_code != 200:
            await response.aread()
            return None, f"{response.status_code}: {response.text[:200]}"
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name in ("move", "error"):
                data = json.loads(line[6:])
                move, error = (data, None) if name == "move" else (None, data.get("error"))
    return move, error


def end_of(view: dict) -> str:
    """How a finished game ended, in a few words (the page's outcome line)."""
    return f"{view.get('end', '?')}: {view.get('outcome', '?')}"


async def api_game(client: httpx.AsyncClient, game: str, agents: list[str], tally: Tally,
                   stop_at: float, max_plies: int) -> None:
    """One whole game through the API, every seat its default agent."""
    view = (await client.post("/api/position", json={"game": game, "moves": []})).json()
    while not view["terminal"]:
        if time.monotonic() > stop_at:
            tally.ends.append(f"unfinished: stopped by --max-seconds after "
                              f"{len(view['moves'])} plies")
            return
        if len(view["moves"]) >= max_plies:
            tally.ends.append(f"unfinished: over {max_plies} plies")
            return
        t0 = time.monotonic()
        move, error = await think(client, {"game": game, "moves": view["moves"],
                                           "agent": agents[view["to_move"]]})
        seconds = time.monotonic() - t0
        if move is None:
            tally.errors.append(f"ply {len(view['moves'])}: {error}")
            tally.ends.append("error")
            return
        tally.moves += 1
        tally.sources[move["source"]] += 1
        tally.max_move = max(tally.max_move, seconds)
        if move["source"] == "fallback":
            print(f"  FALLBACK {game} ply {len(view['moves'])}: {move.get('note')}",
                  flush=True)
        view = move["position"]
    tally.games += 1
    tally.ends.append(end_of(view))


async def play_kind(url: str, game: str, games: int, tally: Tally, stop_at: float,
                    max_plies: int) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        seats = (await client.get("/api/seats", params={"game": game})).json()["seats"]
        agents = [seat["default"] for seat in seats]
        for k in range(games):
            t0 = time.monotonic()
            await api_game(client, game, agents, tally, stop_at, max_plies)
            print(f"{game} game {k + 1}/{games} ({', '.join(agents)}): {tally.ends[-1]} "
                  f"[{time.monotonic() - t0:.0f} s, {tally.moves} moves so far, "
                  f"{tally.sources['fallback']} fallbacks]", flush=True)
            if time.monotonic() > stop_at:
                return


MOVES_JS = ("[...document.querySelectorAll('#movelist button.move')]"
            ".map((b) => ({move: b.dataset.move, source: b.dataset.source,"
            " text: b.textContent}))")
"""The page's move list, main line and variations (AI vs AI plays the main line only)."""


def real_end(game: str, status: str, moves: list[dict]) -> str | None:
    """Why a finished page's game is not at its real end (None: it is): a resignation or an
    agreed draw is not one, and Go ends by two passes with the score shown (``W+3.5``)."""
    text = status.lower()
    if "resign" in text or "agreed" in text:
        return "ended by resignation or agreement"
    if game == "go":
        last = [m["move"].lower() for m in moves[-2:]]
        if last != ["pass", "pass"]:
            return f"Go did not end by two passes (last: {last})"
        if not re.search(r"[BW]\+\d", status):
            return "Go's score is not shown"
    return None


def browser_games(url: str, game: str, games: int, tally: Tally, seconds: float,
                  game_seconds: float, done: int = 0, progress: Path | None = None) -> None:
    """``games`` games of ``game`` (from the ``done``-th on) played by the page in Chromium
    as a person would watch them: every seat its default agent (the page offers an AI for
    every seat of every game), "New game" between games. Each game's sources come from the
    page's move list, its move times from the page's streams, its end from the status line
    (checked by :func:`real_end`); one JSON line per game goes to ``progress``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        times: list[float] = []

        def finished(request) -> None:
            if request.url.endswith("/api/think"):
                timing = request.timing
                times.append((timing["responseEnd"] - timing["requestStart"]) / 1000)

        page.on("requestfinished", finished)
        seats = httpx.get(url + "api/seats", params={"game": game}).json()["seats"]
        link = "&".join(f"p{i + 1}={seat['default']}" for i, seat in enumerate(seats))
        page.goto(f"{url}#/play?game={game}&{link}")
        page.wait_for_selector("#board")
        end = time.monotonic() + seconds
        for k in range(done, games):
            if k > done:
                page.click("#new-game")
                page.wait_for_function("!document.getElementById('status').textContent"
                                       ".includes('Game over')")
            began, first_time = time.monotonic(), len(times)
            left = max(1.0, min(game_seconds, end - time.monotonic()))
            try:
                page.wait_for_function("document.getElementById('status').textContent"
                                       ".includes('Game over')", timeout=left * 1000,
                                       polling=1000)
                status = page.text_content("#status").strip()
            except Exception:  # noqa: BLE001  out of time: reported, not raised
                status = ""
            moves = page.evaluate(MOVES_JS)
            sources = Counter(m["source"] for m in moves if m["source"])
            if status:
                wrong = real_end(game, status, moves)
                ending = ("page: " + status) if wrong is None else f"not real: {wrong}"
                tally.games += 1
            else:
                ending = f"unfinished: out of time after {len(moves)} plies"
            tally.moves += sum(sources.values())
            tally.sources.update(sources)
            tally.ends.append(ending)
            tally.max_move = max([tally.max_move, *times[first_time:]])
            error = (page.text_content("#play-error") or "").strip()
            if error:
                tally.errors.append(error)
            line = {"game": game, "index": k, "via": "browser", "plies": len(moves),
                    "sources": dict(sources), "fallbacks": sources["fallback"],
                    "max_move_s": round(max(times[first_time:], default=0.0), 2),
                    "seconds": round(time.monotonic() - began, 1), "end": ending,
                    "errors": [error] if error else []}
            if progress is not None:
                with progress.open("a") as out:
                    out.write(json.dumps(line) + "\n")
            print(f"{game} (browser) game {k + 1}/{games}: {ending} [{line['seconds']:.0f} s, "
                  f"{line['plies']} plies, {line['fallbacks']} fallbacks, longest move "
                  f"{line['max_move_s']:.1f} s]", flush=True)
            if not status:
                break
        tally.errors.extend(errors)
        browser.close()


def tally_of(game: str, lines: list[dict]) -> Tally:
    """A game's tally from its progress lines."""
    tally = Tally(game, "browser")
    for line in lines:
        tally.games += 1
        tally.moves += sum(line["sources"].values())
        tally.sources.update(line["sources"])
        tally.max_move = max(tally.max_move, line["max_move_s"])
        tally.ends.append(line["end"])
        tally.errors += line.get("errors", [])
    return tally


def resumed(progress: Path | None) -> dict[str, list[dict]]:
    """The games a progress file says are done (a stopped soak goes on from there)."""
    out: dict[str, list[dict]] = {}
    if progress is None or not progress.exists():
        return out
    for text in progress.read_text().splitlines():
        if text.strip():
            line = json.loads(text)
            if not line["end"].startswith("unfinished"):
                out.setdefault(line["game"], []).append(line)
    return out


async def in_daemon_thread(func, *args) -> None:
    """Run ``func(*args)`` in a daemon thread (a stopped soak does not wait for a browser)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def run() -> None:
        try:
            func(*args)
        finally:
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

    threading.Thread(target=run, daemon=True).start()
    await done


async def load_forever(url: str, clients: int, game: str, agent: str, pause: float,
                       verdicts: bool, stop: asyncio.Event, record: list, errors: list) -> None:
    """``clients`` web_load clients playing game after game until ``stop`` is set."""
    host, port = url.split("//")[1].rstrip("/").split(":")

    async def one(i: int) -> None:
        seed = 7000 + 100 * i
        while not stop.is_set():
            conn = web_load.Connection(host, int(port))
            line = web_load.Verdicts(host, int(port), game, web_load.VERDICT_COUNTS) \
                if verdicts else None
            try:
                await web_load.play(conn, game, agent, 1, seed, time.monotonic() + 3600,
                                    record, errors, pause, line)
            except (OSError, ValueError, asyncio.IncompleteReadError) as err:
                errors.append(f"load client {i}: {type(err).__name__}: {err}")
                await asyncio.sleep(1)
            finally:
                await conn.close()
                if line is not None:
                    line.drop()
            seed += 1

    tasks = [asyncio.create_task(one(i)) for i in range(clients)]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def wait_ready(url: str, workers: int, seconds: float = 600) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                pool = (await client.get("/api/health")).json()["pool"]
                if pool["ready"] >= workers + 1:
                    return
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            await asyncio.sleep(1)
    raise SystemExit("the server's workers were not ready in time")


async def soak(args: argparse.Namespace, url: str) -> dict:
    await wait_ready(url, args.workers)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        names = [g["name"] for g in (await client.get("/api/games")).json()["games"]]
        playable = []
        for name in names:
            if args.only and name not in args.only:
                continue
            ok = await client.post("/api/position", json={"game": name, "moves": []})
            if ok.status_code != 200 or name in SKIP and not args.only:
                print(f"skipped {name}: {ok.json().get('error', 'needs an optional library')}")
                continue
            playable.append(name)
    stop = asyncio.Event()
    load_record: list = []
    load_errors: list = []
    load = asyncio.create_task(load_forever(
        url, args.clients, args.load_game, f"alphabeta:time={args.load_budget:g}",
        args.load_pause, args.verdicts, stop, load_record, load_errors))
    began = time.monotonic()
    stop_at = began + args.max_seconds
    in_browser = set(playable) if args.browser == "all" else \
        set() if args.browser == "none" else set(args.browser.split(","))
    tallies = {name: Tally(name, "browser" if name in in_browser else "api")
               for name in playable}
    already = resumed(args.progress)
    for name, lines in already.items():
        if name in tallies:
            tallies[name] = tally_of(name, lines)
            print(f"{name}: {len(lines)} games done before (--progress {args.progress})")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        health_before = (await client.get("/api/health")).json()
    queue: asyncio.Queue = asyncio.Queue()
    for name in sorted(playable, key=lambda n: n not in in_browser):
        if len(already.get(name, [])) < args.games:
            queue.put_nowait(name)

    async def lane() -> None:
        while not queue.empty():
            name = queue.get_nowait()
            if name in in_browser:
                await in_daemon_thread(browser_games, url, name, args.games, tallies[name],
                                       max(1.0, stop_at - time.monotonic()),
                                       args.game_seconds, len(already.get(name, [])),
                                       args.progress)
            else:
                await play_kind(url, name, args.games, tallies[name], stop_at, args.max_plies)

    try:
        await asyncio.gather(*(lane() for _ in range(args.parallel)))
    finally:
        stop.set()
        await load
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        health = (await client.get("/api/health")).json()
    load_sources = Counter(r[1] for r in load_record)
    return {"tallies": [t.row() for t in tallies.values()], "health": health,
            "health_before": health_before,
            "seconds": round(time.monotonic() - began, 1),
            "load": {"clients": args.clients, "game": args.load_game,
                     "agent": f"alphabeta:time={args.load_budget:g}", "moves": len(load_record),
                     "sources": dict(load_sources), "errors": load_errors[:10],
                     "verdicts": dict(web_load.VERDICT_COUNTS)}}


def table(rows: list[dict]) -> str:
    header = ["game", "via", "games", "moves", "fallbacks", "max move s", "end reasons"]
    lines = [[r["game"], r["via"], str(r["games"]), str(r["moves"]), str(r["fallbacks"]),
              f"{r['max_move_s']:.2f}",
              "; ".join(f"{n}x {e}" if n > 1 else e
                        for e, n in Counter(e[:70] for e in r["ends"]).items())]
             for r in rows]
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(header[:-1])]
    out = [" | ".join(h.ljust(w) for h, w in zip(header, [*widths, 0]))]
    out.append("-+-".join("-" * w for w in [*widths, 11]))
    out += [" | ".join(c.ljust(w) for c, w in zip(row, [*widths, 0])) for row in lines]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="whole games of each game")
    parser.add_argument("--clients", type=int, default=20, help="web_load clients")
    parser.add_argument("--load-game", default="connect4")
    parser.add_argument("--load-budget", type=float, default=1.0)
    parser.add_argument("--load-pause", type=float, default=1.0)
    parser.add_argument("--verdicts", action="store_true",
                        help="the load clients ask a verdict per position, as the page does")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=3,
                        help="game kinds played at the same time")
    parser.add_argument("--browser", default="all",
                        help="the games played by the page in Chromium: 'all' (the default),"
                             " 'none' (every game by the API) or names, comma-separated")
    parser.add_argument("--game-seconds", type=float, default=1800,
                        help="the most one game in the browser may take")
    parser.add_argument("--progress", type=Path, default=None,
                        help="a JSON line per finished browser game; a soak started again "
                             "with the same file plays only the games not yet done")
    parser.add_argument("--only", action="append", help="play only this game (repeatable)")
    parser.add_argument("--max-seconds", type=float, default=5400)
    parser.add_argument("--max-plies", type=int, default=590)
    parser.add_argument("--record", type=Path, default=None)
    parser.add_argument("--table", action="store_true",
                        help="print the table of the games in --progress and stop (a soak "
                             "that was stopped, or is still running)")
    args = parser.parse_args()
    if args.table:
        print(table([tally_of(name, lines).row()
                     for name, lines in sorted(resumed(args.progress).items())]))
        return
    if args.browser != "none" and not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: every game by the API")
        args.browser = "none"
    proc, url = web_load.start_server(args.workers)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped (SIGTERM)"))  # server ends too
    log: list[str] = []

    def drain() -> None:  # the server's log lines (replacements, fallbacks), kept
        for line in proc.stdout:
            log.append(line.rstrip())
            if "replaced" in line or "fallback" in line:
                print("server:", line.rstrip(), flush=True)

    threading.Thread(target=drain, daemon=True).start()
    try:
        result = asyncio.run(soak(args, url))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    result["server_log"] = [line for line in log if "kernels" not in line][-200:]
    result["command"] = " ".join(sys.argv)
    result["date"] = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"web soak: {args.games} games of each, {args.clients} load clients "
          f"({args.load_game}, alphabeta:time={args.load_budget:g}), {args.workers} workers, "
          f"{result['seconds']:.0f} s")
    print(table(result["tallies"]))
    fallbacks = sum(r["fallbacks"] for r in result["tallies"])
    unfinished = sum(1 for r in result["tallies"] for e in r["ends"]
                     if e.startswith(("unfinished", "error")))
    print(f"fallback moves: {fallbacks}; games not at their real end: {unfinished}")
    fell = result["health"]["fallbacks"]["total"] - result["health_before"]["fallbacks"]["total"]
    print(f"server health: {fell} fallback moves during the soak (every client, the load's "
          f"too; the load's own: {result['load']['sources'].get('fallback', 0)}), causes",
          json.dumps(result["health"]["fallbacks"]["causes"]),
          "replacements:", result["health"]["pool"]["replacements"])
    print("load:", json.dumps(result["load"]))
    path = args.record or (Path(__file__).resolve().parent / "records" / "web-soak"
                           / time.strftime("%Y%m%d-%H%M%S.json"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"record: {path}")


if __name__ == "__main__":
    main()
