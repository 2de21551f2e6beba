"""The text checks of ``check_game``: moves and positions written for people read back,
and garbled texts are refused with one clear error (the founders' rule for bad input)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.testing.failure import Trail, require


def garble(text: str, rng: random.Random) -> list[str]:
    """Broken versions of a move or position text: what people mistype, and worse."""
    cut = rng.randrange(len(text) + 1)
    return ["", " ", text[:cut], text[cut:], text + text, text + "x", "x" + text,
            text.replace(",", ";"), text + ",", "," + text, text + ", " + text, "-1", "0",
            "9" * 40, "1e999", "nan", "é☃", "\x00", text.upper(), text.swapcase()[::-1]]


class TextChecks:
    """``action-strings``, ``positions`` and ``bad-input``, mixed into the GameChecker."""

    game: Any
    trail: Trail
    rng: random.Random

    def ok(self, check: str) -> None:
        """Count one passed check (the GameChecker's)."""
        raise NotImplementedError

    def action_strings(self, s: Hashable, actions: list, sample: list) -> None:
        """Each action's text is one distinct line that reads back as the action."""
        g, t = self.game, self.trail
        with t.guard("action-strings", "action_to_string(s, a)"):
            texts = [g.action_to_string(s, a) for a in actions]
        require(t, "action-strings", all(isinstance(x, str) and x.strip() and "\n" not in x
                                         and "," not in x for x in texts),
                lambda: f"action texts must be non-empty one-line strings without commas: "
                        f"{texts!r}")
        doubles = [x for x, n in Counter(texts).items() if n > 1]
        require(t, "action-strings", not doubles,
                lambda: f"different actions are written alike: {doubles!r}")
        for a in sample:
            text = texts[actions.index(a)]
            with t.guard("action-strings", f"string_to_action(s, {text!r})"):
                back = g.string_to_action(s, text)
            require(t, "action-strings", back == a,
                    f"action {a!r} is written {text!r}, which reads back as {back!r}")
        self.ok("action-strings")
        if self.rng.random() < 0.1:  # now and then: a parser is slower than a move
            for text in garble(self.rng.choice(texts), self.rng):
                self.bad_move(s, actions, text)
            self.ok("bad-input")

    def bad_move(self, s: Hashable, actions: list, text: str) -> None:
        """A garbled move reads as a legal action or is refused with a GameSearchError."""
        t = self.trail
        try:
            action = self.game.string_to_action(s, text)
        except GameSearchError:
            return
        except Exception as err:  # noqa: BLE001 - any crash of the parser is the finding
            raise t.fail("bad-input", f"string_to_action(s, {text!r}) raised "
                                      f"{type(err).__name__}: {err}") from err
        require(t, "bad-input", action in actions,
                lambda: f"string_to_action(s, {text!r}) gave {action!r}, not a legal action")

    def bad_position(self, text: str) -> None:
        """A garbled position reads as some state or is refused with a GameSearchError."""
        t = self.trail
        try:
            hash(self.game.state_from_string(text))
        except GameSearchError:
            return
        except Exception as err:  # noqa: BLE001 - any crash of the parser is the finding
            raise t.fail("bad-input", f"state_from_string({text!r}) raised "
                                      f"{type(err).__name__}: {err}") from err

    def positions(self, s: Hashable) -> None:
        """Read back the moves that reached ``s`` (and the game's own position text)."""
        g, t = self.game, self.trail
        moves = t.moves_text()
        with t.guard("positions", f"state_from_string({moves!r})"):
            back = g.state_from_string(moves)
        require(t, "positions", back == s,
                lambda: f"the moves {moves!r} read back as {back!r}")
        if g.is_terminal(s):  # garbled positions: once a play-out (each replays it)
            for text in self.rng.sample(garble(moves, self.rng), 8):
                self.bad_position(text)
            self.ok("bad-input")
        printer = getattr(g, "state_to_string", None)
        if printer is not None:
            with t.guard("positions", "state_to_string(s) and reading it back"):
                text = printer(s)
                back = g.state_from_string(text)
            require(t, "positions", back == s,
                    lambda: f"the position is written {text!r}, which reads back as {back!r}")
        self.ok("positions")
