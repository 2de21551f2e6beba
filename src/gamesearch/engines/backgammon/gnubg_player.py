"""GNU Backgammon as a gamesearch agent: ``gnubg:plies=0`` (Debian package ``gnubg``).

GNU Backgammon has no standard engine protocol, but it runs Python scripts inside itself
(``gnubg -t -q -p SCRIPT``) with its ``gnubg`` module. The player starts one such process
for its whole life, running a small server (:data:`SERVER`): each request is one JSON line
on the program's standard input (the board in gnubg's convention and the dice), each
answer one line on its standard output after a marker (gnubg's own chatter is skipped).
gnubg's best play is matched to one of our plays by the position it leads to, so both
sides agree on what was played whatever the notation. A program that will not start, dies,
is late past its grace, or answers a play that is not legal here raises one line (the
arena records a forfeit and the tournament goes on); ``close`` ends it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import tempfile
import threading
import time

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError, SpecError
from gamesearch.outside.programs import program_argv
from gamesearch.result import SearchResult, SearchStats

START_SECONDS = 20.0
"""How long the program may take to load its networks and say it is ready."""
MOVE_SECONDS = {0: 5.0, 1: 10.0, 2: 60.0, 3: 600.0}
"""How long a play may take at each search depth before the program is called dead."""
MARK = "GAMESEARCH "
"""What starts the server's lines, so gnubg's own output can be told apart."""

SERVER = r'''
import json
import sys

import gnubg

gnubg.command("set display off")
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies %(plies)d")
sys.stdout.write("%(mark)sready\n")
sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    gnubg.command("new game")
    board = tuple(tuple(side) for side in request["board"])
    gnubg.command("set board " + gnubg.positionid(board))
    gnubg.command("set dice %%d %%d" %% tuple(request["dice"]))
    try:
        move = gnubg.parsemove(gnubg.hint(1)["hint"][0]["move"])
    except Exception:  # no legal play: gnubg gives no hint
        move = []
    sys.stdout.write("%(mark)s" + json.dumps(move) + "\n")
    sys.stdout.flush()
'''


class GnubgClient:
    """A running gnubg with the server script: ``ask`` sends a request, returns the answer."""

    def __init__(self, argv: list[str], plies: int) -> None:
        handle, self.script = tempfile.mkstemp(prefix="gamesearch-gnubg-", suffix=".py")
        with os.fdopen(handle, "w") as out:
            out.write(SERVER % {"plies": plies, "mark": MARK})
        try:
            self.proc = subprocess.Popen([*argv, "-t", "-q", "-p", self.script],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as err:
            os.unlink(self.script)
            raise GameSearchError(f"{argv[0]} did not start: {err}") from None
        self.name = argv[0]
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        if self._answer("start", START_SECONDS) != "ready":
            self.close()
            raise GameSearchError(f"{self.name} did not start its server")

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith(MARK):
                self.lines.put(line[len(MARK):].strip())
        self.lines.put(None)

    def _answer(self, what: str, seconds: float) -> str:
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            raise GameSearchError(f"{self.name} did not answer ({what}) within "
                                  f"{seconds:g} s") from None
        if line is None:
            raise GameSearchError(f"{self.name} has stopped (while answering {what})")
        return line

    def ask(self, board: tuple, dice: tuple[int, int], seconds: float) -> list:
        """gnubg's best play for ``board`` and ``dice``: a list of (from, to) steps."""
        try:
            self.proc.stdin.write(json.dumps({"board": board, "dice": list(dice)}) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise GameSearchError(f"{self.name} has stopped (it died before a move)") from None
        answer = self._answer("a move", seconds)
        try:
            steps = json.loads(answer)
            return [(int(a), int(b)) for a, b in steps]
        except (ValueError, TypeError):
            raise GameSearchError(f"{self.name} answered {answer[:60]!r}: not a move") \
                from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            os.unlink(self.script)


class GnubgPlayer(Agent):
    """GNU Backgammon choosing its best chequer play at ``plies`` (0 = its network alone)."""

    interactive = False

    def __init__(self, cmd: str = "gnubg", plies: int = 0) -> None:
        if plies not in MOVE_SECONDS:
            raise SpecError(f"gnubg: plies must be 0 to {max(MOVE_SECONDS)}, not {plies}")
        self.argv = program_argv(cmd, "gnubg", "gnubg")
        self.plies = plies
        self.spec = f"gnubg:plies={plies}" + ("" if cmd == "gnubg" else f",cmd={cmd}")
        self.client: GnubgClient | None = None

    def prepare(self, game) -> None:
        """Start the program (it loads its networks) before any clock runs."""
        if self.client is None:
            self.client = GnubgClient(self.argv, self.plies)

    def __call__(self, game, state) -> SearchResult:
        from gamesearch.games.backgammon import move_checker, relative, to_gnubg_board

        if state.dice is None:
            raise GameSearchError("backgammon: roll the dice before moving")
        began = time.perf_counter()
        plays = game.plays(state)
        if len(plays) == 1:  # forced (or no move at all): nothing to ask
            action = plays[0][0]
        else:
            self.prepare(game)
            steps = self.client.ask(to_gnubg_board(state), tuple(state.dice),
                                    MOVE_SECONDS[self.plies])
            my, opp, _ = relative(state)
            try:
                for src, dst in steps:
                    move_checker(my, opp, src, dst)
            except (IndexError, ValueError):
                raise GameSearchError(f"gnubg played {steps}, illegal here") from None
            target = (tuple(my), tuple(opp))
            matches = [play for play, position in plays if position == target]
            if not matches:
                raise GameSearchError(f"gnubg played {steps}, illegal here")
            action = matches[0]
        stats = SearchStats()
        stats.seconds = time.perf_counter() - began
        return SearchResult(None, action, [action], stats)

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()
