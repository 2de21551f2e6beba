"""Fit the chess evaluation's weights to Stockfish's judgement of quiet positions.

Two steps, each one command:

``python bench/chess_tune.py data --positions 100000 --out tune.jsonl`` plays games from
seeded random openings (8 random plies) in which Stockfish 15.1 moves (``--nodes`` a move,
one move in ten a random legal one, for variety) and keeps every quiet position (not in
check, Stockfish's best move neither a capture nor a promotion) with Stockfish's score for
the side to move. Each game's positions are appended and flushed as it ends; the same
command resumes a stopped run where it left off (a half-written last line is cut), and
Ctrl-C stops it between positions.

``python bench/chess_tune.py fit tune.jsonl`` fits the weights of
``engines/chess/evaluation.py`` (through ``engines/chess/terms.py``: the evaluation as a dot
product) so that the win chance ``1 / (1 + 10^(-value / 400))`` of our value matches that
of Stockfish's score, by L-BFGS, with an L2 pull towards the weights as they stand (so
terms the data barely sees stay put). The last tenth of the games is held out; the table
gives the loss before and after on both parts. ``--write`` then rewrites the weights block
of ``engines/chess/evaluation.py``.

This is Texel's tuning (Peter Österlund, 2014) with an outside engine's score in place of
the game result, which needs far fewer positions for the same fit.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import numpy as np

from gamesearch.arena.ratings import expected_score
from gamesearch.durable import atomic_write
from gamesearch.engines.chess import terms as T

RANDOM_PLIES = 8
RANDOM_MOVE = 0.1
MAX_PLIES = 300
DECIDED = 2500  # centipawns: past this the game is over for our purposes


def _stockfish() -> str:
    path = shutil.which("stockfish") or "/usr/games/stockfish"
    if not Path(path).exists():
        raise SystemExit("chess_tune: stockfish is not installed (Debian: apt install "
                         "stockfish; it is in /usr/games)")
    return path


def _resume(out: Path) -> tuple[int, int]:
    """(games, positions) already in ``out``; a half-written last line is cut off."""
    if not out.exists():
        return 0, 0
    raw = out.read_bytes()
    keep = raw[:raw.rfind(b"\n") + 1]
    if len(keep) != len(raw):
        with out.open("r+b") as fh:
            fh.truncate(len(keep))
    lines = keep.decode().splitlines()
    # the next game's number: one past the last written (a game that kept no position
    # wrote nothing, so counting the numbers present would replay earlier seeds)
    games = json.loads(lines[-1])["game"] + 1 if lines else 0
    return games, len(lines)


def random_opening(rng: random.Random) -> chess.Board:
    """The board after ``RANDOM_PLIES`` random legal plies from the start, or fewer where
    the random moves end the game (a fool's mate is four plies): the caller's game loop
    then sees the game over."""
    board = chess.Board()
    for _ in range(RANDOM_PLIES):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def play_game(engine: chess.engine.SimpleEngine, rng: random.Random,
              nodes: int) -> list[tuple[str, int]]:
    """One game's quiet positions with Stockfish's score for the side to move."""
    board = random_opening(rng)
    kept = []
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
        score = info["score"].pov(board.turn)
        if score.is_mate() or abs(score.score()) > DECIDED or not info.get("pv"):
            break
        best = info["pv"][0]
        if not board.is_check() and not board.is_capture(best) and best.promotion is None:
            kept.append((board.fen(), score.score()))
        board.push(rng.choice(list(board.legal_moves)) if rng.random() < RANDOM_MOVE
                   else best)
    return kept


def data(args: argparse.Namespace) -> None:
    """Append games' quiet positions to ``args.out`` until it holds ``args.positions``."""
    games, have = _resume(args.out)
    if have >= args.positions:
        print(f"{args.out} already holds {have:,} positions")
        return
    engine = chess.engine.SimpleEngine.popen_uci(_stockfish())
    engine.configure({"Threads": 1, "Hash": 16})
    start, begun = time.time(), have
    try:
        with args.out.open("a") as fh:
            while have < args.positions:
                rng = random.Random(args.seed * 1_000_003 + games)
                kept = play_game(engine, rng, args.nodes)
                for fen, cp in kept:
                    fh.write(json.dumps({"game": games, "fen": fen, "score": cp}) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
                games += 1
                have += len(kept)
                rate = (have - begun) / max(1e-9, time.time() - start)
                print(f"\rgames {games:,}  positions {have:,} / {args.positions:,}  "
                      f"{rate:,.0f} a second", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\nstopped: {have:,} positions kept in {args.out}; the same command goes on",
              file=sys.stderr)
    finally:
        engine.quit()
    print(file=sys.stderr)


def fit(args: argparse.Namespace) -> None:
    """Fit, report the held-out loss, and with ``--write`` store the weights."""
    from scipy.optimize import minimize

    rows = []
    for number, line in enumerate(args.data.read_text().splitlines(), start=1):
        try:
            row = json.loads(line)
            rows.append({"game": int(row["game"]), "fen": str(row["fen"]),
                         "score": int(row["score"])})
            chess.Board(rows[-1]["fen"])
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"chess_tune: {args.data} line {number} is not a position "
                             f"of `chess_tune.py data` ({exc})") from None
    if not rows:
        raise SystemExit(f"chess_tune: {args.data} holds no positions")
    unique = {(r["fen"], r["score"]): r for r in rows}  # a row written twice counts once
    rows = list(unique.values())
    games = sorted({r["game"] for r in rows})
    if len(games) < 10:
        raise SystemExit(f"chess_tune: {args.data} holds {len(games)} games; the fit needs "
                         "10 or more (the last tenth is held out)")
    held = set(games[int(len(games) * 0.9):])
    t0 = time.time()
    x = _terms(args.data, rows)
    y = expected_score(np.array([r["score"] for r in rows], np.float64))
    test = np.array([r["game"] in held for r in rows])
    print(f"{len(rows):,} positions from {len(games):,} games ({test.sum():,} held out); "
          f"terms in {time.time() - t0:.0f} s", file=sys.stderr)
    w0 = T.flat(T.weights())
    # the free parameters: one per weight, or with --symmetric one per pair of squares
    # mirrored across the board's middle (files a-h, b-g, ...) in the piece-square tables
    group = _groups(args.symmetric)
    size = group.max() + 1
    tie = np.zeros((T.SIZE, size))
    tie[np.arange(T.SIZE), group] = 1.0
    xr = x @ tie
    v0 = (w0 @ tie) / tie.sum(axis=0)
    train_x, train_y = xr[~test], y[~test]  # one copy, not one per step
    seen = np.abs(train_x).sum(axis=0) > 0
    n = len(train_y)

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        p = expected_score(train_x @ v)
        err = p - train_y
        grad_p = 2 * err * p * (1 - p) * np.log(10) / 400
        d = v - v0
        return (float(err @ err) / n + args.l2 * float(d @ d),
                train_x.T @ grad_p / n + 2 * args.l2 * d)

    result = minimize(loss, v0, jac=True, method="L-BFGS-B",
                      options={"maxiter": args.iterations, "gtol": 1e-12, "ftol": 1e-15})
    w = np.where(tie @ seen.astype(float) > 0, tie @ result.x, w0)
    tuned = _readable(T.unflat(w))
    w_int = T.flat(tuned)

    def mse(v: np.ndarray, part: np.ndarray) -> float:
        return win_chance_loss(x[part] @ v, y[part])

    print("| weights | train loss | held-out loss |")
    print("|---|---:|---:|")
    print(f"| as they stand | {mse(w0, ~test):.5f} | {mse(w0, test):.5f} |")
    print(f"| fitted (rounded) | {mse(w_int, ~test):.5f} | {mse(w_int, test):.5f} |")
    print(f"L-BFGS: {result.nit} iterations, {result.message}", file=sys.stderr)
    if args.write:
        write_weights(tuned, Path(T.E.__file__))
        print(f"written to {T.E.__file__} (the search's cache tag covers it: every machine "
              "recompiles the search)", file=sys.stderr)


def win_chance_loss(cp: np.ndarray, target: np.ndarray) -> float:
    """The fit's loss: the mean squared distance of the win chance of scores ``cp``
    (centipawns, ``1 / (1 + 10^(-cp / 400))``) from the ``target`` win chances."""
    return float(np.mean((expected_score(np.asarray(cp, np.float64)) - target) ** 2))


def hand_scores(boards: list[chess.Board]) -> np.ndarray:
    """The hand-written evaluation of each board (centipawns, side to move), through
    ``terms.py`` with the weights as they stand."""
    return np.array([T.terms(b) for b in boards]) @ T.flat(T.weights())


def _terms(path: Path, rows: list[dict]) -> np.ndarray:
    """The term counts of every position, kept beside the data (``.terms.npy``) for the
    next fit while the data file is unchanged."""
    cache = path.with_suffix(".terms.npy")
    if cache.exists() and cache.stat().st_mtime >= path.stat().st_mtime:
        x = np.load(cache)
        if x.shape == (len(rows), T.SIZE):
            return x
    x = np.array([T.terms(chess.Board(r["fen"])) for r in rows])
    tmp = cache.with_suffix(".tmp.npy")
    np.save(tmp, x)
    tmp.replace(cache)
    return x


def _groups(symmetric: bool) -> np.ndarray:
    """For each weight, the index of the free parameter it equals."""
    group = np.arange(T.SIZE)
    if symmetric:
        for name in ("PST_MG", "PST_EG"):
            at = T.OFFSET[name]
            for sq in range(8 * 64):
                if sq & 7 >= 4:
                    group[at + sq] = at + (sq ^ 7)
    _, dense = np.unique(group, return_inverse=True)
    return dense


def _readable(w: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Move each piece-square table's mean into the piece's material value (the values are
    unchanged: material + table is the same on every square), so that a table reads as
    where the piece stands better or worse; squares a pawn never stands on read 0."""
    w = {k: v.copy() for k, v in w.items()}
    for part in ("MG", "EG"):
        pst = w[f"PST_{part}"].reshape(8, 64)
        for t in range(1, 7):
            squares = range(8, 56) if t == chess.PAWN else range(64)
            mean = int(round(np.mean(pst[t, list(squares)])))
            if t != chess.KING:
                pst[t, list(squares)] -= mean
                w[f"MATERIAL_{part}"][t] += mean
            if t == chess.PAWN:
                pst[t, :8] = pst[t, 56:] = 0
        w[f"PST_{part}"] = pst.reshape(-1)
    return w


BEGIN = "# BEGIN WEIGHTS (written by bench/chess_tune.py fit --write)\n"
END = "# END WEIGHTS\n"


def weights_source(w: dict[str, np.ndarray]) -> str:
    """The weights as Python source: piece-square tables drawn as boards, White's side
    at the bottom (a table is read from the piece's own side)."""
    out = [BEGIN]
    for name, size in T.BLOCKS:
        v = w[name]
        if name.startswith("PST_"):
            out.append(f"{name} = _board_tables({{\n")
            for t, piece in enumerate(T.E.PIECES, start=1):
                out.append(f"    {piece!r}: [\n")
                for rank in range(7, -1, -1):
                    cells = ", ".join(f"{int(c):4d}" for c in v[t * 64 + rank * 8:
                                                              t * 64 + rank * 8 + 8])
                    out.append(f"        {cells},\n")
                out.append("    ],\n")
            out.append("})\n")
        elif size == 1:
            out.append(f"{name} = {int(v[0])}\n")
        else:
            out.append(f"{name} = np.array([{', '.join(str(int(c)) for c in v)}], np.int64)\n")
    out.append(END)
    return "".join(out)


def write_weights(w: dict[str, np.ndarray], path: Path) -> None:
    """Replace the weights block of ``path`` (atomically: temp file, fsync, rename)."""
    text = path.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"chess_tune: {path} has no weights block")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    atomic_write(path, head + weights_source(w) + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="quiet positions with Stockfish's scores")
    d.add_argument("--positions", type=int, default=100_000)
    d.add_argument("--nodes", type=int, default=3000, help="Stockfish's nodes a move")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--out", type=Path, default=Path("tune.jsonl"))
    f = sub.add_parser("fit", help="fit the weights to the positions")
    f.add_argument("data", type=Path)
    f.add_argument("--l2", type=float, default=1e-9,
                   help="pull towards the weights as they stand, per squared centipawn")
    f.add_argument("--iterations", type=int, default=800)
    f.add_argument("--symmetric", action=argparse.BooleanOptionalAction, default=False,
                   help="one weight for each pair of squares mirrored a-h, b-g, ..."
                   " (default: every square its own, which held out better)")
    f.add_argument("--write", action="store_true", help="rewrite engines/chess/evaluation.py")
    args = parser.parse_args()
    if args.command == "data":
        if args.positions < 1 or args.nodes < 1:
            parser.error("--positions and --nodes must be positive")
        data(args)
    else:
        if not args.data.exists():
            parser.error(f"{args.data} does not exist")
        fit(args)


if __name__ == "__main__":
    main()
