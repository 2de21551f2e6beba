"""simplech (Martin Fierz's "simple checkers", the engine shipped with CheckerBoard) as a
gamesearch agent: ``simplech:cmd=PATH,time=T``.

simplech has no engine protocol of its own (CheckerBoard loads it as a DLL), so the
program driven here is simplech built with our small driver, bench/outside/simplech_driver.cpp
(``bench/outside/build_simplech.sh SRC_DIR OUT_DIR``, from a simplech source folder the
user has; nothing of simplech is in this package). The driver answers one line per
command: ``position FEN`` -> ``ok``, ``go SECONDS`` -> ``bestmove 15x24x31``.

Each move the player sends the whole position as PDN FEN (so it never follows the game
move by move and any position can be set up), then ``go``. A program that will not start,
dies, is late, answers anything but ``bestmove`` or a move that is not legal here raises
one line: the arena records a forfeit and the tournament goes on.
"""

from __future__ import annotations

import time as clock

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError, IllegalActionError, SpecError
from gamesearch.games.checkers.notation import fen
from gamesearch.outside.line_client import LineClient
from gamesearch.outside.programs import find_program, offered, program_argv
from gamesearch.result import SearchResult, SearchStats

GRACE_SECONDS = 5.0
"""How long past its own limit (three times the move time: simplech's cut-off) a search
may take before the program is called late."""
MAX_TIME = 3600.0


class SimplechPlayer(Agent):
    """simplech behind its line driver, started as ``argv``, ``seconds`` a move."""

    interactive = False

    def __init__(self, argv: list[str], spec: str, seconds: float) -> None:
        self.argv, self.spec, self.seconds = argv, spec, seconds
        self.name = "simplech"
        self.client: LineClient | None = None

    def prepare(self, game) -> None:
        """Start the program (once) and check that it speaks the driver's protocol."""
        if getattr(game, "name", "") != "checkers":
            raise GameSearchError(f"simplech plays checkers, not {getattr(game, 'name', game)}")
        if self.client is None:
            client = LineClient(self.argv)
            try:
                answer = client.ask("hello")
            except GameSearchError:
                client.close()
                raise
            if not answer.startswith("ok"):
                client.close()
                raise GameSearchError(f"{self.argv[0]} answered {answer[:60]!r} to 'hello': "
                                      "not simplech's driver (bench/outside/build_simplech.sh)")
            self.client = client

    def __call__(self, game, state) -> SearchResult:
        if self.client is None:
            self.prepare(game)
        client = self.client
        cells, mover = state[0], state[1]
        answer = client.ask(f"position {fen(cells, mover)}")
        if answer != "ok":
            raise GameSearchError(f"{self.argv[0]} refused the position: {answer[:80]!r}")
        began = clock.perf_counter()
        answer = client.ask(f"go {self.seconds:g}", 3 * self.seconds + GRACE_SECONDS)
        word, _, move = answer.partition(" ")
        if word != "bestmove" or not move.strip():
            raise GameSearchError(f"{self.argv[0]} answered {answer[:60]!r} to 'go': not "
                                  "'bestmove MOVE'")
        move = move.strip()
        if move == "none":
            raise GameSearchError(f"{self.argv[0]} says it has no move, but "
                                  f"{len(game.actions(state))} are legal here")
        try:
            action = game.string_to_action(state, move)
        except IllegalActionError:
            raise GameSearchError(f"{self.argv[0]} played {move[:20]!r}, illegal here") from None
        stats = SearchStats()
        stats.seconds = clock.perf_counter() - began
        return SearchResult(None, action, [action], stats, pov=mover)

    def cpu_seconds(self) -> float | None:
        """The processor time the running program has used (None when it is not running)."""
        return None if self.client is None else self.client.cpu_seconds()

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()


def simplech_player(cmd: str = "simplech", time: float = 1.0) -> SimplechPlayer:
    """simplech built with our driver, ``time`` seconds a move (its own fixed-time rule:
    it starts no iteration after 0.59 of it and cuts a search at three times it)."""
    if not 0 < time <= MAX_TIME:
        raise SpecError(f"simplech: time must be above 0 and at most {MAX_TIME:g} s, "
                        f"not {time:g}")
    if offered() is None:
        try:
            argv = find_program(cmd, "simplech", "simplech")
        except SpecError as err:
            if "no program" not in str(err):
                raise
            raise SpecError(f"simplech: no program {cmd.split()[0]!r} on this machine (PATH); "
                            "build it with bench/outside/build_simplech.sh SRC_DIR OUT_DIR and "
                            "give cmd=OUT_DIR/simplech") from None
    else:
        argv = program_argv(cmd, "simplech", "simplech")
    return SimplechPlayer(argv, f"simplech:cmd={cmd},time={time:g}", time)
