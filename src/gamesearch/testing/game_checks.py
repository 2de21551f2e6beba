"""``check_game``: does a game keep the protocol of game.py? (Gymnasium's ``check_env`` and
PettingZoo's ``api_test`` are the models.)

Random play-outs from the start; at every position they pass through, each check below runs
and the first that fails raises :class:`~gamesearch.testing.failure.GameCheckError` naming
the check, the game and the moves that reach the position. The text checks live in
text_checks.py, the information-set check in hidden_checks.py. The checks:

``attributes``        ``name`` a non-empty string, ``num_players`` a positive int
``initial-state``     the same hashable state every call
``terminal-test``     ``is_terminal`` answers a bool, the same every time
``to-move``           a player 0..N-1 or CHANCE, the same every time
``legal-actions``     a non-empty list at a live position, the same every call, no repeats
``chance-outcomes``   probabilities valid and summing to 1, outcomes are the actions
``transition``        ``result`` is deterministic, does not change its input, and gives the
                      same state for an equal copy of the input (copy consistency)
``utilities``         at an end: one finite number per player, summing to 0 when zero-sum,
                      within ``max_utility`` and equal for team mates (``team``) where given
``keys``              equal states (deep or pickled copies) hash alike; ``state_key``
                      stable, and states that share a key agree on mover, end, number of
                      actions and utilities
``termination``       every play-out ends within ``max_moves`` moves
``action-strings``    ``string_to_action(action_to_string(a)) == a``, texts distinct per position
``positions``         ``state_from_string`` reads back the moves from the start written
                      ``", "``-separated, and ``state_to_string`` output where the game has one
``information-sets``  hidden-information games: an information set is stable and fixes the
                      legal actions, and ``sample_state`` gives states in the same set
``render``            ``render`` and ``player_name`` answer strings
``bad-input``         garbled move and position texts (cut, doubled, stray characters,
                      huge numbers) give a legal action or a GameSearchError, never a crash
``evaluation``        where the game has ``evaluate``: a finite number for every player at
                      every live position, the same every call (or a GameSearchError
                      refusing, as a tree without ``eval`` at a node does)
``action-order``      where the game has ``order_actions``: a reordering of the legal actions
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.testing.failure import Trail, require
from gamesearch.testing.hidden_checks import HiddenChecks, has_hidden_information
from gamesearch.testing.text_checks import TextChecks
from gamesearch.testing.walk import walk


@dataclass
class CheckReport:
    """What a check did: how many positions it visited and how often each check ran."""

    game: str
    playouts: int = 0
    positions: int = 0
    terminals: int = 0
    checks: Counter = field(default_factory=Counter)

    def __str__(self) -> str:
        ran = ", ".join(f"{name} {n}" for name, n in sorted(self.checks.items()))
        return (f"{self.game}: {self.playouts} play-outs, {self.positions} positions "
                f"({self.terminals} ends) passed: {ran}")


class GameChecker(TextChecks, HiddenChecks):
    """The checks of one game, run position by position along random play-outs."""

    def __init__(self, game: Any, seed: int, actions_per_state: int, samples: int) -> None:
        self.game, self.rng = game, random.Random(seed)
        self.trail = Trail(game, seed)
        self.actions_per_state, self.samples = actions_per_state, samples
        self.report = CheckReport(getattr(game, "name", type(game).__name__))
        self.key_signatures: dict[Hashable, tuple] = {}
        self.info_actions: dict[tuple[int, Hashable], list] = {}
        self.state_key = getattr(game, "state_key", None)
        self.hidden = has_hidden_information(game)

    def ok(self, check: str) -> None:
        """Count one passed check."""
        self.report.checks[check] += 1

    # --- once per game ------------------------------------------------------------------
    def attributes(self) -> None:
        """The game's name and number of players, and a stable, hashable start."""
        g, t = self.game, self.trail
        name, n = getattr(g, "name", None), getattr(g, "num_players", None)
        require(t, "attributes", isinstance(name, str) and bool(name.strip()),
                f"name must be a non-empty string, not {name!r}")
        require(t, "attributes", isinstance(n, int) and not isinstance(n, bool) and n >= 1,
                f"num_players must be a positive int, not {n!r}")
        with t.guard("initial-state", "initial_state()"):
            first, second = g.initial_state(), g.initial_state()
            hash(first)
        require(t, "initial-state", first == second and hash(first) == hash(second),
                f"initial_state() differs between calls: {first!r} then {second!r}")
        self.ok("attributes")
        self.ok("initial-state")

    # --- at every position ------------------------------------------------------------------
    def position(self, s: Hashable) -> None:
        """Every check that applies to ``s`` (a terminal or a live position)."""
        g, t = self.game, self.trail
        with t.guard("terminal-test", "is_terminal(s)"):
            over = g.is_terminal(s)
            again = g.is_terminal(s)
        require(t, "terminal-test", isinstance(over, (bool, int)) and bool(over) == bool(again),
                f"is_terminal gave {over!r} then {again!r}")
        self.ok("terminal-test")
        self.keys(s, bool(over))
        self.render(s)
        if over:
            self.report.terminals += 1
            self.utilities(s)
            return
        mover = self.to_move(s)
        actions = self.legal_actions(s)
        if mover == CHANCE:
            self.chance(s, actions)
        else:
            self.optional_capabilities(s, actions)
            if self.hidden:
                self.information_sets(s, mover, actions)
        sample = actions if len(actions) <= self.actions_per_state else self.rng.sample(
            actions, self.actions_per_state)
        for a in sample:
            self.transition(s, a)
        self.action_strings(s, actions, sample)

    def to_move(self, s: Hashable) -> int:
        """The mover is a player or CHANCE, the same on every call."""
        g, t = self.game, self.trail
        with t.guard("to-move", "to_move(s)"):
            mover, again = g.to_move(s), g.to_move(s)
        require(t, "to-move", mover == again, f"to_move gave {mover!r} then {again!r}")
        require(t, "to-move", isinstance(mover, int) and (mover == CHANCE
                                                          or 0 <= mover < g.num_players),
                f"to_move gave {mover!r}: a player 0..{g.num_players - 1} or CHANCE ({CHANCE})")
        self.ok("to-move")
        return mover

    def legal_actions(self, s: Hashable) -> list:
        """The legal actions: some, stable, hashable, never repeated."""
        g, t = self.game, self.trail
        with t.guard("legal-actions", "actions(s)"):
            actions, again = list(g.actions(s)), list(g.actions(s))
            for a in actions:
                hash(a)
        require(t, "legal-actions", bool(actions), "no legal action at a position that is "
                "not terminal")
        require(t, "legal-actions", actions == again,
                lambda: f"actions(s) changed between calls: {actions!r} then {again!r}")
        repeated = [a for a, n in Counter(actions).items() if n > 1]
        require(t, "legal-actions", not repeated, lambda: f"actions repeated: {repeated!r}")
        self.ok("legal-actions")
        return actions

    def chance(self, s: Hashable, actions: list) -> None:
        """A chance node's outcomes: valid probabilities over exactly its actions."""
        g, t = self.game, self.trail
        with t.guard("chance-outcomes", "chance_outcomes(s)"):
            outcomes = list(g.chance_outcomes(s))
        total = 0.0
        for item in outcomes:
            require(t, "chance-outcomes", isinstance(item, tuple) and len(item) == 2,
                    f"an outcome must be (outcome, probability), not {item!r}")
            p = item[1]
            require(t, "chance-outcomes", isinstance(p, (int, float)) and not math.isnan(p)
                    and 0 <= p <= 1, f"outcome {item[0]!r} has probability {p!r}")
            total += p
        require(t, "chance-outcomes", abs(total - 1) <= 1e-9,
                f"probabilities sum to {total!r}, not 1")
        names = [o for o, _ in outcomes]
        require(t, "chance-outcomes", len(set(names)) == len(names) and set(names) == set(actions),
                lambda: f"outcomes {names!r} are not the actions {actions!r}")
        self.ok("chance-outcomes")

    def transition(self, s: Hashable, a: Hashable) -> None:
        """``result`` is a function of its input only, and leaves the input alone."""
        g, t = self.game, self.trail
        before, before_hash = copy.deepcopy(s), hash(s)
        with t.guard("transition", f"result(s, {a!r})"):
            child = g.result(s, a)
            again = g.result(s, a)
            from_copy = g.result(copy.deepcopy(s), a)
            hash(child)
        require(t, "transition", s == before and hash(s) == before_hash,
                lambda: f"result(s, {a!r}) changed its input state s: now {s!r}")
        require(t, "transition", child == again and hash(child) == hash(again),
                lambda: f"result(s, {a!r}) is not deterministic: {child!r} then {again!r}")
        require(t, "transition", child == from_copy,
                lambda: f"result(s, {a!r}) differs on an equal copy of s: {child!r} vs "
                        f"{from_copy!r}")
        self.ok("transition")

    def utilities(self, s: Hashable) -> None:
        """A terminal's utilities are well-formed for this game."""
        g, t = self.game, self.trail
        with t.guard("utilities", "utilities(s)"):
            u, again = g.utilities(s), g.utilities(s)
        require(t, "utilities", isinstance(u, (tuple, list)) and len(u) == g.num_players,
                lambda: f"utilities {u!r} must be one number per player ({g.num_players})")
        require(t, "utilities", all(isinstance(x, (int, float)) and math.isfinite(x) for x in u),
                lambda: f"utilities {u!r} must be finite numbers")
        require(t, "utilities", tuple(u) == tuple(again),
                lambda: f"utilities gave {u!r} then {again!r}")
        if getattr(g, "zero_sum", False):
            require(t, "utilities", abs(sum(u)) <= 1e-9,
                    lambda: f"utilities {u!r} of a zero-sum game sum to {sum(u)!r}")
        bound = getattr(g, "max_utility", None)
        if bound is not None:
            require(t, "utilities", all(abs(x) <= bound for x in u),
                    lambda: f"utilities {u!r} exceed the game's max_utility {bound!r}")
        team = getattr(g, "team", None)
        if team is not None:
            with t.guard("utilities", "team(player)"):
                teams = [team(p) for p in range(g.num_players)]
            require(t, "utilities", all(u[p] == u[q] for p in range(len(u))
                                        for q in range(len(u)) if teams[p] == teams[q]),
                    lambda: f"team mates ({teams!r}) get different utilities {u!r}")
        self.ok("utilities")

    def keys(self, s: Hashable, over: bool) -> None:
        """Equal states hash alike, and a transposition key never joins unlike positions."""
        g, t = self.game, self.trail
        twin = copy.deepcopy(s)
        with t.guard("keys", "pickling the state"):
            shipped = pickle.loads(pickle.dumps(s))  # as a state travels to a worker process
        require(t, "keys", twin == s == shipped and hash(twin) == hash(s) == hash(shipped),
                "an equal copy of the state (deep or pickled) is unequal or hashes otherwise "
                "(states must be values)")
        key = s
        if self.state_key is not None:
            with t.guard("keys", "state_key(s)"):
                key, again, of_twin = self.state_key(s), self.state_key(s), self.state_key(twin)
                hash(key)
            require(t, "keys", key == again == of_twin and hash(key) == hash(of_twin),
                    lambda: f"state_key gave {key!r}, then {again!r}, {of_twin!r} for a copy")
        with t.guard("keys", "reading the position for its key"):
            mover = None if over else g.to_move(s)
            signature = (over, mover, 0 if over else len(list(g.actions(s))),
                         tuple(g.utilities(s)) if over else None)
        seen = self.key_signatures.setdefault(key, signature)
        require(t, "keys", seen == signature,
                lambda: f"two positions share the key {key!r} but differ: (end, mover, "
                        f"number of actions, utilities) {seen!r} vs {signature!r}")
        self.ok("keys")

    def optional_capabilities(self, s: Hashable, actions: list) -> None:
        """``evaluate`` and ``order_actions``, where the game has them (at player nodes)."""
        if getattr(self.game, "evaluate", None) is not None:
            self.evaluation(s)
        order = getattr(self.game, "order_actions", None)
        if order is not None:
            t = self.trail
            with t.guard("action-order", "order_actions(s, actions)"):
                ordered = list(order(s, list(actions)))
            require(t, "action-order", len(ordered) == len(actions)
                    and Counter(ordered) == Counter(actions),
                    lambda: f"order_actions gave {ordered!r}, not a reordering of {actions!r}")
            self.ok("action-order")

    def evaluation(self, s: Hashable) -> None:
        """The heuristic value is a finite number per player, stable between calls."""
        g, t = self.game, self.trail
        try:
            values = [g.evaluate(s, p) for p in range(g.num_players)]
            again = [g.evaluate(s, p) for p in range(g.num_players)]
        except GameSearchError:
            return  # a clear refusal (a tree node without "eval"): nothing to compare
        except Exception as err:  # noqa: BLE001 - any crash of the game is the finding
            raise t.fail("evaluation", f"evaluate(s, player) raised {type(err).__name__}: "
                                       f"{err}") from err
        require(t, "evaluation", all(isinstance(v, (int, float)) and math.isfinite(v)
                                     for v in values) and values == again,
                lambda: f"evaluate gave {values!r}, then {again!r} (finite numbers, "
                        "one per player, the same every call)")
        self.ok("evaluation")

    def render(self, s: Hashable) -> None:
        """People see the position and the players' names as text."""
        g, t = self.game, self.trail
        with t.guard("render", "render(s)"):
            picture = g.render(s)
            names = [g.player_name(p) for p in range(g.num_players)]
        require(t, "render", isinstance(picture, str), f"render gave {type(picture).__name__}")
        require(t, "render", all(isinstance(n, str) and n for n in names),
                f"player names must be non-empty strings: {names!r}")
        self.ok("render")


def check_game(game: Any, *, playouts: int = 20, seed: int = 0, max_moves: int = 10_000,
               actions_per_state: int = 8, samples: int = 3) -> CheckReport:
    """Check that ``game`` keeps the protocol of game.py along ``playouts`` random play-outs.

    Raises :class:`~gamesearch.testing.failure.GameCheckError` (naming the check, the game
    and the moves to a reproducing position) at the first failure; returns a
    :class:`CheckReport` when every check passed. ``actions_per_state`` bounds how many
    actions per position are played and read back; ``samples`` how many states are drawn
    from each information set of a hidden-information game.
    """
    checker = GameChecker(game, seed, actions_per_state, samples)
    checker.attributes()
    report = checker.report
    rng = random.Random(seed + 1)
    for s in walk(game, checker.trail, rng, playouts, max_moves):
        checker.position(s)
        report.positions += 1
        if len(checker.trail.states) == 1:
            report.playouts += 1
        over = game.is_terminal(s)
        if over or rng.random() < 0.02:  # moves read back: at every end, now and then before
            checker.positions(s)
    report.checks["termination"] = report.playouts
    return report
