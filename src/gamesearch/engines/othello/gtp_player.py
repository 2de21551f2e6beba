"""Outside Othello programs as gamesearch agents, over GTP: ``edax:level=5`` drives Edax
(github.com/abulmo/edax-reversi, built by the user; its ``-gtp`` mode), ``grhino:level=5``
drives GRhino (Debian's ``grhino`` package: ``/usr/games/gtp-rhino``, Logistello-style
pattern tables and an opening book), and ``gtp-othello:cmd=...`` any other program that
plays Othello through the Go Text Protocol, started with the flags the user writes.

GTP has no command to set a position up, so the player follows the game: each call finds
the moves that lead from the last position it saw to this one (the squares newly taken,
tried in every legal order, passes where a side has none) and sends them with ``play``;
a position it cannot reach that way (one set up from a board string) is one line. The
program's answer to ``genmove`` must be a legal move here, else the player raises one line
(the arena records a forfeit). Black moves first, as in Othello and GTP alike.
"""

from __future__ import annotations

import time
from pathlib import Path

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError, IllegalActionError, SpecError
from gamesearch.games.othello.notation import EMPTY
from gamesearch.games.othello.rules import PASS_MOVE
from gamesearch.outside.gtp_client import GRACE_SECONDS, GtpClient
from gamesearch.outside.programs import program_argv
from gamesearch.result import SearchResult, SearchStats

MOVE_SECONDS = 600.0
"""The longest a move may take before the program is called dead (levels are depths)."""
PATH_NODES = 200_000
"""How many positions the search for the moves between two positions may try."""


def program_home(program: str) -> str | None:
    """Where Edax finds its files: it reads ``data/eval.dat`` (its weights) from the folder
    it runs in, and a build keeps the program in ``bin/`` beside ``data/``; that folder, or
    None (run where we are) when there is no ``data`` beside the program's folder."""
    home = Path(program).resolve().parent.parent
    return str(home) if (home / "data").is_dir() else None


def moves_between(game, start, goal) -> list | None:
    """The actions that lead from ``start`` to ``goal`` (each new disc is one move, a side
    with no move passes), or None when there are none within :data:`PATH_NODES` tries."""
    wanted = {i for i, (a, b) in enumerate(zip(start[0], goal[0])) if a != b and a == EMPTY}
    budget = [PATH_NODES]

    def walk(state, left: frozenset) -> list | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if not left:
            if state == goal:
                return []
            if not game.is_terminal(state) and game.actions(state) == [PASS_MOVE]:
                after = game.result(state, PASS_MOVE)
                return [PASS_MOVE] if after == goal else None
            return None
        if game.is_terminal(state):
            return None
        for action in game.actions(state):
            if action != PASS_MOVE and action not in left:
                continue
            after = game.result(state, action)
            rest = walk(after, left - {action} if action != PASS_MOVE else left)
            if rest is not None:
                return [action, *rest]
        return None

    return walk(start, frozenset(wanted))


class OthelloGtpPlayer(Agent):
    """A GTP program playing Othello, started as ``argv``; ``spec`` names it in records.
    ``sends_passes`` False: the program passes for a side with no move by itself and
    refuses ``play b pass`` (GRhino), so a pass is not sent."""

    interactive = False

    def __init__(self, argv: list[str], spec: str, sends_passes: bool = True) -> None:
        self.argv, self.spec, self.sends_passes = argv, spec, sends_passes
        self.name = spec.split(":")[0]
        self.client: GtpClient | None = None
        self.known = None

    def prepare(self, game) -> None:
        """Start the program and give it a new board of the game's size."""
        if game.size != 8:
            raise GameSearchError(f"{self.name} plays 8x8 Othello, not "
                                  f"{game.size}x{game.size}")
        if self.client is None:
            self.client = GtpClient(self.argv, cwd=program_home(self.argv[0]))
        self.client.ask(f"boardsize {game.size}")
        self.client.ask("clear_board")
        self.known = game.initial_state()

    def reset(self) -> None:
        self.known = None

    def _sync(self, game, state) -> None:
        """Bring the program's board to ``state`` by the moves that lead there."""
        if self.known == state:
            return
        path = moves_between(game, self.known, state)
        if path is None:  # another game, or an earlier position: start again
            self.client.ask("clear_board")
            self.known = game.initial_state()
            path = moves_between(game, self.known, state)
        if path is None:
            raise GameSearchError(f"{self.argv[0]}: GTP cannot set up this position (it is "
                                  "not reached by moves from the start); play from the start "
                                  "or from an opening of moves")
        for action in path:
            if action != PASS_MOVE or self.sends_passes:
                colour = "bw"[game.to_move(self.known)]
                self.client.ask(f"play {colour} {game.action_to_string(self.known, action)}")
            self.known = game.result(self.known, action)

    def __call__(self, game, state) -> SearchResult:
        if self.client is None or self.known is None:
            self.prepare(game)
        self._sync(game, state)
        if not self.sends_passes and game.actions(state) == [PASS_MOVE]:
            # the program has passed for this side by itself: asking it would get the
            # other side's move
            self.known = game.result(state, PASS_MOVE)
            return SearchResult(None, PASS_MOVE, [PASS_MOVE], SearchStats(),
                                pov=game.to_move(state))
        colour = "bw"[game.to_move(state)]
        began = time.perf_counter()
        answer = self.client.ask(f"genmove {colour}", MOVE_SECONDS + GRACE_SECONDS).strip()
        try:
            action = game.string_to_action(state, answer.lower())
        except IllegalActionError:
            raise GameSearchError(f"{self.argv[0]} played {answer[:20]!r}, illegal here") \
                from None
        self.known = game.result(state, action)
        stats = SearchStats()
        stats.seconds = time.perf_counter() - began
        return SearchResult(None, action, [action], stats, pov=game.to_move(state))

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()


def edax_player(cmd: str = "edax", level: int | None = None) -> OthelloGtpPlayer:
    """Edax in its GTP mode; ``level`` is its ``-l N`` (search depth, 0-60)."""
    if level is not None and not 0 <= level <= 60:
        raise SpecError(f"edax: level must be 0 to 60, not {level}")
    argv = program_argv(cmd, "edax", "edax")
    if "-gtp" not in argv:
        argv.append("-gtp")
    if level is not None:
        argv += ["-l", str(level)]
    return OthelloGtpPlayer(argv, f"edax:cmd={cmd}" + (f",level={level}" if level is not None
                                                        else ""))


GRHINO_FLAGS = {"level": ("-l", 1, 5), "mid": ("-m", 1, 20), "end": ("-e", 1, 20),
                "win": ("-w", 1, 20), "book": ("-b", 0, 5), "rand": ("-r", 0, 10)}
"""GRhino's settings (``gtp-rhino --help``): AI level, midgame search depth, perfect and
winning-move endgame depths, opening book variation (0: none) and evaluation randomness."""


def grhino_player(cmd: str = "gtp-rhino", level: int | None = None, mid: int | None = None,
                  end: int | None = None, win: int | None = None, book: int | None = None,
                  rand: int | None = None) -> OthelloGtpPlayer:
    """GRhino's GTP front end with its own settings (None: the program's default)."""
    given = {"level": level, "mid": mid, "end": end, "win": win, "book": book, "rand": rand}
    argv = program_argv(cmd, "grhino", "gtp-rhino")
    spec = [f"cmd={cmd}"]
    for name, value in given.items():
        if value is None:
            continue
        flag, low, high = GRHINO_FLAGS[name]
        if not low <= value <= high:
            raise SpecError(f"grhino: {name} must be {low} to {high}, not {value}")
        argv += [flag, str(value)]
        spec.append(f"{name}={value}")
    return OthelloGtpPlayer(argv, "grhino:" + ",".join(spec), sends_passes=False)


def gtp_othello_player(cmd: str) -> OthelloGtpPlayer:
    """Any GTP Othello program, started exactly as ``cmd`` says (its own flags included)."""
    return OthelloGtpPlayer(program_argv(cmd, "gtp-othello", "gtp-rhino"),
                            f"gtp-othello:cmd={cmd}")
