"""Whist's ENTRY: a small-deck trick-taking game, played by determinization (PIMC) over
the double-dummy solver; ``gamesearch solve whist`` is that solver on the visible deal."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry


def _whist(suits: int = 4, ranks: int = 3) -> Any:
    from gamesearch.games.whist import Whist

    return Whist(suits=suits, ranks=ranks)


def _solver(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.games.whist_double_dummy import double_dummy_report

    return double_dummy_report(game, state)


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    hands, _, _, tricks = state
    hand = " ".join(game.card_name(c) for c in hands[viewer]) or "-"
    trick = " ".join(f"{p + 1}:{game.card_name(c)}" for p, c in game.current_trick(state))
    return (f"your hand (player {viewer + 1}): {hand}\n"
            f"trick: {trick or '-'}   tricks: {tricks[0]} - {tricks[1]}")


ENTRY = GameEntry("whist", "Whist on a small deck: 4 hands, follow suit (suits=4,ranks=3)",
                  _whist, solver=_solver, defaults=("pimc",), hidden_text=_hidden_text,
                  title="Whist")
