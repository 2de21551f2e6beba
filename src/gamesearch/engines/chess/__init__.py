"""The chess engine: compiled PVS with a learned-weights evaluation, endgame tables, the UCI
adapter for outside engines, and chess's ENTRY (what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.engines.chess.scale import MAX_HASH_MB, MAX_THREADS, VALUE_SCALE
from gamesearch.engines.chess.tuning import TUNING
from gamesearch.entry import (
    AgentDecl,
    GameEntry,
    PositionText,
    RecordFormat,
    Trainer,
    VerdictPolicy,
    WarmupStep,
)
from gamesearch.spec import Range


def _chess(fen: str = "") -> Any:
    from gamesearch.games.chess.rules import START_FEN, Chess

    return Chess(fen or START_FEN)


def _perft(game: Any, state: Any, depth: int) -> int:
    from gamesearch.games.chess.kernel import perft_fen

    return perft_fen(state, depth)


def _chess_engine(time: float = 1.0, depth: int | None = None, hash: int = 64,
                  tables: str | None = None, threads: int = 1, eval: str = "hand",
                  net: str | None = None, nodes: int | None = None,
                  singular: int = 0, rfp_margin: int | None = None,
                  futility_base: int | None = None, futility_step: int | None = None,
                  null_base: int | None = None, null_divisor: int | None = None,
                  lmp_base: int | None = None, lmr_base: int | None = None,
                  lmr_divisor: int | None = None) -> Agent:
    from gamesearch.engines.chess.engine import ChessAgent

    given = {"rfp_margin": rfp_margin, "futility_base": futility_base,
             "futility_step": futility_step, "null_base": null_base,
             "null_divisor": null_divisor, "lmp_base": lmp_base, "lmr_base": lmr_base,
             "lmr_divisor": lmr_divisor}  # the search settings (engines/chess/tuning.py)
    return ChessAgent(time=time, depth=depth, hash_mb=hash, tables=tables, threads=threads,
                      evaluation=eval, network=net, nodes=nodes, singular=bool(singular),
                      tuning={k: v for k, v in given.items() if v is not None})


_chess_engine.ranges = {  # type: ignore[attr-defined]  (read by spec.agent_ranges)
    "hash": Range(1, MAX_HASH_MB), "threads": Range(1, MAX_THREADS),
    "nodes": Range(1, 10**12), "singular": Range(0, 1),
    **{name: Range(low, high) for name, (_, _, low, high) in TUNING.items()}}


def _uci(cmd: str = "stockfish", time: float | None = 0.1, depth: int | None = None,
         elo: int | None = None, threads: int = 1, hash: int = 16) -> Agent:
    from gamesearch.engines.chess.uci_player import UciPlayer

    return UciPlayer(cmd=cmd, time=time, depth=depth, elo=elo, threads=threads, hash=hash)


def _warmups(game: Any) -> list[WarmupStep]:
    def perft() -> None:
        from gamesearch.games.chess.kernel import perft_fen

        perft_fen(game.initial_state(), 2)

    def search() -> None:
        from gamesearch.engines.chess.engine import ChessEngine

        ChessEngine(1).warm_up()

    def network_search() -> None:
        from gamesearch.engines.chess.engine import ChessEngine

        ChessEngine(1, evaluation="nnue").warm_up()

    from gamesearch.shipped import shipped

    steps = [("chess move generator (perft)", perft), ("chess engine search", search)]
    if shipped("chess", "nnue.npz").is_file():  # engine.default_network(), once one ships
        steps.append(("chess engine search with the network", network_search))
    return steps


def _write_pgn(game: Any, start: Any, actions: list, moves: list[str], players: list[str],
               utilities: list[float] | None, end: Any) -> str:
    import time

    import chess

    from gamesearch.games.chess.pgn import PgnRecord, result_token, write_pgn

    return write_pgn([PgnRecord(
        [str(a) for a in actions], result_token(utilities),
        {"Event": "gamesearch", "Site": "gamesearch", "Date": time.strftime("%Y.%m.%d"),
         "White": players[0], "Black": players[1]},
        None if start == chess.STARTING_FEN else start)])


def _tables_probe(folder: str) -> Any:
    """A probe of the chess tables in ``folder``: ``probe(state) -> (value, distance)`` or
    None where they do not hold the position."""
    from gamesearch.engines.chess.tables import Tables
    from gamesearch.games.chess.rules import board_of

    tables = Tables(folder)
    return lambda state: tables.probe_board(board_of(state))


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.chess.view import board

    return board(game, state)


def _ending(game: Any, state: Any) -> str | None:
    from gamesearch.engines.chess.view import ending

    return ending(game, state)


def _read_pgn(text: str) -> tuple[dict[str, str], list[str]]:
    from gamesearch.engines.chess.view import read_pgn_game

    return read_pgn_game(text)


def _check_fen(text: str) -> str:
    from gamesearch.engines.chess.view import check_fen

    return check_fen(text)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.chess.view import picture

    return picture(game, state, lastmove, arrows)


def _nnue_training() -> Any:
    from gamesearch.engines.chess.nnue import train

    return train


def _nnue_positions(path: Any, limit: int | None) -> Any:
    from gamesearch.engines.chess.nnue.dataset import read_positions

    return read_positions(path, limit)


ENTRY = GameEntry(
    "chess", "Chess (FIDE rules over python-chess; fen=FEN to start elsewhere)", _chess,
    perft=_perft,
    agents=(
        AgentDecl("chess-engine", _chess_engine, "chess: the compiled engine (PVS, TT, "
                  "quiescence), time=T seconds a move, depth=N plies or nodes=N a move, hash=MB "
                  "(1-4096), "
                  "tables=DIR (endgame tables: perfect play where they hold the position), "
                  "threads=N (Lazy SMP, 1-64), eval=hand|nnue (the hand-written "
                  "evaluation or the network), net=FILE (a network file for eval=nnue; "
                  "default: the one that ships)"),
        AgentDecl("uci", _uci, "chess: an outside UCI engine (cmd=stockfish, or "
                  "cmd=gamesearch uci), time=T seconds a move or depth=N, elo=N "
                  "(UCI_LimitStrength), threads, hash=MB", outside=True),
    ),
    defaults=("chess-engine:time=1",),
    warmups=_warmups,
    record=RecordFormat("pgn", "PGN file", _write_pgn, lambda text: text.startswith("["),
                        read=_read_pgn),
    tables="gamesearch.engines.chess.tables",
    tables_probe=_tables_probe,
    verdict=VerdictPolicy(refuse=lambda game, state: "chess is not solved: no exact verdict "
                          "(the engine's evaluation is its guess)"),
    board=_board,
    svg=_svg,
    position_text=PositionText("fen", "FEN", lambda game, state: state, _check_fen),
    notation=lambda game, state, action: game.san(state, action),
    ending=_ending,
    scale=VALUE_SCALE,
    trainers={"nnue": Trainer(_nnue_training, {"read": _nnue_positions})},
)
