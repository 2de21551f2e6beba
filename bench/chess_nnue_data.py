"""Training data for the chess network (NNUE, issue #42): our engine's games, scored by
Stockfish.

``python bench/chess_nnue_data.py --positions 1000000 --out nnue.jsonl`` plays games in
which OUR engine moves (``ChessEngine`` at ``--depth`` plies, 6 by default), each from a
seeded random opening (``RANDOM_PLIES`` random plies) and with one move in ten a random
legal one for variety, and scores every position with Stockfish 15.1 at a fixed depth
(``--sf-depth``, 9 by default; one thread, its hash cleared for each game). It keeps the
quiet positions (not in check, Stockfish's best move neither a capture nor a promotion),
as in ``bench/chess_tune.py``, whose resume logic and constants it shares; the rows are
the same (``game``, ``fen``, ``score`` in centipawns for the side to move), so
``chess_tune.py fit`` reads them too, plus ``result``: the game's result for the side to
move (1 win, 0.5 draw, 0 loss).

A game ends by the rules (mate, stalemate, a draw that can be claimed), or is adjudicated:
won for the side Stockfish sees ahead once its score passes ``DECIDED`` centipawns (or a
mate) for the side to move, drawn at ``MAX_PLIES`` plies. A game's rows are written when it
ends (they need its result), appended, flushed and fsynced: the file always holds whole
games. The same command resumes a stopped run where it left off: game ``n`` is played from
its own seed and with cleared tables in both engines, so a resumed file is line for line
the file an unbroken run writes. Settings live beside the data (``OUT.settings.json``) and a
resume with other ones is refused, as is a file this script did not make. Ctrl-C (or
SIGTERM) stops after the game in play; a second Ctrl-C stops at once, dropping that game.

``--from-pgn FILE ...`` scores the positions of games already played instead of playing
new ones: bench/records holds about 1,900 chess games (ours against Stockfish, sunfish and
itself), so the positions cost only Stockfish's scoring (about 12 ms each at depth 9 on one
core) and not our engine's moves (about 20 ms). The games are read in the order the files
are given, numbered from 0; each position is scored until Stockfish sees the game decided
(as above); a position already kept (the same board, side, castling and en-passant square,
as early positions of games from the same opening are) is not kept again, and ``result``
is the game's recorded result. The files' names and contents (sha256) are the run's
settings, so the same command resumes and another list is refused.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess
import chess.engine
import chess.pgn

from bench.chess_tune import (
    DECIDED,
    MAX_PLIES,
    RANDOM_MOVE,
    RANDOM_PLIES,
    _resume,
    _stockfish,
    random_opening,
)

KIND = "gamesearch chess-nnue data"
ROW_KEYS = {"game", "fen", "score", "result"}


def settings_path(out: Path) -> Path:
    """The settings file beside the data file."""
    return out.with_name(out.name + ".settings.json")


def check_ours(out: Path, settings: dict[str, Any]) -> None:
    """Refuse (SystemExit, one line) a data file this script did not make or made with
    other settings; a new run writes its settings."""
    side = settings_path(out)
    if out.exists() and out.stat().st_size > 0:
        try:
            with out.open() as fh:
                first = json.loads(fh.readline())
            ours = isinstance(first, dict) and set(first) >= ROW_KEYS
        except (ValueError, UnicodeDecodeError):
            ours = False
        if not ours or not side.exists():
            raise SystemExit(f"chess_nnue_data: {out} exists and is not this script's data; "
                             "it never overwrites a file it did not make")
    if side.exists():
        try:
            had = json.loads(side.read_text())
        except (ValueError, UnicodeDecodeError):
            had = None
        if not isinstance(had, dict) or had.get("kind") != KIND:
            raise SystemExit(f"chess_nnue_data: {side} is not this script's settings file")
        if had != settings:
            changed = ", ".join(k for k in settings if had.get(k) != settings[k])
            raise SystemExit(f"chess_nnue_data: {out} was made with other settings "
                             f"({changed}); use them or another --out")
    else:
        from gamesearch.durable import atomic_write

        atomic_write(side, json.dumps(settings, indent=1) + "\n")


def stockfish_view(sf: chess.engine.SimpleEngine, board: chess.Board, sf_depth: int,
                   game_id: int) -> tuple[chess.engine.Score, bool]:
    """Stockfish's score for the side to move at ``sf_depth``, and whether the position is
    quiet (not in check, its best move neither a capture nor a promotion)."""
    info = sf.analyse(board, chess.engine.Limit(depth=sf_depth), game=game_id)
    best = info["pv"][0] if info.get("pv") else None
    quiet = best is not None and not board.is_check() and not board.is_capture(best) \
        and best.promotion is None
    return info["score"].pov(board.turn), quiet


def play_game(ours: Any, sf: chess.engine.SimpleEngine, rng: random.Random, depth: int,
              sf_depth: int, game_id: int) -> tuple[list[tuple[str, int]], list[bool], float]:
    """One game: its quiet positions with Stockfish's score for the side to move, the side
    to move of each, and the result for White (1, 0.5, 0)."""
    from gamesearch.result import Limit

    ours.new_game()
    board = random_opening(rng)
    kept: list[tuple[str, int]] = []
    turns: list[bool] = []
    white = 0.5
    while True:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            white = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner)
            break
        if board.ply() >= MAX_PLIES:
            break
        score, quiet = stockfish_view(sf, board, sf_depth, game_id)
        if score.is_mate() or abs(score.score()) > DECIDED:
            ahead = score.is_mate() and score.mate() > 0 or (score.score() or 0) > 0
            white = float(ahead == (board.turn == chess.WHITE))
            break
        if quiet:
            kept.append((board.fen(), score.score()))
            turns.append(board.turn)
        if rng.random() < RANDOM_MOVE:
            move = rng.choice(list(board.legal_moves))
        else:
            ours.position(board)
            move = chess.Move.from_uci(ours.go(Limit(depth=depth)).action)
        board.push(move)
    return kept, turns, white


RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
"""A PGN result as White's points; a game without one (``*``) is skipped."""


def board_key(board: chess.Board) -> str:
    """The position without its move counters: what makes two positions the same."""
    return " ".join(board.fen().split()[:4])


def pgn_settings(paths: list[Path]) -> list[dict[str, str]]:
    """The PGN files as settings: each one's name and sha256 (SystemExit, one line, where
    one cannot be read)."""
    out = []
    for path in paths:
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as error:
            raise SystemExit(f"chess_nnue_data: cannot read {path}: "
                             f"{error.strerror or error}") from None
        out.append({"name": path.name, "sha256": digest})
    return out


def pgn_games(paths: list[Path]) -> Any:
    """Every game of the files, in order (python-chess skips what it cannot parse)."""
    for path in paths:
        with path.open(encoding="utf-8", errors="replace") as fh:
            while (game := chess.pgn.read_game(fh)) is not None:
                yield game


def score_recorded(game: chess.pgn.Game, sf: chess.engine.SimpleEngine, sf_depth: int,
                   game_id: int, seen: set[str]) -> tuple[list[tuple[str, int]], list[bool],
                                                          float]:
    """A recorded game's quiet positions not in ``seen`` (added to it), with Stockfish's
    score for the side to move, until Stockfish sees the game decided; the side to move
    of each; the recorded result for White (no positions where it has none)."""
    white = RESULTS.get(game.headers.get("Result", "*"))
    kept: list[tuple[str, int]] = []
    turns: list[bool] = []
    if white is None:
        return kept, turns, 0.5
    board = game.board()
    for move in game.mainline_moves():
        key = board_key(board)
        if key not in seen and not board.is_game_over(claim_draw=True):
            score, quiet = stockfish_view(sf, board, sf_depth, game_id)
            if score.is_mate() or abs(score.score()) > DECIDED:
                break
            if quiet:
                kept.append((board.fen(), score.score()))
                turns.append(board.turn)
                seen.add(key)
        board.push(move)
    return kept, turns, white


def rows_of(game: int, kept: list[tuple[str, int]], turns: list[bool], white: float) -> str:
    """The game's JSON lines (the result for each position's side to move)."""
    return "".join(json.dumps({"game": game, "fen": fen, "score": cp,
                               "result": white if turn == chess.WHITE else 1.0 - white}) + "\n"
                   for (fen, cp), turn in zip(kept, turns))


def data(args: argparse.Namespace) -> int:
    """Append games' rows to ``args.out`` until it holds ``args.positions``; the count."""
    from gamesearch.durable import StopRequest
    from gamesearch.engines.chess.engine import ChessEngine

    pgns = getattr(args, "from_pgn", None)
    if pgns:
        settings = {"kind": KIND, "sf_depth": args.sf_depth, "decided": DECIDED,
                    "pgn": pgn_settings(pgns)}
    else:
        settings = {"kind": KIND, "seed": args.seed, "depth": args.depth,
                    "sf_depth": args.sf_depth, "random_plies": RANDOM_PLIES,
                    "random_move": RANDOM_MOVE, "decided": DECIDED, "max_plies": MAX_PLIES}
    check_ours(args.out, settings)
    games, have = _resume(args.out)
    if have >= args.positions:
        print(f"{args.out} already holds {have:,} positions", file=sys.stderr)
        return have
    if pgns:
        seen = {board_key(chess.Board(json.loads(line)["fen"]))
                for line in args.out.read_text().splitlines()} if have else set()
        recorded = pgn_games(pgns)
        for _ in range(games):  # the games already scored
            next(recorded, None)
    else:
        ours = ChessEngine(hash_mb=16)
        ours.warm_up()
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish or _stockfish(), setpgrp=True)
    sf.configure({"Threads": 1, "Hash": 16})
    start, begun, exhausted = time.time(), have, False
    with StopRequest() as stop:
        if hasattr(signal, "SIGTERM") and stop._previous is not None:
            signal.signal(signal.SIGTERM, stop._handle)
        try:
            with args.out.open("a") as fh:
                while have < args.positions and not stop.requested:
                    if pgns:
                        game = next(recorded, None)
                        if game is None:
                            exhausted = True  # every recorded game scored
                            break
                        kept, turns, white = score_recorded(game, sf, args.sf_depth, games,
                                                            seen)
                    else:
                        rng = random.Random(args.seed * 1_000_003 + games)
                        kept, turns, white = play_game(ours, sf, rng, args.depth,
                                                       args.sf_depth, games)
                    fh.write(rows_of(games, kept, turns, white))
                    fh.flush()
                    os.fsync(fh.fileno())
                    games += 1
                    have += len(kept)
                    spent = max(1e-9, time.time() - start)
                    print(f"\rgames {games:,}  positions {have:,} / {args.positions:,}  "
                          f"{(have - begun) / spent * 3600:,.0f} an hour", end="",
                          file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            pass  # the game in play is dropped; the file holds whole games
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            with contextlib.suppress(chess.engine.EngineError, OSError, TimeoutError):
                sf.quit()
    print(f"\n{have:,} positions from {games:,} games in {args.out}"
          + ("; every recorded game scored" if exhausted else
             "; the same command goes on" if have < args.positions else ""), file=sys.stderr)
    return have


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--depth", type=int, default=6, help="our engine's depth a move")
    parser.add_argument("--sf-depth", type=int, default=9, help="Stockfish's scoring depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("nnue.jsonl"))
    parser.add_argument("--stockfish", default=None, help="the Stockfish command")
    parser.add_argument("--from-pgn", type=Path, nargs="+", default=None, metavar="PGN",
                        help="score the positions of these recorded games instead of "
                             "playing new ones (e.g. bench/records/chess-*/*.pgn)")
    args = parser.parse_args(argv)
    if args.positions < 1 or not 1 <= args.depth <= 30 or not 1 <= args.sf_depth <= 40:
        parser.error("--positions must be positive, --depth 1..30, --sf-depth 1..40")
    if args.seed < 0:
        parser.error("--seed must be 0 or more")
    data(args)


if __name__ == "__main__":
    main()
