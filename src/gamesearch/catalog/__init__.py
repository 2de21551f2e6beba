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

from dataclasses import dataclass

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, has_chance, has_hidden_information
from gamesearch.spec import parse_spec


@dataclass(frozen=True)
class Needs:
    """What an agent kind needs of a game (every field is a requirement when set)."""

    perfect_information: bool = False
    """It searches the true state: hidden-information games would let it see hidden cards."""
    no_chance: bool = False
    """It has no chance nodes (minimax, alpha-beta, paranoid): use expectiminimax there."""
    hidden_information: bool = False
    """It samples hidden states (``information_set`` and ``sample_state``)."""
    kernel: bool = False
    """It runs on the game's compiled kernel."""
    games: tuple[str, ...] = ()
    """It plays only these games (a game-specific agent)."""
    seats: str = "any"
    """``first``: only player 1's seat (Pacman); ``others``: every seat but player 1's."""


PERFECT = Needs(perfect_information=True)
DETERMINISTIC = Needs(perfect_information=True, no_chance=True)

AGENT_NEEDS: dict[str, Needs] = {
    "random": Needs(),
    "human": Needs(),
    "minimax": DETERMINISTIC,
    "alphabeta": DETERMINISTIC,
    "paranoid": DETERMINISTIC,
    "maxn": PERFECT,
    "mcts": PERFECT,
    "expectimax": PERFECT,
    "expectiminimax": PERFECT,
    "pimc": Needs(hidden_information=True),
    "ismcts": Needs(hidden_information=True),
    "solver": Needs(games=("connect4",)),
    "kernel-mcts": Needs(kernel=True),
    "gammon": Needs(games=("backgammon",)),
    "pubeval": Needs(games=("backgammon",)),
    "td-gammon": Needs(games=("backgammon",)),
    "gnubg": Needs(games=("backgammon",)),
    "alphazero": Needs(games=("connect4",)),
    "pacman": Needs(games=("pacman",), seats="first"),
    "ghost": Needs(games=("pacman",), seats="others"),
    "pig-optimal": Needs(games=("pig",)),
    "chess-engine": Needs(games=("chess",)),
    "uci": Needs(games=("chess",)),
    "checkers-engine": Needs(games=("checkers",)),
    "gtp": Needs(games=("go",)),
    "go-mcts": Needs(games=("go",)),
    "othello": Needs(games=("othello",)),
    "edax": Needs(games=("othello",)),
}
"""What each built-in agent kind needs; a kind missing here fits every game."""

DEFAULT_AGENTS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("alphabeta",),
    "nim": ("alphabeta",),
    "ii-nim": ("alphabeta",),
    "tree": ("alphabeta",),
    "connect4": ("alphabeta:time=1",),
    "takeaway": ("maxn",),
    "pig": ("pig-optimal",),
    "backgammon": ("gammon",),
    "othello": ("othello",),
    "pacman": ("pacman", "ghost"),
    "kuhn_poker": ("ismcts:iterations=2000",),
    "leduc_poker": ("ismcts:iterations=2000",),
    "whist": ("pimc",),
    "strategy_fusion": ("ismcts:iterations=2000",),
    "chess": ("chess-engine:time=1",),
    "checkers": ("checkers-engine:time=1",),
    "go": ("go-mcts:time=1",),
}
"""Each game's default opponent, answering within about a second; one spec per seat from
player 1 on, the last repeated for the remaining seats."""


def needs_of(name: str) -> Needs:
    """The needs of an agent kind by name (no needs for a kind the catalog does not list)."""
    return AGENT_NEEDS.get(name, Needs())


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
    specs = DEFAULT_AGENTS.get(game.name)
    if specs:
        return specs[min(player, len(specs) - 1)]
    if has_hidden_information(game):
        return "ismcts:iterations=2000"
    if has_chance(game):
        return "expectiminimax:depth=2"
    if game.num_players > 2:
        return "paranoid:time=1"
    return "alphabeta:time=1"


__all__ = ["AGENT_NEEDS", "DEFAULT_AGENTS", "Needs", "agent_problem", "agents_for",
           "check_agent_fits", "default_agent", "has_chance", "has_hidden_information",
           "needs_of"]


# The catalog's registrations into the registries below it (agent kinds, game solvers).
from gamesearch.catalog import agent_specs, solvers  # noqa: E402, F401
