"""``gamesearch gtp``: Go through the Go Text Protocol on stdin/stdout (GoGui, Sabaki,
GNU Go's twogtp, or our own ``gtp`` player in matches)."""

from __future__ import annotations

import sys

import typer

from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


@app.command("gtp")
def gtp_command(
    agent: str = typer.Option("go-mcts:time=1", "--agent", help="the agent that makes our moves"),
    size: int = typer.Option(9, "--size", min=2, max=19, help="board size until boardsize"),
    komi: float = typer.Option(7.0, "--komi", help="komi until the komi command"),
) -> None:
    """Speak GTP on stdin/stdout: load 'gamesearch gtp' as an engine in any Go program.

    gamesearch gtp   (then: boardsize 9, komi 7, play b d4, genmove w, showboard, quit)
    """
    from gamesearch.agents import make_agent
    from gamesearch.catalog import check_agent_fits
    from gamesearch.cli.gtp_session import GtpSession
    from gamesearch.games.go.rules import Go

    game = Go(size=size, komi=komi)  # a bad size or komi is one line before anything starts
    check_agent_fits(agent, game)  # a bad spec, too
    make_agent(agent)

    def send(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        GtpSession(agent, size, komi).run(sys.stdin, send)
    except KeyboardInterrupt:
        raise GameSearchError("gtp: interrupted") from None
