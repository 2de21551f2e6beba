"""``gamesearch uci``: the chess engine as a UCI engine on stdin/stdout (for chess GUIs)."""

from __future__ import annotations

import sys

from gamesearch.cli.main import app


@app.command("uci")
def uci_command() -> None:
    """Speak UCI on stdin/stdout: load 'gamesearch uci' as an engine in any chess GUI.

    gamesearch uci   (then: uci, isready, position startpos moves e2e4, go movetime 1000)
    """
    from gamesearch.cli.uci_session import UciSession

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    UciSession(send).run(sys.stdin)
