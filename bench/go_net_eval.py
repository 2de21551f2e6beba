"""The Go network before and after training (#43): its policy alone (one evaluation a
move, no search) against a random player and against go-mcts at a few play-outs, both
colours, with the score's 95% Wilson interval.

    PYTHONPATH=src python bench/go_net_eval.py RUN [--games 60] [--playouts 8]

RUN is a folder of ``train alphazero-jax go`` (its ``weights.npz`` is "after"); "before" is
the same run's first network, rebuilt from its seed (needs JAX), or ``--before FILE``; the
"after" policy also meets the "before" one. Each game starts with 6 random moves.
Prints JSON; ``--out FILE`` also writes it (bench/records/go-net/).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from gamesearch.agents import accepts, make_agent
from gamesearch.arena.match import wilson_interval
from gamesearch.engines.go.net_agent import GoNetAgent, load_network
from gamesearch.games.go.rules import Go
from gamesearch.learn.checkpoint import load_checkpoint
from gamesearch.learn.resnet import ResidualNetwork


def initial_network(run: Path) -> ResidualNetwork:
    """The network a run started from (its settings' seed, as the trainer draws it)."""
    import jax

    from gamesearch.engines.go import TRAINERS
    from gamesearch.learn.jax_alphazero import JaxSettings, network_for

    _, meta = load_checkpoint(run / "checkpoint.npz", "alphazero-jax checkpoint")
    settings = JaxSettings(**meta["settings"])
    net = network_for(TRAINERS["alphazero-jax"].make(), settings)
    params = net.init(jax.random.fold_in(jax.random.PRNGKey(settings.seed), 1))
    return ResidualNetwork.from_arrays({f"best_{k}": v for k, v in params.items()})


OPENING = 6
"""Random moves (no pass) that start each game, so that two deterministic policies still
meet in different games."""


def play(game: Go, seats: list, rng: random.Random) -> tuple[float, float]:
    """One game between two agents after :data:`OPENING` random moves (a plain loop:
    run_game's per-move texts and repetition keys write every earlier board of a Go
    state, slow over hundreds of moves)."""
    state = game.initial_state()
    for _ in range(OPENING):
        state = game.result(state, rng.choice(game.actions(state)[:-1]))
    while not game.is_terminal(state):
        state = game.result(state, seats[state[1]](game, state).action)
    return game.utilities(state)


def policy(net: ResidualNetwork, simulations: int = 0) -> GoNetAgent:
    """The network's policy alone (its favourite move, one evaluation, no search), or
    ``go-net`` with ``simulations`` a move."""
    return GoNetAgent(net, time=None, simulations=simulations,
                      spec=f"go-net:simulations={simulations}")


def score(net: ResidualNetwork, opponent: str | ResidualNetwork, games: int,
          seed: int, simulations: int = 0) -> dict:
    """The network's points (1 a win, 0.5 a draw) over ``games`` games, colours
    alternating, against an agent spec or another network's policy; ``simulations`` as
    :func:`policy`."""
    game, total, began = Go(), 0.0, time.monotonic()
    seeded = isinstance(opponent, str) and accepts(opponent, "seed")  # GTP programs: no
    for g in range(games):
        other = policy(opponent) if isinstance(opponent, ResidualNetwork) else make_agent(
            f"{opponent}{',' if ':' in opponent else ':'}seed={seed + g}" if seeded
            else opponent)
        ours = policy(net, simulations)
        seats = [ours, other] if g % 2 == 0 else [other, ours]
        try:
            total += (play(game, seats, random.Random(seed + g))[g % 2] + 1) / 2
        finally:
            if hasattr(other, "close"):
                other.close()  # a GTP opponent's program ends with its game
    low, high = wilson_interval(total / games, games)
    name = opponent if isinstance(opponent, str) else "the policy before training"
    return {"opponent": name, "games": games, "points": total,
            "score": round(total / games, 3), "interval95": [round(low, 3), round(high, 3)],
            "seconds": round(time.monotonic() - began, 1)}


def main() -> int:
    """Evaluate before and after; print (and write) the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    before = load_network(args.before) if args.before else initial_network(args.run)
    after = load_network(args.run / "weights.npz")
    _, meta = load_checkpoint(args.run / "weights.npz", "alphazero checkpoint")
    report = {"run": {k: meta.get(k) for k in ("iterations", "positions", "seconds",
                                                "settings")},
              "policy alone": {}}
    for name, net in (("before", before), ("after", after)):
        report["policy alone"][name] = [
            score(net, "random", args.games, args.seed),
            score(net, f"go-mcts:playouts={args.playouts}", args.games, args.seed)]
    report["policy alone"]["after"].append(score(after, before, args.games, args.seed))
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
