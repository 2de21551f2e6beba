"""The Go engine: compiled MCTS with RAVE and Go knowledge, the GTP adapter for outside
programs (GNU Go), and Go's ENTRY (what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.entry import (
    AgentDecl,
    GameEntry,
    RecordFormat,
    Trainer,
    VerdictPolicy,
    WarmupStep,
)
from gamesearch.spec import Range


def _go(size: int = 9, komi: float = 7.0, suicide: bool = False, handicap: int = 0) -> Any:
    from gamesearch.games.go.rules import Go

    return Go(size=size, komi=komi, suicide=suicide, handicap=handicap)


def _go_mcts(time: float = 1.0, playouts: int | None = None, rave: float = 1000.0,
             c: float = 0.2, seed: int | None = None, selfatari: bool = True,
             reuse: bool = True, patterns: bool = True, fpu: float = 0.0,
             prior: float = 20.0) -> Agent:
    from gamesearch.engines.go.mcts import GoMCTSAgent

    return GoMCTSAgent(time=time, playouts=playouts, rave=rave, c=c, seed=seed,
                       selfatari=selfatari, reuse=reuse, patterns=patterns, fpu=fpu,
                       prior=prior)


def _go_net(time: float | None = None, simulations: int | None = None,
            weights: str | None = None, c: float = 1.5, batch: int = 8,
            reuse: bool = True, mix: float = 0.5) -> Agent:
    from gamesearch.engines.go.net_agent import go_net_agent

    return go_net_agent(time=time, simulations=simulations, weights=weights, c=c,
                        batch=batch, reuse=reuse, mix=mix)


_go_net.ranges = {"simulations": Range(0, 10**9),  # 0: the policy alone, as documented
                  "mix": Range(0.0, 1.0)}


def _gtp(cmd: str | None = None, time: float | None = None) -> Agent:
    from gamesearch.engines.go.gtp_player import DEFAULT_CMD, GtpPlayer

    return GtpPlayer(cmd=cmd or DEFAULT_CMD, time=time)


TRAIN_MOVES = 2 * 81
"""Self-play games end after this many moves (pgx's cap; scored by area as they stand)."""


def _jax_rules() -> Any:
    from gamesearch.engines.go.jax_rules import go_jax

    return go_jax(9, 7.0, TRAIN_MOVES)


def _teacher() -> Any:
    from gamesearch.engines.go import teacher

    return teacher


TRAINERS = {"alphazero-jax": Trainer(_jax_rules, {"defaults": {
    "batch": 256, "simulations": 32, "blocks": 6, "channels": 64, "unroll": 0,
    "minibatch": 512, "random_plies": 4}}),
    "supervised": Trainer(_teacher)}
"""``train alphazero-jax go``: Gumbel AlphaZero on 9x9 (komi 7) with a residual network,
the shared batched trainer (docs/GO.md has the run and the device script); ``train
supervised go``: the same network learned first from GNU Go's games (engines/go/teacher.py),
AlphaGo's first stage."""


def _warmups(game: Any) -> list[WarmupStep]:
    def mcts() -> None:
        from gamesearch.engines.go.mcts import GoMCTSAgent

        GoMCTSAgent(playouts=256).prepare(None)  # compiles on a small board, any size then
        from gamesearch.engines.go.net_agent import GoNetAgent

        GoNetAgent.prepare_rollout()  # go-net's play-outs (its mix), from the same kernel

    return [("go board and MCTS play-outs", mcts)]


def _write_sgf(game: Any, start: Any, actions: list, moves: list[str], players: list[str],
               utilities: list[float] | None, end: Any) -> str:
    from gamesearch.games.go.sgf import SgfRecord, result_text, write_sgf

    setup = None if (start[0] == game.initial_state()[0] and start[1] == 0) \
        else (start[0], start[1])
    return write_sgf(SgfRecord(game.size, game.komi, actions, setup,
                               {"black": players[0], "white": players[1]},
                               result_text(game, end) if game.is_terminal(end)
                               else resign_text(utilities)))


def resign_text(utilities: list[float] | None) -> str | None:
    """SGF's result of a game that ended before its end by rules (a resignation: ``B+R``
    when Black won, ``W+R`` when White did); None while it goes on."""
    if utilities is None or utilities[0] == utilities[1]:
        return None if utilities is None else "0"
    return "B+R" if utilities[0] > utilities[1] else "W+R"


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.go.view import board

    return board(game, state)


def _ending(game: Any, state: Any) -> str | None:
    from gamesearch.engines.go.view import ending

    return ending(game, state)


def _read_sgf(text: str) -> tuple[dict[str, str], list[str]]:
    from gamesearch.engines.go.view import read_sgf_game

    return read_sgf_game(text)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.go.view import picture

    return picture(game, state, lastmove, arrows)


ENTRY = GameEntry(
    "go", "Go 2x2-19x19 (size=9): area scoring, komi=7, positional superko, suicide=false, "
    "handicap=N fixed stones; GTP vertices (D4, pass)", _go,
    ranges={"size": Range(2, 19), "komi": Range(-361, 361), "handicap": Range(0, 9)},
    agents=(
        AgentDecl("go-mcts", _go_mcts, "go: compiled MCTS with RAVE and eye-aware random "
                  "play-outs, time=T seconds a move or playouts=N, rave=K, c=C, seed=N, "
                  "selfatari=false lets play-outs self-atari big chains, reuse=false starts "
                  "each move with a new tree, patterns=false drops MoGo's 3x3 patterns from "
                  "the play-outs, fpu=F: an unvisited child's bonus over its AMAF value (0; "
                  "1: try each child once first), prior=N: new children's AMAF statistics "
                  "start from Go knowledge (captures, saves, patterns, self-ataris) worth N "
                  "simulations (20; 0: none)"),
        AgentDecl("go-net", _go_net, "go 9x9: MCTS guided by a network learned by "
                  "self-play (AlphaZero: PUCT, the policy as prior, the value instead of "
                  "play-outs; numpy on the CPU), time=T seconds a move (1) or simulations=N "
                  "(0: the policy alone), weights=FILE (a run of train alphazero-jax go or "
                  "train supervised go; default: the shipped network, learned from GNU "
                  "Go's games), c=C exploration (1.5), "
                  "batch=N leaves per evaluation (8), reuse=false starts each move afresh, "
                  "mix=L: AlphaGo's leaf value, (1 - L) the network's plus L one fast "
                  "play-out's (0.5; 0: the network alone)"),
        AgentDecl("gtp", _gtp, "go: an outside GTP program (default GNU Go level 1, Chinese "
                  "rules, dead stones played out; cmd='gnugo --mode gtp --level 10'), time=T "
                  "seconds a move", outside=True),
    ),
    defaults=("go-mcts:time=1",),
    warmups=_warmups,
    record=RecordFormat("sgf", "SGF file", _write_sgf, lambda text: text.startswith("(;"),
                        separator="\n", read=_read_sgf),
    verdict=VerdictPolicy(refuse=lambda game, state: None if game.size <= 3 else (
        "no exact verdict: Go is solved by search only on the smallest boards (use size=2 "
        "or 3)")),
    board=_board,
    svg=_svg,
    trainers=TRAINERS,
    title="Go",
    ending=_ending,
)
