"""An outside UCI chess engine as a gamesearch agent: ``uci:cmd=stockfish,time=0.1``.

Tournaments and matches then treat Stockfish (or ``gamesearch uci``, or any UCI program)
as one more player. The protocol is python-chess's ``chess.engine`` (already the chess
rules' dependency): it starts the program, waits for ``uciok``, and raises when the
program dies, stops answering within its time plus a grace, or answers an illegal move,
so the arena records a forfeit with the reason and the tournament goes on. ``close``
sends ``quit`` and kills the program if it does not leave.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

import chess
import chess.engine

from gamesearch.agent import Agent
from gamesearch.engines.chess.scale import MATE, VALUE_SCALE
from gamesearch.errors import GameSearchError
from gamesearch.outside.programs import program_argv
from gamesearch.result import SearchResult, SearchStats

START_SECONDS = 10.0
"""How long a program may take to start and say ``uciok``."""
READY_SECONDS = 120.0
"""How long a started program may take to answer ``isready`` (a compiled engine may load
or compile its search here: ours takes ~30 s on a machine that has never run it)."""
GRACE_SECONDS = 5.0
"""How long past its move time a program may take to say ``bestmove``."""

_OPEN: set[chess.engine.SimpleEngine] = set()
"""Programs running now. python-chess talks to each from a non-daemon thread, and Python
joins those before it exits: a program nobody closed would hold the process open for ever
(it held CI past its limit, and `match` after its last game). They are closed as the
interpreter shuts down, before that join (``threading._register_atexit``, the hook
concurrent.futures uses). The engines themselves are held, not their players: a player
dropped without ``close`` would leave a weak reference nothing to close."""


def _close_open_engines() -> None:
    for engine in list(_OPEN):
        _stop(engine)


def _stop(engine: chess.engine.SimpleEngine) -> None:
    """Send quit; kill the program if it has not left within a second."""
    _OPEN.discard(engine)
    try:
        engine.quit()
    except Exception:  # noqa: BLE001  a dead or hung program: close() kills it
        pass
    finally:
        engine.close()


if hasattr(threading, "_register_atexit"):
    threading._register_atexit(_close_open_engines)


class UciPlayer(Agent):
    """A UCI program playing chess: ``time`` seconds a move or ``depth`` plies; ``elo``
    sets UCI_LimitStrength/UCI_Elo where the program has them (Stockfish: 1320-3190)."""

    interactive = False

    def __init__(self, cmd: str = "stockfish", time: float | None = 0.1,
                 depth: int | None = None, elo: int | None = None, threads: int = 1,
                 hash: int = 16) -> None:
        self.argv = program_argv(cmd, "uci", "stockfish")
        self.go_limit = chess.engine.Limit(depth=depth) if depth is not None \
            else chess.engine.Limit(time=time if time is not None else 0.1)
        self.options: dict[str, Any] = {"Threads": threads, "Hash": hash}
        if elo is not None:
            self.options.update({"UCI_LimitStrength": True, "UCI_Elo": elo})
        limit = f"depth={depth}" if depth is not None else f"time={self.go_limit.time:g}"
        self.spec = f"uci:cmd={cmd},{limit}" + (f",elo={elo}" if elo is not None else "")
        self.engine: chess.engine.SimpleEngine | None = None

    def prepare(self, game: object) -> None:
        """Start the program (before any clock runs) and set its options."""
        if self.engine is not None:
            return
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(self.argv, timeout=START_SECONDS)
        except (OSError, chess.engine.EngineError, TimeoutError) as err:
            raise GameSearchError(f"{self.argv[0]} did not start as a UCI engine: "
                                  f"{str(err) or type(err).__name__}") from None
        _OPEN.add(self.engine)
        self.engine.timeout = READY_SECONDS
        try:
            self.engine.ping()  # isready: the program loads before any clock runs
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError,
                TimeoutError) as err:
            self.close()
            raise GameSearchError(f"{self.argv[0]} was not ready within {READY_SECONDS:g} s: "
                                  f"{str(err) or type(err).__name__}") from None
        self.engine.timeout = GRACE_SECONDS
        known = self.engine.options
        try:
            self.engine.configure({k: v for k, v in self.options.items() if k in known})
        except chess.engine.EngineError as err:
            self.close()
            raise GameSearchError(f"{self.argv[0]} refused an option: {err}") from None

    def __call__(self, game: object, state: str) -> SearchResult:
        """The program's move for the FEN ``state`` (the mover's score squashed to (-1, 1))."""
        self.prepare(game)
        board = chess.Board(state)
        began = time.perf_counter()
        try:
            played = self.engine.play(board, self.go_limit, info=chess.engine.INFO_SCORE
                                      | chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError,
                TimeoutError) as err:
            raise GameSearchError(f"{self.argv[0]}: {str(err) or type(err).__name__}") from None
        if played.move is None:
            raise GameSearchError(f"{self.argv[0]} answered no move")
        stats = SearchStats(nodes=int(played.info.get("nodes", 0)),
                            depth=int(played.info.get("depth", 0)))
        stats.seconds = time.perf_counter() - began
        score = played.info.get("score")
        value, own, mover = None, None, 0 if board.turn else 1
        if score is not None:
            pov = score.pov(board.turn)
            mate = pov.mate()
            value = math.copysign(1.0, mate) if mate is not None else \
                math.tanh(pov.score() / 1000)
            own = VALUE_SCALE.score(_engine_units(pov), mover)
        move = played.move.uci()
        return SearchResult(value, move, [move], stats, pov=mover, engine_score=own)

    def close(self) -> None:
        """Send quit; kill the program if it has not left within a second."""
        engine, self.engine = self.engine, None
        if engine is not None:
            _stop(engine)


def _engine_units(score: chess.engine.Score) -> int:
    """A program's score in our engine's units: centipawns, or a mate in n moves as
    ``MATE - plies`` (n > 0: 2n - 1 plies; mated in n: 2n plies), so one scale reads both."""
    mate = score.mate()
    if mate is None:
        return int(score.score())
    return MATE - (2 * mate - 1) if mate > 0 else -(MATE - 2 * abs(mate))
