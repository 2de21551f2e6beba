"""The checkers engine: compiled PVS, Samuel-style learned weights, endgame databases, the
adapter for simplech (an outside program, built with our driver), and checkers's ENTRY
(what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.engines.checkers.scale import VALUE_SCALE
from gamesearch.entry import (
    AgentDecl,
    GameEntry,
    RecordFormat,
    Trainer,
    VerdictPolicy,
    WarmupStep,
)
from gamesearch.spec import Range


def _checkers() -> Any:
    from gamesearch.games.checkers.rules import Checkers

    return Checkers()


def _perft(game: Any, state: Any, depth: int) -> int:
    from gamesearch.games.checkers.kernel import kernel_perft

    return kernel_perft(game, state, depth)


def _checkers_engine(time: float = 1.0, depth: int | None = None, nodes: int | None = None,
                     hash: int = 32, weights: str = "hand", tables: str | None = None,
                     target: float | None = None, soft: float | None = None,
                     hard: float | None = None) -> Agent:
    from gamesearch.engines.checkers.engine import CheckersAgent

    return CheckersAgent(time=time, depth=depth, nodes=nodes, hash_mb=hash, weights=weights,
                         tables=tables, target=target, soft=soft, hard=hard)


def _simplech(cmd: str = "simplech", time: float = 1.0) -> Agent:
    from gamesearch.engines.checkers.simplech_player import simplech_player

    return simplech_player(cmd=cmd, time=time)


_simplech.ranges = {"time": Range(0, 3600, low_open=True)}


def _warmups(game: Any) -> list[WarmupStep]:
    from gamesearch.kernels.warmup import kernel_steps

    def engine() -> None:
        from gamesearch.engines.checkers.engine import CheckersAgent

        agent = CheckersAgent(depth=2)
        agent.prepare(game)
        agent(game, game.initial_state())

    steps = kernel_steps(game.kernel, game.initial_state()) if game.kernel else []
    return [*steps, ("checkers engine search", engine)]


def _write_pdn(game: Any, start: Any, actions: list, moves: list[str], players: list[str],
               utilities: list[float] | None, end: Any) -> str:
    from gamesearch.games.checkers.notation import fen
    from gamesearch.games.checkers.pdn import PdnGame, result_token, write_pdn

    return write_pdn([PdnGame(moves=list(moves), result=result_token(utilities),
                              tags={"Event": "gamesearch", "Black": players[0],
                                    "White": players[1]},
                              start=None if start == game.initial_state()
                              else fen(start[0], start[1]))])


def _tables_probe(folder: str) -> Any:
    """A probe of the checkers databases in ``folder`` (None outside the slices it holds)."""
    from gamesearch.engines.checkers.tables import Tables

    tables = Tables(folder)
    return lambda state: tables.probe(state) if tables.covers(state[0]) else None


def _samuel() -> Any:
    """``train samuel``: the TD-leaf learning of the evaluation's weights (learn.py)."""
    from gamesearch.engines.checkers import learn

    return learn


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.checkers.view import board

    return board(game, state)


def _read_pdn(text: str) -> tuple[dict[str, str], list[str]]:
    """The first game of a PDN text: its moves (the page plays from the opening only)."""
    from gamesearch.errors import GameSearchError
    from gamesearch.games.checkers.pdn import read_pdn

    games = read_pdn(text)
    if not games:
        raise GameSearchError("no PDN game in the text (tag pairs, then moves: 1. 11-15 23-19)")
    if games[0].start is not None:
        raise GameSearchError("the PDN game starts from a set-up position (FEN tag): the page "
                              "plays from the opening position only")
    return {}, list(games[0].moves)


def _ending(game: Any, state: Any) -> str | None:
    """A win when the side to move has no move; else the 40-move rule's draw."""
    if game.utilities(state)[0]:
        return f"({game.player_name(game.to_move(state))} has no move left)"
    return "by the 40-move rule"


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.checkers.view import picture

    return picture(game, state, lastmove, arrows)


ENTRY = GameEntry(
    "checkers", "Checkers (English draughts): compulsory captures, multi-jumps, 40-move draw "
    "rule; PDN FEN and move notation", _checkers,
    perft=_perft,
    agents=(AgentDecl("checkers-engine", _checkers_engine, "checkers: the compiled engine "
                      "(PVS, TT, killers, history), time=T (at most T a move), target=T "
                      "(about T, at most 2 T: tournament time; soft=S, hard=H: its "
                      "shares), depth=N or nodes=N, "
                      "weights=hand|learned, tables=DIR (endgame databases), hash=MB"),
            AgentDecl("simplech", _simplech, "checkers: simplech (Martin Fierz's engine of "
                      "CheckerBoard) built with bench/outside/build_simplech.sh: "
                      "cmd=PATH, time=T seconds a move", outside=True)),
    defaults=("checkers-engine:time=1",),
    warmups=_warmups,
    record=RecordFormat("pdn", "PDN file", _write_pdn, lambda text: text.startswith("["),
                        read=_read_pdn),
    tables="gamesearch.engines.checkers.tables",
    tables_probe=_tables_probe,
    verdict=VerdictPolicy(refuse=lambda game, state: (
        "no exact verdict from this position: checkers is too deep for a search here (from "
        "the start it is a draw, Schaeffer et al. 2007)")),
    board=_board,
    trainers={"samuel": Trainer(_samuel)},
    svg=_svg,
    ending=_ending,
    scale=VALUE_SCALE,
)
