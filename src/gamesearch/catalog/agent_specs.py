"""The game-specific agent kinds, registered into the agent registry (agents/ knows no game):
``solver`` (Connect Four), ``gammon`` (backgammon), ``pacman`` and ``ghost``, ``pig-optimal``,
``othello``.
Each factory imports its agent only when one is made."""

from __future__ import annotations

from gamesearch.agents import Agent, register_agent
from gamesearch.engines.connect4.perfect import solver_agent

register_agent("solver", solver_agent,
               "perfect play from a game's exact solver (connect4; weak=true, seed=N)")


def _gammon(depth: int = 2, pruning: str = "star2", samples: int | None = None,
            seed: int | None = None, kernel: bool = True) -> Agent:
    from gamesearch.engines.backgammon.agent import GammonAgent

    return GammonAgent(depth=depth, pruning=None if pruning == "none" else pruning,
                       samples=samples, seed=seed, kernel=kernel)


register_agent("gammon", _gammon, "backgammon: depth-2 expectiminimax with the hand-written "
               "evaluation, compiled (kernel=false: Star2 in Python; pruning=, samples=K)")


def _pacman(algorithm: str = "expectimax", depth: int = 2, seed: int | None = None,
            pruning: str = "course") -> Agent:
    from gamesearch.engines.pacman.agents import PacmanAgent

    return PacmanAgent(algorithm=algorithm, depth=depth, seed=seed, pruning=pruning)


def _ghost(kind: str = "random", depth: int = 1, seed: int | None = None,
           chase: float = 0.8) -> Agent:
    from gamesearch.engines.pacman.agents import GhostAgent

    return GhostAgent(kind=kind, depth=depth, seed=seed, chase=chase)


register_agent("pacman", _pacman, "Pacman searching depth=N full rounds "
               "(algorithm=expectimax|minimax|alphabeta|greedy|random; alpha-beta "
               "pruning=course|fast)")
register_agent("ghost", _ghost, "a Pacman ghost: kind=random|directional|adversarial "
               "(depth=N rounds for adversarial, chase=P for directional)")


def _pig_optimal() -> Agent:
    from gamesearch.engines.pig.agent import PigOptimalAgent

    return PigOptimalAgent()


register_agent("pig-optimal", _pig_optimal, "Pig: optimal play from the solved table")


def _chess_engine(time: float = 1.0, depth: int | None = None, hash: int = 64,
                  tables: str | None = None, threads: int = 1) -> Agent:
    from gamesearch.engines.chess.engine import ChessAgent

    return ChessAgent(time=time, depth=depth, hash_mb=hash, tables=tables, threads=threads)


register_agent("chess-engine", _chess_engine, "chess: the compiled engine (PVS, TT, "
               "quiescence), time=T seconds a move or depth=N plies, hash=MB, "
               "tables=DIR (endgame tables: perfect play where they hold the position), "
               "threads=N (Lazy SMP, 1-64)")


def _checkers_engine(time: float = 1.0, depth: int | None = None, nodes: int | None = None,
                     hash: int = 32, weights: str = "hand", tables: str | None = None) -> Agent:
    from gamesearch.engines.checkers.engine import CheckersAgent

    return CheckersAgent(time=time, depth=depth, nodes=nodes, hash_mb=hash, weights=weights,
                         tables=tables)


register_agent("checkers-engine", _checkers_engine, "checkers: the compiled engine (PVS, TT, "
               "killers, history), time=T, depth=N or nodes=N, weights=hand|learned, "
               "tables=DIR (endgame databases), hash=MB")


def _go_mcts(time: float = 1.0, playouts: int | None = None, rave: float = 1000.0,
             c: float = 0.2, seed: int | None = None, selfatari: bool = True,
             reuse: bool = True, patterns: bool = True, fpu: float = 0.0,
             prior: float = 20.0) -> Agent:
    from gamesearch.engines.go.mcts import GoMCTSAgent

    return GoMCTSAgent(time=time, playouts=playouts, rave=rave, c=c, seed=seed,
                       selfatari=selfatari, reuse=reuse, patterns=patterns, fpu=fpu,
                       prior=prior)


register_agent("go-mcts", _go_mcts, "go: compiled MCTS with RAVE and eye-aware random "
               "play-outs, time=T seconds a move or playouts=N, rave=K, c=C, seed=N, "
               "selfatari=false lets play-outs self-atari big chains, reuse=false starts "
               "each move with a new tree, patterns=false drops MoGo's 3x3 patterns from the "
               "play-outs, fpu=F: an "
               "unvisited child's bonus over its AMAF value (0; 1: try each child once first), "
               "prior=N: new children's AMAF statistics start from Go knowledge (captures, "
               "saves, patterns, self-ataris) worth N simulations (20; 0: none)")


def _gtp(cmd: str | None = None, time: float | None = None) -> Agent:
    from gamesearch.engines.go.gtp_player import DEFAULT_CMD, GtpPlayer

    return GtpPlayer(cmd=cmd or DEFAULT_CMD, time=time)


register_agent("gtp", _gtp, "go: an outside GTP program (default GNU Go level 1, Chinese "
               "rules, dead stones played out; cmd='gnugo --mode gtp --level 10'), time=T "
               "seconds a move", outside=True)


def _uci(cmd: str = "stockfish", time: float | None = 0.1, depth: int | None = None,
         elo: int | None = None, threads: int = 1, hash: int = 16) -> Agent:
    from gamesearch.engines.chess.uci_player import UciPlayer

    return UciPlayer(cmd=cmd, time=time, depth=depth, elo=elo, threads=threads, hash=hash)


register_agent("uci", _uci, "chess: an outside UCI engine (cmd=stockfish, or cmd=gamesearch "
               "uci), time=T seconds a move or depth=N, elo=N (UCI_LimitStrength), threads, "
               "hash=MB", outside=True)


def _edax(level: int | None = None, cmd: str = "edax") -> Agent:
    from gamesearch.engines.othello.gtp_player import OthelloGtpPlayer

    return OthelloGtpPlayer(cmd=cmd, level=level)


register_agent("edax", _edax, "othello: Edax (built by you; github.com/abulmo/edax-reversi) "
               "or any GTP Othello program, level=N (Edax's search depth), cmd=PATH",
               outside=True)


def _pubeval() -> Agent:
    from gamesearch.engines.backgammon.td import pubeval_agent

    return pubeval_agent()


def _td_gammon(depth: int = 0, weights: str | None = None) -> Agent:
    from gamesearch.engines.backgammon.td import td_gammon_agent

    return td_gammon_agent(depth=depth, weights=weights)


register_agent("pubeval", _pubeval, "backgammon: Tesauro's published linear evaluation, 0-ply "
               "(the yardstick of TD-Gammon replications)")
register_agent("td-gammon", _td_gammon, "backgammon: the TD(lambda) self-play network, depth=0 "
               "or 2 (expectiminimax over the 21 rolls); weights=FILE (default: shipped)")


def _gnubg(plies: int = 0, cmd: str = "gnubg") -> Agent:
    from gamesearch.engines.backgammon.gnubg_player import GnubgPlayer

    return GnubgPlayer(cmd=cmd, plies=plies)


register_agent("gnubg", _gnubg, "backgammon: GNU Backgammon's best chequer play (Debian "
               "package gnubg), plies=0..3 (0 = its network alone), cmd=PATH",
               outside=True)


def _alphazero(simulations: int = 800, weights: str | None = None, c: float = 1.5,
               policy: bool = False) -> Agent:
    from gamesearch.engines.connect4.alphazero import alphazero_agent

    return alphazero_agent(simulations=0 if policy else simulations, weights=weights, c=c)


register_agent("alphazero", _alphazero, "connect4: PUCT with the self-play policy-value "
               "network, simulations=N (policy=true: the policy alone, no search), "
               "weights=FILE, c=1.5")


def _othello(depth: int | None = None, evaluation: str = "learned", solve: int = 14,
             time: float | None = None) -> Agent:
    from gamesearch.engines.othello.engine import OthelloAgent

    return OthelloAgent(depth=depth, evaluation=evaluation, solve=solve, time=time)


register_agent("othello", _othello, "Othello: PVS to depth=N (default 4) or as deep as "
               "time=T seconds allow, with the learned pattern evaluation (evaluation=hand: "
               "disc count + mobility + corners), exact solve at solve=14 empties")
