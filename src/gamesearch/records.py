"""The mark on the record files gamesearch writes (PGN, PDN, SGF), so that ``pgn/sgf/pdn
write`` replace only files we made. Knows formats, not games: each game's writer (games/)
puts the mark in, and the faces check it before replacing a file.
"""

from __future__ import annotations

from typing import Any

GENERATOR = "gamesearch"
"""The mark our record files carry, so that ``pgn/sgf/pdn write`` replace only files we
made: PGN and PDN games get the tag ``[Generator "gamesearch VERSION"]`` (tags unknown to
a reader are kept and ignored by the standards), SGF games the root property
``AP[gamesearch:VERSION]`` (SGF's own "application that wrote the file")."""


def generator_tag() -> str:
    """The value of the ``Generator`` tag our PGN and PDN games carry."""
    from gamesearch import __version__

    return f"{GENERATOR} {__version__}"


def _first_game_head(text: str, opener: str) -> str:
    """The text of the first game up to its moves: the tag lines of PGN/PDN, the root node
    of SGF (what a mark must be found in)."""
    text = text.lstrip("\ufeff \t\r\n")
    if opener == "(;":
        end = text.find(";", 2)
        return text[:end if end >= 0 else len(text)]
    lines = []
    for line in text.splitlines():
        if not line.strip().startswith("["):
            break
        lines.append(line.strip())
    return "\n".join(lines)


def record_is_ours(kind: str, text: str) -> bool:
    """Whether ``text`` (the start of a file) is a record file that gamesearch wrote:
    ``kind`` is pgn, pdn or sgf; its first game carries our mark (:data:`GENERATOR`)."""
    if kind == "sgf":
        head = _first_game_head(text, "(;")
        return text.lstrip("\ufeff \t\r\n").startswith("(;") and \
            f"AP[{GENERATOR}:" in head
    head = _first_game_head(text, "[")
    return f'[Generator "{GENERATOR} ' in head or f'[Generator "{GENERATOR}"]' in head


def record_file_is_ours(kind: str, path: Any) -> bool:
    """:func:`record_is_ours` on the first 64 KiB of the regular file ``path``."""
    from gamesearch.durable import head

    return record_is_ours(kind, head(path).decode("utf-8", "replace"))
