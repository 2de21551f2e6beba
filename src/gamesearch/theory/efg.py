"""Gambit's extensive-form file format (.efg): read a tree into a game of the protocol, and
write any game of the protocol (with its information sets) as .efg.

The format (Gambit manual, "The extensive game (.efg) file format"): a header
``EFG 2 R "title" { "Player 1" "Player 2" }``, an optional comment string, then the nodes
in preorder, one per line:

    p "name" player infoset ["infoset name" { "action" ... }] outcome ["name" { payoffs }]
    c "name" infoset ["infoset name" { "action" probability ... }] outcome [...]
    t "name" outcome ["outcome name" { payoffs }]

A node has one child per action of its information set. The bracketed parts may be left
out where the information set or outcome was given before. Outcome 0 is none; payoffs of
outcomes met on the way down add up. Chance probabilities are exact fractions when written
as integers or ``p/q``. Read games implement ``information_set`` and ``chance_outcomes``,
so the sequence-form solvers, backward induction and the normal-form conversion take them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.textinput import read_text
from gamesearch.theory.formats import _quoted, _Reader, _tokens

MAX_NODES = 1_000_000
"""Trees with more nodes than this are refused (reading and writing)."""


@dataclass
class EfgNode:
    """One node: its kind ('p', 'c' or 't'), mover, information set and children."""

    kind: str
    name: str
    player: int = CHANCE
    infoset: int = 0
    children: list[int] = field(default_factory=list)
    payoffs: tuple = ()
    line: int = 0


@dataclass
class EfgInfoset:
    """An information set: its actions (and chance probabilities) and where it was defined."""

    name: str
    actions: list[str]
    probs: list[Any]
    line: int


class EfgGame(Game):
    """A game read from .efg: states are node indices, the root is 0."""

    zero_sum = False

    def __init__(self, title: str, players: list[str], nodes: list[EfgNode],
                 infosets: dict[tuple[int, int], EfgInfoset]) -> None:
        self.name = title or "efg"
        self.title = title
        self.players = players
        self.num_players = len(players)
        self.nodes = nodes
        self.infosets = infosets
        self.zero_sum = self.num_players == 2 and all(
            sum(n.payoffs) == 0 for n in nodes if n.kind == "t")

    def initial_state(self) -> State:
        return 0

    def to_move(self, state: State) -> int:
        return self.nodes[state].player

    def actions(self, state: State) -> list[str]:
        node = self.nodes[state]
        return self.infosets[(node.player, node.infoset)].actions

    def result(self, state: State, action: Any) -> State:
        node = self.nodes[state]
        return node.children[self.actions(state).index(action)]

    def is_terminal(self, state: State) -> bool:
        return self.nodes[state].kind == "t"

    def utilities(self, state: State) -> tuple:
        return self.nodes[state].payoffs

    def chance_outcomes(self, state: State) -> list[tuple[str, Any]]:
        info = self.infosets[(CHANCE, self.nodes[state].infoset)]
        return list(zip(info.actions, info.probs))

    def information_set(self, state: State, player: int) -> tuple[int, int]:
        """(player, information set number) of the node."""
        node = self.nodes[state]
        return (node.player, node.infoset)

    def player_name(self, player: int) -> str:
        return "chance" if player == CHANCE else self.players[player]

    def node_name(self, state: State) -> str:
        """A node's name from the file, or its preorder number."""
        return self.nodes[state].name or f"node {state}"

    def perfect_information(self) -> bool:
        """True when every information set of a player holds a single node."""
        seen = set()
        for node in self.nodes:
            if node.kind == "p":
                if (node.player, node.infoset) in seen:
                    return False
                seen.add((node.player, node.infoset))
        return True

    def infoset_label(self, player: int, number: int) -> str:
        """How an information set is shown: its name, or its number."""
        info = self.infosets[(player, number)]
        return info.name or f"{self.player_name(player)} #{number}"


def _outcome(r: _Reader, n: int, outcomes: dict[int, tuple], where: str) -> tuple:
    """The payoffs of the outcome at the reader (defined here or before; 0 is none)."""
    number = r.number("the outcome number")
    if not isinstance(number, int) or number < 0:
        raise FileFormatError(f"{where}: outcome {number} is not a number 0, 1, 2, ...")
    if r.peek() == "string":
        r.take("string", "the outcome's name")
        r.take("{", "'{' before the outcome's payoffs")
        pay = []
        while r.peek() == "word":
            pay.append(r.number("a payoff"))
        r.take("}", "'}' after the payoffs")
        if len(pay) != n:
            raise FileFormatError(f"{where}: outcome {number} has {len(pay)} payoffs for "
                                  f"{n} players")
        if number == 0:
            raise FileFormatError(f"{where}: outcome 0 means no outcome; it has no payoffs")
        outcomes.setdefault(number, tuple(pay))
    if number == 0:
        return (0,) * n
    if number not in outcomes:
        raise FileFormatError(f"{where}: outcome {number} is used before its payoffs are "
                              "given")
    return outcomes[number]


def _infoset(r: _Reader, key: tuple[int, int], chance: bool,
             infosets: dict[tuple[int, int], EfgInfoset], where: str, line: int) -> None:
    """Read an information set's optional name and actions; check they match earlier ones."""
    who = "chance" if key[0] == CHANCE else f"player {key[0] + 1}"
    if r.peek() != "string":
        if key not in infosets:
            raise FileFormatError(f"{where}: information set {key[1]} of {who} is used "
                                  "before its actions are given")
        return
    name = r.take("string", "the information set's name")
    r.take("{", "'{' before the actions")
    actions, probs = [], []
    while r.peek() == "string":
        actions.append(r.take("string", "an action name"))
        if chance:
            p = r.number("a chance probability")
            if p < 0:
                raise FileFormatError(f"{where}: chance action {actions[-1]!r} has negative "
                                      f"probability {p}")
            probs.append(p)
    r.take("}", "'}' after the actions")
    if not actions:
        raise FileFormatError(f"{where}: information set {key[1]} of {who} has no actions")
    if len(set(actions)) != len(actions):
        actions = [a if actions.count(a) == 1 and a else f"{a}#{k + 1}"
                   for k, a in enumerate(actions)]
    if chance:
        total = sum(probs)
        if (total != 1) if all(isinstance(p, (int, Fraction)) for p in probs) else \
                abs(float(total) - 1) > 1e-9:
            raise FileFormatError(f"{where}: chance probabilities sum to {total}, not 1")
    old = infosets.get(key)
    if old is None:
        infosets[key] = EfgInfoset(name, actions, probs, line)
    elif old.actions != actions or old.probs != probs:
        raise FileFormatError(f"{where}: information set {key[1]} of {who} has actions "
                              f"{actions} here but {old.actions} at line {old.line}")


def read_efg(text: str, source: str = "game.efg") -> EfgGame:
    """A game from Gambit .efg text; bad input is one FileFormatError naming the line."""
    r = _Reader(_tokens(text, source), source)
    if r.take("word", "the header 'EFG'") != "EFG":
        raise FileFormatError(f"{source}: line 1: a .efg file starts with 'EFG 2 R'")
    if r.take("word", "the version number 2") != "2":
        raise FileFormatError(f"{r.where()}: only version 2 of .efg is supported")
    r.take("word", "the letter R or D")
    title = r.take("string", "the game's title in quotes")
    r.take("{", "'{' before the player names")
    players = []
    while r.peek() == "string":
        players.append(r.take("string", "a player name"))
    r.take("}", "'}' after the player names")
    if not players:
        raise FileFormatError(f"{r.where()}: the game has no players")
    if r.peek() == "string":
        r.take("string", "the comment")
    n = len(players)
    nodes: list[EfgNode] = []
    infosets: dict[tuple[int, int], EfgInfoset] = {}
    outcomes: dict[int, tuple] = {}
    open_nodes: list[list[int]] = []  # [node, children still to come]
    inherited: list[tuple] = []  # payoffs accumulated down to each open node
    while True:
        if len(nodes) >= MAX_NODES:
            raise FileFormatError(f"{source}: more than {MAX_NODES:,} nodes")
        if r.peek() is None:
            raise FileFormatError(f"{source}: the file ends before the tree is complete"
                                  if nodes or open_nodes else f"{source}: the tree is empty")
        where = r.where()
        line = r.tokens[r.pos][2]
        kind = r.take("word", "a node: p, c or t")
        if kind not in ("p", "c", "t"):
            raise FileFormatError(f"{where}: {kind!r} is not a node kind (p, c or t)")
        node = EfgNode(kind, r.take("string", "the node's name in quotes"), line=line)
        if kind == "p":
            player = r.number("the player number")
            if not isinstance(player, int) or not 1 <= player <= n:
                raise FileFormatError(f"{where}: player {player} is not one of 1..{n}")
            node.player = player - 1
        if kind in ("p", "c"):
            number = r.number("the information set number")
            if not isinstance(number, int) or number < 1:
                raise FileFormatError(f"{where}: information set {number} is not 1, 2, ...")
            node.infoset = number
            _infoset(r, (node.player, number), kind == "c", infosets, where, line)
        base = inherited[-1] if inherited else (0,) * n
        pay = _outcome(r, n, outcomes, where)
        node.payoffs = tuple(a + b for a, b in zip(base, pay))
        index = len(nodes)
        nodes.append(node)
        if open_nodes:
            nodes[open_nodes[-1][0]].children.append(index)
            open_nodes[-1][1] -= 1
        if kind != "t":
            open_nodes.append([index, len(infosets[(node.player, node.infoset)].actions)])
            inherited.append(node.payoffs)
        while open_nodes and open_nodes[-1][1] == 0:
            open_nodes.pop()
            inherited.pop()
        if not open_nodes:
            break
    if r.peek() is not None:
        raise FileFormatError(f"{r.where()}: text after the end of the tree")
    return EfgGame(title, players, nodes, infosets)


def load_efg(path: str) -> EfgGame:
    """Read a .efg file (size-limited, UTF-8)."""
    return read_efg(read_text(path, "game file"), str(path))


def _number(value: Any) -> str:
    """A payoff or probability as .efg text: integers and fractions exact."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    value = float(value)
    close = Fraction(value).limit_denominator(10_000)
    if abs(float(close) - value) < 1e-12:
        return str(close)
    return repr(value)


def write_efg(game: Game, state: State | None = None, title: str | None = None) -> str:
    """The game tree from ``state`` as .efg text. Information sets come from the game's
    ``information_set`` (each decision node its own set when it has none)."""
    info_of = getattr(game, "information_set", None)
    state = game.initial_state() if state is None else state
    n = game.num_players
    players = " ".join(_quoted(game.player_name(i)) for i in range(n))
    lines = [f"EFG 2 R {_quoted(title if title is not None else game.name)} {{ {players} }}",
             '""', ""]
    numbers: dict[tuple, int] = {}
    counts = [0] * (n + 1)  # chance last
    outcomes = [0]
    stack = [state]
    while stack:
        if len(lines) > MAX_NODES:
            raise GameSearchError(f"{game.name}: more than {MAX_NODES:,} nodes to write")
        s = stack.pop()
        if game.is_terminal(s):
            outcomes[0] += 1
            pay = ", ".join(_number(u) for u in game.utilities(s))
            lines.append(f't "" {outcomes[0]} "" {{ {pay} }}')
            continue
        mover = game.to_move(s)
        acts = list(game.actions(s))
        if mover == CHANCE:
            chance = game.chance_outcomes(s)
            acts = [a for a, _ in chance]
            counts[n] += 1
            body = " ".join(f"{_quoted(game.action_to_string(s, a))} {_number(p)}"
                            for a, p in chance)
            lines.append(f'c "" {counts[n]} "" {{ {body} }} 0')
        else:
            key = (mover, info_of(s, mover)) if info_of is not None else (mover, ("node", s))
            names = [game.action_to_string(s, a) for a in acts]
            if key not in numbers:
                counts[mover] += 1
                numbers[key] = counts[mover]
                label = _quoted(str(key[1])) if info_of is not None else '""'
                body = " ".join(_quoted(a) for a in names)
                lines.append(f'p "" {mover + 1} {numbers[key]} {label} {{ {body} }} 0')
            else:
                lines.append(f'p "" {mover + 1} {numbers[key]} 0')
        for a in reversed(acts):
            stack.append(game.result(s, a))
    return "\n".join(lines) + "\n"
