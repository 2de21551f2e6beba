"""Self-play training speed of TD-Gammon: the readable numpy ``train_game`` against the
compiled ``compiled_train_game``, on the same games from the same weights (games/s of
CPU time, so that a busy shared machine's waits do not count).

    nice python bench/td_gammon_speed.py --games 300

Starts from trained weights (the shipped ones, or --weights FILE: trained games are the
realistic length, ~60 plays; a random network's games may run to hundreds), or from
random weights with --hidden and --encoding.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamesearch.engines.backgammon.td import ENCODINGS, _kernel, load_network
from gamesearch.engines.backgammon.training import compiled_train_game, game_dice, train_game
from gamesearch.learn.network import ValueNetwork
from gamesearch.learn.td import TDLambda


def rate(play, net: ValueNetwork, games: int, features: bool) -> tuple[float, float]:
    """(games/s, plays/s) of CPU time for ``games`` training games from a copy of ``net``."""
    kernel = _kernel()
    work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    td = TDLambda(net.copy(), alpha=0.1, lam=0.7)
    first, dice = game_dice(np.random.default_rng([0, 0]))
    play(td, first, dice, work, dies, features)  # compile or warm up, outside the clock
    began, plays = time.process_time(), 0
    for game in range(games):  # the short dice, as training draws them (long: ~0.1 ms)
        first, dice = game_dice(np.random.default_rng([1, game]), long=False)
        plays += play(td, first, dice, work, dies, features)
    seconds = time.process_time() - began
    return games / seconds, plays / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--weights", help="a checkpoint or weights file (default: shipped)")
    parser.add_argument("--hidden", type=int, help="random weights with this many hidden "
                        "units (instead of trained ones)")
    parser.add_argument("--encoding", choices=list(ENCODINGS), default="tesauro",
                        help="the random network's encoding")
    args = parser.parse_args()
    if args.hidden:
        net = ValueNetwork(ENCODINGS[args.encoding], args.hidden, seed=0)
        where = "random weights"
    else:
        net = load_network(args.weights)
        where = args.weights or "the shipped weights"
    features = net.inputs == ENCODINGS["features"]
    print(f"{where}: {net.inputs} inputs, {net.hidden} hidden units, {args.games} games")
    print("| path | games/s (CPU) | plays/s (CPU) |")
    print("|---|---|---|")
    for name, play in (("numpy train_game", train_game),
                       ("compiled_train_game", compiled_train_game)):
        games_s, plays_s = rate(play, net, args.games, features)
        print(f"| {name} | {games_s:.1f} | {plays_s:.0f} |", flush=True)


if __name__ == "__main__":
    main()
