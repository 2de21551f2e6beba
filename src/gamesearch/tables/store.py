"""The files of an endgame database: one per slice, a manifest naming them with checksums.

A slice file holds the slice's values packed four to a byte (two bits each: WIN, LOSS,
DRAW; slot ``2 * index + side to move``), then one byte per slot with the distance in
plies. ``manifest.json`` (written last, atomically) names the format, the game and, per
slice, the slot count, the byte count and the SHA-256 of the file: a file that is
truncated, damaged or not ours is detected before a value is read, never silently used.
Probing memory-maps the file, so a lookup reads one byte.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import OutputFileError, atomic_write
from gamesearch.errors import GameSearchError

FORMAT = "gamesearch-endgame-tables-1"
MANIFEST = "manifest.json"


class TableFileError(GameSearchError):
    """A database file that is missing, damaged or not ours."""


def pack(values: np.ndarray) -> np.ndarray:
    """Two-bit values, four to a byte (slot j in bits 2*(j % 4) of byte j // 4)."""
    padded = np.zeros(-(-len(values) // 4) * 4, np.uint8)
    padded[:len(values)] = values
    quads = padded.reshape(-1, 4)
    return (quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)
            ).astype(np.uint8)


def unpack(packed: np.ndarray, n: int) -> np.ndarray:
    """The inverse of :func:`pack`."""
    out = np.empty((len(packed), 4), np.uint8)
    for q in range(4):
        out[:, q] = (packed >> (2 * q)) & 3
    return out.reshape(-1)[:n]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path, game: str) -> dict[str, Any]:
    """The folder's manifest (an empty one for a new folder); refuses a foreign one."""
    path = folder / MANIFEST
    if not path.exists():
        return {"format": FORMAT, "game": game, "slices": {}}
    from gamesearch.textinput import read_input

    try:
        data = json.loads(read_input(path, "table manifest").decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise TableFileError(f"{str(path)!r} is not a gamesearch table manifest: {err}") \
            from None
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("slices"), dict):
        raise TableFileError(f"{str(path)!r} is not a gamesearch table manifest ({FORMAT})")
    if data.get("game") != game:
        raise TableFileError(f"{str(path)!r} holds {data.get('game')!r} tables, not {game!r}")
    return data


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    atomic_write(folder / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def save_slice(folder: Path, name: str, values: np.ndarray, dist: np.ndarray,
               manifest: dict[str, Any], info: dict[str, Any]) -> None:
    """Write one slice's file (atomically), then record it in the manifest.

    The manifest names the slice under ``writing`` before its file appears, so a build
    killed between the two steps knows on resume that the file is its own to redo."""
    path = folder / f"{name}.tbl"
    ours = name in manifest["slices"] or manifest.get("writing") == name
    if path.exists() and not ours:
        raise OutputFileError(f"{str(path)!r} exists and is not in this folder's manifest; "
                              "gamesearch never overwrites a file it did not make")
    manifest["writing"] = name
    write_manifest(folder, manifest)
    atomic_write(path, pack(values).tobytes() + dist.astype(np.uint8).tobytes())
    manifest["slices"][name] = {"slots": int(len(values)), "bytes": path.stat().st_size,
                                "sha256": sha256_of(path), **info}
    del manifest["writing"]
    write_manifest(folder, manifest)


def load_slice(folder: Path, name: str, manifest: dict[str, Any],
               mmap: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(packed values, distances)`` of a recorded slice, checked against the manifest."""
    entry = manifest["slices"].get(name)
    path = folder / f"{name}.tbl"
    if entry is None:
        raise TableFileError(f"slice {name} is not in {str(folder / MANIFEST)!r}")
    if not path.is_file():
        raise TableFileError(f"{str(path)!r} is missing; build the tables again")
    if path.stat().st_size != entry["bytes"] or sha256_of(path) != entry["sha256"]:
        raise TableFileError(f"{str(path)!r} is damaged (its size or SHA-256 differs from "
                             "the manifest); delete it and build again to redo it")
    slots = entry["slots"]
    packed_bytes = -(-slots // 4)
    data = np.memmap(path, np.uint8, "r") if mmap else np.fromfile(path, np.uint8)
    return data[:packed_bytes], data[packed_bytes:packed_bytes + slots]


def packed_value(packed, j):
    """The value at slot ``j`` of packed values (four 2-bit values a byte, as :func:`pack`);
    plain arithmetic, so a compiled search can compile it too."""
    return (packed[j >> 2] >> (2 * (j & 3))) & 3


def probe_slot(packed: np.ndarray, dist: np.ndarray, j: int) -> tuple[int, int]:
    """The (value, distance) at slot ``j`` of a loaded slice."""
    return int(packed_value(packed, j)), int(dist[j])
