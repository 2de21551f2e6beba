"""Our Othello engine against GRhino (Debian's ``grhino``: ``/usr/games/gtp-rhino``,
Logistello-style pattern tables and an opening book) at its levels 1-5, with both sides'
processor time measured in every game.

``python bench/othello_grhino.py --levels 1,2,3,4,5 --games 100 --time 1`` plays, at each
GRhino level, ``--games`` games from seeded random openings of ``--opening`` plies, each
opening twice with the colours swapped: ``othello:time=T`` (the learned evaluation, exact
solve from 14 empties) against ``grhino:level=L``, started afresh for each game.

Processor time, per game and per side: ours is ``time.process_time()`` of this process
around each of our moves; GRhino's is its process's user + system time from
/proc/PID/stat, read after it has started and loaded its tables and again before it is
closed (so its start-up is not counted against it).

``--capped`` gives our program no more processor time than GRhino has used: before each of
our moves the surplus is GRhino's time so far less ours, and we move with half of it as
our time limit (at least ``MIN_MOVE`` seconds, at most ``--time``); the table counts the
games where our total still came out above GRhino's (the minimum and the exact solve at 14
empties can overrun a small surplus).

Each game is one JSON line in ``--records``/othello-grhino/L{level}_{mode}.jsonl (the
opening, the moves, our seat, the discs, the reason, both processor times); the same
command resumes where a file ends; ``--no-play`` only reads the files. Then the table: per
level and mode, games, our wins/draws/losses, score with a 95% Wilson interval, Elo, and
the mean processor time per game of each side.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

from gamesearch.agents import make_agent
from gamesearch.arena.match import elo_difference, wilson_interval
from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.othello.notation import BLACK, WHITE
from gamesearch.games.othello.rules import PASS_MOVE

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"
MIN_MOVE = 0.01
"""The least time a capped move is given (seconds)."""


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
             capped: bool, seconds: float) -> dict:
    """One game; its record (our points, discs, both sides' processor time)."""
    theirs = make_agent(f"grhino:cmd={cmd},level={level}")
    state = game.initial_state()
    for move in start_moves:
        state = game.result(state, move)
    record = {"opening": _texts(game, start_moves), "ours": our_seat, "level": level,
              "moves": []}
    our_cpu = 0.0
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
                if capped:
                    surplus = grhino_cpu(theirs) - base - our_cpu
                    ours.time = min(seconds, max(MIN_MOVE, surplus / 2))
                began = time.process_time()
                action = ours(game, state).action
                our_cpu += time.process_time() - began
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
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def play_level(game, level: int, args, path: Path) -> None:
    """Play the games of one level the file lacks, appending each as it ends."""
    done = run_file(path)
    if len(done) >= args.games:
        return
    ours = make_agent(f"othello:time={args.time:g}")
    ours.prepare(game)
    began = time.perf_counter()
    for index in range(len(done), args.games):
        pair, our_seat = divmod(index, 2)
        moves = opening(game, args.seed, pair, args.opening)
        record = play_one(game, ours, level, args.cmd, moves, our_seat, args.capped,
                          args.time)
        record["game"] = index
        with path.open("a") as handle:
            handle.write(json.dumps(record) + "\n")
        done.append(record)
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

    table = Table(title="othello:time=T against GRhino (gtp-rhino), processor time per game")
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
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--games", type=int, default=100, help="games per level (even)")
    parser.add_argument("--time", type=float, default=1.0, help="our seconds a move")
    parser.add_argument("--capped", action="store_true",
                        help="our processor time per game at most GRhino's")
    parser.add_argument("--opening", type=int, default=6, help="random plies of each opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cmd", default="gtp-rhino", help="GRhino's GTP program")
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--no-play", action="store_true", help="only read the records")
    args = parser.parse_args()
    try:
        levels = [int(x) for x in args.levels.split(",")]
    except ValueError:
        parser.error("--levels: whole numbers 1-5 separated by commas")
    if not all(1 <= x <= 5 for x in levels):
        parser.error("--levels: GRhino's levels are 1-5")
    if args.games < 2 or args.games % 2 or not args.time > 0:
        parser.error("--games must be even and at least 2, --time above 0")
    game = load_game("othello")
    folder = args.records / "othello-grhino"
    folder.mkdir(parents=True, exist_ok=True)
    mode = f"capped{args.time:g}" if args.capped else f"time{args.time:g}"
    rows = []
    for level in levels:
        path = folder / f"L{level}_{mode}.jsonl"
        if not args.no_play:
            play_level(game, level, args, path)
        rows.append((level, mode, run_file(path)[:args.games]))
    report(rows)


if __name__ == "__main__":
    main()
