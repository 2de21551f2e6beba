"""TD-Gammon and pubeval: learned and published evaluations for backgammon, and their agents.

Boards are the compiled kernel's (``gamesearch.games.backgammon_kernel``): a row of 52
integers after a play, seen by the player who just moved (``row[p]`` its checkers on its
point p, ``row[0]`` borne off, ``row[25]`` on the bar; ``row[26 + p]`` the opponent's, in
the same numbering). Every evaluation here scores such rows for the player who just moved.

* :func:`encode`: Tesauro's input encoding (TD-Gammon 1992): per side and point four units
  (at least 1, 2, 3 checkers; (n - 3) / 2 beyond), the bar / 2 and the checkers off / 15:
  196 inputs. Tesauro's two "whose turn" units are dropped because the board is always
  seen by the player who just moved. The richer "features" encoding adds four expert
  inputs (pip counts, the chance of being hit, race): 200 inputs. A network's input width
  says which encoding it was trained with (:func:`uses_features`).
* :func:`pubeval_scores`: Tesauro's pubeval (1993), the linear yardstick of TD-Gammon
  replications, with its published weights (``data/backgammon/pubeval.json``, source there).
* :class:`Chooser` players pick a row: :class:`NetChooser` at 0-ply or depth 2
  (expectiminimax over the 21 rolls and the opponent's best reply),
  :class:`PubevalChooser`, :class:`GammonChooser` (the hand-written evaluation at 0-ply).
* :func:`play_game` plays one game on kernel boards; :class:`MatchGame` is its picklable
  form for :func:`gamesearch.learn.selfplay.play_games`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from gamesearch.agents import Agent
from gamesearch.errors import GameSearchError
from gamesearch.learn.network import ValueNetwork
from gamesearch.result import Clock, SearchResult, SearchStats
from gamesearch.shipped import shipped

INPUTS = 196
FEATURES_INPUTS = 200  # Tesauro's 196 and four expert features
ENCODINGS = {"tesauro": INPUTS, "features": FEATURES_INPUTS}
ROLLS = np.array([[a, b] for a in range(6, 0, -1) for b in range(a, 0, -1)], dtype=np.int64)
PROBS = np.array([1 / 36 if a == b else 1 / 18 for a, b in ROLLS])
DATA = shipped("backgammon")
SHIPPED_WEIGHTS = DATA / "td_gammon.npz"
CHECKPOINT_KIND = "td-gammon checkpoint"


def _kernel():
    from gamesearch.games import backgammon_kernel

    return backgammon_kernel


def _td_kernel():
    from gamesearch.engines.backgammon import td_kernel as backgammon_td_kernel

    return backgammon_td_kernel


def uses_features(net: ValueNetwork) -> bool:
    """Whether ``net`` reads the richer encoding (200 inputs) rather than Tesauro's (196)."""
    return net.inputs == FEATURES_INPUTS


def _weights(net: ValueNetwork) -> tuple[np.ndarray, ...]:
    """The parameters as the compiled kernel takes them: the first layer transposed (a
    contiguous copy), ``b2`` as a view of shape (1,)."""
    w1, b1, w2, b2 = net.params
    return np.ascontiguousarray(w1.T), b1, w2, b2.reshape(1)


def start_board() -> tuple[np.ndarray, np.ndarray]:
    """The opening position seen by either player (the same by symmetry)."""
    my = np.zeros(26, dtype=np.int64)
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        my[point] = n
    opp = np.zeros(26, dtype=np.int64)
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        opp[25 - point] = n
    return my, opp


def encode(rows: np.ndarray, features: bool = False) -> np.ndarray:
    """Tesauro's encoding of rows (n, 52) seen by the player who just moved: (n, 196); with
    ``features``, four expert inputs after them: (n, 200)."""
    rows = np.asarray(rows)
    out = np.empty((rows.shape[0], FEATURES_INPUTS if features else INPUTS))
    for side, base in ((0, 0), (1, 98)):
        n = rows[:, 26 * side + 1: 26 * side + 25].astype(float)
        units = out[:, base: base + 96].reshape(-1, 24, 4)
        units[:, :, 0] = n >= 1
        units[:, :, 1] = n >= 2
        units[:, :, 2] = n >= 3
        units[:, :, 3] = np.maximum(n - 3.0, 0.0) / 2.0
        out[:, base + 96] = rows[:, 26 * side + 25] / 2.0
        out[:, base + 97] = rows[:, 26 * side] / 15.0
    if features:
        points = np.arange(1, 25)
        out[:, 196] = (rows[:, 1:25] @ points + 25 * rows[:, 25]) / 100.0
        out[:, 197] = (rows[:, 27:51] @ (25 - points) + 25 * rows[:, 51]) / 100.0
        hit_chance = _td_kernel().hit_chance
        out[:, 198] = [hit_chance(row) for row in rows]
        out[:, 199] = [is_race(row[:26], row[26:]) for row in rows]
    return out


@lru_cache(maxsize=1)
def pubeval_weights() -> tuple[np.ndarray, np.ndarray]:
    """pubeval's (race, contact) weight vectors of 122 entries each."""
    doc = json.loads((DATA / "pubeval.json").read_text())
    return np.array(doc["race"]), np.array(doc["contact"])


def is_race(my: np.ndarray, opp: np.ndarray) -> bool:
    """No contact left: every checker of the mover is past every checker of the opponent
    (mover moves 24 -> 1, the opponent 1 -> 24; bars count as 25 and 0)."""
    mine = [p for p in range(1, 26) if my[p]]
    theirs = [p for p in range(1, 25) if opp[p]] + ([0] if opp[25] else [])
    return not mine or not theirs or max(mine) < min(theirs)


def pubeval_inputs(rows: np.ndarray) -> np.ndarray:
    """pubeval's 122 inputs of rows (n, 52): five per point from the mover's 24 down to 1
    (opponent blot; own blot; own >= 2; own exactly 3; (own - 3) / 2 from 4 on), then the
    opponent's bar / 2 and the mover's checkers off / 15."""
    rows = np.asarray(rows)
    board = (rows[:, 1:25] - rows[:, 27:51])[:, ::-1].astype(float)  # points 24..1
    x = np.zeros((rows.shape[0], 122))
    units = x[:, :120].reshape(-1, 24, 5)
    units[:, :, 0] = board == -1
    units[:, :, 1] = board == 1
    units[:, :, 2] = board >= 2
    units[:, :, 3] = board == 3
    units[:, :, 4] = np.where(board >= 4, (board - 3.0) / 2.0, 0.0)
    x[:, 120] = rows[:, 51] / 2.0
    x[:, 121] = rows[:, 0] / 15.0
    return x


def pubeval_scores(rows: np.ndarray, race: bool) -> np.ndarray:
    """pubeval's score of each row (higher is better for the player who just moved); a
    row with all fifteen checkers off scores highest, as in Tesauro's code."""
    weights = pubeval_weights()[0 if race else 1]
    scores = pubeval_inputs(rows) @ weights
    return np.where(np.asarray(rows)[:, 0] == 15, 99999999.0, scores)


class Chooser:
    """Picks one of ``n`` candidate rows (the plays of one roll) for the mover."""

    name = "chooser"

    def choose(self, rows: np.ndarray, my: np.ndarray, opp: np.ndarray) -> int:
        raise NotImplementedError


class PubevalChooser(Chooser):
    """Tesauro's pubeval: the highest linear score (race or contact weights by the position
    before the play)."""

    name = "pubeval"

    def choose(self, rows, my, opp) -> int:
        return int(np.argmax(pubeval_scores(rows, is_race(my, opp))))


class GammonChooser(Chooser):
    """Our hand-written evaluation (the ``gammon`` agent's) at 0-ply."""

    name = "gammon-0ply"

    def choose(self, rows, my, opp) -> int:
        kernel = _kernel()
        best, chosen = -2.0, 0
        for i in range(rows.shape[0]):
            if rows[i, 0] == 15:
                return i
            v = kernel.evaluate(rows[i, :26], rows[i, 26:], kernel._W)
            if v > best:
                best, chosen = v, i
        return chosen


def net_values(net: ValueNetwork, rows: np.ndarray) -> np.ndarray:
    """P(the player who just moved wins) for each row; 1 where it has borne off all.
    (Compiled; ``net.values(encode(rows, uses_features(net)))`` is the same in numpy.)"""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty(rows.shape[0])
    _td_kernel().row_values(*_weights(net), rows, rows.shape[0], uses_features(net), out)
    return out


def mirror(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The board after ``row``'s play seen by the next mover."""
    my = np.empty(26, dtype=np.int64)
    opp = np.empty(26, dtype=np.int64)
    _kernel()._mirror(row, my, opp)
    return my, opp


def depth2_values(net: ValueNetwork, rows: np.ndarray, work: np.ndarray,
                  dies: np.ndarray) -> np.ndarray:
    """Expectiminimax at depth 2 for each candidate row: the average over the opponent's 21
    rolls of ``1 - (the opponent's best 0-ply value)`` (TD-Gammon's "2-ply" search),
    compiled; tests/test_td_gammon.py checks it against the readable Star2 search."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty(rows.shape[0])
    _td_kernel().depth2_values(*_weights(net), rows, rows.shape[0], uses_features(net), out,
                               work, dies)
    return out


class NetChooser(Chooser):
    """The TD network's choice: the highest P(win) at 0-ply, or at ``depth`` 2."""

    def __init__(self, net: ValueNetwork, depth: int = 0) -> None:
        if depth not in (0, 2):
            raise GameSearchError(f"td-gammon searches depth 0 or 2, got {depth}")
        self.net, self.depth = net, depth
        self.name = f"td-gammon-{depth}ply"
        self._work = np.empty((_kernel().MAX_PLAYS, 52), dtype=np.int64)
        self._dies = np.empty(_kernel().MAX_PLAYS, dtype=np.int64)

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The value of each candidate row for the mover (a probability of winning)."""
        if self.depth == 0:
            return net_values(self.net, rows)
        return depth2_values(self.net, rows, self._work, self._dies)

    def choose(self, rows, my, opp) -> int:
        return int(np.argmax(self.values(rows)))


def win_points(row: np.ndarray) -> int:
    """Points won by the player who just bore off its last checker with ``row``: 1, a
    gammon 2 (the loser bore off none), a backgammon 3 (and a checker on the bar or in the
    winner's home board)."""
    if row[26] > 0:
        return 1
    if row[51] > 0 or row[27:33].any():
        return 3
    return 2


def play_game(players: tuple[Chooser, Chooser], rng: np.random.Generator,
              work: np.ndarray, dies: np.ndarray) -> tuple[int, int]:
    """One game between two choosers; returns (winner seat, points). The opening roll is
    two different dice, the higher one's owner moving first."""
    generate = _kernel().generate
    my, opp = start_board()
    while True:
        d1, d2 = rng.integers(1, 7, size=2)
        if d1 != d2:
            break
    mover = 0 if d1 > d2 else 1
    for _ in range(10_000):
        n = generate(my, opp, max(d1, d2), min(d1, d2), work, dies)
        i = players[mover].choose(work[:n], my, opp)
        row = work[i]
        if row[0] == 15:
            return mover, win_points(row)
        my, opp = mirror(row)
        mover = 1 - mover
        d1, d2 = rng.integers(1, 7, size=2)
    raise GameSearchError("a backgammon game did not end in 10,000 plays")


class MatchGame:
    """``MatchGame(a, b)(seed)``: one seeded game, seats swapped on odd seeds; returns
    (points for ``a``: +w or -w). Picklable, for :func:`play_games` with any ``map``."""

    def __init__(self, a: Chooser, b: Chooser, seed: int = 0) -> None:
        self.a, self.b, self.seed = a, b, seed

    def __call__(self, index: int) -> int:
        kernel = _kernel()
        work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
        dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
        rng = np.random.default_rng([self.seed, index])
        swapped = index % 2 == 1
        players = (self.b, self.a) if swapped else (self.a, self.b)
        winner, points = play_game(players, rng, work, dies)
        a_won = (winner == 1) if swapped else (winner == 0)
        return points if a_won else -points


def load_network(path: str | Path | None = None) -> ValueNetwork:
    """The TD-Gammon network: from a training checkpoint or weights file, or the shipped
    weights when ``path`` is None."""
    from gamesearch.learn.checkpoint import load_checkpoint

    path = Path(path) if path is not None else SHIPPED_WEIGHTS
    if path == SHIPPED_WEIGHTS and not path.exists():
        raise GameSearchError("no TD-Gammon weights are shipped in this install; train some "
                              "with `gamesearch train td backgammon` and pass weights=FILE")
    arrays, _ = load_checkpoint(path, CHECKPOINT_KIND)
    net = ValueNetwork.from_arrays(arrays)
    if net.inputs not in (INPUTS, FEATURES_INPUTS):
        raise GameSearchError(f"{str(path)!r}: a network of {net.inputs} inputs, TD-Gammon "
                              f"needs {INPUTS} (Tesauro's encoding) or {FEATURES_INPUTS} "
                              "(with the expert features)")
    return net


class ChooserAgent(Agent):
    """A backgammon agent from a :class:`Chooser`: the play whose row it picks."""

    def __init__(self, chooser: Chooser, spec: str) -> None:
        self.chooser, self.spec = chooser, spec

    def __call__(self, game, state) -> SearchResult:
        kernel = _kernel()
        clock = Clock(None)
        if state.dice is None:
            raise GameSearchError("backgammon: roll the dice before moving")
        my, opp = kernel.arrays(state)
        work = np.empty((kernel.MAX_PLAYS, 52), dtype=np.int64)
        dies = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
        d1, d2 = max(state.dice), min(state.dice)
        n = kernel.generate(my, opp, d1, d2, work, dies)
        best = self.chooser.choose(work[:n], my, opp)
        target = (tuple(int(v) for v in work[best, :26]),
                  tuple(int(v) for v in work[best, 26:51]))
        for play, position in game.plays(state):
            if position[0] == target[0] and position[1][:25] == target[1]:
                stats = SearchStats(nodes=n, seconds=clock.elapsed())
                return SearchResult(None, play, [play], stats)
        raise GameSearchError("td-gammon: the chosen play is not among the legal plays")


def pubeval_agent() -> Agent:
    """Tesauro's pubeval, 0-ply."""
    return ChooserAgent(PubevalChooser(), "pubeval")


def td_gammon_agent(depth: int = 0, weights: str | None = None) -> Agent:
    """The TD-Gammon network at 0-ply or depth 2 (shipped weights, or ``weights=FILE``)."""
    return ChooserAgent(NetChooser(load_network(weights), depth), "td-gammon")
