"""The hidden-information check of ``check_game``: information sets are stable, fix the
legal actions of the player to move, and ``sample_state`` draws states inside them."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from gamesearch.game import has_hidden_information  # noqa: F401 - re-exported
from gamesearch.testing.failure import Trail, require


class HiddenChecks:
    """``information-sets``, mixed into the GameChecker."""

    game: Any
    trail: Trail
    rng: random.Random
    samples: int
    info_actions: dict[tuple[int, Hashable], list]

    def ok(self, check: str) -> None:
        """Count one passed check (the GameChecker's)."""
        raise NotImplementedError

    def information_sets(self, s: Hashable, mover: int, actions: list) -> None:
        """The mover's information set is stable, fixes its actions, and samples."""
        g, t = self.game, self.trail
        with t.guard("information-sets", f"information_set(s, {mover})"):
            info, again = g.information_set(s, mover), g.information_set(s, mover)
            hash(info)
        require(t, "information-sets", info == again,
                lambda: f"information_set gave {info!r} then {again!r}")
        known = self.info_actions.setdefault((mover, info), actions)
        require(t, "information-sets", known == actions,
                lambda: f"two positions in information set {info!r} of player {mover} have "
                        f"different legal actions: {known!r} vs {actions!r}")
        for _ in range(self.samples):
            self.sample(info, mover, actions)
        for other in range(g.num_players):
            if other != mover:
                self.onlooker(s, other)
        self.ok("information-sets")

    def onlooker(self, s: Hashable, player: int) -> None:
        """A player not to move: its information set is stable and can be sampled from."""
        g, t = self.game, self.trail
        with t.guard("information-sets", f"information_set(s, {player}) and sampling it"):
            info, again = g.information_set(s, player), g.information_set(s, player)
            sampled = g.sample_state(info, player, self.rng)
            seen = g.information_set(sampled, player)
        require(t, "information-sets", info == again == seen,
                lambda: f"player {player}'s information set {info!r} (then {again!r}) gave "
                        f"the sample {sampled!r}, whose information set is {seen!r}")

    def sample(self, info: Hashable, mover: int, actions: list) -> None:
        """A state drawn from ``info`` lies in ``info``, with the same mover and actions."""
        g, t = self.game, self.trail
        with t.guard("information-sets", f"sample_state({info!r}, {mover}, rng)"):
            sampled = g.sample_state(info, mover, self.rng)
            seen = g.information_set(sampled, mover)
            live = not g.is_terminal(sampled) and g.to_move(sampled) == mover
            options = list(g.actions(sampled)) if live else None
        require(t, "information-sets", seen == info,
                lambda: f"sample_state({info!r}) gave {sampled!r}, whose information set "
                        f"is {seen!r}")
        require(t, "information-sets", live and options == actions,
                lambda: f"sample_state({info!r}) gave {sampled!r}, where player {mover} "
                        f"is not to move with the legal actions {actions!r}")
