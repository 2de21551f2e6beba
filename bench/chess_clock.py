"""How our chess engine spends a Fischer clock: one side on ``--base`` + ``--inc`` seconds.

Run from the repository root::

    python bench/chess_clock.py [--base 10] [--inc 0.1] [--moves 120]

Our engine (through ``UciSession``, in process) plays White on the clock, charged the wall
time of each ``go wtime ... winc ...``; Black answers at depth 1, off the clock; a new game
starts where one ends. Prints the time spent against the time there was, the least time
left, the clock every 20 moves and the mean depth early and late, or the move at which it
flagged.
"""

from __future__ import annotations

import argparse
import time

import chess

from gamesearch.cli.uci_session import UciSession


def _answer(session: UciSession, board: chess.Board, go: str, lines: list[str]) -> list[str]:
    """The lines one ``go`` wrote (its last is ``bestmove``)."""
    session.handle(f"position startpos moves {' '.join(m.uci() for m in board.move_stack)}"
                   .strip())
    mark = len(lines)
    session.handle(go)
    session.thread.join()
    return lines[mark:]


def run(base: float, inc: float, moves: int) -> None:
    """Play ``moves`` moves of White on the clock and print how the clock was spent."""
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=16)
    session.handle("isready")
    board = chess.Board()
    left, spent, history, depths = base, 0.0, [], []
    ms_inc = int(inc * 1000)
    for k in range(moves):
        if board.is_game_over(claim_draw=True):
            board = chess.Board()
        ms = int(left * 1000)
        began = time.perf_counter()
        said = _answer(session, board, f"go wtime {ms} btime {ms} winc {ms_inc} binc {ms_inc}",
                       lines)
        wall = time.perf_counter() - began
        found = [line for line in said if line.startswith("info depth")]
        depths.append(int(found[-1].split()[2]) if found else 0)
        left -= wall
        spent += wall
        history.append(left)
        if left <= 0:
            print(f"flagged at move {k + 1}: {left:.3f} s")
            break
        left += inc
        board.push_uci(said[-1].split()[1])
        if not board.is_game_over(claim_draw=True):
            board.push_uci(_answer(session, board, "go depth 1", lines)[-1].split()[1])
    session.finish()
    print(f"moves {len(history)}, spent {spent:.2f} s of {base + inc * len(history):.2f} s, "
          f"least left {min(history):.3f} s")
    print("clock every 20 moves:", [round(history[i - 1], 2)
                                     for i in range(20, len(history) + 1, 20)])
    early, late = depths[:40], depths[-40:]
    print(f"mean depth, first 40 moves {sum(early) / len(early):.1f}, "
          f"last 40 {sum(late) / len(late):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=float, default=10.0)
    parser.add_argument("--inc", type=float, default=0.1)
    parser.add_argument("--moves", type=int, default=120)
    args = parser.parse_args()
    if args.base <= 0 or args.inc < 0 or args.moves < 1:
        parser.error("--base must be > 0, --inc >= 0, --moves >= 1")
    run(args.base, args.inc, args.moves)


if __name__ == "__main__":
    main()
