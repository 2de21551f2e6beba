"""Chess benchmarks: perft speed, search speed (nodes per second) and a match against sunfish.

Run from the repository root (references in the same run; sunfish from PyPI in your venv,
Stockfish the Debian package at /usr/games/stockfish)::

    python bench/chess_perft.py perft [--depth 5] [--kiwipete 4] [--repeat 3]
    python bench/chess_perft.py nps [--seconds 3]
    python bench/chess_perft.py match [--games 8] [--movetime 0.2 | --tc 10+0.1 | --nodes N]
        [--stockfish-elo 1500] [--pgn games.pgn [--resume]] [--jobs 2]
        [--ours-option NAME=VALUE ...]
    python bench/chess_perft.py threads [--seconds 2] [--depth 8] [--threads 1 2]

perft: leaves per second of our compiled perft, python-chess's (legal moves, push/pop, the
last ply counted without playing it) and Stockfish's ``go perft``, on the start position
and Kiwipete (ours and python-chess: the fastest of ``--repeat`` runs each). nps: our
engine, sunfish's searcher and Stockfish (one thread) for the same time on the same
positions. match: our UCI engine against sunfish's UCI engine (or Stockfish, or any UCI
command) at equal time per move or on equal clocks (``--tc``: base + increment, each
side's clock run on the wall time its engine takes; a side whose clock runs out loses) or
at a fixed node budget a move (``--nodes``, UCI ``go nodes``: independent of the machine's
load, for our engine against an older build of itself),
from seeded random 4-ply openings, each played with both colours. A game still running at
200 plies is adjudicated (engines/chess/adjudication.py): by the endgame tables where
``--tables DIR`` holds the position, else played on to its end (the tables asked again
after every move) up to 400 plies, else by Stockfish at depth 16 on the last 4 positions
(at least 300 cp for the same side in all four: a win, else a draw); the PGN's
``Termination`` and final comment say how. ``--cpu-clock`` (with ``--tc``) charges each
clock the processor time the engine's process used, not the wall time; ``--cpu-movetime S``
lets each side think until its process has used S processor seconds (``go infinite``,
then ``stop``: equal time a move on a loaded machine, with neither engine's time policy
in play). ``--resume`` counts
the games the ``--pgn`` file already holds (by their ``Round``) and plays only the rest: a
stopped match goes on with the same command. ``--ours-option NAME=VALUE`` sets a UCI
option of our engine (a search setting against the same build's defaults). Prints the
score with a 95% Wilson interval and the Elo difference with the interval's Elo.
threads: our engine with each ``--threads`` count (Lazy SMP) on ``THREAD_FENS``, a fresh
table each search: the depth finished and all threads' nodes per second in ``--seconds``
a position (every node searched, the unfinished iteration's too), then the seconds to
finish ``--depth`` and the main worker's own nodes to finish it (on n free cores the time
to depth goes with those: the helpers run beside it); one table row a position, totals
last, then the CPU seconds the process got per wall second (a loaded machine's scheduler
may give two threads no more than one).
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import random
import shlex
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import chess
import chess.engine
import chess.pgn

from gamesearch.arena.match import elo_difference, wilson_interval
from gamesearch.engines.chess.adjudication import CUTOFF, Adjudication

START = chess.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
NPS_FENS = [START]
"""sunfish has no FEN reader: speed is compared on the start position only."""
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
THREAD_FENS = [
    START,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
    "r2q1rk1/pp1bbppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 9",
    "2r3k1/pp3ppp/4p3/3n4/3P4/1B3N2/PP3PPP/3R2K1 w - - 0 25",
    "8/5pk1/6p1/8/4P3/5PK1/8/8 w - - 0 50",
]
"""The CPW perft positions 1-5 and 6 (middlegame), four openings/middlegames, an endgame."""


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess's perft (the reference the issue names)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def stockfish_perft(fen: str, depth: int) -> tuple[int, float]:
    """Stockfish's ``go perft`` (leaves, seconds)."""
    import subprocess

    start = time.perf_counter()
    out = subprocess.run([STOCKFISH], input=f"position fen {fen}\ngo perft {depth}\nquit\n",
                         capture_output=True, text=True, timeout=600).stdout
    seconds = time.perf_counter() - start
    nodes = [int(line.split(":")[1]) for line in out.splitlines()
             if line.startswith("Nodes searched")]
    return nodes[0], seconds


def _best_of(repeat: int, run: Callable[[], int]) -> tuple[int, float]:
    """The result of ``run`` and its fastest wall time over ``repeat`` runs (a shared
    machine's scheduling blips otherwise dominate a run of a few hundredths of a second)."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return result, best


def bench_perft(depth: int, kiwipete: int, python_depth: int, repeat: int = 3) -> None:
    from gamesearch.games.chess.kernel import perft_fen

    perft_fen(START, 2)  # load the compiled code
    print("| position | depth | leaves | ours (s) | ours leaves/s | python-chess leaves/s "
          "| ratio | Stockfish leaves/s | ours / Stockfish |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, fen, d in (("start", START, depth), ("Kiwipete", KIWIPETE, kiwipete)):
        ours, t_ours = _best_of(repeat, functools.partial(perft_fen, fen, d))
        pd = min(d, python_depth)
        ref, t_ref = _best_of(repeat, functools.partial(
            python_chess_perft, chess.Board(fen), pd))
        sf_nodes, t_sf = stockfish_perft(fen, d)
        assert sf_nodes == ours, (sf_nodes, ours)
        r_ours, r_ref, r_sf = ours / t_ours, ref / t_ref, sf_nodes / t_sf
        print(f"| {name} | {d} (python-chess {pd}) | {ours:,} | {t_ours:.3f} | {r_ours:,.0f} "
              f"| {r_ref:,.0f} | {r_ours / r_ref:.0f}x | {r_sf:,.0f} | {r_ours / r_sf:.3f} |")


def bench_nps(seconds: float) -> None:
    import sunfish

    from gamesearch.engines.chess.engine import ChessEngine
    from gamesearch.result import Limit

    ours = ChessEngine(64)
    ours.warm_up()
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    sf.configure({"Threads": 1, "Hash": 64})
    totals = {"ours": [0, 0.0], "sunfish": [0, 0.0], "stockfish": [0, 0.0]}
    for fen in NPS_FENS:
        board = chess.Board(fen)
        ours.new_game()
        ours.position(board)
        start = time.perf_counter()
        report = ours.go(Limit(time=seconds))
        totals["ours"][0] += report.stats.nodes if report else 0
        totals["ours"][1] += time.perf_counter() - start
        info = sf.analyse(board, chess.engine.Limit(time=seconds))
        totals["stockfish"][0] += info.get("nodes", 0)
        totals["stockfish"][1] += info.get("time", seconds)
        nodes, used = _sunfish_nodes(sunfish, board, seconds)
        totals["sunfish"][0] += nodes
        totals["sunfish"][1] += used
    sf.quit()
    rates = {k: n / t for k, (n, t) in totals.items()}
    print("| engine | nodes | seconds | nodes/s | ours / it |")
    print("|---|---|---|---|---|")
    for k, (n, t) in totals.items():
        print(f"| {k} | {n:,} | {t:.1f} | {rates[k]:,.0f} | {rates['ours'] / rates[k]:.2f} |")


def _sunfish_nodes(sunfish, board: chess.Board, seconds: float) -> tuple[int, float]:
    """Nodes sunfish's searcher visits in ``seconds`` from the start position."""
    hist = [sunfish.Position(sunfish.initial, 0, (True, True), (True, True), 0, 0)]
    searcher = sunfish.Searcher()
    start = time.perf_counter()
    searcher.deadline = time.time() + seconds
    searcher.soft = time.time() + seconds
    try:
        for _ in searcher.search(hist):
            if time.perf_counter() - start > seconds:
                break
    except sunfish.Stop:
        pass
    return searcher.nodes, time.perf_counter() - start


@dataclass(frozen=True)
class Clock:
    """A time control: ``base`` seconds and ``inc`` a move (Fischer), or a fixed ``movetime``
    a move when ``base`` is None, or a fixed budget of ``nodes`` a move (``go nodes``)."""

    movetime: float = 0.2
    base: float | None = None
    inc: float = 0.0
    nodes: int | None = None
    cpu: bool = False
    cpu_movetime: float | None = None
    """Each side thinks until its engine's process has used this many processor seconds
    (``--cpu-movetime``: UCI ``go infinite``, then ``stop``): equal processor time a move
    for both, whatever the load and whatever either engine's own time policy."""
    """Charge each side's clock the processor time its engine's process used for the move,
    not the wall time (``--cpu-clock``): on a loaded machine a process the scheduler left
    waiting is not flagged for it (Stockfish at ``nice`` lost 14 of its first 17 games on
    time beside other helpers' jobs); each engine still plans on the wall clock."""

    @staticmethod
    def parse(tc: str | None, movetime: float, nodes: int | None = None) -> Clock:
        """``10+0.1`` (base + increment, in seconds), or None for ``movetime`` a move (or
        ``nodes`` a move where given)."""
        if nodes is not None:
            if tc is not None:
                raise ValueError("--nodes and --tc exclude each other")
            if nodes < 1:
                raise ValueError(f"--nodes must be at least 1, not {nodes}")
            return Clock(nodes=nodes)
        if tc is None:
            return Clock(movetime)
        base, _, inc = tc.partition("+")
        try:
            clock = Clock(base=float(base), inc=float(inc or 0))
        except ValueError:
            raise ValueError(f"--tc is BASE+INC in seconds (10+0.1), not {tc!r}") from None
        if not (clock.base > 0 and clock.inc >= 0 and math.isfinite(clock.base + clock.inc)):
            raise ValueError(f"--tc needs a base above 0 and an increment of 0 or more: {tc!r}")
        return clock

    def __str__(self) -> str:
        if self.nodes is not None:
            return f"{self.nodes} nodes a move"
        if self.cpu_movetime is not None:
            return f"{self.cpu_movetime:g} processor s a move"
        if self.base is None:
            return f"{self.movetime} s a move"
        return f"{self.base:g}+{self.inc:g}" + (" (processor-time clock)" if self.cpu else "")


def cpu_seconds(pid: int) -> float:
    """Processor seconds (user + system) process ``pid`` has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _engine_pid(engine: chess.engine.SimpleEngine) -> int:
    """The operating-system process id of a python-chess engine."""
    return engine.transport.get_pid()


def think_for_cpu(engine: chess.engine.SimpleEngine, board: chess.Board, seconds: float,
                  game: object = None) -> chess.Move | None:
    """The engine's move after it has used ``seconds`` of processor time on it (``go
    infinite``, the process's time polled, then ``stop``); an engine that ends the search
    by itself is taken at its word. The poll sleeps a quarter of the time still to use
    (5-50 ms): polling every 5 ms cost the bench as much processor time as the engines got
    on a loaded machine."""
    pid = _engine_pid(engine)
    start = cpu_seconds(pid)
    with engine.analysis(board, game=game) as analysis:
        try:
            while (used := cpu_seconds(pid) - start) < seconds:
                while not analysis.would_block():
                    analysis.get()
                time.sleep(min(0.05, max(0.005, (seconds - used) / 4)))
            analysis.stop()
        except chess.engine.AnalysisComplete:
            pass
        return analysis.wait().move


def opponent_name(command: str) -> str:
    """The name an ``--opponent`` command is recorded under (PGN headers, the summary): the
    command without its ``env VAR=...`` prefix, paths cut to their last part, so that no
    record names this machine's folders."""
    words = shlex.split(command)
    if words and words[0] == "env":
        words = words[1:]
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]
    return " ".join(os.path.basename(w) if os.sep in w else w for w in words) or command


def _engines(elo: int | None, opponent: str | None) -> tuple[list[str], str, dict]:
    """The opponent's command, name and UCI options."""
    if opponent is not None:
        return shlex.split(opponent), opponent_name(opponent), {}
    if elo is None:
        return [sys.executable, "-m", "sunfish"], "sunfish", {}
    return ([STOCKFISH], f"Stockfish UCI_Elo {elo}",
            {"Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": elo})


class Judge:
    """One match worker's adjudicator of games past the cut-off (engines/chess/
    adjudication.py): the tables, and a full-strength Stockfish started at its first need
    (at the rule's depth 16; a test may ask for less)."""

    def __init__(self, tables: str | None, depth: int | None = None) -> None:
        from gamesearch.engines.chess.adjudication import EVAL_DEPTH
        from gamesearch.engines.chess.tables import Tables

        self.tables = Tables(tables) if tables else None
        self.depth = depth or EVAL_DEPTH
        self.stockfish: chess.engine.SimpleEngine | None = None

    def verdict(self, board: chess.Board) -> Adjudication | None:
        """The verdict for a running game at or past the cut-off, or None: play on."""
        from gamesearch.engines.chess import adjudication as A

        found = A.by_tables(board, self.tables)
        if found is not None or board.ply() < A.HARD_CAP:
            return found
        if self.stockfish is None:
            self.stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=120)
            self.stockfish.configure({"Threads": 1, "Hash": 64})
        return A.at_cap(board, A.stockfish_evaluator(self.stockfish, self.depth))

    def close(self) -> None:
        """Quit the evaluating Stockfish, if it was started."""
        if self.stockfish is not None:
            self.stockfish.quit()


def recorded_games(pgn_path: str) -> dict[int, float]:
    """The games a match PGN already holds (``--resume``): game number (0-based, from the
    ``Round`` header) to our points, read from the ``White`` header and the result."""
    done: dict[int, float] = {}
    if not os.path.exists(pgn_path):
        return done
    with open(pgn_path, encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            g = int(headers.get("Round", "0")) - 1
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(headers.get("Result", ""))
            if g < 0 or points is None:
                continue
            done[g] = points if headers.get("White") == "gamesearch" else 1 - points
    return done


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` pairs (``--ours-option``) as UCI options for our engine."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--ours-option is NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


class MatchError(Exception):
    """A match that could not go on (an engine would not start or died): one line."""


def bench_match(games: int, clock: Clock, seed: int, elo: int | None = None,
                pgn_path: str | None = None, opponent: str | None = None,
                jobs: int = 1, tables: str | None = None, resume: bool = False,
                ours_options: dict[str, str] | None = None) -> None:
    """Our UCI engine against sunfish, Stockfish at ``elo``, or the UCI command
    ``opponent`` (another build of ours, say), ``jobs`` games at a time (each pair of
    engines plays one game at a time; the games and openings do not depend on ``jobs``).
    ``resume``: the games ``pgn_path`` already holds are counted, not played again (a
    stopped match goes on with the same command). ``ours_options``: UCI options for our
    engine (a search setting against the defaults of the same build, say)."""
    openings = _openings(games, seed)
    command, who, options = _engines(elo, opponent)
    lock = threading.Lock()
    tally = {"score": 0.0, "played": 0, "adjudicated": 0}
    done = recorded_games(pgn_path) if resume and pgn_path else {}
    done = {g: points for g, points in done.items() if g < games}
    tally["score"] = sum(done.values())
    tally["played"] = len(done)
    if done:
        print(f"resumed: {len(done)} games already in {pgn_path}, ours "
              f"{tally['score']}/{tally['played']}", flush=True)

    errors: list[str] = []

    def worker(numbers: list[int]) -> None:
        """Play ``numbers``; an engine that will not start or dies is one line, not a
        thread's traceback (a wrong ``--opponent`` command, say)."""
        try:
            play(numbers)
        except (chess.engine.EngineError, OSError) as error:
            with lock:
                errors.append(f"an engine failed: {type(error).__name__}: {error}")

    def play(numbers: list[int]) -> None:
        # both engines are quit however the match ends (an error used to leave their
        # threads holding the process)
        judge = Judge(tables)
        # (600 s: a cold cache compiles the search first, and two engines of a fresh build
        # compiling at a load of 10 outlasted 120 s)
        with chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "gamesearch", "uci"],
                                                 timeout=600) as ours, \
                chess.engine.SimpleEngine.popen_uci(command, timeout=600) as fish:
            try:
                ours.ping()
                fish.ping()
            except TimeoutError:
                print("error: an engine did not answer isready within 600 s", flush=True)
                return
            if ours_options:
                ours.configure(ours_options)
            if options:
                fish.configure(options)
            try:
                for g in numbers:
                    board, result, flagged, how = _play_one(ours, fish, openings[g], g, clock,
                                                            judge)
                    points = _record(board, result, g, who, clock, pgn_path, lock, how)
                    with lock:
                        tally["score"] += points
                        tally["played"] += 1
                        if how:
                            tally["adjudicated"] += 1
                        note = f" ({flagged} lost on time)" if flagged else ""
                        note += f" ({how})" if how else ""
                        print(f"game {g + 1}: ours {'white' if g % 2 == 0 else 'black'}, "
                              f"{result}, {board.ply()} plies{note}; ours "
                              f"{tally['score']}/{tally['played']}", flush=True)
            finally:
                judge.close()

    left = [g for g in range(games) if g not in done]
    threads = [threading.Thread(target=worker, args=(left[j::jobs],)) for j in range(jobs)
               if left[j::jobs]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    score, played = tally["score"], tally["played"]
    if errors:
        raise MatchError(errors[0] + (f" (and {len(errors) - 1} more)" if len(errors) > 1
                                      else "") + f"; {played} games played")
    if played == 0:
        print("no games played")
        return
    p = score / played
    low, high = wilson_interval(p, played)
    print(f"{tally['adjudicated']} games went past the {CUTOFF}-ply cut-off (adjudicated or "
          "played on)")
    print(f"ours vs {who} at {clock}: {score}/{played} = {p:.3f} (95% Wilson "
          f"{low:.3f} .. {high:.3f}); Elo {elo_difference(p):+.0f} "
          f"({elo_difference(low):+.0f} .. {elo_difference(high):+.0f})")


def _openings(games: int, seed: int) -> list[chess.Board]:
    """Seeded random 4-ply openings, each for two games (both colours)."""
    rng = random.Random(seed)
    openings = []
    for g in range(games):
        if g % 2 == 0:
            opening = chess.Board()
            for _ in range(4):
                opening.push(rng.choice(list(opening.legal_moves)))
        openings.append(opening)
    return openings


def _play_one(ours, fish, opening: chess.Board, g: int, clock: Clock, judge: Judge,
              ) -> tuple[chess.Board, str, str, str]:
    """Game ``g`` (ours White when g is even) to its end, or to the ``judge``'s verdict
    from the cut-off on; the board, the result, who lost on time ("" if nobody) and how a
    game past the cut-off ended ("" for one that ended before it). With a base + increment
    each side's clock runs on the wall time its engine took, the increment added after each
    move. Each engine hears ``ucinewgame`` when a game begins."""
    white_is_ours = g % 2 == 0
    board = opening.copy()
    left = {chess.WHITE: clock.base, chess.BLACK: clock.base}
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= CUTOFF:
            verdict = judge.verdict(board)
            if verdict is not None:
                return board, verdict.result, "", verdict.how
        mover = board.turn
        engine = ours if (mover == chess.WHITE) == white_is_ours else fish
        if clock.nodes is not None:
            limit = chess.engine.Limit(nodes=clock.nodes)
        elif clock.base is None:
            limit = chess.engine.Limit(time=clock.movetime)
        else:
            limit = chess.engine.Limit(white_clock=left[chess.WHITE],
                                       black_clock=left[chess.BLACK],
                                       white_inc=clock.inc, black_inc=clock.inc)
        pid = _engine_pid(engine) if clock.cpu else 0
        began = cpu_seconds(pid) if clock.cpu else time.perf_counter()
        if clock.cpu_movetime is not None:
            move = think_for_cpu(engine, board, clock.cpu_movetime, game=g)
        else:
            move = engine.play(board, limit, game=g).move
        if clock.base is not None:
            left[mover] -= (cpu_seconds(pid) if clock.cpu else time.perf_counter()) - began
            if left[mover] < 0:
                loser = "ours" if engine is ours else "the opponent"
                return board, ("0-1" if mover == chess.WHITE else "1-0"), loser, ""
            left[mover] += clock.inc
        if move is None:  # "bestmove (none)" in a live position: that side resigns
            print(f"{'ours' if engine is ours else 'the opponent'} resigned at ply "
                  f"{board.ply()} ({board.fen()})", flush=True)
            return board, ("0-1" if mover == chess.WHITE else "1-0"), "", ""
        board.push(move)
    how = f"played on past the {CUTOFF}-ply cut-off to its end" if board.ply() > CUTOFF \
        else ""
    return board, board.result(claim_draw=True), "", how


def _record(board: chess.Board, result: str, g: int, who: str, clock: Clock,
            pgn_path: str | None, lock: threading.Lock, how: str = "") -> float:
    """Append the game to the PGN (every game kept, as it ends; one past the cut-off with
    ``Termination`` and a final comment saying how it ended); our points."""
    white_is_ours = g % 2 == 0
    if pgn_path:
        record = chess.pgn.Game.from_board(board)
        names = ("gamesearch", who) if white_is_ours else (who, "gamesearch")
        record.headers.update({"White": names[0], "Black": names[1], "Result": result,
                               "Round": str(g + 1), "Event": str(clock)})
        if clock.base is not None:
            record.headers["TimeControl"] = f"{clock.base:g}+{clock.inc:g}"
        if how:
            record.headers["Termination"] = "normal" if how.startswith("played on") \
                else "adjudication"
            record.end().comment = how
        with lock, open(pgn_path, "a", encoding="utf-8") as out:
            print(record, file=out, end="\n\n")
    points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return points if white_is_ours else 1 - points


def bench_threads(seconds: float, depth: int, counts: list[int]) -> None:
    from gamesearch.engines.chess.engine import ChessEngine
    from gamesearch.result import Limit

    engine = ChessEngine(64)
    engine.warm_up()
    for n in counts:  # the table's pages and each count's arrays touched before timing
        engine.set_threads(n)
        engine.position(chess.Board(KIWIPETE))
        engine.go(Limit(time=min(seconds, 0.5)))
    cols = " | ".join(f"{n}T depth | {n}T knps | {n}T s to d{depth} | {n}T main kn to d{depth}"
                      for n in counts)
    print(f"| position | {cols} |")
    print("|---|" + "---|" * 4 * len(counts))
    # depth, nodes, seconds, time to depth, CPU seconds, main worker's nodes to depth
    totals = {n: [0, 0, 0.0, 0.0, 0.0, 0] for n in counts}
    for i, fen in enumerate(THREAD_FENS, 1):
        cells = []
        for n in counts:
            engine.set_threads(n)
            runs = []
            for limit in (Limit(time=seconds), Limit(depth=depth)):
                engine.new_game()
                engine.position(chess.Board(fen))
                start, cpu = time.perf_counter(), time.process_time()
                report = engine.go(limit)
                used = time.perf_counter() - start
                nodes = int(engine.info[0]) + sum(int(h.info[0]) for h in engine.helpers)
                runs.append((report.stats.depth, nodes, used, time.process_time() - cpu,
                             int(engine.info[0])))
            (reached, nodes, used, cpu, _), (_, _, to_depth, _, main) = runs
            t = totals[n]
            t[0] += reached
            t[1] += nodes
            t[2] += used
            t[3] += to_depth
            t[4] += cpu
            t[5] += main
            cells.append(f"{reached} | {nodes / used / 1000:,.0f} | {to_depth:.2f} | "
                         f"{main / 1000:,.0f}")
        print(f"| {i} | " + " | ".join(cells) + " |")
    cells = [f"{t[0] / len(THREAD_FENS):.1f} avg | {t[1] / t[2] / 1000:,.0f} | {t[3]:.2f} sum"
             f" | {t[5] / 1000:,.0f} sum" for t in totals.values()]
    print("| all | " + " | ".join(cells) + " |")
    # what the machine gave: CPU seconds per wall second in the timed searches (n threads
    # on n free cores: about n)
    print("\nCPU seconds per wall second in the timed searches: " + ", ".join(
        f"{n}T {t[4] / t[2]:.2f}" for n, t in totals.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("perft")
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--kiwipete", type=int, default=4)
    p.add_argument("--python-depth", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3,
                   help="time ours and python-chess this many times each, keep the fastest")
    n = sub.add_parser("nps")
    n.add_argument("--seconds", type=float, default=3)
    m = sub.add_parser("match")
    m.add_argument("--games", type=int, default=8)
    m.add_argument("--movetime", type=float, default=0.2)
    m.add_argument("--tc", default=None,
                   help="a clock for each side instead of --movetime: BASE+INC seconds, "
                   "e.g. 10+0.1")
    m.add_argument("--nodes", type=int, default=None,
                   help="a fixed node budget a move for both (UCI 'go nodes') instead of "
                   "--movetime or --tc: the same games however loaded the machine is")
    m.add_argument("--jobs", type=int, default=1,
                   help="games played at once (each by its own pair of engines)")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--stockfish-elo", type=int, default=None,
                   help="play Stockfish with UCI_LimitStrength at this UCI_Elo, not sunfish")
    m.add_argument("--pgn", default=None, help="append every game to this PGN file")
    m.add_argument("--tables", default=None,
                   help="endgame tables (gamesearch tables build chess) that adjudicate a "
                   "game past the cut-off where they hold its position")
    m.add_argument("--opponent", default=None,
                   help="play this UCI engine command instead (e.g. an older build: "
                   "'env PYTHONPATH=OLD/src python -m gamesearch uci')")
    m.add_argument("--cpu-clock", action="store_true",
                   help="with --tc: charge each side the processor time its engine used, "
                   "not the wall time (a loaded machine's waits flag nobody)")
    m.add_argument("--cpu-movetime", type=float, default=None, metavar="SECONDS",
                   help="each side thinks until its engine has used this much processor "
                   "time (go infinite, then stop): equal time on a loaded machine")
    m.add_argument("--resume", action="store_true",
                   help="count the games --pgn already holds and play only the rest")
    m.add_argument("--ours-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option for our engine (repeatable), e.g. NullMoveBase=3")
    t = sub.add_parser("threads")
    t.add_argument("--seconds", type=float, default=2)
    t.add_argument("--depth", type=int, default=8)
    t.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    if args.what == "perft":
        bench_perft(args.depth, args.kiwipete, args.python_depth, args.repeat)
    elif args.what == "nps":
        bench_nps(args.seconds)
    elif args.what == "threads":
        bench_threads(args.seconds, args.depth, args.threads)
    else:
        if args.games < 1 or args.movetime <= 0 or args.jobs < 1:
            parser.error("--games and --jobs must be at least 1 and --movetime above 0")
        try:
            clock = Clock.parse(args.tc, args.movetime, args.nodes)
        except ValueError as error:
            parser.error(str(error))
        if args.cpu_clock:
            if clock.base is None:
                parser.error("--cpu-clock needs --tc")
            clock = replace(clock, cpu=True)
        if args.cpu_movetime is not None:
            if args.tc is not None or args.nodes is not None or args.cpu_clock:
                parser.error("--cpu-movetime excludes --tc, --nodes and --cpu-clock")
            if not args.cpu_movetime > 0:
                parser.error(f"--cpu-movetime must be above 0, not {args.cpu_movetime}")
            clock = replace(clock, cpu_movetime=args.cpu_movetime)
        if args.pgn and os.path.isdir(args.pgn):
            parser.error(f"--pgn {args.pgn} is a folder, not a PGN file")
        if args.tables is not None:
            from gamesearch.engines.chess.tables import Tables
            from gamesearch.errors import GameSearchError

            try:
                Tables(args.tables)
            except GameSearchError as error:
                parser.error(str(error))
        if args.opponent is not None and args.stockfish_elo is not None:
            parser.error("--opponent and --stockfish-elo exclude each other")
        if args.resume and not args.pgn:
            parser.error("--resume needs --pgn (the games to count)")
        try:
            ours_options = parse_options(args.ours_option)
        except ValueError as error:
            parser.error(str(error))
        try:
            bench_match(args.games, clock, args.seed, args.stockfish_elo, args.pgn,
                        args.opponent, min(args.jobs, args.games), args.tables, args.resume,
                        ours_options)
        except MatchError as error:
            print(f"chess_perft.py: error: {error}", file=sys.stderr)
            sys.exit(2)


if __name__ == "__main__":
    main()
