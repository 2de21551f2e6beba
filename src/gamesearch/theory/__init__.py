"""Game theory: normal-form games, dominance, Nash equilibria, trees to matrices, backward
induction and the sequence form (docs/THEORY.md)."""

from gamesearch.theory.backward_induction import SubgamePerfect, backward_induction
from gamesearch.theory.dominance import (
    dominant_strategy_equilibria,
    dominated_strategies,
    iterated_elimination,
)
from gamesearch.theory.equilibrium import EquilibriumSet, is_nash, regret
from gamesearch.theory.extensive import to_normal_form
from gamesearch.theory.formats import load_normal_form, parse_game, save_normal_form
from gamesearch.theory.lemke_howson import lemke_howson, lemke_howson_all
from gamesearch.theory.nash import METHODS, nash
from gamesearch.theory.normal_form import NormalFormGame
from gamesearch.theory.pure import best_responses, pure_equilibria
from gamesearch.theory.sequence_form import solve_sequence_form
from gamesearch.theory.support_enumeration import support_enumeration
from gamesearch.theory.vertex_enumeration import vertex_enumeration
from gamesearch.theory.zero_sum import maximin, minimax, saddle_points, solve_zero_sum

__all__ = [
    "METHODS",
    "EquilibriumSet",
    "NormalFormGame",
    "SubgamePerfect",
    "backward_induction",
    "best_responses",
    "dominant_strategy_equilibria",
    "dominated_strategies",
    "is_nash",
    "iterated_elimination",
    "lemke_howson",
    "lemke_howson_all",
    "load_normal_form",
    "maximin",
    "minimax",
    "nash",
    "parse_game",
    "pure_equilibria",
    "regret",
    "saddle_points",
    "save_normal_form",
    "solve_sequence_form",
    "solve_zero_sum",
    "support_enumeration",
    "to_normal_form",
    "vertex_enumeration",
]
