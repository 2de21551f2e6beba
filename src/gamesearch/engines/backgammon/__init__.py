"""The backgammon engine: compiled expectiminimax (gammon), TD-Gammon and pubeval, GNU
Backgammon as an outside player, and backgammon's ENTRY."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.entry import AgentDecl, GameEntry, Trainer, WarmupStep
from gamesearch.spec import Range


def _backgammon() -> Any:
    from gamesearch.games.backgammon import Backgammon

    return Backgammon()


def _gammon(depth: int = 2, pruning: str = "star2", samples: int | None = None,
            seed: int | None = None, kernel: bool = True) -> Agent:
    from gamesearch.engines.backgammon.agent import GammonAgent

    return GammonAgent(depth=depth, pruning=None if pruning == "none" else pruning,
                       samples=samples, seed=seed, kernel=kernel)


def _pubeval() -> Agent:
    from gamesearch.engines.backgammon.td import pubeval_agent

    return pubeval_agent()


def _td_gammon(depth: int = 0, weights: str | None = None) -> Agent:
    from gamesearch.engines.backgammon.td import td_gammon_agent

    return td_gammon_agent(depth=depth, weights=weights)


_td_gammon.ranges = {"depth": Range(0, 2)}  # 0: the network alone; 2: expectiminimax


def _gnubg(plies: int = 0, cmd: str = "gnubg") -> Agent:
    from gamesearch.engines.backgammon.gnubg_player import GnubgPlayer

    return GnubgPlayer(cmd=cmd, plies=plies)


def _td_training(folder: Any, **settings: Any) -> Any:
    from gamesearch.engines.backgammon.training import TDGammonTraining

    return TDGammonTraining(folder, **settings)


TRAINERS = {"td": Trainer(_td_training, {
    "title": "TD-Gammon", "opponent": "pubeval", "measure": "vs_pubeval",
    "curve_title": "TD-Gammon (0-ply) vs pubeval"})}
"""``train td``: the run (engines/backgammon/training.py), measured against pubeval."""


def _warmups(game: Any) -> list[WarmupStep]:
    def gammon() -> None:
        """The compiled expectiminimax, with Star2 pruning (the default) and without."""
        from gamesearch.engines.backgammon.agent import GammonAgent

        for pruning in ("star2", None):
            GammonAgent(pruning=pruning).prepare(game)

    return [("backgammon expectiminimax (gammon)", gammon)]


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.backgammon.view import picture

    return picture(game, state, lastmove, arrows)


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.backgammon.view import board

    return board(game, state)


ENTRY = GameEntry(
    "backgammon", "Backgammon, full rules without the cube (gammons count)", _backgammon,
    agents=(
        AgentDecl("gammon", _gammon, "backgammon: depth-2 expectiminimax with the "
                  "hand-written evaluation, compiled (kernel=false: Star2 in Python; "
                  "pruning=, samples=K)"),
        AgentDecl("pubeval", _pubeval, "backgammon: Tesauro's published linear evaluation, "
                  "0-ply (the yardstick of TD-Gammon replications)"),
        AgentDecl("td-gammon", _td_gammon, "backgammon: the TD(lambda) self-play network, "
                  "depth=0 or 2 (expectiminimax over the 21 rolls); weights=FILE (default: "
                  "shipped)"),
        AgentDecl("gnubg", _gnubg, "backgammon: GNU Backgammon's best chequer play (Debian "
                  "package gnubg), plies=0..3 (0 = its network alone), cmd=PATH",
                  outside=True),
    ),
    defaults=("gammon",),
    warmups=_warmups,
    trainers=TRAINERS,
    svg=_svg,
    board=_board,
)
