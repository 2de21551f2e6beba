"""The game-tree lab's extensive-form side: a Gambit .efg file (or one typed on the page)
read, laid out as plain data for drawing (players, chance probabilities, payoffs,
information sets), and solved by the theory package: the sequence-form LCP (two players),
the agent logit QRE at a lambda (any number), or backward induction (perfect information).
Every answer carries each information set's behaviour and the players' regrets."""

from __future__ import annotations

from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.shipped import shipped

EXAMPLES = shipped("efg")
"""The lab's example files (the tests read the same ones)."""

MAX_DRAWN_NODES = 400
"""Nodes the page draws at most (the command line shows and solves larger trees)."""
METHODS = ("auto", "lcp", "qre", "spe")
"""auto: backward induction with perfect information, else the LCP for two players, else
the agent QRE."""
DEFAULT_LAMBDA = 100.0


def examples() -> list[dict[str, str]]:
    """The example trees: each file's title and text, in name order."""
    from gamesearch.theory.efg import read_efg

    out = []
    for path in sorted(EXAMPLES.glob("*.efg")):
        text = path.read_text()
        out.append({"name": read_efg(text, path.name).title or path.stem, "text": text})
    return out


def _number(value: Any) -> str:
    """Exact where the data are (fractions as p/q), else six significant digits."""
    from fractions import Fraction

    if isinstance(value, Fraction | int):
        return str(value)
    return f"{float(value):.6g}"


def efg_view(text: str, method: str = "auto", lam: float | None = None) -> dict:
    """The tree of ``text`` (.efg) as nodes and information sets, and its solution by
    ``method``; a bad file, method or size is a GameSearchError naming it."""
    from gamesearch.theory.efg import read_efg

    if method not in METHODS:
        raise GameSearchError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    game = read_efg(text, "typed.efg")
    if len(game.nodes) > MAX_DRAWN_NODES:
        raise GameSearchError(f"the tree has {len(game.nodes):,} nodes; the page draws at "
                              f"most {MAX_DRAWN_NODES} (gamesearch efg FILE shows and "
                              "solves larger ones)")
    nodes = []
    members: dict[str, list[int]] = {}
    for k, node in enumerate(game.nodes):
        item: dict[str, Any] = {"id": k, "kind": node.kind, "name": node.name}
        if node.kind == "t":
            item["payoffs"] = [_number(u) for u in node.payoffs]
        else:
            info = game.infosets[(node.player, node.infoset)]
            key = f"{node.player}:{node.infoset}"
            members.setdefault(key, []).append(k)
            item.update({"player": node.player, "mover": game.player_name(node.player),
                         "infoset": key, "label": game.infoset_label(node.player,
                                                                      node.infoset)})
            item["children"] = [{"to": c, "action": a,
                                 **({"prob": _number(p)} if node.kind == "c" else {})}
                                for c, a, p in zip(node.children, info.actions,
                                                   info.probs or [None] * len(info.actions))]
        nodes.append(item)
    shared = {key: ids for key, ids in members.items() if len(ids) > 1}
    return {"title": game.title, "players": list(game.players), "nodes": nodes,
            "infosets": shared, "solution": solve(game, method, lam)}


def solve(game: Any, method: str, lam: float | None) -> dict:
    """Each information set's behaviour ("player:number" -> action -> probability), the
    expected payoffs and each player's regret, by ``method``."""
    from gamesearch.theory.behaviour import behaviour_regret, expected_payoffs

    notes: list[str] = []
    if method == "auto":
        method = "spe" if game.perfect_information() else \
            "lcp" if game.num_players == 2 else "qre"
    if method == "lcp":
        from gamesearch.theory.sequence_lcp import solve_sequence_lcp

        if game.num_players != 2:
            raise GameSearchError(f"the sequence-form LCP takes two players; this tree has "
                                  f"{game.num_players} (use the agent QRE)")
        found = solve_sequence_lcp(game)
        profile = list(found.strategies)
        title = f"sequence-form LCP ({found.pivots} pivots, " \
                f"{'exact' if found.exact else 'floating point'})"
    elif method == "qre":
        from gamesearch.theory.agent_qre import trace_agent_branch

        lam = DEFAULT_LAMBDA if lam is None else lam
        if not 0 <= lam <= 1e6:
            raise GameSearchError("lambda is a number from 0 to 1,000,000")
        points, notes = trace_agent_branch(game, lam)
        profile = points[-1].profile
        title = f"agent logit QRE at lambda = {points[-1].lam:g}"
    else:
        from gamesearch.theory.backward_induction import backward_induction

        if not game.perfect_information():
            raise GameSearchError("backward induction needs perfect information; this tree "
                                  "has information sets of several nodes (use the LCP or "
                                  "the QRE)")
        spe = backward_induction(game)
        profile = [{} for _ in range(game.num_players)]
        for state, action in spe.strategy.items():
            node = game.nodes[state]
            acts = game.actions(state)
            profile[node.player][(node.player, node.infoset)] = {
                a: 1 if a == action else 0 for a in acts}
        title = "backward induction (subgame perfect)"
        if spe.ties:
            notes.append(f"{len(spe.ties)} ties broken by the first action")
    behaviour = {f"{p}:{key[1]}": {a: _number(v) for a, v in probs.items()}
                 for p, strategy in enumerate(profile) for key, probs in strategy.items()}
    try:
        regret = [_number(r) for r in behaviour_regret(game, profile)]
    except GameSearchError as err:
        regret, notes = [], notes + [str(err)]
    return {"method": title, "behaviour": behaviour, "notes": notes, "regret": regret,
            "payoffs": [_number(v) for v in expected_payoffs(game, profile)],
            "threats": threats(game, profile)}


TOLERANCE = 1e-6
"""A payoff lost by less than this is a tie (QRE profiles are never exactly pure)."""


def threats(game: Any, profile: list[dict]) -> list[dict]:
    """Where the profile is not subgame perfect: at the root of a subgame, its mover plays
    (with positive probability) an action worth less to it there than another action, given
    how everyone plays afterwards. Off the path of play this is a non-credible threat: a
    Nash equilibrium may rest on it, since it is never carried out. One entry per such node:
    its id, the mover, what it plays and gets, the better action and what that gets, and the
    probability that play reaches the node."""
    nodes = game.nodes
    below: list[set[int]] = [set() for _ in nodes]
    for k in range(len(nodes) - 1, -1, -1):  # pre-order: children come after their parent
        below[k] = {k}.union(*(below[c] for c in nodes[k].children))
    members: dict[tuple, set[int]] = {}
    for k, node in enumerate(nodes):
        if node.kind == "p":
            members.setdefault((node.player, node.infoset), set()).add(k)

    def probs(k: int) -> list[float]:
        node = nodes[k]
        info = game.infosets[(node.player, node.infoset)]
        if node.kind == "c":
            return [float(p) for p in info.probs]
        played = profile[node.player].get((node.player, node.infoset), {})
        return [float(played.get(a, 0)) for a in info.actions]

    value: dict[int, list[float]] = {}
    for k in range(len(nodes) - 1, -1, -1):
        node = nodes[k]
        if node.kind == "t":
            value[k] = [float(u) for u in node.payoffs]
        else:
            weights = probs(k)
            value[k] = [sum(w * value[c][i] for w, c in zip(weights, node.children))
                        for i in range(game.num_players)]
    reach = {0: 1.0}
    for k, node in enumerate(nodes):
        if node.kind != "t":
            for w, c in zip(probs(k), node.children):
                reach[c] = reach.get(k, 0.0) * w
    found = []
    for k, node in enumerate(nodes):
        if node.kind != "p" or members[(node.player, node.infoset)] != {k}:
            continue
        if any(not ids <= below[k] for key, ids in members.items() if ids & below[k]):
            continue  # an information set reaches out of this subtree: not a subgame
        actions = game.infosets[(node.player, node.infoset)].actions
        worth = [value[c][node.player] for c in node.children]
        best = max(range(len(actions)), key=lambda i: worth[i])
        gets = value[k][node.player]
        if gets < worth[best] - TOLERANCE:
            plays = [a for a, w in zip(actions, probs(k)) if w > TOLERANCE]
            found.append({"node": k, "player": game.player_name(node.player),
                          "label": game.infoset_label(node.player, node.infoset),
                          "plays": plays, "gets": _number(gets), "better": actions[best],
                          "could": _number(worth[best]), "reach": _number(reach.get(k, 0.0))})
    return found
