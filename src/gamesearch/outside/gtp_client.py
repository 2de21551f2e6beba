"""A running program that speaks the Go Text Protocol (version 2, checked at start), for the
players that drive one: Go engines (engines/go/gtp_player.py) and Othello engines such as
Edax (its ``-gtp`` mode, engines/othello/gtp_player.py). ``ask`` sends one command and
returns the answer; a program that refuses (``?``), dies or is late raises one line (the
arena records a forfeit)."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time

from gamesearch.errors import GameSearchError

START_SECONDS = 10.0
"""How long a program may take to answer a command that is not a move."""
GRACE_SECONDS = 5.0
"""How long past its move time a program may take to answer ``genmove``."""


class GtpClient:
    """A running GTP program: ``ask`` sends one command and returns its answer."""

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
        try:
            version = self.ask("protocol_version")
        except GameSearchError:
            self.close()
            raise
        if version.strip() != "2":
            self.close()
            raise GameSearchError(f"{self.name} speaks GTP {version!r}, not 2")

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def ask(self, command: str, seconds: float = START_SECONDS) -> str:
        """The answer's text (without ``=``); one line when it is ``?``, dies or is late."""
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise GameSearchError(f"{self.name} has stopped (it died before {command!r})") \
                from None
        deadline = time.monotonic() + seconds
        answer: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise GameSearchError(f"{self.name} did not answer {command!r} within "
                                      f"{seconds:g} s") from None
            if line is None:
                raise GameSearchError(f"{self.name} has stopped (while answering "
                                      f"{command!r})")
            if not answer and not line.strip():
                continue
            if line.strip() == "" and answer:
                break
            answer.append(line)
        head = answer[0]
        if head.startswith("?"):
            raise GameSearchError(f"{self.name} refused {command!r}: {head[1:].strip()}")
        if not head.startswith("="):
            raise GameSearchError(f"{self.name} answered {head[:60]!r} to {command!r}: "
                                  "not GTP")
        first = head[1:].lstrip("0123456789").strip()
        return "\n".join([first, *answer[1:]]).strip()

    def close(self) -> None:
        with contextlib.suppress(GameSearchError):
            self.ask("quit", 1.0)
        try:
            self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
