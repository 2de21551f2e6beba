"""Counting a game: perft (leaves at a fixed depth) and full enumeration of small games.

These are the checks against published facts: tic-tac-toe has 255,168 possible games and
5,478 legal positions; chess perft counts validate move generators.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gamesearch.game import CHANCE, Game, State


def perft(game: Game, state: State, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` plies from ``state`` (games that
    end earlier count as a leaf where they end, as perft conventionally does not: we count
    only full-length paths, plus nothing for shorter finished games)."""
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    if depth == 1 and game.to_move(state) != CHANCE:
        return len(game.actions(state))
    return sum(perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


@dataclass
class GameCount:
    """What a full enumeration of a game tree found."""

    nodes: int = 0
    """Nodes of the game tree (every state reached by every move sequence, the root too)."""
    games: int = 0
    """Finished games: the leaves of the tree."""
    positions: int = 0
    """Distinct states (legal positions), the root included."""
    terminal_positions: int = 0
    """Distinct terminal states."""
    outcomes: Counter = field(default_factory=Counter)
    """Finished games by outcome (the tuple of utilities)."""

    def as_dict(self, game: Game | None = None) -> dict[str, Any]:
        """Plain data for JSON output; outcomes named by winner when the game is zero-sum."""
        return {
            "nodes": self.nodes,
            "games": self.games,
            "positions": self.positions,
            "terminal_positions": self.terminal_positions,
            "outcomes": {describe_outcome(game, k): v for k, v in sorted(self.outcomes.items(),
                                                                       reverse=True)},
        }


def describe_outcome(game: Game | None, utilities: tuple) -> str:
    """``"player 1 wins"``, ``"draw"`` or the utilities, for an outcome."""
    if game is not None and game.num_players == 2 and len(utilities) == 2:
        a, b = utilities
        if a == b:
            return "draw"
        return f"{game.player_name(0 if a > b else 1)} wins"
    return ",".join(str(u) for u in utilities)


def count_game(game: Game, state: State | None = None, limit: int = 50_000_000) -> GameCount:
    """Enumerate the whole game tree below ``state`` (memoized over distinct positions, so
    tic-tac-toe's 549,946 tree nodes cost 5,478 visits). ``limit`` bounds distinct states.

    The walk keeps its own stack (no recursion, so any depth is fine) and refuses a game
    whose positions repeat along a line of play: its tree would be infinite (Pig).
    """
    from gamesearch.errors import GameSearchError, LimitError

    state = game.initial_state() if state is None else state
    memo: dict[State, tuple[int, int, Counter]] = {}
    terminals = 0

    def leaf(s: State) -> tuple[int, int, Counter]:
        nonlocal terminals
        terminals += 1
        return (1, 1, Counter({tuple(game.utilities(s)): 1}))

    if game.is_terminal(state):
        memo[state] = leaf(state)
        return GameCount(1, 1, 1, terminals, memo[state][2])
    # a frame: [state, its actions not yet followed, nodes, games, outcomes]
    stack: list[list] = [[state, iter(game.actions(state)), 1, 0, Counter()]]
    on_path = {state}
    result: tuple[int, int, Counter] = (0, 0, Counter())
    while stack:
        frame = stack[-1]
        s = frame[0]
        for a in frame[1]:
            child = game.result(s, a)
            if child in on_path:
                raise GameSearchError(f"{game.name}: a position repeats along a line of play, "
                                      "so the game tree is infinite and cannot be counted")
            if child not in memo:
                if len(memo) + len(on_path) >= limit:
                    raise LimitError(f"{game.name}: more than {limit:,} positions; too "
                                     "large to enumerate")
                if not game.is_terminal(child):
                    on_path.add(child)
                    stack.append([child, iter(game.actions(child)), 1, 0, Counter()])
                    break
                memo[child] = leaf(child)
            _add(frame, memo[child])
        else:
            stack.pop()
            on_path.discard(s)
            memo[s] = result = (frame[2], frame[3], frame[4])
            if stack:
                _add(stack[-1], result)
    nodes, games, outcomes = result
    return GameCount(nodes, games, len(memo), terminals, outcomes)


def _add(frame: list, counted: tuple[int, int, Counter]) -> None:
    """Add a child's counts to its parent's frame."""
    frame[2] += counted[0]
    frame[3] += counted[1]
    frame[4].update(counted[2])
