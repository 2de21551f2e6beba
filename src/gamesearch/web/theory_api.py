"""The one place the web app calls gamesearch.theory (normal-form games).

Everything the matrix lab needs from the theory package goes through the functions below,
with lazy imports, so the binding can be fixed here alone if that API changes. When the
package is missing, :func:`available` is False and the routes answer 501.
"""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction
from typing import Any

from gamesearch.errors import GameSearchError

MAX_STRATEGIES = 32
MAX_SUPPORT_PAIRS = 3_000_000
"""Support pairs support enumeration may try (12x12 has 2.7 million, about 3 s here; 16x16
has 600 million): beyond, the mixed equilibria are skipped with a note, the rest answers."""
MAX_PROFILES = 20_000
"""Pure profiles of a game of three or more players the lab solves (5 players x 7
strategies); larger files are refused with the command line's way to solve them."""
QRE_POINTS = 60
"""Points of the logit branch sent for the plot (the branch itself has a few hundred)."""
QRE_LAMBDA = 1000.0
"""Where the plotted branch ends, over the payoff range: near a Nash equilibrium."""
THEORY_MODULE = "gamesearch.theory.normal_form"
MISSING = ("the matrix lab needs gamesearch.theory (normal-form games), which is not "
           "installed in this build")


def available() -> bool:
    """True when the theory package is importable."""
    try:
        return importlib.util.find_spec(THEORY_MODULE) is not None
    except (ImportError, ValueError):
        return False


def parse_number(value: Any, where: str) -> Fraction | float | int:
    """A payoff as the file reader reads it (one parser: ``theory.formats.payoff_number``)."""
    from gamesearch.theory.formats import payoff_number

    return payoff_number(value, where)


def read_matrix(payload: dict) -> tuple[list, list, bool]:
    """Check a payoff table: rows of cells, each a number (zero-sum: the row player's payoff)
    or a pair [row payoff, column payoff]. Returns (row matrix, column matrix, zero_sum)."""
    rows = payload.get("payoffs")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise GameSearchError("matrix: 'payoffs' must be a non-empty list of rows")
    width = len(rows[0])
    if width == 0 or any(len(r) != width for r in rows):
        raise GameSearchError("matrix: every row needs the same number of cells (at least 1)")
    if len(rows) > MAX_STRATEGIES or width > MAX_STRATEGIES:
        raise GameSearchError(f"matrix: at most {MAX_STRATEGIES} strategies per player")
    pairs = [isinstance(c, list) for r in rows for c in r]
    if any(pairs) and not all(pairs):
        raise GameSearchError("matrix: give every cell as a number (zero-sum) or every cell "
                              "as a pair [row payoff, column payoff]")
    a, b = [], []
    for i, r in enumerate(rows):
        ra, rb = [], []
        for j, cell in enumerate(r):
            where = f"matrix cell ({i + 1}, {j + 1})"
            if isinstance(cell, list):
                if len(cell) != 2:
                    raise GameSearchError(f"{where}: a pair needs exactly two payoffs")
                x, y = parse_number(cell[0], where), parse_number(cell[1], where)
            else:
                x = parse_number(cell, where)
                y = -x
            ra.append(x)
            rb.append(y)
        a.append(ra)
        b.append(rb)
    return a, b, not any(pairs)


def _names(payload: dict, key: str, count: int, default: str) -> list[str]:
    names = payload.get(key) or [f"{default}{k + 1}" for k in range(count)]
    if len(names) != count:
        raise GameSearchError(f"matrix: {len(names)} {key} for {count} strategies")
    return [str(n)[:24] for n in names]


def analyze(payload: dict) -> dict:
    """Dominance elimination steps, best responses, pure and mixed equilibria, and the value
    of a zero-sum game."""
    if not available():
        raise GameSearchError(MISSING)
    from gamesearch.theory.dominance import iterated_elimination
    from gamesearch.theory.exact import json_number
    from gamesearch.theory.normal_form import NormalFormGame
    from gamesearch.theory.pure import best_response_mask, pure_equilibria
    from gamesearch.theory.zero_sum import solve_zero_sum

    a, b, zero_sum = read_matrix(payload)
    rows = _names(payload, "row_names", len(a), "r")
    cols = _names(payload, "column_names", len(a[0]), "c")
    game = NormalFormGame.bimatrix(a, b, players=["Row", "Column"], strategies=[rows, cols])
    elimination = iterated_elimination(game, strict=True, mixed=True)
    steps = [{"round": r, "player": d.player, "strategy": d.dominated,
              "by": [json_number(p) for p in d.by], "text": d.describe(game)}
             for r, d in elimination.steps]
    out: dict[str, Any] = {
        "players": game.players, "strategies": game.strategies, "zero_sum": zero_sum,
        "payoffs": [[[json_number(a[i][j]), json_number(b[i][j])] for j in range(len(a[0]))]
                    for i in range(len(a))],
        "eliminations": steps, "survivors": elimination.survivors,
        "best_responses": [best_response_mask(game, p).tolist() for p in (0, 1)],
        "pure_equilibria": [list(p) for p in pure_equilibria(game)],
    }
    try:
        out["mixed"] = mixed_equilibria(game, elimination)
    except GameSearchError as err:
        out["mixed"] = {"equilibria": [], "notes": [str(err)]}
    out["qre"] = qre_branch(game)
    if zero_sum:
        solution = solve_zero_sum(game)
        out["value"] = json_number(solution.value)
        out["optimal"] = [[json_number(p) for p in solution.row],
                          [json_number(p) for p in solution.column]]
    return out


def support_pairs(m: int, n: int) -> int:
    """Support pairs support enumeration tries on an m x n game: the sum over k of
    C(m, k) C(n, k), which is C(m + n, m) - 1 (Vandermonde's identity)."""
    return math.comb(m + n, m) - 1


def mixed_equilibria(game: Any, elimination: Any) -> dict:
    """Every equilibrium by support enumeration, bounded: a game with more than
    ``MAX_SUPPORT_PAIRS`` is solved on what is left after removing its strictly dominated
    strategies (the same equilibria, with zero on the removed ones); when that is still too
    large, a GameSearchError says so."""
    from gamesearch.theory.equilibrium import EquilibriumSet
    from gamesearch.theory.support_enumeration import support_enumeration

    m, n = game.shape
    if support_pairs(m, n) <= MAX_SUPPORT_PAIRS:
        return support_enumeration(game).as_dict(game)
    reduced, survivors = elimination.game, elimination.survivors
    r, c = reduced.shape
    if support_pairs(r, c) > MAX_SUPPORT_PAIRS:
        raise GameSearchError(f"mixed equilibria not computed: a {m}x{n} game has "
                              f"{support_pairs(m, n):,} support pairs to try, {r}x{c} after "
                              f"removing dominated strategies (at most {MAX_SUPPORT_PAIRS:,} "
                              "on the web); use the command line")
    found = support_enumeration(reduced)
    lifted = []
    for profile in found.equilibria:
        full = []
        for player, mix in enumerate(profile):
            vector = [mix[0] * 0] * game.shape[player]
            for k, original in enumerate(survivors[player]):
                vector[original] = mix[k]
            full.append(tuple(vector))
        lifted.append(tuple(full))
    note = (f"solved on the {r}x{c} game left after removing strictly dominated strategies "
            f"(the same equilibria; {m}x{n} has {support_pairs(m, n):,} support pairs)")
    return EquilibriumSet(found.method, lifted, found.exact, found.degenerate,
                          [*found.notes, note]).as_dict(game)


def tree_to_matrix(tree_game: Any) -> dict:
    """The normal form of a tree from the tree lab, as a payoff table the matrix lab loads
    (one strategy per reduced plan)."""
    if not available():
        raise GameSearchError(MISSING)
    from gamesearch.theory.exact import json_number
    from gamesearch.theory.extensive import to_normal_form

    if tree_game.num_players != 2:
        raise GameSearchError("tree to matrix: only trees with two players (MAX and one MIN)")
    normal = to_normal_form(tree_game, reduced=True).game
    m, n = normal.shape
    if m > MAX_STRATEGIES or n > MAX_STRATEGIES:
        raise GameSearchError(f"tree to matrix: {m}x{n} strategies; the matrix lab takes at "
                              f"most {MAX_STRATEGIES} per player")
    u = normal.exact_payoffs if normal.exact else normal.payoffs
    payoffs = [[json_number(u[0][i, j]) for j in range(n)] for i in range(m)]
    return {"payoffs": payoffs, "row_names": normal.strategies[0],
            "column_names": normal.strategies[1]}


FILE_SUFFIXES = (".nfg", ".json", ".csv")


def parse_file(text: str, filename: str) -> dict:
    """A two-player game from the text of a Gambit .nfg, JSON or CSV file, as a payoff table
    the matrix lab loads. The file name only chooses the format: it is never opened."""
    if not available():
        raise GameSearchError(MISSING)
    from gamesearch.theory.exact import json_number
    from gamesearch.theory.formats import parse_game

    suffix = next((x for x in FILE_SUFFIXES if filename.lower().endswith(x)), "")
    game = parse_game(text, "upload" + suffix)
    if game.num_players != 2:
        return {"nplayer": analyze_nplayer(game)}
    m, n = game.shape
    if m > MAX_STRATEGIES or n > MAX_STRATEGIES:
        raise GameSearchError(f"matrix lab: {m}x{n} strategies; at most {MAX_STRATEGIES} "
                              "per player")
    u = game.exact_payoffs if game.exact else game.payoffs
    payoffs = [[[json_number(u[0][i, j]), json_number(u[1][i, j])] for j in range(n)]
               for i in range(m)]
    return {"payoffs": payoffs, "row_names": game.strategies[0],
            "column_names": game.strategies[1]}


def qre_branch(game: Any) -> dict:
    """The logit quantal response branch (McKelvey and Palfrey) from lambda = 0, where
    everyone mixes uniformly, towards the Nash equilibrium it selects, sampled for a plot:
    each point's lambda and every player's mixed strategy."""
    import numpy as np

    from gamesearch.theory.qre import trace_branch

    scale = max(1.0, float(np.ptp(game.payoffs)))
    try:
        branch = trace_branch(game, QRE_LAMBDA / scale, max_steps=5_000)
    except (GameSearchError, ArithmeticError, np.linalg.LinAlgError) as err:
        return {"points": [], "notes": [f"the logit branch could not be traced: {err}"]}
    step = max(1, -(-len(branch) // QRE_POINTS))  # at most QRE_POINTS, and the last
    chosen = branch[::step] + ([branch[-1]] if (len(branch) - 1) % step else [])
    points = [{"lambda": round(float(p.lam) * scale, 6),
               "profile": [[round(float(x), 6) for x in mix] for mix in p.profile]}
              for p in chosen]
    return {"points": points, "scale": scale, "notes": []}


def analyze_nplayer(game: Any) -> dict:
    """A game of three or more players: its pure equilibria, one mixed equilibrium by
    simplicial subdivision with its maximum regret, and the logit branch."""
    import numpy as np

    from gamesearch.theory.logit_nash import max_regret
    from gamesearch.theory.pure import pure_equilibria
    from gamesearch.theory.simpdiv import simpdiv

    profiles = int(np.prod(game.shape))
    if profiles > MAX_PROFILES:
        raise GameSearchError(f"matrix lab: {profiles:,} pure profiles; at most "
                              f"{MAX_PROFILES:,} here (the command line solves larger games: "
                              "gamesearch nash FILE --method simpdiv)")
    names = game.strategies
    pure = [{"profile": [names[i][j] for i, j in enumerate(p)],
             "payoffs": [round(float(game.payoffs[i][p]), 6)
                         for i in range(game.num_players)]}
            for p in pure_equilibria(game)]
    out: dict[str, Any] = {"players": list(game.players), "strategies": names,
                           "shape": list(game.shape), "pure": pure, "notes": []}
    try:
        found = simpdiv(game)
        profile = found.equilibria[0]
        out["simpdiv"] = {
            "profile": [[round(float(x), 6) for x in mix] for mix in profile],
            "payoffs": [round(float(v), 6) for v in game.expected_payoffs(profile)],
            "regret": float(max_regret(game, profile))}
    except GameSearchError as err:
        out["notes"].append(f"simplicial subdivision: {err}")
    out["qre"] = qre_branch(game)
    return out
