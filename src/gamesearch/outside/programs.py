"""Finding an outside program a player drives (a UCI or GTP engine, gnubg, Edax).

On the command line ``cmd`` is the user's own: any program on PATH or a path. A server
(the web app) instead names the programs it offers when it starts (:func:`offer`); from
then on, in that process, :func:`program_argv` starts only those, chosen by name, with the
operator's arguments, whatever a request asked for. A request never names a path or an
argument, and an unknown name is refused before anything starts.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from gamesearch.errors import SpecError

_OFFERED: dict[str, list[str]] | None = None
"""None: unrestricted (the command line). Otherwise the programs a server offers, by name."""


def find_program(cmd: str, kind: str, hint: str) -> list[str]:
    """``cmd`` split into its arguments with the program found on PATH or in /usr/games
    (where Debian puts game engines, often not on PATH); one line naming ``hint`` if not."""
    try:
        argv = shlex.split(cmd)
    except ValueError as err:
        raise SpecError(f"{kind}: cannot read cmd {cmd!r}: {err}") from None
    if not argv:
        raise SpecError(f"{kind}: cmd is empty; give the program, e.g. cmd={hint}")
    found = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/games")
    if found is None:
        raise SpecError(f"{kind}: no program {argv[0]!r} on this machine (PATH); install it "
                        f"or give its path, e.g. cmd=/usr/games/{hint.split()[0]}")
    return [found, *argv[1:]]


def parse_offers(texts: list[str]) -> dict[str, list[str]]:
    """``NAME`` or ``NAME=COMMAND LINE`` texts (``serve --program``) as name -> argv, each
    program found now; a name appears once. ``stockfish`` offers Stockfish as
    ``stockfish``; ``gnugo=gnugo --mode gtp --level 10`` offers GNU Go at level 10."""
    offers: dict[str, list[str]] = {}
    for text in texts:
        name, _, command = text.partition("=")
        name = name.strip()
        if not name or not name.replace("-", "").replace("_", "").isalnum():
            raise SpecError(f"--program {text!r}: give NAME or NAME=COMMAND, the name in "
                            "letters, digits, - and _ (a request chooses the program by it)")
        if name in offers:
            raise SpecError(f"--program: {name!r} is named twice")
        command = command.strip() or name
        try:
            offers[name] = find_program(command, "--program", name)
        except SpecError:
            raise SpecError(f"--program {text!r}: no program {command.split()[0]!r} on this "
                            "machine (PATH, /usr/games); install it or give its path, "
                            f"e.g. {name}=/usr/games/{name}") from None
    return offers


def offer(programs: dict[str, list[str]]) -> None:
    """From now on, in this process, start only ``programs`` (name -> argv), by name."""
    global _OFFERED
    _OFFERED = {name: list(argv) for name, argv in programs.items()}


def offered() -> dict[str, list[str]] | None:
    """The programs a server offers (name -> argv), or None where any may be started."""
    return _OFFERED


def program_argv(cmd: str, kind: str, hint: str) -> list[str]:
    """The argv to start for a player's ``cmd``: the user's own program on the command line;
    in a server, the offered program that ``cmd`` names (its first word; the arguments are
    the operator's), else one line that names what is offered and no path."""
    if _OFFERED is None:
        return find_program(cmd, kind, hint)
    words = cmd.split()
    name = words[0] if words else ""
    if name not in _OFFERED:
        names = ", ".join(sorted(_OFFERED)) or "none"
        raise SpecError(f"{kind}: this server does not offer a program named "
                        f"{Path(name).name!r} (it offers: {names})")
    return list(_OFFERED[name])
