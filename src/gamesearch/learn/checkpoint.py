"""Checkpoints and logs of a training run, through :mod:`gamesearch.durable`.

A checkpoint is one ``.npz`` holding named arrays plus a JSON ``meta`` entry (counters,
settings, the learning curve so far), written atomically (temporary file, fsync, rename):
a kill at any moment leaves the previous checkpoint or the new one, never half of one.
The log is a JSON-lines file (:class:`gamesearch.durable.LineLog`) a user can load with
``pandas.read_json(path, lines=True)`` or a few lines of Python.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import MAGIC_KEY, LineLog, atomic_write, npz_kind, output_folder
from gamesearch.errors import GameSearchError


def save_checkpoint(path: str | Path, kind: str, arrays: dict[str, np.ndarray],
                    meta: dict[str, Any]) -> None:
    """Write ``arrays`` and ``meta`` to ``path`` atomically, marked as a ``kind`` file."""
    buffer = io.BytesIO()
    np.savez(buffer, **{MAGIC_KEY: np.array(kind), "meta": np.array(json.dumps(meta))},
             **arrays)
    atomic_write(path, buffer.getvalue())


def save_snapshot(folder: str | Path, number: int, kind: str, arrays: dict[str, np.ndarray],
                  meta: dict) -> Path:
    """Keep a run's network as ``folder/snapshots/weights-NNNNN.npz`` (``number``: the
    iteration or epoch), the points a learning curve is played from."""
    kept = output_folder(Path(folder) / "snapshots", "snapshots folder")
    path = kept / f"weights-{number:05d}.npz"
    save_checkpoint(path, kind, arrays, meta)
    return path


def load_checkpoint(path: str | Path, kind: str) -> tuple[dict[str, np.ndarray], dict]:
    """The arrays and meta of a checkpoint written by :func:`save_checkpoint` for ``kind``;
    anything else is refused with one line."""
    from gamesearch.textinput import check_input, open_input

    path = Path(path)
    if not path.exists():
        raise GameSearchError(f"no checkpoint {str(path)!r} to resume from")
    check_input(path, "checkpoint")
    found = npz_kind(path)
    if found != kind:
        raise GameSearchError(f"{str(path)!r} is not a {kind} checkpoint"
                              + (f" (it is a {found} file)" if found else ""))
    try:
        with open_input(path, "checkpoint") as handle, \
                np.load(handle, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files if k not in (MAGIC_KEY, "meta")}
            meta = json.loads(str(data["meta"]))
    except (OSError, ValueError, KeyError, EOFError) as err:
        raise GameSearchError(f"{str(path)!r}: damaged checkpoint ({err})") from None
    return arrays, meta


def checkpoint_is_ours(path: str | Path, kind: str) -> bool:
    """Whether ``path`` is a checkpoint of ``kind`` (so it may be overwritten)."""
    return npz_kind(path) == kind


def open_log(path: str | Path, kind: str, force: bool = False) -> LineLog:
    """The JSON-lines log of a run of ``kind``: its first line names the kind; a file that
    is someone else's is refused (unless ``force``)."""
    header = json.dumps({"gamesearch": kind})

    def ours(line: str) -> bool:
        try:
            return json.loads(line).get("gamesearch") == kind
        except (ValueError, AttributeError):
            return False

    what = kind if kind.endswith(" log") else f"{kind} log"  # not "alphazero log log"
    return LineLog(path, header, ours, force, what)


def sync_log(log: LineLog, records: list[dict]) -> None:
    """Make the log hold exactly the first ``len(records)`` records of the curve: append
    the ones a kill (between checkpoint and log line) left out."""
    for record in records[len(log.lines):]:
        log.append(json.dumps(record))
        log.lines.append(json.dumps(record))


def check_run_folder(folder: str | Path, resume: bool) -> Path:
    """The run's output folder: made when new; an existing checkpoint needs ``resume``."""
    folder = Path(folder)
    if not folder.exists() and resume:
        raise GameSearchError(f"nothing to resume: {str(folder)!r} does not exist")
    return output_folder(folder, "--out folder")
