"""Finding an outside program a player drives (a UCI or GTP engine)."""

from __future__ import annotations

import shlex
import shutil

from gamesearch.errors import SpecError


def program_argv(cmd: str, kind: str, hint: str) -> list[str]:
    """``cmd`` split into its arguments with the program found on PATH or in /usr/games
    (where Debian puts game engines, often not on PATH); one line naming ``hint`` if not."""
    argv = shlex.split(cmd)
    if not argv:
        raise SpecError(f"{kind}: cmd is empty; give the program, e.g. cmd={hint}")
    found = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/games")
    if found is None:
        raise SpecError(f"{kind}: no program {argv[0]!r} on this machine (PATH); install it "
                        f"or give its path, e.g. cmd=/usr/games/{hint.split()[0]}")
    return [found, *argv[1:]]
