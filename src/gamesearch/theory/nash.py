"""One entry point to the equilibrium methods: ``nash(game, method)``."""

from __future__ import annotations

from gamesearch.errors import UnknownNameError
from gamesearch.theory.equilibrium import EquilibriumSet
from gamesearch.theory.normal_form import NormalFormGame

METHODS = ("support", "vertex", "lemke-howson", "pure", "lp", "logit", "simpdiv", "gnm")


def nash(game: NormalFormGame, method: str = "support") -> EquilibriumSet:
    """Equilibria of ``game`` by ``method``: support and vertex enumeration (all, for
    nondegenerate two-player games), Lemke-Howson (one per starting label), pure (every pure
    equilibrium, any number of players), lp (the optimal strategies of a zero-sum game), logit
    (one verified equilibrium of an N-player game, from the logit QRE branch), simpdiv (one
    verified equilibrium of an N-player game, by simplicial subdivision with restarts), gnm
    (the equilibria on the global Newton path of Govindan and Wilson, any number of players,
    each verified)."""
    key = method.strip().lower().replace("_", "-")
    if key in ("support", "support-enumeration"):
        from gamesearch.theory.support_enumeration import support_enumeration

        return support_enumeration(game)
    if key in ("vertex", "vertex-enumeration"):
        from gamesearch.theory.vertex_enumeration import vertex_enumeration

        return vertex_enumeration(game)
    if key in ("lemke-howson", "lh"):
        from gamesearch.theory.lemke_howson import lemke_howson_all

        return lemke_howson_all(game)
    if key == "pure":
        from gamesearch.theory.pure import pure_nash

        return pure_nash(game)
    if key == "lp":
        from gamesearch.theory.zero_sum import solve_zero_sum

        return solve_zero_sum(game).as_set()
    if key in ("logit", "qre"):
        from gamesearch.theory.logit_nash import logit_nash

        return logit_nash(game)
    if key in ("simpdiv", "simplicial", "simplicial-subdivision"):
        from gamesearch.theory.simpdiv import simpdiv

        return simpdiv(game)
    if key in ("gnm", "global-newton"):
        from gamesearch.theory.gnm import gnm

        return gnm(game)
    raise UnknownNameError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
