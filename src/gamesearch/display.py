"""Pictures for notebooks: a position, a search tree, a normal-form game, a search result.

A face, beside the command line and the web app: it finds a game's drawing through its
ENTRY (``GameEntry.svg``, written with gamesearch/drawing.py in the game's engine) and names
no game. Every answer is a ``str`` that Jupyter shows by itself (``_repr_svg_`` or
``_repr_html_``), as python-chess's ``chess.svg.board`` does::

    from gamesearch import display
    from gamesearch.games import load_game

    game = load_game("connect4")
    state = game.state_from_string("4453")
    display.svg(game, state, lastmove=2, arrows=[3])     # last move in column 3, arrow to 4
    display.search_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])   # alpha-beta, cut-offs marked
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gamesearch.drawing import Canvas, Html, Svg, TreeNode, html_table, number, tree_picture
from gamesearch.errors import GameSearchError
from gamesearch.result import SearchResult


def svg(game: Any, state: Any, lastmove: Any = None, arrows: Iterable[Any] = ()) -> Svg:
    """The position ``state`` of ``game`` as an SVG picture: ``lastmove`` (the action that
    led here) highlighted, one arrow per action in ``arrows`` (actions of this position,
    or their texts). A game without a drawing of its own is shown as its text picture."""
    from gamesearch.games import REGISTRY, entries

    entries()  # the catalog registers every entry
    entry = REGISTRY.get(getattr(game, "name", ""))
    draw = entry.svg if entry is not None else None
    if draw is None:
        return text_picture(game.render(state), title=repr(game))
    # an arrow's text is read by the game itself, so a wrong one is named by its rules
    moves = tuple(game.string_to_action(state, a) if isinstance(a, str) else a for a in arrows)
    try:
        return Svg(draw(game, state, lastmove, moves))
    except (ValueError, KeyError, IndexError, TypeError) as err:
        if lastmove is None:
            raise
        raise GameSearchError(f"{game.name}: cannot draw the last move {lastmove!r}: "
                              f"{err}") from None


def text_picture(text: str, title: str = "") -> Svg:
    """A text (a game's ``render``) as an SVG picture in a fixed-width font."""
    lines = text.splitlines() or [""]
    canvas = Canvas(16 + 8 * max(len(line) for line in lines), 16 + 16 * len(lines), title)
    for i, line in enumerate(lines):
        canvas.add("text", line, class_="line", x=8, y=20 + 16 * i, font_size=13,
                   font_family="monospace", style="white-space: pre")
    return canvas.svg()


def play_out(game: Any, moves: Iterable[Any], state: Any = None) -> tuple[Any, Any]:
    """The state after ``moves`` (actions or their texts) from ``state`` (the start by
    default) and the last action played (None for no move): what :func:`svg` wants."""
    state = game.initial_state() if state is None else state
    last = None
    for move in moves:
        last = game.string_to_action(state, move) if isinstance(move, str) else move
        state = game.result(state, last)
    return state, last


# --- search trees ----------------------------------------------------------------------------

def search_tree(tree: Any, algorithm: str = "alphabeta", depth: int | None = None) -> Svg:
    """An explicit tree searched by a textbook algorithm (minimax, alphabeta, expectimax,
    expectiminimax), drawn as the web's tree lab draws it after the last step: each node's
    value and visiting order, alpha and beta as a node was left, the cut-off subtrees grey
    and dashed (class ``pruned``), the principal variation bold.

    ``tree``: a ``TreeGame``, or a tree in games/tree.py's list or object form (or its
    JSON text), e.g. ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``."""
    from gamesearch.web.treelab import run_tree

    if hasattr(tree, "to_data"):
        tree = tree.to_data()
    elif isinstance(tree, str):
        try:
            tree = json.loads(tree)
        except ValueError as err:
            raise GameSearchError(f"tree: not JSON: {err}") from None
    run = run_tree(tree, algorithm, depth)
    info: dict[int, dict[str, Any]] = {n["id"]: {} for n in run["nodes"]}
    children = {n["id"]: n["children"] for n in run["nodes"]}

    def prune(i: int) -> None:
        info[i]["pruned"] = True
        for k in children[i]:
            prune(k)

    order = 0
    for step in run["steps"]:
        node = info[step["node"]]
        if step["type"] in ("enter", "leaf") and "order" not in node:
            order += 1
            node["order"] = order
        if step["type"] in ("exit", "leaf"):
            node["value"] = step.get("value")
            if "alpha" in step:
                node["bounds"] = f"α {_bound(step['alpha'])} β {_bound(step['beta'])}"
        if step["type"] == "prune":
            for k in step["pruned"]:
                prune(k)
    pv = set(run["pv"])
    nodes = []
    for n in run["nodes"]:
        i = info[n["id"]]
        value = i.get("value", n.get("value"))
        marks = tuple(m for m, on in (("pruned", i.get("pruned")), ("pv", n["id"] in pv),
                                      ("visited", "order" in i)) if on)
        nodes.append(TreeNode(_kind(n["player"]), list(n["children"]), n["name"],
                              "" if value is None else _bound(value), n.get("label", ""),
                              marks, i.get("bounds", "") if n["children"] else "",
                              i.get("order")))
    leaves = [n for n in run["nodes"] if not n["children"]]
    cut = sum(1 for n in leaves if info[n["id"]].get("pruned"))
    caption = (f"{algorithm}: value {_bound(run['value'])}, {len(leaves) - cut} of "
               f"{len(leaves)} leaves evaluated" + (f", {cut} pruned" if cut else ""))
    return tree_picture(nodes, title=caption, caption=caption)


def _kind(player: Any) -> str:
    if player in ("leaf", "max", "chance"):
        return str(player)
    return "max" if player == 0 else "min"


def _bound(value: Any) -> str:
    if value == "inf":
        return "∞"
    if value == "-inf":
        return "-∞"
    if isinstance(value, list):
        return number(tuple(value))
    return number(value)


# --- normal-form games ------------------------------------------------------------------------

def normal_form(game: Any, method: str = "support") -> Html:
    """A two-player normal-form game (``theory.NormalFormGame``) as its payoff table, each
    cell ``row payoff, column payoff`` and the pure equilibria marked; then its equilibria
    found by ``method`` (``theory.nash``: support enumeration by default), mixed ones with
    their probabilities and every player's expected payoff."""
    from gamesearch.theory import nash, pure_equilibria

    if game.num_players != 2:
        raise GameSearchError(f"normal_form draws two-player games; this one has "
                              f"{game.num_players} players")
    source = game.exact_payoffs if game.exact else game.payoffs
    pure = pure_equilibria(game)
    rows = [[name] + [f"{number(_plain(source[0][r][c]))}, {number(_plain(source[1][r][c]))}"
                      for c in range(game.shape[1])]
            for r, name in enumerate(game.strategies[0])]
    table = html_table(rows, [f"{game.players[0]} \\ {game.players[1]}", *game.strategies[1]],
                       caption=game.title or "", marked=[(r, c + 1) for r, c in pure])
    found = nash(game, method)
    items = []
    for profile, payoff in zip(found.equilibria, found.payoffs(game)):
        mixes = "; ".join(f"{player}: {_mix(names, mix)}" for player, names, mix
                          in zip(game.players, game.strategies, profile))
        pays = ", ".join(number(_plain(v)) for v in payoff)
        kind = "pure" if all(sum(1 for p in mix if p) == 1 for mix in profile) else "mixed"
        items.append(f"<li>{_escape(kind)}: {_escape(mixes)} &rarr; payoffs ({_escape(pays)})"
                     "</li>")
    pure_text = ", ".join(game.profile_name(p) for p in pure) or "none"
    return Html(f'<div class="gamesearch normal-form">{table}'
                f"<p>Pure equilibria (marked): {_escape(pure_text)}</p>"
                f"<p>Nash equilibria ({_escape(found.method)}):</p><ul>{''.join(items)}</ul>"
                "</div>")


def _mix(names: list[str], mix: Any) -> str:
    """A mixed strategy in words: ``U 1/3, D 2/3``; a pure one as its name alone."""
    played = [(name, p) for name, p in zip(names, mix) if p]
    if len(played) == 1:
        return played[0][0]
    return ", ".join(f"{name} {number(_plain(p))}" for name, p in played)


def _plain(x: Any) -> Any:
    """numpy and Fraction numbers as Python numbers a picture writes (fractions as p/q)."""
    from fractions import Fraction

    if isinstance(x, Fraction):
        return x if x.denominator != 1 else int(x)
    try:
        return float(x)
    except (TypeError, ValueError):
        return x


def _escape(text: str) -> str:
    import html

    return html.escape(text)


# --- search results ---------------------------------------------------------------------------

def result(answer: SearchResult, game: Any = None, state: Any = None) -> Html:
    """A search result as a small table, its actions in the game's notation when ``game``
    and the root ``state`` are given (``SearchResult._repr_html_`` shows them raw)."""
    return Html(answer.html(game, state))


__all__ = ["normal_form", "play_out", "result", "search_tree", "svg", "text_picture"]
