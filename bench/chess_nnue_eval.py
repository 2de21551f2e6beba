"""The chess network against the hand-written evaluation on the same held-out positions.

``python bench/chess_nnue_eval.py DATA.jsonl [MORE.jsonl ...] [--network FILE] [--positions
N]`` takes the validation positions of a training run (the games ``train nnue`` holds out:
every ``--holdout``-th game of the first ``--positions`` positions of the files, read as
the trainer reads them; ``--holdout 1`` takes every game, for a file of fresh positions
that no network has trained on) and measures each evaluation's loss against Stockfish's
scores in two ways:

* ``bench/chess_tune.py``'s loss (the one the hand weights were fitted with): the squared
  distance of win chances ``1 / (1 + 10^(-cp / 400))``;
* the trainer's loss: ``(sigmoid(cp / 400) - sigmoid(stockfish / 400))^2``, natural
  logistic (the network's ``scale``), with ``--lambda`` 0.

The hand evaluation is ``terms.py``'s dot product with the weights as they stand (what
``chess_tune.py fit`` reports as "as they stand"); the network is the reference forward
pass of ``network.py``. Also given: the mean absolute centipawn error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess
import numpy as np

from bench.chess_tune import hand_scores, win_chance_loss
from gamesearch.arena.ratings import expected_score
from gamesearch.engines.chess.nnue import network as N
from gamesearch.engines.chess.nnue.dataset import read_rows
from gamesearch.learn.split import held_out

DEFAULT_NETWORK = Path(N.__file__).resolve().parents[3] / "data" / "chess" / "nnue.npz"


def validation_boards(paths: list[Path], positions: int | None, holdout: int
                      ) -> tuple[list[chess.Board], np.ndarray]:
    """The held-out boards of the first ``positions`` positions of the files (read as the
    trainer reads them) and Stockfish's scores."""
    kept = [(fen, cp) for fen, _, cp, _, game in read_rows(paths, positions)
            if held_out(np.array([game]), holdout)[0]]
    return [chess.Board(fen) for fen, _ in kept], np.array([cp for _, cp in kept], np.float64)


def compare(boards: list[chess.Board], stockfish: np.ndarray, net: N.Network) -> dict:
    """Both evaluations' losses on ``boards``."""
    scale = net.scale
    hand = hand_scores(boards)
    ours = np.array([N.evaluate(net, b) for b in boards])
    target10 = expected_score(stockfish)

    def natural(cp: np.ndarray) -> float:
        return float(np.mean((1 / (1 + np.exp(-cp / scale))
                              - 1 / (1 + np.exp(-stockfish / scale))) ** 2))

    return {name: {"tune_loss": win_chance_loss(cp, target10), "trainer_loss": natural(cp),
                   "mean_abs_cp": float(np.mean(np.abs(cp - stockfish)))}
            for name, cp in (("hand", hand), ("network", ours))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+",
                        help="the data files, in the training run's order")
    parser.add_argument("--network", type=Path, default=DEFAULT_NETWORK)
    parser.add_argument("--positions", type=int, default=None,
                        help="the first N rows, as the training run read them")
    parser.add_argument("--holdout", type=int, default=10,
                        help="every N-th game is held out, as in training (1: every game, "
                             "for fresh positions no network has seen)")
    args = parser.parse_args()
    if args.positions is not None and args.positions < 1 or args.holdout < 1:
        parser.error("--positions must be positive and --holdout 1 or more")
    from gamesearch.errors import GameSearchError

    try:
        net = N.load(args.network)
        boards, stockfish = validation_boards(args.data, args.positions, args.holdout)
    except GameSearchError as err:
        parser.exit(2, f"chess_nnue_eval: {err}\n")
    if not boards:
        parser.exit(2, "chess_nnue_eval: no held-out positions\n")
    result = compare(boards, stockfish, net)
    print(f"{len(boards):,} held-out positions of "
          f"{', '.join(path.name for path in args.data)}")
    print("| evaluation | chess_tune loss (base 10) | trainer loss (sigmoid) "
          "| mean abs. error, cp |")
    print("|---|---:|---:|---:|")
    for name, row in result.items():
        print(f"| {name} | {row['tune_loss']:.5f} | {row['trainer_loss']:.5f} | "
              f"{row['mean_abs_cp']:.0f} |")


if __name__ == "__main__":
    main()
