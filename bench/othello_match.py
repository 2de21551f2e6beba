"""One Othello evaluation against another: the same engine, equal depth or equal time.

``python bench/othello_match.py --pairs 50 --depth 4`` plays each of ``--pairs`` openings
(random first ``--opening`` plies, seeded) twice, colours swapped, between
``othello:evaluation=learned`` and ``othello:evaluation=hand`` (both solve exactly at 14
empties, so only the midgame evaluation differs). ``--a patterns --b learned --time 0.1``
pits the pattern tables against the 16 learned features at 0.1 s a move (``time=T``, a
wall) instead of a depth. Prints A's score with a 95% Wilson interval and the interval 200
games would give at the same score. ``--record FILE`` keeps one JSON line a game (the
opening, the moves, A's seat, A's points, each side's processor time) and resumes from it.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from gamesearch.agents import make_agent
from gamesearch.arena.match import wilson_interval
from gamesearch.games import load_game


def play(game, seats: list, start) -> tuple[object, list, list[float]]:
    """Play from ``start``: the final state, the moves, each seat's processor time."""
    state, moves, spent = start, [], [0.0, 0.0]
    while not game.is_terminal(state):
        seat = game.to_move(state)
        began = time.process_time()
        action = seats[seat](game, state).action
        spent[seat] += time.process_time() - began
        moves.append(action)
        state = game.result(state, action)
    return state, moves, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--time", type=float, help="seconds a move (a wall), not a depth")
    parser.add_argument("--a", default="learned", help="A's evaluation")
    parser.add_argument("--b", default="hand", help="B's evaluation")
    parser.add_argument("--opening", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", type=Path, help="one JSON line a game; resumes")
    args = parser.parse_args()
    game = load_game("othello")
    budget = f"time={args.time:g}" if args.time else f"depth={args.depth}"
    a = make_agent(f"othello:{budget},evaluation={args.a}")
    b = make_agent(f"othello:{budget},evaluation={args.b}")
    for agent in (a, b):
        agent.prepare(game)
    done = []
    if args.record and args.record.exists():
        done = [json.loads(x) for x in args.record.read_text().splitlines() if x.strip()]
    points = sum(r["points"] for r in done)
    cpu = [sum(r["cpu"][0] for r in done), sum(r["cpu"][1] for r in done)]
    played = len(done)
    began = time.perf_counter()
    for pair in range(args.pairs):
        rng = random.Random(args.seed * 10_007 + pair)
        start, opening = game.initial_state(), []
        for _ in range(args.opening):
            move = rng.choice(game.actions(start))
            opening.append(move)
            start = game.result(start, move)
        for a_seat in (0, 1):
            if pair * 2 + a_seat < len(done):
                continue
            seats = [a, b] if a_seat == 0 else [b, a]
            for agent in seats:
                agent.reset()
            final, moves, spent = play(game, seats, start)
            u = game.utilities(final)[a_seat]
            points += (u + 1) / 2
            played += 1
            cpu[0] += spent[a_seat]
            cpu[1] += spent[1 - a_seat]
            if args.record:
                with args.record.open("a") as handle:
                    handle.write(json.dumps({"pair": pair, "opening": opening,
                                             "moves": moves, "a_seat": a_seat,
                                             "points": (u + 1) / 2, "a": args.a,
                                             "b": args.b, "budget": budget,
                                             "cpu": [spent[a_seat], spent[1 - a_seat]]})
                                 + "\n")
            low, high = wilson_interval(points / played, played)
            print(f"{played} games: {args.a} {points:g} points ({points / played:.1%}, 95% CI "
                  f"{low:.1%}-{high:.1%}), cpu/game {args.a} {cpu[0] / played:.2f} s, "
                  f"{args.b} {cpu[1] / played:.2f} s, {time.perf_counter() - began:.0f} s",
                  flush=True)
    p = points / played
    low, high = wilson_interval(p, 200)
    print(f"projection for 200 games at {p:.1%}: 95% CI {low:.1%}-{high:.1%}")


if __name__ == "__main__":
    main()
