"""The Go player (``go-mcts`` agents): Monte Carlo tree search with RAVE, compiled.

Each simulation copies the root board (games/go/kernel.py), walks down the tree choosing
children by UCT blended with RAVE (all-moves-as-first: a move's value over every
simulation in which the side to move played that point later on, Gelly and Silver 2007),
expands a leaf on its second visit (every legal point that is not the mover's own eye,
and the pass), plays out at random without filling eyes, and scores by area with komi.
Play-outs answer the last move (captures, saves), then play MoGo's 3x3 patterns next to
it (games/go/patterns.py) before a random move, and never self-atari a chain of two or
more stones (MoGo's and Fuego's first play-out rules; ``selfatari=false`` and
``patterns=false`` turn them off, for comparison; the patterns are on by default since
2026-11-26: against GNU Go level 10 they raised the score from 17.5% to 31.5%, 100 games
each).
The blend is ``(1 - beta) * Q + beta * AMAF`` with ``beta = sqrt(k / (3 n + k))``
(``k = rave``): early on the AMAF value guides, later the child's own. An unvisited child
is worth its AMAF value plus ``fpu``: with 0 (the default) the AMAF value alone decides, as
in MoGo and Fuego; with 1 every child is tried once before any is tried twice (the default
until 2026-11-26: against GNU Go level 1 it scored 6% where 0 scored 14%). The
move played is the most visited child that the rules allow (positional superko, which the
tree ignores).
A new child's AMAF statistics start from Go knowledge (``prior=N``, 20 by default; 0: none),
Gelly and Silver's prior knowledge as MoGo and Fuego used it: a capture counts as 2N won
simulations, the save of a chain in atari as N won, a 3x3 pattern as 0.8 N won of N, a
self-atari of two or more stones as N lost, a first-line move far from every stone as
0.1 N won of N (games/go/kernel.py, ``prior``); real AMAF counts soon outweigh it.
The tree is kept between moves (``reuse``, on by default): when the next position is our
move followed by a reply the tree holds, that grandchild's subtree becomes the new root,
with its visits and AMAF statistics (``stats.extra["reused"]``: the simulations kept).

A learned prior and a value function (AlphaGo-style) are what ``learn/puct.py``'s PUCT
takes, for Go as for any game (docs/GO.md); this compiled player uses neither.
"""

from __future__ import annotations

import math
import time as clock
from typing import Any

import numpy as np

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError
from gamesearch.games.go import kernel as K
from gamesearch.games.go import patterns as go_patterns
from gamesearch.kernels.specialize import compile_in_place
from gamesearch.result import SearchResult, SearchStats

BATCH = 256
"""Simulations per compiled call: the clock is read between calls."""
FIRST_BATCH = 32
"""Simulations of a timed search's first call: its first answer (reported to
``on_progress``) comes after these, so that a caller with a deadline holds a searched
move within milliseconds even on a starved machine."""
PROGRESS_SECONDS = 0.25
"""How often a search reports its best answer so far to ``on_progress`` (the web's live
view): the win rate, the simulations and the principal line."""
PV_PLIES = 10
"""The principal line's length at most: the most visited child, ply after ply."""
PASS = -1


def _expand(B, node, tree, stats, n_nodes, prior):
    """Give ``node`` its children, each child's AMAF statistics starting from the
    kernel's ``prior`` knowledge worth ``prior`` simulations a unit; returns the new node
    count (unchanged when full)."""
    move, first_child, n_children, to_move = tree[0], tree[1], tree[2], tree[3]
    colour = B[9][K.TO_MOVE]
    count = B[9][K.N_EMPTY]
    if n_nodes + count + 1 > move.shape[0]:
        return n_nodes
    first_child[node] = n_nodes
    k = 0
    for i in range(count):
        p = B[7][i]
        if K.is_legal(B, p, colour) and not K.is_eye(B, p, colour):
            c = n_nodes + k
            move[c], first_child[c], n_children[c], to_move[c] = p, -1, -1, 3 - colour
            if prior > 0:
                value, weight = K.prior(B, p, colour)
                stats[2][c] = weight * prior
                stats[3][c] = value * weight * prior
            k += 1
    c = n_nodes + k
    move[c], first_child[c], n_children[c], to_move[c] = PASS, -1, -1, 3 - colour
    n_children[node] = k + 1
    return n_nodes + k + 1


def _select(node, tree, stats, rave, c_uct, fpu):
    """The child with the best blend of its value, its AMAF value and exploration; an
    unvisited child is worth its AMAF value plus ``fpu`` (first-play urgency)."""
    first, n = tree[1][node], tree[2][node]
    visits, wins, amaf_n, amaf_w = stats[0], stats[1], stats[2], stats[3]
    parent_log = math.log(visits[node] + 1.0)
    best, best_value = first, -1e18
    for c in range(first, first + n):
        unseen = 0.1 if tree[0][c] == PASS else 0.5  # the pass last, unless it is all
        amaf = amaf_w[c] / amaf_n[c] if amaf_n[c] > 0 else unseen
        if visits[c] > 0:
            q = wins[c] / visits[c]
            # the pass has no AMAF statistics (play-outs never pass early): its own value
            # alone, not its made-up unseen value (which made it the best move of a lost
            # position and go-mcts pass there, handing GNU Go the board)
            beta = 0.0 if tree[0][c] == PASS else math.sqrt(rave / (3.0 * visits[c] + rave))
            value = (1 - beta) * q + beta * amaf + c_uct * math.sqrt(parent_log / visits[c])
        else:
            value = amaf + fpu  # fpu 0: RAVE alone; 1: every child tried once first
        if value > best_value:
            best, best_value = c, value
    return best


def _play_out(B, seq_p, seq_c, length, max_moves, avoid_self_atari, patterns):
    """Play on from board ``B`` by the play-out policy (answer the last move, then a 3x3
    pattern next to it, then at random; no own-eye filling) until two passes or
    ``max_moves``; each move is appended to ``seq_p``/``seq_c`` from ``length`` while they
    have room. Returns the new length."""
    while B[9][K.PASSES] < 2 and B[9][K.MOVES] < max_moves:
        colour = B[9][K.TO_MOVE]
        p = K.reply_move(B, colour, avoid_self_atari)
        if p < 0 and patterns:
            p = K.pattern_move(B, colour, avoid_self_atari)
        if p < 0:
            p = K.random_move(B, colour, avoid_self_atari)
        K.play(B, p, colour)
        if length < seq_p.shape[0]:
            seq_p[length], seq_c[length] = p, colour
            length += 1
    return length


def rollout(root, komi, max_moves, seed, avoid_self_atari, patterns):
    """One play-out from (a copy of) board ``root`` by :func:`_play_out`'s policy: Black's
    result, 1 won, 0.5 drawn, 0 lost (AlphaGo's fast roll-out, for ``go-net:mix``)."""
    np.random.seed(seed)
    B = (root[0].copy(), root[1].copy(), root[2].copy(), root[3].copy(), root[4].copy(),
         root[5].copy(), root[6].copy(), root[7].copy(), root[8].copy(), root[9].copy())
    none = np.zeros(0, np.int64)
    _play_out(B, none, none, 0, max_moves, avoid_self_atari, patterns)
    margin = K.area(B) - komi
    return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)


def simulate(root, tree, stats, n_nodes, sims, komi, max_moves, rave, c_uct, seed,
             avoid_self_atari, patterns, fpu, prior):
    """Run ``sims`` simulations from board ``root``; returns the node count."""
    np.random.seed(seed)
    size_points = root[0].shape[0]
    path = np.zeros(max_moves + 2, np.int64)
    seq_p = np.zeros(max_moves + 2, np.int64)
    seq_c = np.zeros(max_moves + 2, np.int64)
    marks = np.zeros(size_points, np.int8)
    move, n_children, to_move = tree[0], tree[2], tree[3]
    visits, wins, amaf_n, amaf_w = stats[0], stats[1], stats[2], stats[3]
    for _ in range(sims):
        B = (root[0].copy(), root[1].copy(), root[2].copy(), root[3].copy(), root[4].copy(),
             root[5].copy(), root[6].copy(), root[7].copy(), root[8].copy(), root[9].copy())
        node, depth, length = 0, 0, 0
        path[0] = 0
        while B[9][K.PASSES] < 2 and B[9][K.MOVES] < max_moves:
            if n_children[node] < 0:
                if node != 0 and visits[node] < 1:
                    break
                n_nodes = _expand(B, node, tree, stats, n_nodes, prior)
                if n_children[node] < 0:
                    break  # the tree is full: this node stays a leaf
            child = _select(node, tree, stats, rave, c_uct, fpu)
            colour = B[9][K.TO_MOVE]
            p = move[child]
            K.play(B, p, colour)
            seq_p[length], seq_c[length] = p, colour
            length += 1
            depth += 1
            path[depth] = child
            node = child
        length = _play_out(B, seq_p, seq_c, length, max_moves, avoid_self_atari, patterns)
        margin = K.area(B) - komi
        black = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
        marks[:] = 0
        for d in range(max(length - 1, depth), -1, -1):  # back: marks hold moves from d on
            if d < length and seq_p[d] >= 0:
                marks[seq_p[d]] |= seq_c[d]
            if d <= depth:
                n = path[d]
                visits[n] += 1
                mover = 3 - to_move[n]  # who played into n
                wins[n] += black if mover == K.BLACK else 1.0 - black
                if n_children[n] > 0:
                    colour = to_move[n]
                    result = black if colour == K.BLACK else 1.0 - black
                    first = tree[1][n]
                    for c in range(first, first + n_children[n]):
                        m = move[c]
                        if m >= 0 and marks[m] & colour:
                            amaf_n[c] += 1
                            amaf_w[c] += result
    return n_nodes


def subtree(tree, stats, top, new_tree, new_stats):
    """Copy the subtree under node ``top`` to the front of ``new_tree``/``new_stats`` (the
    same sizes): ``top`` becomes node 0 and each node's children stay one block, in
    breadth-first order. Returns its node count."""
    order = np.empty(new_tree[0].shape[0], np.int64)  # order[i]: the old index of node i
    order[0] = top
    count = 1
    head = 0
    while head < count:
        old = order[head]
        new_tree[0][head] = tree[0][old]
        new_tree[3][head] = tree[3][old]
        for k in range(4):
            new_stats[k][head] = stats[k][old]
        n = tree[2][old]
        if n > 0:
            new_tree[1][head] = count
            new_tree[2][head] = n
            first = tree[1][old]
            for c in range(n):
                order[count + c] = first + c
            count += n
        else:
            new_tree[1][head] = -1
            new_tree[2][head] = -1
        head += 1
    return count


TEMPLATES = (_expand, _select, _play_out, rollout, simulate, subtree)
"""Compiled by ``kernels.specialize`` (each template's compiled function replaces it by name)
under a tag that also covers the Go kernel they call and the pattern table compiled into it:
numba keys a cached function on its own file only, so an edit to the kernel alone gives the
search a new cache entry instead of leaving the old kernel compiled in."""
compile_in_place(globals(), TEMPLATES, "go_mcts", (K, go_patterns))


def keep_root_children(tree, stats, keep: list[bool]) -> None:
    """Keep only the root's children marked in ``keep`` (in order, each with its statistics
    and its own subtree): the kernel's root knows no ko (a rules state has no ko point) nor
    positional superko, so a ko recapture the rules forbid was a root child, often the most
    visited (a capture's prior), and a search could end with no legal move to report."""
    first, n = int(tree[1][0]), int(tree[2][0])
    k = first
    for i in range(n):
        c = first + i
        if keep[i]:
            if c != k:
                for a in (*tree, *stats):
                    a[k] = a[c]
            k += 1
    tree[2][0] = k - first


def fills_own_territory(game, state) -> bool:
    """Whether every move the player to move may make (but the pass) is on an empty point
    whose region reaches only that player's stones: its own territory, where a stone
    changes nothing of the area count (nor any move at all is left)."""
    from gamesearch.games.go.notation import STONES
    from gamesearch.games.go.rules import area_owners

    own = STONES[state[1]]
    owners = area_owners(state[0], game.size)
    return all(owners[a] == own for a in game.actions(state) if a != game.pass_action)


class GoMCTSAgent(Agent):
    """``go-mcts:time=1`` (or ``playouts=N``): compiled MCTS with RAVE for Go."""

    interactive = False

    def __init__(self, time: float | None = 1.0, playouts: int | None = None,
                 rave: float = 1000.0, c: float = 0.2, seed: int | None = None,
                 nodes: int = 2_000_000, selfatari: bool = True, reuse: bool = True,
                 patterns: bool = True, fpu: float = 0.0, prior: float = 20.0) -> None:
        if not 0.0 <= fpu <= 10.0:
            raise GameSearchError(f"fpu must be in 0..10, got {fpu:g}")
        if not 0.0 <= prior <= 10_000.0:
            raise GameSearchError(f"prior must be in 0..10000, got {prior:g}")
        self.fpu, self.prior = fpu, prior
        self.time = None if playouts is not None else time
        self.playouts = playouts
        self.rave, self.c, self.max_nodes = rave, c, nodes
        self.seed = seed
        self.selfatari = selfatari
        self.reuse = reuse
        self.patterns = patterns
        self.kept: tuple | None = None  # (game, state, tree, stats, node of our move)
        self.reused = 0
        self.calls = 0
        bound = f"playouts={playouts}" if playouts is not None else f"time={time:g}"
        self.spec = f"go-mcts:{bound}" + (f",seed={seed}" if seed is not None else "") \
            + ("" if selfatari else ",selfatari=false") + ("" if reuse else ",reuse=false") \
            + ("" if patterns else ",patterns=false") + (f",fpu={fpu:g}" if fpu != 0.0 else "") \
            + (f",prior={prior:g}" if prior != 20.0 else "")

    def reset(self) -> None:
        """A new game: forget the kept tree."""
        self.kept = None

    def _reused_tree(self, game, state) -> tuple[tuple, tuple, int] | None:
        """The kept tree re-rooted at ``state`` when it is our last move and a reply the
        tree holds (``(tree, stats, node count)``), else None."""
        if not self.reuse or self.kept is None:
            return None
        old_game, old_state, tree, stats, ours = self.kept
        self.kept = None
        if old_game is not game or tree[2][ours] <= 0:
            return None
        after = game.result(old_state, self._action(game, int(tree[0][ours])))
        # the reply: the child of our move whose position is the one we are asked about
        # (the rules decide, so nothing here reads their board format)
        first = tree[1][ours]
        for reply in range(first, first + tree[2][ours]):
            try:
                same = game.result(after, self._action(game, int(tree[0][reply]))) == state
            except GameSearchError:  # a reply the rules refuse now (superko)
                continue
            if same:
                # zeros: expand() relies on zeroed statistics for the nodes it adds
                new_tree = tuple(np.zeros(a.shape, a.dtype) for a in tree)
                new_stats = tuple(np.zeros(a.shape, a.dtype) for a in stats)
                count = subtree(tree, stats, reply, new_tree, new_stats)
                return new_tree, new_stats, count
        return None

    @staticmethod
    def _action(game, point: int):
        """The rules' action of a tree move (a kernel point, or the pass)."""
        return game.pass_action if point < 0 else K.to_point(point, game.size)

    def prepare(self, game) -> None:
        """Compile (or load) the search before any clock runs."""
        from gamesearch.games.go.rules import Go

        warm = Go(size=5)
        self.search(warm, warm.initial_state(), playouts=BATCH)
        leaf = (np.zeros(2, np.int64), np.full(2, -1, np.int64), np.full(2, -1, np.int64),
                np.zeros(2, np.int64))
        zeros = tuple(np.zeros(2, np.float64) for _ in range(4))
        subtree(leaf, zeros, 0, tuple(a.copy() for a in leaf), tuple(a.copy() for a in zeros))
        self.kept = None  # (the re-rooting loaded too, on a one-node tree)

    def search(self, game, state, playouts: int | None = None, seconds: float | None = None,
               began: float | None = None, legal: set | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Root children's (moves, visits, wins) and the simulations run; ``seconds`` count
        from ``began`` (the caller's start; now by default), so setting up the tree is
        inside the time. ``legal``: the rules' moves here (computed when not given); the
        root holds only those (see :func:`keep_root_children`)."""
        began = clock.perf_counter() if began is None else began
        self.legal = set(game.actions(state)) if legal is None else legal
        n = self.max_nodes
        root = K.from_state(state, game.size)
        kept = self._reused_tree(game, state)
        if kept is not None:
            tree, stats, n_nodes = kept
            self.reused = int(stats[0][0])
        else:
            tree = (np.zeros(n, np.int64), np.full(n, -1, np.int64),
                    np.full(n, -1, np.int64), np.zeros(n, np.int64))
            stats = (np.zeros(n, np.float64), np.zeros(n, np.float64),
                     np.zeros(n, np.float64), np.zeros(n, np.float64))
            tree[3][0] = root[9][K.TO_MOVE]
            n_nodes, self.reused = 1, 0
        self.tree, self.stats = tree, stats
        if tree[2][0] < 0:  # a new root, expanded here so that the rules can prune it
            n_nodes = _expand(tuple(a.copy() for a in root), 0, tree, stats, n_nodes,
                              self.prior)
        if tree[2][0] > 0:
            first = tree[1][0]
            keep_root_children(tree, stats, [
                self._action(game, int(tree[0][c])) in self.legal
                for c in range(first, first + tree[2][0])])
        done = 0
        seed = (self.seed if self.seed is not None else int(began * 1e6)) + 7919 * self.calls
        self.calls += 1
        max_moves = max(game.max_moves, int(root[9][K.MOVES]) + 3 * game.size ** 2)
        # the first report comes after the first batch, so that a caller with a deadline
        # (the web) holds a searched move at once
        reported, reported_done = -math.inf, 0
        while True:
            batch = (FIRST_BATCH if done == 0 else BATCH) if playouts is None \
                else min(BATCH, playouts - done)
            if batch <= 0:
                break
            n_nodes = simulate(root, tree, stats, n_nodes, batch, game.komi, max_moves,
                               self.rave, self.c, seed + done, self.selfatari,
                               self.patterns, self.fpu, self.prior)
            done += batch
            now = clock.perf_counter()
            if seconds is not None and now - began >= seconds:
                break
            if self.on_progress is not None and now - reported >= PROGRESS_SECONDS:
                reported, reported_done = now, done
                if self.on_progress(self._so_far(game, state, done, now - began)):
                    break  # the caller asks for the answer now
        if self.on_progress is not None and 0 < reported_done < done:
            # the answer the search ends with, reported too: a fast machine's (or a starved
            # one's) live view would otherwise stop at the first batch's line
            self.on_progress(self._so_far(game, state, done, clock.perf_counter() - began))
        first, count = tree[1][0], tree[2][0]
        if first < 0:
            self.kept = None
            return np.zeros(0, np.int64), np.zeros(0), np.zeros(0), done
        kids = slice(first, first + count)
        return tree[0][kids].copy(), stats[0][kids].copy(), stats[1][kids].copy(), done

    def _so_far(self, game, state, done: int, seconds: float) -> SearchResult:
        """The search's answer so far: the move it would play now (:meth:`_root_choice`:
        a legal move whenever the root has children, the prior's best before any
        simulation reached one), then the most visited line as far as the rules allow it,
        and the win rate of its first move for the side to move (``stats.extra``)."""
        tree, stats = self.tree, self.stats
        extra: dict = {"reused": self.reused}
        value, line = 0.0, []
        best, best_i, _ = self._root_choice(game, done)
        if best_i >= 0:  # the move it would play now, then the most visited line
            line, node, cur = [best], int(tree[1][0]) + best_i, game.result(state, best)
            if stats[0][node] > 0:
                rate = float(stats[1][node] / stats[0][node])
                extra["win_rate"] = round(rate, 4)
                value = 2 * rate - 1
            while len(line) < PV_PLIES and tree[2][node] > 0:
                first, count = tree[1][node], tree[2][node]
                node = first + int(np.argmax(stats[0][first:first + count]))
                action = self._action(game, int(tree[0][node]))
                if stats[0][node] <= 0 or action not in game.actions(cur):
                    break
                line.append(action)
                cur = game.result(cur, action)
        result = SearchStats(nodes=done, iterations=done, depth=len(line), extra=extra)
        result.seconds = seconds
        return SearchResult(value, line[0] if line else None, line, result, pov=state[1])

    def _root_choice(self, game, done: int) -> tuple[Any, int, float]:
        """The move to play from the root's children after ``done`` simulations (its index
        among them, -1 for none, and its value on (-1, 1)): the most visited legal move
        other than the pass, between moves of as many visits the one Go knowledge and the
        AMAF statistics prefer (before any visit: the prior's best, never the first point
        by order); the pass when nothing else is in the tree, or when every move loses
        what the pass keeps (a seki whose shared liberty would be a self-atari)."""
        tree, stats, legal = self.tree, self.stats, self.legal
        first, count = int(tree[1][0]), max(0, int(tree[2][0]))
        visits, wins = stats[0], stats[1]
        amaf_n, amaf_w = stats[2], stats[3]
        best, best_key, value, best_i = game.pass_action, (-1.0, -1.0), 0.0, -1
        for i in range(count):
            c, m = first + i, int(tree[0][first + i])
            action = self._action(game, m)
            key = (float(visits[c]), float(amaf_w[c] / amaf_n[c]) if amaf_n[c] > 0 else 0.5)
            if m != PASS and action in legal and key > best_key:
                best, best_key, best_i = action, key, i
                value = 2 * wins[c] / visits[c] - 1 if visits[c] > 0 else 0.0
        for i in range(count):
            c = first + i
            if tree[0][c] != PASS:
                continue
            rate = 2 * wins[c] / visits[c] - 1 if visits[c] > 0 else 0.0
            if best_i < 0 or (visits[c] >= 0.1 * done and rate > value + 0.2):
                best, best_i, value = game.pass_action, i, rate
        return best, best_i, float(value)

    def __call__(self, game, state) -> SearchResult:
        """The most visited move the rules allow, other than the pass (between moves of as
        many visits, the one Go knowledge and the AMAF statistics prefer: never the first
        point by order); the value is the root mover's win rate as seen by that move, on
        (-1, 1).

        Under area scoring a move in one's own area costs nothing, so go-mcts passes only
        to end a game it has won (the opponent has just passed and the board's count is
        ours), when every move it may make fills its own territory (the game is over for
        it: the opponent may pass too, or play on), when its tree holds no other move, or
        when the pass is clearly better than every move (a seki); a lost-looking position
        is played on, where the opponent may still go wrong."""
        began = clock.perf_counter()
        mover = state[1]
        # the opponent passed and the count is ours (counted only then: it is read nowhere
        # else), or nothing is left to play but our own territory
        won = state[2] == 1 and game.score(state) * (1 if mover == 0 else -1) > 0
        if won or fills_own_territory(game, state):
            stats = SearchStats(nodes=0, iterations=0, extra={
                "reused": 0, "pass": "the count is ours" if won else
                "every move left fills our own territory"})
            stats.seconds = clock.perf_counter() - began
            self.kept = None
            return SearchResult(1.0 if won else 0.0, game.pass_action, [game.pass_action],
                                stats, pov=mover)
        _, visits, wins, done = self.search(game, state, self.playouts, self.time, began)
        best, best_i, value = self._root_choice(game, done)
        if self.reuse and best_i >= 0:
            self.kept = (game, state, self.tree, self.stats, int(self.tree[1][0]) + best_i)
        extra = {"reused": self.reused}
        if best_i >= 0 and visits[best_i] > 0:
            extra["win_rate"] = round(float(wins[best_i] / visits[best_i]), 4)
        line = self._so_far(game, state, done, 0.0).pv
        line = line if line and line[0] == best else [best]  # the most visited line
        stats = SearchStats(nodes=done, iterations=done, depth=len(line), extra=extra)
        stats.seconds = clock.perf_counter() - began
        return SearchResult(value, best, line, stats, pov=state[1])
