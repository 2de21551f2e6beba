"""What a failed check raises, and the trail of moves that reproduces it.

A check walks random play-outs from the start; when one fails, the error names the check,
the game and the position: the moves from the start written as ``state_from_string``
reads them (``", "``-separated), the state's repr, and the seed of the walk.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from gamesearch.errors import GameSearchError


class GameCheckError(GameSearchError, AssertionError):
    """A game or kernel broke its contract: ``check`` names the rule, ``moves`` the position.

    An AssertionError too, so that a failed check reads as a failed test under pytest.
    """

    def __init__(self, check: str, game: str, detail: str, moves: str = "",
                 state: Any = None, seed: int | None = None) -> None:
        self.check, self.game, self.detail = check, game, detail
        self.moves, self.state, self.seed = moves, state, seed
        shown_moves = moves if len(moves) <= 300 else (
            f"{moves[:140]} ... {moves[-140:]}")  # the full text stays in .moves
        where = f"moves from the start: {shown_moves!r}" if moves else "at the initial state"
        shown = repr(state)
        if len(shown) > 300:
            shown = shown[:297] + "..."
        seed_text = "" if seed is None else f", seed {seed}"
        super().__init__(f"check {check!r} failed for {game}: {detail}; {where} "
                         f"(state {shown}{seed_text})")


class Trail:
    """The moves played so far in one walk, to name a reproducing position in errors."""

    def __init__(self, game: Any, seed: int | None) -> None:
        self.game, self.seed = game, seed
        self.states: list[Hashable] = []
        self.actions: list[Hashable] = []

    def start(self, state: Hashable) -> None:
        """Begin a new play-out from ``state`` (the initial state)."""
        self.states, self.actions = [state], []

    def push(self, action: Hashable, child: Hashable) -> None:
        """Record that ``action`` led to ``child``."""
        self.actions.append(action)
        self.states.append(child)

    @property
    def state(self) -> Hashable:
        """The current position of the walk (None before it starts)."""
        return self.states[-1] if self.states else None

    def moves_text(self, upto: int | None = None) -> str:
        """The moves from the start (the first ``upto``), written as the game writes them."""
        parts = []
        for state, action in list(zip(self.states, self.actions))[:upto]:
            try:
                parts.append(str(self.game.action_to_string(state, action)))
            except Exception:  # noqa: BLE001 - a broken printer must not hide the failure
                parts.append(repr(action))
        return ", ".join(parts)

    def fail(self, check: str, detail: str, state: Any = None) -> GameCheckError:
        """The error for a failed check at the current position (or ``state`` after it)."""
        return GameCheckError(check, game_label(self.game), detail, self.moves_text(),
                              self.state if state is None else state, self.seed)

    @contextmanager
    def guard(self, check: str, what: str) -> Iterator[None]:
        """Turn an exception raised by the game inside a check into that check's failure."""
        try:
            yield
        except GameCheckError:
            raise
        except Exception as err:  # noqa: BLE001 - any crash of the game is the finding
            raise self.fail(check, f"{what} raised {type(err).__name__}: {err}") from err


def game_label(game: Any) -> str:
    """The game's name, with its parameters where its repr shows them (``nim`` and
    ``Nim(piles=(2, 2), misere=True)`` are told apart)."""
    name = getattr(game, "name", type(game).__name__)
    shown = repr(game)
    return name if shown.endswith("()") or len(shown) > 120 else f"{name} {shown}"


def require(trail: Trail, check: str, condition: bool, detail: Callable[[], str] | str) -> None:
    """Raise ``check``'s failure at the trail's position unless ``condition`` holds."""
    if not condition:
        raise trail.fail(check, detail() if callable(detail) else detail)
