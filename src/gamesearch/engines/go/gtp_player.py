"""An outside Go program as a gamesearch agent, over the Go Text Protocol:
``gtp:cmd=gnugo --mode gtp --level 10,time=10`` (the default command is GNU Go with
Chinese rules and ``--capture-all-dead``, so it plays dead stones out and Tromp-Taylor
area scoring of the last board is fair to it; CGOS scores the same way).

The player keeps the program's board in step with the game: each call finds the
opponent's move that leads from the last position it saw (or, for any other position,
clears the board and sets the stones up with ``play`` commands, which never capture in a
legal position). ``genmove`` answers a vertex or ``pass``; a program that resigns is
answered by a pass in the game (our rules have no resignation; the game is then scored),
and ``resigned`` is counted. A program that dies, stops answering within its time plus a
grace, or answers an illegal move raises one line (the arena records a forfeit).
"""

from __future__ import annotations

import time

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError
from gamesearch.outside.gtp_client import GRACE_SECONDS, GtpClient
from gamesearch.outside.programs import program_argv
from gamesearch.result import SearchResult, SearchStats

DEFAULT_CMD = "gnugo --mode gtp --chinese-rules --capture-all-dead --level 1"


class GtpPlayer(Agent):
    """A GTP program playing Go: ``time`` seconds a move (``time_settings 0 T 1``)."""

    interactive = False

    def __init__(self, cmd: str = DEFAULT_CMD, time: float | None = None) -> None:
        self.argv = program_argv(cmd, "gtp", "gnugo --mode gtp")
        self.time = time
        self.spec = f"gtp:cmd={cmd}" + (f",time={time:g}" if time is not None else "")
        self.client: GtpClient | None = None
        self.known = None
        self.resigned = 0

    def prepare(self, game) -> None:
        """Start the program and give it the board size, komi and clock."""
        if self.client is None:
            self.client = GtpClient(self.argv)
        self.client.ask(f"boardsize {game.size}")
        self.client.ask(f"komi {game.komi:g}")
        if self.time is not None:
            self.client.ask(f"time_settings 0 {self.time:g} 1")
        self.client.ask("clear_board")
        self.known = game.initial_state()

    def reset(self) -> None:
        self.known = None

    def _sync(self, game, state) -> None:
        """Bring the program's board to ``state``."""
        from gamesearch.games.go.notation import vertex

        if self.known is not None and self.known[0] == state[0] and \
                self.known[1] == state[1]:
            return
        if self.known is not None and not game.is_terminal(self.known):
            for action in game.actions(self.known):
                after = game.result(self.known, action)
                if after[0] == state[0] and after[1] == state[1]:
                    colour = "bw"[self.known[1]]
                    self.client.ask(f"play {colour} {vertex(action, game.size)}")
                    self.known = state
                    return
        self.client.ask("clear_board")
        for point, stone in enumerate(state[0]):
            if stone != ".":
                self.client.ask(f"play {'b' if stone == 'X' else 'w'} "
                                f"{vertex(point, game.size)}")
        self.known = state

    def __call__(self, game, state) -> SearchResult:
        from gamesearch.games.go.notation import parse_vertex

        if self.client is None or self.known is None:
            self.prepare(game)
        self._sync(game, state)
        colour = "bw"[state[1]]
        began = time.perf_counter()
        limit = (self.time if self.time is not None else 60.0) + GRACE_SECONDS
        answer = self.client.ask(f"genmove {colour}", limit).lower()
        if answer == "resign":
            self.resigned += 1
            action = game.pass_action
        else:
            try:
                action = parse_vertex(answer, game.size)
            except GameSearchError:
                raise GameSearchError(f"{self.argv[0]} answered {answer[:20]!r} to genmove: "
                                      "not a vertex") from None
        if action not in game.actions(state):
            raise GameSearchError(f"{self.argv[0]} played {answer!r}, illegal here")
        self.known = game.result(state, action)
        stats = SearchStats()
        stats.seconds = time.perf_counter() - began
        return SearchResult(None, action, [action], stats, pov=state[1])

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()
