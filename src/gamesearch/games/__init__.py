"""The built-in games, loaded by name: ``load_game("nim:piles=3-4-5,misere=true")``.

Each game registers a :class:`GameEntry`: its name, a one-line summary and a factory whose
annotated keyword parameters are the game's parameters. A game may add a ``solver``: a
callable ``solver(game, state, options) -> dict`` used by ``gamesearch solve`` instead of
the generic search. A solver that is rules only (whist's double dummy) is given here; one
that joins the game with an algorithm (Connect Four's solver, Pig's table, CFR for poker,
Pacman's verdict) is attached by the catalog (catalog/solvers.py).
A caller with a wall-clock budget (the web app) passes ``budget`` (seconds): a solver that can
stop early honours it; one that cannot is cut off by its caller. Unlike ``time``, which a user
asks for, a budget is never refused. A face may pass ``progress(description, done, total)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamesearch.errors import UnknownNameError
from gamesearch.game import Game
from gamesearch.plugins import load_catalog
from gamesearch.spec import Option, Range, call_with_params, parse_spec


@dataclass(frozen=True)
class GameEntry:
    """A registered game."""

    name: str
    summary: str
    factory: Callable[..., Game]
    solver: Callable[..., dict] | None = None
    solver_options: dict[str, Option] = field(default_factory=dict)
    """The options ``gamesearch solve`` passes on to ``solver`` (others are refused)."""
    ranges: dict[str, Range] = field(default_factory=dict)
    """The accepted range of numeric game parameters (each item of a tuple)."""
    perft: Callable[[Game, Any, int], int] | None = None
    """A fast ``perft(game, state, depth) -> leaves`` (a compiled kernel's) for ``gamesearch
    perft``; without one the generic pure-Python count over the protocol is used."""


REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game to the registry (names are unique)."""
    REGISTRY[entry.name] = entry
    return entry


def _tictactoe() -> Game:
    from gamesearch.games.tictactoe import TicTacToe

    return TicTacToe()


def _nim(piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> Game:
    from gamesearch.games.nim import Nim

    return Nim(piles=piles, misere=misere)


def _ii_nim() -> Game:
    from gamesearch.games.nim import Nim

    return Nim(piles=(2, 2), misere=True)


def _connect4(width: int = 7, height: int = 6) -> Game:
    from gamesearch.games.connect4 import ConnectFour

    return ConnectFour(width=width, height=height)


def _tree(file: str = "") -> Game:
    from gamesearch.games.tree import TreeGame, load_tree_source

    if not file:
        return TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]], source="classic tree")
    return load_tree_source(file)


register(GameEntry("tictactoe", "Tic-tac-toe on 3x3 (a draw)", _tictactoe))
register(GameEntry("nim", "Nim with any piles; normal or misère play", _nim,
                   ranges={"piles": Range(0, 1000)}))  # nim.MAX_PILE, unimported here
register(GameEntry("ii-nim", "The lectures' II-Nim: piles 2 and 2, last stick loses", _ii_nim))


CONNECT4_SOLVER_OPTIONS = {
    "weak": Option(bool, "win/draw/loss only (faster)"),
    "pure": Option(bool, "the generic pure-Python alpha-beta instead of the compiled solver"),
    "depth": Option(int, "depth limit in plies (with --pure only)", Range(1, 1000)),
    "time": Option(float, "time budget in seconds (with --pure only)",
                   Range(0, 86_400, low_open=True)),
    "table": Option(int, "log2 of the transposition table slots (4 bytes each)",
                    Range(8, 32)),
    "book": Option(str, "an opening book (.npz)"),
    "batch": Option(str, "solve every position of a benchmark file"),
    "limit": Option(int, "with --batch: only the first N positions", Range(1, 10**9)),
    "pv": Option(int, "moves of the principal variation to show", Range(0, 81)),
}
register(GameEntry("connect4", "Connect Four, 7x6 by default (other sizes too)", _connect4,
                   solver_options=CONNECT4_SOLVER_OPTIONS,
                   ranges={"width": Range(4, 9), "height": Range(4, 8)}))
register(GameEntry("tree", "An explicit game tree from a JSON file (file=PATH)", _tree))


def _takeaway(players: int = 3, sticks: int = 10, max_take: int = 3, per_stick: float = 1,
              bonus: float = 5) -> Game:
    from gamesearch.games.takeaway import TakeAway

    return TakeAway(players, sticks, max_take, per_stick, bonus)


register(GameEntry("takeaway", "N-player take-away: sticks score, the last one a bonus",
                   _takeaway, ranges={"players": Range(2, 8), "sticks": Range(1, 10_000),
                                      "max_take": Range(1, 1000)}))


def _pig(goal: int = 100) -> Game:
    from gamesearch.games.pig import Pig

    return Pig(goal=goal)




register(GameEntry("pig", "Pig, the dice race to goal=100 (solved by value iteration)", _pig,
                   ranges={"goal": Range(2, 10**9)},
                   solver_options={
                       "tolerance": Option(float, "value iteration stops below this change",
                                           Range(0, 1, low_open=True)),
                       "plot": Option(str, "draw the optimal policy into this image file"),
                   }))


def _othello(size: int = 8) -> Game:
    from gamesearch.games.othello.rules import Othello

    return Othello(size=size)


def _othello_perft(game: Game, state: Any, depth: int) -> int:
    from gamesearch.games.othello.kernel import kernel_perft

    return kernel_perft(game, state, depth)


register(GameEntry("othello", "Othello (Reversi) 8x8, or size=6; exact endgame solver",
                   _othello, perft=_othello_perft,
                   ranges={"size": Range(4, 8)},
                   solver_options={"table": Option(int, "log2 of the transposition table "
                                                   "slots", Range(10, 28))}))


def _checkers() -> Game:
    from gamesearch.games.checkers.rules import Checkers

    return Checkers()


def _checkers_perft(game: Game, state: Any, depth: int) -> int:
    from gamesearch.games.checkers.kernel import kernel_perft

    return kernel_perft(game, state, depth)


register(GameEntry("checkers", "Checkers (English draughts): compulsory captures, "
                   "multi-jumps, 40-move draw rule; PDN FEN and move notation", _checkers,
                   perft=_checkers_perft))


def _go(size: int = 9, komi: float = 7.0, suicide: bool = False, handicap: int = 0) -> Game:
    from gamesearch.games.go.rules import Go

    return Go(size=size, komi=komi, suicide=suicide, handicap=handicap)


register(GameEntry("go", "Go 2x2-19x19 (size=9): area scoring, komi=7, positional superko, "
                   "suicide=false, handicap=N fixed stones; GTP vertices (D4, pass)", _go,
                   ranges={"size": Range(2, 19), "komi": Range(-361, 361),
                           "handicap": Range(0, 9)}))


def _backgammon() -> Game:
    from gamesearch.games.backgammon import Backgammon

    return Backgammon()


register(GameEntry("backgammon", "Backgammon, full rules without the cube (gammons count)",
                   _backgammon))


def _pacman(layout: str = "small", max_moves: int = 500, evaluation: str = "better",
            rules: str = "course", ghosts: int = 4) -> Game:
    from gamesearch.games.pacman import Pacman

    return Pacman(layout=layout, max_moves=max_moves, evaluation=evaluation, rules=rules,
                  ghosts=ghosts)




register(GameEntry("pacman", "Pacman against ghosts on a layout (layout=small|smallClassic|"
                   "minimaxClassic|... or a .lay file; rules=course|simple; ghosts=N)",
                   _pacman))


def load_game(spec: str, **params: Any) -> Game:
    """A game by name with parameters: ``load_game("nim", piles=(2, 2), misere=True)`` or
    ``load_game("nim:piles=2-2,misere=true")``."""
    name, raw = parse_spec(spec)
    entry = game_entry(name)
    return call_with_params(entry.factory, {**raw, **params}, f"game {name!r}", entry.ranges)


def game_entry(name: str) -> GameEntry:
    """The registry entry of a game; the error lists the known names."""
    key = name.strip().lower()
    load_catalog()  # it attaches the solvers that join a game and an algorithm
    if key not in REGISTRY:
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[key]


__all__ = ["REGISTRY", "GameEntry", "game_entry", "load_game", "register"]


def _kuhn_poker() -> Game:
    from gamesearch.games.kuhn_poker import KuhnPoker

    return KuhnPoker()


def _leduc_poker() -> Game:
    from gamesearch.games.leduc_poker import LeducPoker

    return LeducPoker()




POKER_SOLVER_OPTIONS = {
    "iterations": Option(int, "CFR iterations", Range(1, 10**9)),
    "algorithm": Option(str, "cfr+ (default) or cfr"),
}
register(GameEntry("kuhn_poker", "Kuhn poker: 3 cards, value -1/18 (CFR solver)", _kuhn_poker,
                   solver_options=POKER_SOLVER_OPTIONS))
register(GameEntry("leduc_poker", "Leduc hold'em: 6 cards, public card (CFR solver)",
                   _leduc_poker, solver_options=POKER_SOLVER_OPTIONS))


def _whist(suits: int = 4, ranks: int = 3) -> Game:
    from gamesearch.games.whist import Whist

    return Whist(suits=suits, ranks=ranks)


def _whist_solver(game: Game, state: object, options: dict) -> dict:
    from gamesearch.games.whist_double_dummy import double_dummy_report

    return double_dummy_report(game, state)


register(GameEntry("whist", "Whist on a small deck: 4 hands, follow suit (suits=4,ranks=3)",
                   _whist, solver=_whist_solver))


def _strategy_fusion() -> Game:
    from gamesearch.games.strategy_fusion import StrategyFusion

    return StrategyFusion()


register(GameEntry("strategy_fusion", "Take 3, or guess a hidden coin for 4: PIMC's blind spot",
                   _strategy_fusion, solver_options=POKER_SOLVER_OPTIONS))


def _chess(fen: str = "") -> Game:
    from gamesearch.games.chess.rules import START_FEN, Chess

    return Chess(fen or START_FEN)


def _chess_perft(game: Game, state: Any, depth: int) -> int:
    from gamesearch.games.chess.kernel import perft_fen

    return perft_fen(state, depth)


register(GameEntry("chess", "Chess (FIDE rules over python-chess; fen=FEN to start elsewhere)",
                   _chess, perft=_chess_perft))
