"""The Othello engine: Logistello-style pattern evaluation with compiled PVS, the exact
endgame solver, the GTP adapters for outside programs (Edax, GRhino, any GTP program),
and Othello's ENTRY."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.engines.othello.scale import VALUE_SCALE
from gamesearch.entry import AgentDecl, GameEntry, VerdictPolicy, WarmupStep
from gamesearch.spec import Option, Range

VERDICT_EMPTIES = 18
"""The most empty squares an exact verdict solves (FFO #40, 20 empties, takes seconds)."""


def _refuse_verdict(game: Any, state: Any) -> str | None:
    empties = state[0].count("-")
    if empties > VERDICT_EMPTIES:
        return f"exact verdicts from {VERDICT_EMPTIES} empty squares on ({empties} now)"
    return None


def _othello(size: int = 8) -> Any:
    from gamesearch.games.othello.rules import Othello

    return Othello(size=size)


def _perft(game: Any, state: Any, depth: int) -> int:
    from gamesearch.games.othello.kernel import kernel_perft

    return kernel_perft(game, state, depth)


def _solver(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.engines.othello.engine import first_guess
    from gamesearch.engines.othello.solver import solve_entry

    return solve_entry(game, state, options, guess=first_guess)


def _othello_agent(depth: int | None = None, evaluation: str = "patterns", solve: int = 14,
                   time: float | None = None, target: float | None = None) -> Agent:
    from gamesearch.engines.othello.engine import OthelloAgent

    return OthelloAgent(depth=depth, evaluation=evaluation, solve=solve, time=time,
                        target=target)


_othello_agent.ranges = {"solve": Range(0, 30),
                         "target": Range(0, 86_400, low_open=True)}


def _edax(level: int | None = None, cmd: str = "edax") -> Agent:
    from gamesearch.engines.othello.gtp_player import edax_player

    return edax_player(cmd=cmd, level=level)


def _grhino(level: int | None = None, mid: int | None = None, end: int | None = None,
            win: int | None = None, book: int | None = None, rand: int | None = None,
            cmd: str = "gtp-rhino") -> Agent:
    from gamesearch.engines.othello.gtp_player import grhino_player

    return grhino_player(cmd=cmd, level=level, mid=mid, end=end, win=win, book=book,
                         rand=rand)


_grhino.ranges = {"level": Range(1, 5), "mid": Range(1, 20), "end": Range(1, 20),
                  "win": Range(1, 20), "book": Range(0, 5), "rand": Range(0, 10)}


def _gtp_othello(cmd: str) -> Agent:
    from gamesearch.engines.othello.gtp_player import gtp_othello_player

    return gtp_othello_player(cmd)


def _warmups(game: Any) -> list[WarmupStep]:
    from gamesearch.kernels.warmup import kernel_steps

    def solver() -> None:
        import random

        from gamesearch.engines.othello.solver import Table, solve_position
        from gamesearch.games.othello.kernel import encode_state, kernel_perft

        rng = random.Random(0)
        state = game.initial_state()
        kernel_perft(game, state, 2)
        while state[0].count("-") > 10 and not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        me, opp, _ = encode_state(state, game.size)
        solve_position(int(me), int(opp), game.size, Table(10))  # a 10-empty solve: instant

    def engine() -> None:
        from gamesearch.engines.othello.engine import HAND_WEIGHTS, Engine

        Engine(HAND_WEIGHTS, 10).best(0x810000000, 0x1008000000, 1)

    def pattern_engine() -> None:
        from gamesearch.engines.othello import patterns
        from gamesearch.engines.othello.engine import Engine

        Engine(patterns.load(), 10, patterns=True).best(0x810000000, 0x1008000000, 1)

    steps = kernel_steps(game.kernel, game.initial_state())
    steps.append((f"othello {game.size}x{game.size} perft and exact solver", solver))
    if game.size == 8:
        steps.append(("othello engine (16-feature evaluation)", engine))
        steps.append(("othello engine (pattern tables, the default)", pattern_engine))
    return steps


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.othello.view import board

    return board(game, state)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.othello.view import picture

    return picture(game, state, lastmove, arrows)


ENTRY = GameEntry(
    "othello", "Othello (Reversi) 8x8, or size=6; exact endgame solver", _othello,
    perft=_perft, solver=_solver, ranges={"size": Range(4, 8)},
    solver_options={"table": Option(int, "log2 of the transposition table slots",
                                    Range(10, 28))},
    agents=(
        AgentDecl("othello", _othello_agent, "Othello: PVS to depth=N (default 4) or as deep "
                  "as time=T seconds allow, with Logistello's pattern tables "
                  "(evaluation=patterns, the default; learned: 16 features fitted on "
                  "self-play; hand: disc count + mobility + corners), exact solve at "
                  "solve=14 empties; target=T: about T a move (at most 3 T), solving "
                  "earlier where the time allows, for matches with a time allowance"),
        AgentDecl("edax", _edax, "othello: Edax (built by you; github.com/abulmo/edax-reversi) "
                  "or any GTP Othello program, level=N (Edax's search depth), cmd=PATH",
                  outside=True),
        AgentDecl("grhino", _grhino, "othello: GRhino (Debian package grhino, Logistello-style "
                  "patterns and a book) over GTP: level=1-5, or mid=, end=, win= search "
                  "depths, book=0-5, rand=0-10, cmd=PATH", outside=True),
        AgentDecl("gtp-othello", _gtp_othello, "othello: any GTP Othello program, started as "
                  "cmd='PROGRAM FLAGS...' says", outside=True),
    ),
    defaults=("othello",),
    warmups=_warmups,
    verdict=VerdictPolicy(refuse=_refuse_verdict),
    board=_board,
    svg=_svg,
    ending=lambda game, state: (f"(discs: black {state[0].count('X')}, white "
                                f"{state[0].count('O')})"),
    scale=VALUE_SCALE,
)
