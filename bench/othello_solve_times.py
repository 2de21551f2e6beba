"""How long the exact Othello solver takes by empty squares, on positions of real games:
the time an engine's switch to the exact endgame must fit in.

``python bench/othello_solve_times.py --empties 14-22`` replays the games recorded in
bench/records/othello-grhino (ours against GRhino) to the first position with each number of
empty squares (the side to move having a move) and solves it twice, from a fresh table:
win/loss/draw (the window -1..1) and exact. It prints, per number of empties, the
positions, the median and the largest processor time of each, and the median node rate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from gamesearch.engines.othello.solver import Table, solve_position
from gamesearch.games import load_game
from gamesearch.games.othello.kernel import encode_state

RECORDS = Path(__file__).resolve().parent / "records" / "othello-grhino"


def positions(game, empties: int, limit: int) -> list:
    """Up to ``limit`` positions with ``empties`` empty squares from the recorded games."""
    found = []
    for path in sorted(RECORDS.glob("L*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            state = game.initial_state()
            for text in record["opening"] + record["moves"]:
                if state[0].count("-") == empties and game.actions(state) != [-1]:
                    found.append(state)
                    break
                state = game.result(state, game.string_to_action(state, text))
            if len(found) >= limit:
                return found
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--empties", default="14-22", help="a range LOW-HIGH")
    parser.add_argument("--positions", type=int, default=8, help="positions per count")
    args = parser.parse_args()
    try:
        low, high = (int(x) for x in args.empties.split("-"))
    except ValueError:
        parser.error("--empties: LOW-HIGH, whole numbers")
    if not 1 <= low <= high <= 30:
        parser.error("--empties: 1 <= LOW <= HIGH <= 30")
    game = load_game("othello")
    print("empties positions  wld-median  wld-max  exact-median  exact-max  Mnodes/s")
    for empties in range(low, high + 1):
        wld, exact, rates = [], [], []
        for state in positions(game, empties, args.positions):
            me, opp, _ = encode_state(state, 8)
            for window, out in (((-1, 1), wld), ((-64, 64), exact)):
                began = time.process_time()
                _, _, nodes = solve_position(int(me), int(opp), table=Table(20),
                                             alpha=window[0], beta=window[1])
                took = time.process_time() - began
                out.append(took)
                if window[0] == -64:
                    rates.append(nodes / max(took, 1e-6) / 1e6)
        if not wld:
            continue
        print(f"{empties:7d} {len(wld):9d} {statistics.median(wld):10.3f}s {max(wld):7.3f}s "
              f"{statistics.median(exact):12.3f}s {max(exact):9.3f}s "
              f"{statistics.median(rates):9.1f}", flush=True)


if __name__ == "__main__":
    main()
