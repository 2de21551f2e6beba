"""A running program that speaks the Go Text Protocol (version 2, checked at start), for the
players that drive one: Go engines (engines/go/gtp_player.py) and Othello engines such as
Edax (its ``-gtp`` mode, engines/othello/gtp_player.py). ``ask`` sends one command and
returns the answer; a program that refuses (``?``), dies or is late raises one line (the
arena records a forfeit).

The program's lifecycle (start, reader, deadlines, processor time, close) is the line
client's (outside/line_client.py); this class adds GTP's answer shape: ``=`` or ``?``, an
optional id, lines up to an empty one."""

from __future__ import annotations

import contextlib

from gamesearch.errors import GameSearchError
from gamesearch.outside.line_client import START_SECONDS, LineClient

GRACE_SECONDS = 5.0
"""How long past its move time a program may take to answer ``genmove``."""


class GtpClient(LineClient):
    """A running GTP program: ``ask`` sends one command and returns its answer."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        super().__init__(argv, cwd=cwd)
        try:
            version = self.ask("protocol_version")
        except GameSearchError:
            self.close()
            raise
        if version.strip() != "2":
            self.close()
            raise GameSearchError(f"{self.name} speaks GTP {version!r}, not 2")

    def _named(self, command: str) -> str:
        """GTP commands are short: a message names the whole command."""
        return repr(command)

    def ask(self, command: str, seconds: float = START_SECONDS) -> str:
        """The answer's text (without ``=``); one line when it is ``?``, dies or is late."""
        deadline = self._send(command) + seconds
        answer: list[str] = []
        while True:
            line = self._next_line(command, deadline, seconds)
            if not line.strip():
                if answer:
                    break
                continue
            answer.append(line)
        head = answer[0]
        if head.startswith("?"):
            raise GameSearchError(f"{self.name} refused {command!r}: {head[1:].strip()}")
        if not head.startswith("="):
            raise GameSearchError(f"{self.name} answered {head[:60]!r} to {command!r}: "
                                  "not GTP")
        first = head[1:].lstrip("0123456789").strip()
        return "\n".join([first, *answer[1:]]).strip()

    def _say_quit(self) -> None:
        """GTP's ``quit`` is a command with an answer; wait a second for it."""
        with contextlib.suppress(GameSearchError):
            self.ask("quit", 1.0)
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.close()
