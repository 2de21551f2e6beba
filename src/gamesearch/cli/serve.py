"""``gamesearch serve``: start the web app on a local address and print it."""

from __future__ import annotations

import socket

import typer

from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(0, "--port", help="port (0: a free one, printed)"),
    workers: int = typer.Option(0, "--workers", help="search processes (0: one per core)"),
    program: list[str] = typer.Option(
        [], "--program", metavar="NAME[=COMMAND]",
        help="an outside engine the page may offer by NAME (repeatable): 'stockfish', "
             "'gnugo=gnugo --mode gtp --level 10'; found on PATH now. Without it no request "
             "starts a program"),
) -> None:
    """Start the web app: play against the AI, tree lab, matrix lab (docs/WEB.md)."""
    try:
        import uvicorn

        from gamesearch.web import create_app
    except ImportError as err:
        raise GameSearchError(f"the web app needs its extras: pip install 'gamesearch[web]' "
                              f"({err.name} is missing)") from None
    if not 0 <= port <= 65535:
        raise GameSearchError(f"--port {port}: give a port from 0 to 65535")
    from gamesearch.outside.programs import parse_offers

    programs = parse_offers(program)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)  # connections made from now on wait until the app is ready
    except OSError as err:
        sock.close()
        raise GameSearchError(f"cannot listen on {host}:{port}: {err.strerror}") from None
    except (TypeError, ValueError):  # text no host name can encode (bytes that are not UTF-8)
        sock.close()
        raise GameSearchError(f"--host {host!r}: not a host name or an address") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"gamesearch web app: http://{shown}:{bound}/  (Ctrl-C stops it)", flush=True)
    from gamesearch.web.warm import warm_kernels

    # Connections made meanwhile wait in the socket's backlog: no request pays a compile.
    seconds = warm_kernels(lambda line: print(f"compiling kernels (cached after the first "
                                              f"run): {line}", flush=True))
    print(f"kernels ready in {seconds:.1f} s; starting the workers", flush=True)
    if programs:
        print("outside programs offered: " + ", ".join(sorted(programs)), flush=True)
    config = uvicorn.Config(create_app(workers or None, warm=True, programs=programs),
                            log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
