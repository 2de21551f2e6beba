"""The exceptions gamesearch raises for bad input: each names the input that was wrong."""

from __future__ import annotations


class GameSearchError(Exception):
    """Bad input or an impossible request; the CLI prints it on one line and exits 2."""


class IllegalActionError(GameSearchError, ValueError):
    """A move that is not legal in the position, or that could not be parsed."""


class UnknownNameError(GameSearchError, KeyError):
    """An unknown game, agent or algorithm name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class SpecError(GameSearchError, ValueError):
    """A malformed spec string (``alphabeta:depth=8,time=1``) or parameter."""


class FileFormatError(GameSearchError, ValueError):
    """A broken input file (tree, matrix, benchmark); the message names file and line."""


class LimitError(GameSearchError):
    """A request beyond a limit that the user may raise (``--limit``): the message says
    which limit was reached."""
