"""What ``gamesearch warmup`` compiles: every game's compiled code and the algorithms' kernels.

Part of the catalog layer (it joins games and algorithms; shared/DESIGN.md): each game's
entry says what compiles its code (``GameEntry.warmups``: its kernel's generic searches, its
solver, its engine), and :data:`ALGORITHM_WARMUPS` lists the kernels that belong to no game
(Lemke-Howson, support enumeration). Every step calls the compiled code with the argument
types the real callers use, on a tiny input: numba compiles it once per machine and later
sessions load it from its cache (tests/test_speed_warmup.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamesearch.errors import GameSearchError
from gamesearch.kernels.warmup import WarmupStep


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


def _agent_qre() -> None:
    from gamesearch.shipped import shipped
    from gamesearch.theory.agent_qre import agent_qre_at
    from gamesearch.theory.efg import load_efg

    # any tree compiles the same sweep: the shipped beer-quiche game
    agent_qre_at(load_efg(str(shipped("efg", "beer_quiche.efg"))), 0.5)


ALGORITHM_WARMUPS: list[WarmupStep] = [
    ("agent QRE on trees", _agent_qre),
    ("Lemke-Howson", _lemke_howson),
    ("support enumeration", _support_enumeration),
    ("vertex enumeration", _vertex_enumeration),
]
"""Compiled kernels that belong to no game."""


def games_with_warmups() -> list[str]:
    """The registered games whose entries have compiled code to warm up."""
    from gamesearch.games import entries

    return [entry.name for entry in entries() if entry.warmups is not None]


def warmup_steps(games: Sequence[str] = ()) -> list[WarmupStep]:
    """The steps that compile (or load) compiled code: for the given game specs
    (``connect4:width=6,height=5``), or when none are given, for every registered game at
    its default size and every algorithm kernel. A named game without compiled code is an
    error that lists the games that have some."""
    from gamesearch.games import game_entry, load_game

    specs = list(games) or games_with_warmups()
    steps: dict[str, Callable[[], object]] = {}
    for spec in specs:
        game = load_game(spec)
        entry = game_entry(spec.split(":", 1)[0])
        if entry.warmups is None:
            raise GameSearchError(f"{spec}: this game has no compiled kernel to warm up; games "
                                  f"with some: {', '.join(sorted(games_with_warmups()))}")
        for step_name, step in entry.warmups(game):
            steps.setdefault(step_name, step)
    if not games:
        steps.update(ALGORITHM_WARMUPS)
    return list(steps.items())
