"""The Go Text Protocol (GTP 2) engine side: what ``gamesearch gtp`` says to GoGui, Sabaki
or GNU Go's twogtp. A request is ``[id] command [arguments]``; the answer is ``=[id]
result`` or ``?[id] error``, then an empty line. Bad input of any kind is an error
answer, never a crash.

Commands: protocol_version, name, version, known_command, list_commands, quit, boardsize,
clear_board, komi, play, genmove, undo, showboard, final_score, time_settings, time_left,
loadsgf (``loadsgf FILE [N]``: the file's first game up to before move N, its size and
komi too).
GTP lets a colour play twice in a row (setting up a position): the move is then played as
that colour's, with the other side's turn skipped (no pass is recorded).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from gamesearch.errors import GameSearchError
from gamesearch.games.go.handicap import fixed_handicap_points, max_fixed_handicap
from gamesearch.games.go.notation import MAX_SIZE, MIN_SIZE, parse_vertex, vertex
from gamesearch.games.go.rules import Go

COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
            "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
            "final_score", "time_settings", "time_left", "loadsgf", "fixed_handicap",
            "place_free_handicap", "set_free_handicap")
RESIGN_BELOW = -0.95
"""genmove resigns when the search's value for the mover is below this."""
MAX_LINE = 10_000


class GtpError(Exception):
    """A request that gets a ``?`` answer (its text is the answer)."""


class GtpSession:
    """One GTP conversation: the game so far and the agent that makes our moves."""

    def __init__(self, agent: str = "go-mcts:time=1", size: int = 9, komi: float = 7.0) -> None:
        from gamesearch.spec import parse_spec

        self.agent_name, self.agent_params = parse_spec(agent)
        self.size, self.komi = size, komi
        self.main_time: float | None = None
        self.time_left: dict[int, float] = {}
        self.finished = False
        self.clear()

    # --- the position ----------------------------------------------------------------------
    def clear(self) -> None:
        self.game = Go(size=self.size, komi=self.komi)
        self.history = [self.game.initial_state()]

    @property
    def state(self):
        return self.history[-1]

    def _colour(self, word: str) -> int:
        w = word.lower()
        if w in ("b", "black"):
            return 0
        if w in ("w", "white"):
            return 1
        raise GtpError(f"invalid color {word[:20]!r}")

    def _as_mover(self, colour: int):
        """The current state with ``colour`` to move (GTP may play one colour twice)."""
        s = self.state
        return s if s[1] == colour else (s[0], colour, s[2], s[3], s[4])

    # --- commands --------------------------------------------------------------------------
    def handle(self, line: str) -> str | None:
        """The full answer to one request line (None for an empty or comment line)."""
        text = line.split("#", 1)[0].replace("\t", " ").strip()
        if not text:
            return None
        words = text.split()
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} no command\n"
        command, args = words[0].lower(), words[1:]
        try:
            if len(line) > MAX_LINE:
                raise GtpError("line too long")
            result = self._dispatch(command, args)
        except GtpError as err:
            return f"?{ident} {err}\n"
        except GameSearchError as err:
            return f"?{ident} {str(err).splitlines()[0]}\n"
        return f"={ident} {result}".rstrip(" ") + "\n"

    def _dispatch(self, command: str, args: list[str]) -> str:
        if command not in COMMANDS:
            raise GtpError("unknown command")
        method = getattr(self, f"cmd_{command}")
        return method(args)

    def cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def cmd_name(self, args: list[str]) -> str:
        return "gamesearch"

    def cmd_version(self, args: list[str]) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("gamesearch")
        except PackageNotFoundError:
            return "dev"

    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0].lower() in COMMANDS else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def cmd_quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].isascii() or not args[0].isdigit() or len(args[0]) > 3:
            raise GtpError("boardsize needs one whole number")
        size = int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self.size = size
        self.clear()
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self.clear()
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0]) if len(args) == 1 and len(args[0]) < 20 else math.nan
        except ValueError:
            komi = math.nan
        if not math.isfinite(komi) or abs(komi) > MAX_SIZE ** 2 or komi * 2 != int(komi * 2):
            raise GtpError("komi not a float (a multiple of 0.5)")
        self.komi = komi
        states = self.history
        self.game = Go(size=self.size, komi=komi)
        self.history = states
        return ""

    def cmd_play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("play needs a color and a vertex")
        colour = self._colour(args[0])
        try:
            point = parse_vertex(args[1], self.size)
        except GameSearchError:
            raise GtpError("invalid vertex") from None
        state = self._as_mover(colour)
        try:
            self.history.append(self.game.result(state, point))
        except GameSearchError:
            raise GtpError("illegal move") from None
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("genmove needs a color")
        colour = self._colour(args[0])
        state = self._as_mover(colour)
        if self.game.is_terminal(state):
            state = (state[0], state[1], 0, state[3], state[4])  # GTP goes on after passes
        result = self._agent(colour)(self.game, state)
        value = result.value if isinstance(result.value, (int, float)) else None
        if value is not None and result.pov not in (None, colour):
            value = -value
        empty = state[0].count(".")
        if value is not None and value < RESIGN_BELOW and empty < self.size * self.size // 2:
            return "resign"
        self.history.append(self.game.result(state, result.action))
        return vertex(result.action, self.size)

    def _agent(self, colour: int):
        """The agent for one move, its time cut to what the clock allows."""
        from gamesearch.agents import make_agent

        params = dict(self.agent_params)
        left = self.time_left.get(colour)
        if left is not None:
            share = max(0.05, left / max(10, self.state[0].count(".") // 2))
            current = float(params.get("time", share))
            params["time"] = f"{min(current, share):.3f}"
        spec = self.agent_name + (":" + ",".join(f"{k}={v}" for k, v in params.items())
                                  if params else "")
        return make_agent(spec)

    # --- handicap (GTP 2, 4.1.1-4.1.3): Black's stones before the game, then White moves -----
    def _handicap_count(self, args: list[str]) -> int:
        if len(self.history) > 1 or self.state[0].count(".") != self.size * self.size:
            raise GtpError("board not empty")
        if len(args) != 1 or not args[0].isascii() or not args[0].isdigit() or \
                len(args[0]) > 3 or int(args[0]) < 2:
            raise GtpError("invalid number of stones")
        return int(args[0])

    def _place(self, points: list[int]) -> str:
        self.history = [self.game.with_handicap(points)]
        return " ".join(vertex(p, self.size) for p in points)

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        n = self._handicap_count(args)
        if not 2 <= n <= max_fixed_handicap(self.size):
            raise GtpError("invalid number of stones")
        return self._place(fixed_handicap_points(self.size, n))

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        """Our choice is the fixed placement; past its largest count we place that many
        (GTP allows fewer stones where more cannot matter)."""
        n = self._handicap_count(args)
        most = max_fixed_handicap(self.size)
        if most == 0 or n >= self.size * self.size:
            raise GtpError("invalid number of stones")
        return self._place(fixed_handicap_points(self.size, min(n, most)))

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        if len(self.history) > 1 or self.state[0].count(".") != self.size * self.size:
            raise GtpError("board not empty")
        try:
            points = [parse_vertex(a, self.size) for a in args]
        except GameSearchError:
            raise GtpError("bad vertex list") from None
        if len(points) < 2 or self.size * self.size in points or \
                len(set(points)) != len(points) or len(points) >= self.size * self.size:
            raise GtpError("bad vertex list")
        self._place(points)
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        if len(self.history) < 2:
            raise GtpError("cannot undo")
        self.history.pop()
        return ""

    def cmd_showboard(self, args: list[str]) -> str:
        return "\n" + self.game.render(self.state)

    def cmd_final_score(self, args: list[str]) -> str:
        margin = self.game.score(self.state)
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def cmd_time_settings(self, args: list[str]) -> str:
        numbers = self._numbers(args, 3)
        self.main_time = numbers[0]
        self.time_left = {}
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpError("time_left needs a color, seconds and stones")
        colour = self._colour(args[0])
        seconds, _ = self._numbers(args[1:], 2)
        self.time_left[colour] = seconds
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        from gamesearch.games.go.sgf import MAX_BYTES, read_sgf
        from gamesearch.textinput import read_input

        if not 1 <= len(args) <= 2 or (len(args) == 2 and not (
                args[1].isascii() and args[1].isdigit() and len(args[1]) < 6)):
            raise GtpError("loadsgf needs a file and an optional move number")
        try:
            data = read_input(args[0], "SGF file", MAX_BYTES)
        except GameSearchError:
            raise GtpError("cannot load file") from None
        records = read_sgf(data)
        if not records:
            raise GtpError("cannot load file: no game")
        record = records[0]
        states = record.states()
        upto = len(states) if len(args) == 1 else max(1, min(len(states), int(args[1])))
        self.size, self.komi = record.size, record.komi
        self.game = record.game()
        self.history = states[:upto]
        return ""

    @staticmethod
    def _numbers(args: list[str], count: int) -> list[float]:
        try:
            values = [float(a) for a in args if len(a) < 20]
        except ValueError:
            values = []
        if len(values) != count or len(args) != count or \
                not all(math.isfinite(v) and v >= 0 for v in values):
            raise GtpError(f"expected {count} non-negative numbers")
        return values

    # --- the loop ----------------------------------------------------------------------------
    def run(self, lines: Iterable[str], send: Callable[[str], None]) -> None:
        """Answer every request until ``quit`` or the end of input."""
        for line in lines:
            answer = self.handle(line)
            if answer is not None:
                send(answer + "\n")
            if self.finished:
                return
