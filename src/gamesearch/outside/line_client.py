"""A running program that answers each command with one line (a small driver around an
engine that has no standard protocol, such as simplech in engines/checkers/simplech_player.py).

The same lifecycle as the GTP client: start, ``ask`` with a deadline, ``close`` (``quit``,
then a kill); a program that will not start, dies or is late raises one line, which the
arena records as a forfeit.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time

from gamesearch.errors import GameSearchError

START_SECONDS = 10.0
"""How long a program may take to answer a command that is not a search."""
MAX_LINE = 10_000
"""The longest answer read; a longer line is the program babbling."""


class LineClient:
    """A running program: ``ask`` sends one line and returns the line it answers.

    Subclasses that speak a richer protocol (the GTP client) keep the start, the reader,
    the deadline and the close, and replace ``ask`` with their own answer's shape, built
    on ``_send`` and ``_next_line``."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                         cwd=cwd)
        except OSError as err:
            raise GameSearchError(f"{argv[0]} did not start: {err}") from None
        self.name = argv[0]
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                line = self.proc.stdout.readline(MAX_LINE + 1)
                if not line:
                    break
                self.lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        self.lines.put(None)

    def _named(self, command: str) -> str:
        """How a message names ``command`` (its first word: a driver's lines may be long)."""
        return repr(command.split()[0]) if command.split() else repr(command)

    def _send(self, command: str) -> float:
        """Write ``command``; the deadline's start, or one line when the program has died."""
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise GameSearchError(f"{self.name} has stopped (it died before "
                                  f"{self._named(command)})") from None
        return time.monotonic()

    def _next_line(self, command: str, deadline: float, seconds: float) -> str:
        """The program's next line (maybe empty) before ``deadline``; one line when it has
        died or is late."""
        try:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise GameSearchError(f"{self.name} did not answer {self._named(command)} "
                                  f"within {seconds:g} s") from None
        if line is None:
            raise GameSearchError(f"{self.name} has stopped (while answering "
                                  f"{self._named(command)})")
        return line

    def ask(self, command: str, seconds: float = START_SECONDS) -> str:
        """The program's next non-empty line after ``command``; one line when it has died or
        says nothing within ``seconds``."""
        deadline = self._send(command) + seconds
        while True:
            line = self._next_line(command, deadline, seconds)
            if line.strip():
                return line.strip()

    def cpu_seconds(self) -> float | None:
        """The processor time the program has used so far (user + system, from
        /proc/PID/stat), or None where that cannot be read (not Linux, or it has ended)."""
        return process_cpu_seconds(self.proc.pid)

    def _say_quit(self) -> None:
        """Tell the program to end (a plain ``quit`` line, then end of input)."""
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.close()

    def close(self) -> None:
        """Ask the program to quit, give it a second, then kill it."""
        self._say_quit()
        try:
            self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def process_cpu_seconds(pid: int) -> float | None:
    """User + system processor seconds of a running process (Linux: /proc/PID/stat), or
    None where that cannot be read."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as handle:
            text = handle.read()
        fields = text[text.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
