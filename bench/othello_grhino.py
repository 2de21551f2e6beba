"""Our Othello engine against GRhino (Debian's ``grhino``: ``/usr/games/gtp-rhino``,
Logistello-style pattern tables and an opening book) at its levels 1-5, with both sides'
processor time measured in every game.

``python bench/othello_grhino.py --levels 1,2,3,4,5 --games 100 --capped`` plays, at each
GRhino level, ``--games`` games from seeded random openings of ``--opening`` plies, each
opening twice with the colours swapped: ``othello:target=T`` (``othello:time=T`` uncapped;
the learned evaluation, exact solve from 14 empties or earlier) against ``grhino:level=L``,
started afresh for each game.

Processor time, per game and per side: ours is ``time.process_time()`` of this process
around each of our moves; GRhino's is its process's user + system time from
/proc/PID/stat, read after it has started and loaded its tables and again before it is
closed (so its start-up is not counted against it).

``--capped`` gives our program GRhino's processor time per game as a budget, spent as a
tournament program spends its clock: before each of our moves, what is left of the game's
allowance (GRhino's expected time for a game, :data:`SHARE` of the median of its earlier
games at the level in this folder, or its time so far where that is more, less ours so
far) is spread over our moves left (:func:`moves_left`), and ours plays with that as its
``target`` (``othello:target=T``: about T, at most 3 T a move, the endgame solved early
where the time allows), converted to the engine's wall-clock target by :class:`Pacer`
(what our last searched moves spent per second of target: the engine's own spending and
the share of a core this process gets on a loaded machine). GRhino spends most
of its time in its endgame search, late in the game, so its time so far alone would starve
our midgame. ``--capped --time T`` is the earlier rule (mode ``cappedT``): half of GRhino's
time so far less ours, at least ``MIN_MOVE``, at most T, with ``othello:time``. The table
counts the games where our total came out above GRhino's.

Each game is one JSON line in ``--records``/othello-grhino/L{level}_{mode}.jsonl (the
opening, the moves, our seat, the discs, the reason, both processor times); the same
command plays the games a file lacks (a resume). Any number of processes running the same
command share a level's file, one a core: each claims the next game the file lacks that no
other holds (:class:`GameClaims`), so they stay busy to the last game however uneven the
missing games are, and each line is appended under a lock. ``--shard I/N`` (earlier runs'
fixed split) further limits a process to the games whose index is I modulo N.
``--no-play`` only reads the files. ``--evaluation
patterns`` plays our pattern tables (issue #41) instead of the learned 16 features, its
files named ``L{level}_{mode}_patterns.jsonl``. Then the table: per
level and mode, games, our wins/draws/losses, score with a 95% Wilson interval, Elo, and
the mean processor time per game of each side.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import math
import os
import random
import sys
import time
from pathlib import Path

from gamesearch.agents import make_agent
from gamesearch.arena.match import elo_difference, wilson_interval
from gamesearch.durable import OutputFileError, check_output
from gamesearch.engines.othello.engine import HARD_SHARE
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.othello.notation import BLACK, WHITE
from gamesearch.games.othello.rules import PASS_MOVE

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"
MIN_MOVE = 0.01
"""The least time a capped move is given (seconds)."""
SHARE = 0.9
"""Our allowance for a game: this share of GRhino's median processor time per game at the
level (its times are skewed: a few games' endgames take most of it)."""
EXACT = 12
"""Empty squares below which our moves cost next to nothing (solved), not counted among the
moves left to spread the budget over."""


def moves_left(empties: int) -> int:
    """Our moves left that the budget is spread over (one in two of the empties above
    :data:`EXACT`)."""
    return max(1, (empties - EXACT + 1) // 2)


class Pacer:
    """Turns a move's processor-time budget into the engine's ``target`` (wall seconds): it
    learns how much processor time a move takes per second of target (the engine's own
    spending, about 0.7 of its target, times the share of a core this process gets) over
    the last searched moves, and divides by it."""

    WINDOW = 30

    def __init__(self) -> None:
        self.moves: list[tuple[float, float]] = []  # (target, processor seconds spent)

    def rate(self) -> float:
        """Processor seconds a move takes per second of target (0.7 before any move)."""
        given = sum(t for t, _ in self.moves)
        if given < 0.5:
            return 0.7
        return min(2.0, max(0.1, sum(c for _, c in self.moves) / given))

    def target(self, budget: float, left: float) -> float:
        """The target for a move of ``budget`` processor seconds, ``left`` seconds being
        all that is left (the engine's cut at three targets is kept within it)."""
        rate = self.rate()
        return max(MIN_MOVE, min(budget / rate, max(left, 0.0) / (HARD_SHARE * rate)))

    def spent(self, target: float, seconds: float) -> None:
        self.moves = [*self.moves[-(self.WINDOW - 1):], (target, seconds)]


def expected_cpu(folder: Path, level: int) -> float | None:
    """GRhino's median processor time per game at ``level`` over the records in ``folder``
    (any mode: its levels are fixed depths), or None where there are none."""
    times = sorted(r["grhino_cpu"] for path in folder.glob(f"L{level}_*.jsonl")
                   for r in run_file(path))
    return times[len(times) // 2] if times else None


def opening(game, seed: int, pair: int, plies: int) -> list:
    """The random opening of pair ``pair`` (seeded), as actions from the start."""
    rng = random.Random(seed * 10_007 + pair)
    state, moves = game.initial_state(), []
    while len(moves) < plies:
        legal = game.actions(state)
        if game.is_terminal(state) or legal == [PASS_MOVE]:
            break
        move = rng.choice(legal)
        moves.append(move)
        state = game.result(state, move)
    return moves


def grhino_cpu(player) -> float:
    """GRhino's processor time so far (0 where it cannot be read)."""
    client = getattr(player, "client", None)
    if client is None:
        return 0.0
    return client.cpu_seconds() or 0.0


def play_one(game, ours, level: int, cmd: str, start_moves: list, our_seat: int,
             capped: bool, seconds: float | None, expect: float | None = None,
             pacer: Pacer | None = None) -> dict:
    """One game; its record (our points, discs, both sides' processor time). ``seconds``
    None with ``capped``: the spread budget (``expect``: GRhino's expected time a game)."""
    theirs = make_agent(f"grhino:cmd={cmd},level={level}")
    state = game.initial_state()
    for move in start_moves:
        state = game.result(state, move)
    record = {"opening": _texts(game, start_moves), "ours": our_seat, "level": level,
              "moves": []}
    our_cpu = 0.0
    pacer = pacer or Pacer()
    reason = "end of game"
    try:
        theirs.prepare(game)
        base = grhino_cpu(theirs)
        while not game.is_terminal(state):
            legal = game.actions(state)
            mover = game.to_move(state)
            if legal == [PASS_MOVE]:
                action = PASS_MOVE
            elif mover == our_seat:
                if capped and seconds is not None:
                    surplus = grhino_cpu(theirs) - base - our_cpu
                    ours.time = min(seconds, max(MIN_MOVE, surplus / 2))
                elif capped:
                    so_far = grhino_cpu(theirs) - base
                    allowance = max(so_far, SHARE * expect) if expect else so_far
                    left = allowance - our_cpu
                    budget = max(MIN_MOVE, left / moves_left(state[0].count("-")))
                    ours.target = pacer.target(budget, left)
                began = time.process_time()
                found = ours(game, state)
                action = found.action
                spent = time.process_time() - began
                our_cpu += spent
                if capped and seconds is None and found.stats.depth < state[0].count("-"):
                    pacer.spent(ours.target, spent)  # a searched move, not a solved one
            else:
                try:
                    action = theirs(game, state).action
                except GameSearchError as err:
                    reason = f"forfeit: GRhino: {err}"
                    break
            if action not in legal:
                reason = f"forfeit: {'ours' if mover == our_seat else 'GRhino'} played " \
                         f"{action!r}, illegal"
                break
            record["moves"].append(game.action_to_string(state, action))
            state = game.result(state, action)
        their_cpu = grhino_cpu(theirs) - base
    finally:
        theirs.close()
    cells = state[0]
    mine, other = (BLACK, WHITE) if our_seat == 0 else (WHITE, BLACK)
    discs = [cells.count(mine), cells.count(other)]
    if reason.startswith("forfeit"):
        points = 1.0 if "GRhino" in reason else 0.0
    else:
        u = game.utilities(state)[our_seat]
        points = 1.0 if u > 0 else (0.0 if u < 0 else 0.5)
    record.update(reason=reason, points=points, discs=discs, our_cpu=round(our_cpu, 4),
                  grhino_cpu=round(their_cpu, 4))
    return record


def run_file(path: Path) -> list[dict]:
    """The games a records file holds, in game order (shards append out of order)."""
    if not path.exists():
        return []
    with path.open() as handle:
        fcntl.flock(handle, fcntl.LOCK_SH)  # a shard's append is never read half-written
        lines = handle.read().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return sorted(records, key=lambda r: r.get("game", 0))


def append_record(path: Path, record: dict) -> None:
    """One game's line appended under an exclusive lock (shards share the file)."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.write(json.dumps(record) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


class GameClaims:
    """Which games of one records file the processes playing it hold, so that any number of
    them share it without playing a game twice.

    A claim on game ``g`` is a POSIX record lock on byte ``g`` of ``PATH.claims`` (an empty
    file beside the records), taken without waiting. The kernel drops a process's locks
    when it ends, however it ends, so a killed process never leaves a game claimed and a
    resume needs no cleaning. The file is opened once per process and never by anything
    else: closing any descriptor of it would drop all the process's claims (POSIX), which is
    why the records file's own lock is not used for this. Locks do not exclude within one
    process: one ``GameClaims`` a process."""

    def __init__(self, records: Path) -> None:
        # the project's output rules: a regular file (never a device or a pipe), and none
        # that holds anything (the claims file stays empty: someone else's is refused)
        path = check_output(records.with_name(records.name + ".claims"), None,
                            what="claims file", remedy="it is not this benchmark's")
        self.path = path
        self._handle = path.open("ab")

    def claim(self, game: int) -> bool:
        """Take game ``game`` if no other process holds it: True when taken."""
        try:
            fcntl.lockf(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, game)
        except OSError:
            return False
        return True

    def release(self, game: int) -> None:
        """Give game ``game`` back (after its record is appended, or when dropping it)."""
        fcntl.lockf(self._handle, fcntl.LOCK_UN, 1, game)

    def close(self) -> None:
        """Drop every claim of this process."""
        self._handle.close()


def next_game(path: Path, games: int, shard: tuple[int, int], claims: GameClaims) -> int | None:
    """Claim and return the first game below ``games`` (of the shard) that the records file
    lacks and no other process holds; None when there is none. The file is read again
    after the claim: a process appends its game before releasing the claim, so a game
    finished since the first read is seen and passed over."""
    for index in games_to_play(run_file(path), games, shard):
        if not claims.claim(index):
            continue
        if any(r["game"] == index for r in run_file(path)):
            claims.release(index)
            continue
        return index
    return None


def games_to_play(done: list[dict], games: int, shard: tuple[int, int]) -> list[int]:
    """The game indices below ``games`` that the records lack and shard ``(i, n)`` plays:
    those equal to i modulo n (0/1: all of them)."""
    have = {r["game"] for r in done}
    index, count = shard
    return [g for g in range(games) if g not in have and g % count == index]


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (0 <= I < N) as ``(I, N)``; ValueError with the reason otherwise."""
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard: I/N, two whole numbers, not {text!r}") from None
    if not 0 <= index < count:
        raise ValueError(f"--shard: 0 <= I < N, not {text!r}")
    return index, count


def play_level(game, level: int, args, path: Path) -> None:
    """Play the games of one level the file lacks, appending each as it ends."""
    if not games_to_play(run_file(path), args.games, args.shard):
        return
    claims = GameClaims(path)  # before the engine: a bad claims file is refused at once
    try:
        spread = args.capped and args.time is None
        ours = make_agent(("othello:target=1" if spread else f"othello:time={args.time:g}")
                          + f",evaluation={args.evaluation}")
        ours.prepare(game)
        began = time.perf_counter()
        pacer = Pacer()
        while (index := next_game(path, args.games, args.shard, claims)) is not None:
            play_claimed(game, ours, index, level, args, path, pacer, began)
            claims.release(index)
    finally:
        claims.close()


def play_claimed(game, ours, index: int, level: int, args, path: Path, pacer: Pacer,
                 began: float) -> None:
    """Play game ``index`` (claimed by this process), append it and print the tally."""
    pair, our_seat = divmod(index, 2)
    moves = opening(game, args.seed, pair, args.opening)
    spread = args.capped and args.time is None
    expect = expected_cpu(path.parent, level) if spread else None
    record = play_one(game, ours, level, args.cmd, moves, our_seat, args.capped,
                      args.time, expect, pacer)
    record["game"] = index
    append_record(path, record)
    done = run_file(path)  # with the other processes' games
    points = sum(r["points"] for r in done)
    print(f"level {level} game {index + 1}/{args.games}: {record['reason']}, ours "
          f"{record['discs'][0]}-{record['discs'][1]}, cpu ours {record['our_cpu']:.2f} s "
          f"GRhino {record['grhino_cpu']:.2f} s; {points:g}/{len(done)} "
          f"({time.perf_counter() - began:.0f} s)", flush=True)


def _texts(game, moves: list) -> list[str]:
    """The moves from the start as the game writes them."""
    state, out = game.initial_state(), []
    for move in moves:
        out.append(game.action_to_string(state, move))
        state = game.result(state, move)
    return out


def report(rows: list[tuple[int, str, list[dict]]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="othello against GRhino (gtp-rhino), processor time per game")
    for column in ("level", "mode", "games", "W", "D", "L", "score", "95% interval", "Elo",
                   "ours cpu/game", "GRhino cpu/game", "ours > GRhino"):
        table.add_column(column, justify="right")
    for level, mode, records in rows:
        n = len(records)
        if not n:
            continue
        points = [r["points"] for r in records]
        score = sum(points) / n
        low, high = wilson_interval(score, n)
        elo = elo_difference(score)
        ours = sum(r["our_cpu"] for r in records) / n
        theirs = sum(r["grhino_cpu"] for r in records) / n
        over = sum(r["our_cpu"] > r["grhino_cpu"] for r in records)
        table.add_row(str(level), mode, str(n), str(points.count(1.0)), str(points.count(0.5)),
                      str(points.count(0.0)), f"{score:.1%}", f"{low:.1%} - {high:.1%}",
                      f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf"),
                      f"{ours:.2f} s", f"{theirs:.2f} s", str(over))
    Console(width=170).print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--games", type=int, default=100, help="games per level (even)")
    parser.add_argument("--time", type=float, default=None,
                        help="our seconds a move (a wall; default 1 uncapped; with --capped "
                             "the earlier rule, at most T a move)")
    parser.add_argument("--capped", action="store_true",
                        help="our processor time per game GRhino's, spread over our moves")
    parser.add_argument("--opening", type=int, default=6, help="random plies of each opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cmd", default="gtp-rhino", help="GRhino's GTP program")
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--no-play", action="store_true", help="only read the records")
    parser.add_argument("--shard", default="0/1", metavar="I/N",
                        help="play only the games whose index is I modulo N (earlier runs' "
                             "split; processes running the same command share a file without "
                             "it); default all")
    parser.add_argument("--evaluation", default="patterns",
                        help="our evaluation (othello:evaluation=..., default the engine's: "
                             "patterns; other than learned, the mode's file name ends "
                             "_EVALUATION)")
    args = parser.parse_args()
    try:
        levels = [int(x) for x in args.levels.split(",")]
    except ValueError:
        parser.error("--levels: whole numbers 1-5 separated by commas")
    if not all(1 <= x <= 5 for x in levels):
        parser.error("--levels: GRhino's levels are 1-5")
    try:
        args.shard = parse_shard(args.shard)
    except ValueError as error:
        parser.error(str(error))
    if args.time is None and not args.capped:
        args.time = 1.0
    if args.games < 2 or args.games % 2 or (args.time is not None and not args.time > 0):
        parser.error("--games must be even and at least 2, --time above 0")
    game = load_game("othello")
    folder = args.records / "othello-grhino"
    folder.mkdir(parents=True, exist_ok=True)
    mode = ("capped" if args.time is None else f"capped{args.time:g}") if args.capped \
        else f"time{args.time:g}"
    if args.evaluation != "learned":
        mode += f"_{args.evaluation}"
    rows = []
    for level in levels:
        path = folder / f"L{level}_{mode}.jsonl"
        if not args.no_play:
            try:
                play_level(game, level, args, path)
            except OutputFileError as error:  # the claims file is someone else's: one line
                print(f"othello_grhino.py: error: {error}", file=sys.stderr)
                sys.exit(2)
        rows.append((level, mode, run_file(path)[:args.games]))
    report(rows)


if __name__ == "__main__":
    main()
