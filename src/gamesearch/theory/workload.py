"""How much work a method would do on a normal-form game, checked before it starts.

The web caps a matrix at 32 strategies a player; the command line takes larger games, so
each method here has an estimate of its work and a limit (about half a minute on one core,
measured on random integer games). A game beyond the limit is refused with one line that
says what the method would need and which method fits instead; :func:`auto_method` picks
the method that fits a game (``nash``'s default).
"""

from __future__ import annotations

import math
from typing import Any

from gamesearch.errors import LimitError

MAX_SUPPORT_PAIRS = 10_000_000
"""Support pairs (C(m + n, m) - 1 of an m x n game) support and vertex enumeration may try."""

MAX_PIVOT_WORK = 20_000_000
"""Lemke-Howson: cells x strategies x the smaller side (its m + n starts, each pivoting
over the tableau; 40 x 200 took over 30 s at 7.7e7)."""

MAX_QRE_STRATEGIES = 160
"""The logit QRE branch (and the logit and simpdiv methods): strategies of all players
together (each step solves a system of that size; 5 x 400 ran past 30 s)."""

MAX_DOMINANCE_WORK = 20_000_000
"""Dominance by pure strategies: cells x strategies (each pair of a player's strategies
compared over the other players' profiles); by mixed ones a tenth of it (one LP each)."""

MAX_CELLS = 20_000_000
"""Any method: the cells of the matrix (pure equilibria, the zero-sum LP)."""


def _shape(game: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in game.shape)


def _size(shape: tuple[int, ...]) -> str:
    return " x ".join(map(str, shape))


def _count(n: int) -> str:
    if n < 10**12:
        return f"{n:,}"
    return f"about 10^{int((n.bit_length() - 1) * math.log10(2))}"


def support_pairs(shape: tuple[int, ...]) -> int:
    """Support pairs support enumeration goes through on a two-player game."""
    m, n = shape
    return math.comb(m + n, m) - 1


def method_key(method: str) -> str:
    """The canonical name of a method as ``nash`` spells them."""
    key = method.strip().lower().replace("_", "-")
    aliases = {"support-enumeration": "support", "vertex-enumeration": "vertex",
               "lh": "lemke-howson", "qre": "logit", "simplicial": "simpdiv",
               "simplicial-subdivision": "simpdiv"}
    return aliases.get(key, key)


def check_method(game: Any, method: str, what: str = "nash") -> None:
    """Refuse (:class:`LimitError`) a method whose estimated work on ``game`` is past its
    limit, naming what it would need and a method that fits."""
    shape = _shape(game)
    cells = math.prod(shape)
    key = method_key(method)
    strategies = sum(shape)
    if cells > MAX_CELLS:
        raise LimitError(f"{what}: a {_size(shape)} game has {_count(cells)} cells; at most "
                         f"{MAX_CELLS:,} here")
    if key in ("support", "vertex") and len(shape) == 2:
        pairs = support_pairs(shape)
        if pairs > MAX_SUPPORT_PAIRS:
            raise LimitError(f"{what}: {key} enumeration of a {_size(shape)} game goes through "
                             f"{_count(pairs)} support pairs; at most {MAX_SUPPORT_PAIRS:,} "
                             f"here ({_instead(game, key)})")
    elif key == "lemke-howson":
        work = cells * strategies * min(shape)
        if work > MAX_PIVOT_WORK:
            raise LimitError(f"{what}: Lemke-Howson on a {_size(shape)} game would need about "
                             f"{_count(work)} steps of pivoting; at most {MAX_PIVOT_WORK:,} "
                             f"here ({_instead(game, key)})")
    elif key in ("logit", "simpdiv", "gnm") and strategies > MAX_QRE_STRATEGIES:
        raise LimitError(f"{what}: {key} on a {_size(shape)} game follows {strategies} "
                         f"strategies at once; at most {MAX_QRE_STRATEGIES} here "
                         f"({_instead(game, key)})")


def check_qre(game: Any) -> None:
    """Refuse a QRE branch, point or fit on a game with too many strategies."""
    shape = _shape(game)
    if sum(shape) > MAX_QRE_STRATEGIES:
        raise LimitError(f"qre: the branch of a {_size(shape)} game follows {sum(shape)} "
                         f"strategies at once; at most {MAX_QRE_STRATEGIES} here (give a "
                         "smaller game, for example after 'dominance --iterated')")


def check_dominance(game: Any, mixed: bool) -> None:
    """Refuse dominance checks whose comparisons are past their limit."""
    shape = _shape(game)
    cells = math.prod(shape)
    work = cells * sum(shape)
    most = MAX_DOMINANCE_WORK // (10 if mixed else 1)
    if work > most:
        kind = "mixed" if mixed else "pure"
        raise LimitError(f"dominance: checking {kind} dominance on a {_size(shape)} game "
                         f"compares about {_count(work)} payoffs; at most {most:,} here")


def _instead(game: Any, method: str) -> str:
    """Advice: the methods that fit this game, if any."""
    fits = [m for m in ("lp", "lemke-howson", "pure") if m != method and _fits(game, m)]
    if not fits:
        return "give a smaller game, for example after 'dominance --iterated'"
    return "try --method " + " or ".join(fits)


def _fits(game: Any, method: str) -> bool:
    if method == "lp" and not (game.num_players == 2 and game.is_zero_sum):
        return False
    if method == "lemke-howson" and game.num_players != 2:
        return False
    try:
        check_method(game, method)
    except LimitError:
        return False
    return True


def auto_method(game: Any) -> str:
    """The method ``nash`` uses when none is given: every equilibrium (support enumeration)
    of a two-player game small enough for it; else the zero-sum LP; else Lemke-Howson; a
    game of three or more players: simplicial subdivision (one equilibrium); else pure."""
    if game.num_players == 2:
        for method in ("support", "lp", "lemke-howson", "pure"):
            if _fits(game, method):
                return method
        return "support"  # refused by check_method with its advice
    return "simpdiv" if _fits(game, "simpdiv") else "pure"
