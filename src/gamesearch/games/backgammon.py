"""Backgammon, full rules (no doubling cube): the lectures' game of chance and skill.

Rules implemented: checkers hit from the bar must enter before any other move; bearing off
once all fifteen are home, with a die larger than needed only from the highest occupied
point; doubles played four times; both dice must be used when possible, and when only one
of them can be used, the larger one if it can. A game won before the loser bore off any
checker is a gammon (2 points), and a backgammon (3) if the loser also still has a checker
on the bar or in the winner's home board.

Actions are *distinct plays*: different orders or checkers that lead to the same position
are one action (GNU Backgammon lists moves the same way; tests/test_backgammon_gnubg.py
compares the two). A play is a tuple of steps ``(from, to)`` in the mover's own point
numbers (24..1; 25 is the bar, 0 is off), written like ``13/7 8/7*``; an empty play
(no legal move) is written ``pass``.

The board is stored absolutely: ``points[i]`` counts player 1's checkers (positive; they
move from index 23 down to 0 and bear off below it) or player 2's (negative; they move up),
so index ``i`` is player 1's point ``i + 1`` and player 2's point ``24 - i``. The opening is
a chance node: each player rolls one die, the higher starts with both (doubles re-rolled).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import CHANCE, Game

BAR, OFF = 25, 0
CHECKERS = 15

START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)
"""The standard starting position (each side: 2 on its 24, 5 on 13, 3 on 8, 5 on 6)."""

ROLLS = [((a, b), (1 / 36 if a == b else 1 / 18)) for a in range(6, 0, -1) for b in range(a, 0, -1)]
"""The 21 distinct rolls, larger die first, with their probabilities."""

OPENING_ROLLS = [((a, b), 1 / 30) for a in range(1, 7) for b in range(1, 7) if a != b]
"""The opening roll: player 1's die and player 2's die, never equal (doubles re-rolled)."""


class BackgammonState(NamedTuple):
    """Absolute board, checkers on the bar and borne off per player, the player to move,
    and the dice (None while the dice are about to be rolled: a chance node)."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    player: int
    dice: tuple[int, int] | None
    opening: bool = False

    def _repr_svg_(self) -> str:
        """The position as a picture in Jupyter (the engine's drawing, found through the
        game's ENTRY: the rules do not draw)."""
        from gamesearch.games import game_entry

        return str(game_entry("backgammon").svg(Backgammon(), self, None, ()))


Play = tuple  # tuple of (from, to) steps in the mover's numbering


class Backgammon(Game):
    """Two-player backgammon without the doubling cube; utilities 1, 2 (gammon) or 3."""

    name = "backgammon"
    utility_bounds = (-3.0, 3.0)

    def __init__(self) -> None:
        self._plays_cache: dict = {}

    # --- the formalization --------------------------------------------------------------
    def initial_state(self) -> BackgammonState:
        return BackgammonState(START, (0, 0), (0, 0), 0, None, True)

    def to_move(self, s: BackgammonState) -> int:
        return CHANCE if s.dice is None else s.player

    def chance_outcomes(self, s: BackgammonState) -> list[tuple[tuple[int, int], float]]:
        return list(OPENING_ROLLS if s.opening else ROLLS)

    def actions(self, s: BackgammonState) -> list:
        if s.dice is None:
            return [o for o, _ in self.chance_outcomes(s)]
        return [play for play, _ in self.plays(s)]

    def result(self, s: BackgammonState, a) -> BackgammonState:
        if s.dice is None:
            if s.opening:  # a = (player 1's die, player 2's die): the higher starts
                player = 0 if a[0] > a[1] else 1
                return BackgammonState(s.points, s.bar, s.off, player, (max(a), min(a)))
            return BackgammonState(s.points, s.bar, s.off, s.player, tuple(a))
        my, opp, opp_bar = relative(s)
        for src, dst in a:
            if move_checker(my, opp, src, dst):
                opp_bar += 1
        return absolute(my, opp, opp_bar, s.player)

    def is_terminal(self, s: BackgammonState) -> bool:
        return s.off[0] == CHECKERS or s.off[1] == CHECKERS

    def utilities(self, s: BackgammonState) -> tuple[float, float]:
        winner = 0 if s.off[0] == CHECKERS else 1
        points = self.win_size(s, winner)
        return (points, -points) if winner == 0 else (-points, points)

    @staticmethod
    def win_size(s: BackgammonState, winner: int) -> int:
        """1 for a single game, 2 for a gammon, 3 for a backgammon."""
        loser = 1 - winner
        if s.off[loser] > 0:
            return 1
        # the loser's checkers in the winner's home board (indices 0..5 for player 1)
        home = range(0, 6) if winner == 0 else range(18, 24)
        sign = -1 if loser == 1 else 1
        in_home = any(s.points[i] * sign > 0 for i in home)
        return 3 if s.bar[loser] > 0 or in_home else 2

    # --- move generation -------------------------------------------------------------------
    def plays(self, s: BackgammonState) -> list[tuple[Play, tuple]]:
        """The distinct legal plays with the relative position each leads to."""
        if s.dice is None:
            raise GameSearchError("backgammon: roll the dice before moving")
        key = (s.points, s.bar, s.player, s.dice)
        cached = self._plays_cache.get(key)
        if cached is None:
            my, opp, _ = relative(s)
            cached = legal_plays(my, opp, s.dice)
            if len(self._plays_cache) > 200_000:
                self._plays_cache.clear()
            self._plays_cache[key] = cached
        return cached

    # --- evaluation ----------------------------------------------------------------------
    def evaluate(self, s: BackgammonState, player: int) -> float:
        """A hand-written estimate in (-1, 1) for ``player``: pip count, blots, points made,
        primes, the bar and checkers borne off (see :func:`features`)."""
        me = features(s, player)
        them = features(s, 1 - player)
        score = sum(w * (me[name] - them[name]) for name, w in WEIGHTS.items())
        return math.tanh(score)

    # --- people ----------------------------------------------------------------------------
    def action_to_string(self, s: BackgammonState, a) -> str:
        if s.dice is None:
            return f"{a[0]}-{a[1]}"
        if not a:
            return "pass"
        my, opp, _ = relative(s)
        parts = []
        for src, dst in a:
            hit = move_checker(my, opp, src, dst)
            parts.append(f"{'bar' if src == BAR else src}/{'off' if dst == OFF else dst}"
                         + ("*" if hit else ""))
        return " ".join(parts)

    def string_to_action(self, s: BackgammonState, text: str):
        legal = self.actions(s)
        cleaned = text.strip().lower().replace("*", "")
        if s.dice is None:
            for a in legal:
                if self.action_to_string(s, a) == cleaned:
                    return a
            raise IllegalActionError(f"{text!r} is not a roll here")
        if cleaned in ("pass", ""):
            steps: list = []
        else:
            steps = []
            for token in cleaned.replace(",", " ").split():
                fields = token.split("/")
                if len(fields) < 2:
                    raise IllegalActionError(f"malformed move {text!r}: write steps like 13/7")
                try:
                    nums = [BAR if f == "bar" else OFF if f == "off" else int(f) for f in fields]
                except ValueError:
                    raise IllegalActionError(f"malformed move {text!r}: write steps like "
                                             "13/7 or bar/22 or 6/off") from None
                steps.extend(zip(nums, nums[1:]))
        target = sorted(steps)
        for a in legal:
            if sorted(a) == target:
                return a
        # the same position by another route (e.g. 24/13 for 24/18 18/13)
        for a, position in self.plays(s):
            if steps and self._reaches(s, steps) == position:
                return a
        shown = ", ".join(self.action_to_string(s, a) for a in legal[:12])
        raise IllegalActionError(f"illegal move {text!r} with dice {s.dice}; legal: {shown}")

    @staticmethod
    def _reaches(s: BackgammonState, steps: list) -> tuple | None:
        my, opp, _ = relative(s)
        for src, dst in steps:
            if not (0 <= dst < src <= BAR) or my[src] == 0 or (dst and opp[dst] > 1):
                return None
            move_checker(my, opp, src, dst)
        return (tuple(my), tuple(opp))

    def render(self, s: BackgammonState) -> str:
        def cell(i: int) -> str:
            v = s.points[i]
            return " . " if v == 0 else f"{'X' if v > 0 else 'O'}{abs(v):<2d}"

        top = " ".join(f"{i:>3}" for i in range(13, 25))
        upper = " ".join(cell(i) for i in range(12, 24))
        lower = " ".join(cell(i) for i in range(11, -1, -1))
        bottom = " ".join(f"{i:>3}" for i in range(12, 0, -1))
        who = "XO"[s.player]
        dice = "to roll" if s.dice is None else f"dice {s.dice[0]}-{s.dice[1]}"
        return "\n".join([
            f" {top}   (X's point numbers)", f" {upper}", f" {lower}", f" {bottom}",
            f" bar X{s.bar[0]} O{s.bar[1]}  off X{s.off[0]} O{s.off[1]}  "
            f"pips X{pips(s, 0)} O{pips(s, 1)}  {who} {dice}",
        ])

    def player_name(self, player: int) -> str:
        return "chance" if player == CHANCE else f"player {player + 1} ({'XO'[player]})"


# --- the board seen by the mover ---------------------------------------------------------------


def relative(s: BackgammonState) -> tuple[list[int], list[int], int]:
    """``my[p]``: the mover's checkers on its point p (my[0] borne off, my[25] on the bar);
    ``opp[p]``: the opponent's checkers on the mover's point p; and the opponent's bar."""
    my = [0] * 26
    opp = [0] * 26
    pts = s.points
    if s.player == 0:
        for i in range(24):
            v = pts[i]
            if v > 0:
                my[i + 1] = v
            elif v < 0:
                opp[i + 1] = -v
    else:
        for i in range(24):
            v = pts[i]
            if v < 0:
                my[24 - i] = -v
            elif v > 0:
                opp[24 - i] = v
    my[0], my[BAR] = s.off[s.player], s.bar[s.player]
    opp[0] = s.off[1 - s.player]
    return my, opp, s.bar[1 - s.player]


def absolute(my: list[int], opp: list[int], opp_bar: int, mover: int) -> BackgammonState:
    """The state after the mover's play: the board back in absolute terms, the opponent to
    roll."""
    points = [0] * 24
    if mover == 0:
        for p in range(1, 25):
            points[p - 1] = my[p] - opp[p]
        bar, off = (my[BAR], opp_bar), (my[0], opp[0])
    else:
        for p in range(1, 25):
            points[24 - p] = opp[p] - my[p]
        bar, off = (opp_bar, my[BAR]), (opp[0], my[0])
    return BackgammonState(tuple(points), bar, off, 1 - mover, None)


def move_checker(my: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Move one of the mover's checkers; True when it hits a blot (sent to the bar)."""
    my[src] -= 1
    my[dst] += 1
    if dst != OFF and opp[dst] == 1:
        opp[dst] = 0
        return True
    return False


def step_target(my: list[int], opp: list[int], src: int, die: int) -> int:
    """Where a checker on ``src`` lands with ``die``, or -1 if that step is illegal."""
    dst = src - die
    if dst >= 1:
        return dst if opp[dst] <= 1 else -1
    # bearing off: every checker must be home (points 1..6)
    for p in range(7, 26):
        if my[p]:
            return -1
    if dst == 0:
        return OFF
    for p in range(src + 1, 7):  # a larger die only from the highest occupied point
        if my[p]:
            return -1
    return OFF


def legal_plays(my: list[int], opp: list[int], dice: tuple[int, int]) -> list[tuple[Play, tuple]]:
    """All distinct legal plays (and the position each reaches), by the rules above."""
    d1, d2 = dice
    found: dict[tuple, tuple[Play, int]] = {}  # position -> (play, die of a one-die play)
    most = 0
    opp_before = list(opp)

    def record(steps: Play, dice_used: list[int]) -> None:
        nonlocal most
        n = len(steps)
        if n < most:
            return
        if n > most:
            most = n
            found.clear()
        position = (tuple(my), tuple(opp))
        if position not in found:
            found[position] = (steps, dice_used[0] if dice_used else 0)

    def search(left: tuple[int, ...], steps: Play, used: list[int], lowest: int) -> None:
        moved = False
        if left:
            die = left[0]
            sources = [BAR] if my[BAR] else [p for p in range(24, 0, -1) if my[p]]
            for src in sources:
                if src > lowest:  # doubles: sources never increase (each play once)
                    continue
                dst = step_target(my, opp, src, die)
                if dst < 0:
                    continue
                hit = move_checker(my, opp, src, dst)
                search(left[1:], (*steps, (src, dst)), [*used, die],
                       src if d1 == d2 else BAR)
                my[src] += 1
                my[dst] -= 1
                if hit:
                    opp[dst] = 1
                moved = True
        if not moved:
            record(steps, used)

    if d1 == d2:
        search((d1,) * 4, (), [], BAR)
    else:
        search((d1, d2), (), [], BAR)
        search((d2, d1), (), [], BAR)
    assert opp == opp_before
    plays = list(found.items())
    if most == 1 and d1 != d2 and any(die == max(d1, d2) for _, (_, die) in plays):
        plays = [(pos, pd) for pos, pd in plays if pd[1] == max(d1, d2)]
    return [(play, position) for position, (play, _) in plays]


# --- features for the hand-written evaluation ------------------------------------------------


def pips(s: BackgammonState, player: int) -> int:
    """The pip count: how far the player's checkers still have to travel."""
    total = 25 * s.bar[player]
    for i, v in enumerate(s.points):
        if player == 0 and v > 0:
            total += v * (i + 1)
        elif player == 1 and v < 0:
            total += -v * (24 - i)
    return total


WEIGHTS = {
    "pips": -0.012,  # per pip still to travel
    "blots": -0.07,  # single checkers the opponent may hit
    "home_points": 0.08,  # points made in the home board
    "points": 0.03,  # points made anywhere
    "prime": 0.06,  # the longest run of consecutive made points
    "bar": -0.1,  # checkers waiting on the bar
    "off": 0.05,  # checkers borne off
}
"""Weights of the hand-written evaluation (ranges tried: pips -0.02..-0.005, blots -0.15..0)."""


def features(s: BackgammonState, player: int) -> dict[str, float]:
    """The evaluation's features for one player (the difference of both sides is scored)."""
    mine = [0] * 25  # mine[p]: the player's checkers on its own point p
    for i, v in enumerate(s.points):
        if player == 0 and v > 0:
            mine[i + 1] = v
        elif player == 1 and v < 0:
            mine[24 - i] = -v
    made = [p for p in range(1, 25) if mine[p] >= 2]
    run = longest = 0
    for p in range(1, 25):
        run = run + 1 if mine[p] >= 2 else 0
        longest = max(longest, run)
    return {
        "pips": float(pips(s, player)),
        "blots": float(sum(1 for p in range(1, 25) if mine[p] == 1)),
        "home_points": float(sum(1 for p in made if p <= 6)),
        "points": float(len(made)),
        "prime": float(longest),
        "bar": float(s.bar[player]),
        "off": float(s.off[player]),
    }


def from_gnubg_board(board: tuple, player: int, dice: tuple[int, int] | None) -> BackgammonState:
    """A state from GNU Backgammon's board (two 25-tuples, each in its owner's numbering:
    index p-1 is point p, index 24 the bar), ``board[1]`` being the player on roll."""
    opp_side, my_side = board
    my = [0] * 26
    opp = [0] * 26
    for p in range(1, 25):
        my[p] = my_side[p - 1]
        opp[25 - p] = opp_side[p - 1]
    my[BAR] = my_side[24]
    my[0] = CHECKERS - sum(my_side)
    opp[0] = CHECKERS - sum(opp_side)
    state = absolute(my, opp, opp_side[24], 1 - player)
    return state._replace(dice=dice)


def to_gnubg_board(s: BackgammonState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """GNU Backgammon's board for a state: (opponent's side, mover's side)."""
    my, opp, opp_bar = relative(s)
    my_side = tuple(my[1:25]) + (my[BAR],)
    opp_side = tuple(opp[25 - p] for p in range(1, 25)) + (opp_bar,)
    return opp_side, my_side
