"""What ``gamesearch warmup`` compiles: every game's compiled code and the algorithms' kernels.

Part of the catalog layer (it joins games and algorithms; shared/DESIGN.md): each game that
has compiled code names its warm-up in :data:`GAME_WARMUPS` (its kernel's generic searches,
its solver, its game-specific agent), and :data:`ALGORITHM_WARMUPS` lists the kernels that
belong to no game (Lemke-Howson, support enumeration). Every step calls the compiled code
with the argument types the real callers use, on a tiny input: numba compiles it once per
machine and later sessions load it from its cache (tests/test_speed_warmup.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamesearch.errors import GameSearchError
from gamesearch.game import Game
from gamesearch.kernels.warmup import WarmupStep, kernel_steps


def _connect4(game: Game) -> list[WarmupStep]:
    steps = kernel_steps(game.kernel, game.initial_state()) if game.kernel else []
    return [*steps, (f"connect4_{game.width}x{game.height} perfect solver",
                     lambda: _connect4_solver(game))]


def _connect4_solver(game: Game) -> None:
    """A weak solve of a position near the end (a search of a few nodes)."""
    import random

    from gamesearch.engines.connect4.solve import session_solver

    rng = random.Random(0)
    state = game.initial_state()
    while game.is_terminal(state) or state[2] < game.width * game.height - 12:
        if game.is_terminal(state):
            state = game.initial_state()
        state = game.result(state, rng.choice(list(game.actions(state))))
    session_solver(game, notice=False).solve(state, weak=True)


def _backgammon(game: Game) -> list[WarmupStep]:
    return [("backgammon expectiminimax (gammon)", lambda: _gammon(game))]


def _gammon(game: Game) -> None:
    """The compiled expectiminimax, with Star2 pruning (the default) and without."""
    from gamesearch.engines.backgammon.agent import GammonAgent

    for pruning in ("star2", None):
        GammonAgent(pruning=pruning).prepare(game)


def _othello(game: Game) -> list[WarmupStep]:
    steps = kernel_steps(game.kernel, game.initial_state())
    steps.append((f"othello {game.size}x{game.size} perft and exact solver",
                  lambda: _othello_solver(game)))
    if game.size == 8:
        steps.append(("othello engine (learned evaluation)", _othello_engine))
    return steps


def _othello_solver(game: Game) -> None:
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


def _othello_engine() -> None:
    from gamesearch.engines.othello.engine import HAND_WEIGHTS, Engine

    Engine(HAND_WEIGHTS, 10).best(0x810000000, 0x1008000000, 1)


def _pig(game: Game) -> list[WarmupStep]:
    from gamesearch.engines.pig.solver import solve_pig

    return [("pig value iteration", lambda: solve_pig(goal=4))]


def _poker(game: Game) -> list[WarmupStep]:
    return [("CFR + best response", lambda: _cfr(game))]


def _cfr(game: Game) -> None:
    from gamesearch.games.kuhn_poker import KuhnPoker
    from gamesearch.imperfect.best_response import best_response_value
    from gamesearch.imperfect.cfr import CFRSolver
    from gamesearch.imperfect.tree import build_tree

    tree = build_tree(KuhnPoker())  # the same compiled loops serve every game: the smallest
    solver = CFRSolver(tree)
    solver.run(1)
    best_response_value(tree, tree.uniform(), 0)


def _chess(game: Game) -> list[WarmupStep]:
    return [("chess move generator (perft)", lambda: _chess_perft(game)),
            ("chess engine search", _chess_search)]


def _chess_perft(game: Game) -> None:
    from gamesearch.games.chess.kernel import perft_fen

    perft_fen(game.initial_state(), 2)


def _chess_search() -> None:
    from gamesearch.engines.chess.engine import ChessEngine

    ChessEngine(1).warm_up()


def _checkers(game: Game) -> list[WarmupStep]:
    steps = kernel_steps(game.kernel, game.initial_state()) if game.kernel else []
    return [*steps, ("checkers engine search", lambda: _checkers_engine(game))]


def _checkers_engine(game: Game) -> None:
    from gamesearch.engines.checkers.engine import CheckersAgent

    agent = CheckersAgent(depth=2)
    agent.prepare(game)
    agent(game, game.initial_state())


def _go(game: Game) -> list[WarmupStep]:
    return [("go board and MCTS play-outs", _go_mcts)]


def _go_mcts() -> None:
    from gamesearch.engines.go.mcts import GoMCTSAgent

    GoMCTSAgent(playouts=256).prepare(None)  # compiles on a small board, any size then


GAME_WARMUPS: dict[str, Callable[[Game], list[WarmupStep]]] = {
    "checkers": _checkers,
    "go": _go,
    "connect4": _connect4,
    "chess": _chess,
    "backgammon": _backgammon,
    "pig": _pig,
    "othello": _othello,
    "kuhn_poker": _poker,
    "leduc_poker": _poker,
    "strategy_fusion": _poker,
}
"""For each game with compiled code: its warm-up steps for one game instance."""


def _lemke_howson() -> None:
    import numpy as np

    from gamesearch.theory.lemke_howson_kernel import lemke_howson_float

    a = np.ascontiguousarray([[2.0, 1.0], [1.0, 2.0]])
    lemke_howson_float(a, a.copy(), 0, 100)


def _support_enumeration() -> None:
    import numpy as np

    from gamesearch.theory.support_enumeration_kernel import support_candidates_kernel

    a = np.ascontiguousarray([[2.0, 1.0], [1.0, 2.0]])
    support_candidates_kernel(a, a.copy(), 1, 1e-9, 16)


def _vertex_enumeration() -> None:
    import numpy as np

    from gamesearch.theory.vertex_enumeration_kernel import polytope_vertices_kernel

    polytope_vertices_kernel(np.ascontiguousarray([[2.0, 1.0], [1.0, 2.0]]), 1e-9)


ALGORITHM_WARMUPS: list[WarmupStep] = [
    ("Lemke-Howson", _lemke_howson),
    ("support enumeration", _support_enumeration),
    ("vertex enumeration", _vertex_enumeration),
]
"""Compiled kernels that belong to no game."""


def warmup_steps(games: Sequence[str] = ()) -> list[WarmupStep]:
    """The steps that compile (or load) compiled code: for the given game specs
    (``connect4:width=6,height=5``), or when none are given, for every registered game at
    its default size and every algorithm kernel. A named game without compiled code is an
    error that lists the games that have some."""
    from gamesearch.games import REGISTRY, game_entry, load_game

    specs = list(games) or [name for name in REGISTRY if name in GAME_WARMUPS]
    steps: dict[str, Callable[[], object]] = {}
    for spec in specs:
        game = load_game(spec)
        name = game_entry(spec.split(":", 1)[0]).name
        if name not in GAME_WARMUPS:
            raise GameSearchError(f"{spec}: this game has no compiled kernel to warm up; games "
                                  f"with some: {', '.join(sorted(GAME_WARMUPS))}")
        for step_name, step in GAME_WARMUPS[name](game):
            steps.setdefault(step_name, step)
    if not games:
        steps.update(ALGORITHM_WARMUPS)
    return list(steps.items())
