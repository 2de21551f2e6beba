"""The catalog: which agent fits which game, and each game's default opponents.

This is the one place that joins games and agents (shared/DESIGN.md's catalog layer), so
the command line and the web app offer the same choices and refuse the same mismatches.
An agent kind states what it needs from a game as :class:`Needs` (a capability of the
rules: perfect information, no chance nodes, a compiled kernel; or specific games, for
game-specific agents such as ``pacman`` or ``pig-optimal``); a game entry names its
default agents. ``agent_problem(spec, game)`` is ``None`` when the agent fits, else the
reason in words, naming the agents that do fit.
"""

from __future__ import annotations

from gamesearch.entry import DETERMINISTIC, PERFECT, Needs
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, has_chance, has_hidden_information
from gamesearch.spec import parse_spec


def agent_needs() -> dict[str, Needs]:
    """Each registered agent kind's needs, by name."""
    from gamesearch.agents import AGENTS

    return {name: kind.needs for name, kind in AGENTS.items()}


def default_agents() -> dict[str, tuple[str, ...]]:
    """Each game's default opponents (one spec per seat from player 1 on, the last repeated
    for the remaining seats), as its entry gives them."""
    from gamesearch.games import REGISTRY

    return {name: entry.defaults for name, entry in REGISTRY.items() if entry.defaults}


def needs_of(name: str) -> Needs:
    """The needs of an agent kind by name (none for a kind the registry does not hold)."""
    from gamesearch.agents import AGENTS

    kind = AGENTS.get(name)
    return kind.needs if kind is not None else Needs()


def _problem(name: str, needs: Needs, game: Game, player: int | None) -> str | None:
    if needs.games and game.name not in needs.games:
        return f"plays {', '.join(needs.games)} only"
    if needs.kernel and getattr(game, "kernel", None) is None:
        return "needs a game with a compiled kernel"
    if needs.hidden_information and not has_hidden_information(game):
        return "is for hidden-information games (it samples what the player cannot see)"
    if needs.perfect_information and has_hidden_information(game):
        return "would see every hidden card: use pimc or ismcts for hidden information"
    if needs.no_chance and has_chance(game):
        return "does not handle chance nodes: use expectiminimax or mcts"
    if player is not None and needs.seats == "first" and player != 0:
        return f"plays {game.player_name(0)}'s seat only"
    if player is not None and needs.seats == "others" and player == 0:
        return f"cannot play {game.player_name(0)}'s seat"
    return None


def agents_for(game: Game, player: int | None = None) -> list[str]:
    """The registered agent kinds that fit the game (and the seat, when given), sorted."""
    from gamesearch.agents import AGENTS

    return sorted(n for n in AGENTS if _problem(n, needs_of(n), game, player) is None)


def agent_problem(spec: str, game: Game, player: int | None = None) -> str | None:
    """``None`` when the agent of ``spec`` can play ``game`` (in ``player``'s seat, when
    given); otherwise one line saying why and which agents fit."""
    name = parse_spec(spec)[0]
    reason = _problem(name, needs_of(name), game, player)
    if reason is None:
        return None
    fits = ", ".join(n for n in agents_for(game, player) if n != "human")
    return f"agent {name!r} {reason}; agents for {game.name}: {fits}"


def check_agent_fits(spec: str, game: Game, player: int | None = None) -> None:
    """Raise a :class:`GameSearchError` (one line) when the agent does not fit the game."""
    problem = agent_problem(spec, game, player)
    if problem is not None:
        raise GameSearchError(problem)


def default_agent(game: Game, player: int = 1) -> str:
    """The spec of the agent to play ``player``'s seat when a person names none."""
    from gamesearch.games import REGISTRY

    entry = REGISTRY.get(game.name)
    specs = entry.defaults if entry is not None else ()
    if specs:
        return specs[min(player, len(specs) - 1)]
    if has_hidden_information(game):
        return "ismcts:iterations=2000"
    if has_chance(game):
        return "expectiminimax:depth=2"
    if game.num_players > 2:
        return "paranoid:time=1"
    return "alphabeta:time=1"


__all__ = ["DETERMINISTIC", "PERFECT", "Needs", "agent_needs", "agent_problem", "agents_for",
           "check_agent_fits", "default_agent", "default_agents", "has_chance",
           "has_hidden_information", "needs_of"]


# Every game's entry, built in and installed, into the registries below (games, agents).
from gamesearch.catalog.entries import collect  # noqa: E402

collect()
