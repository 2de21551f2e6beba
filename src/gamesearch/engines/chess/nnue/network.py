"""The network file and its plain forward pass: the specification the compiled inference
and the trainer are both tested against.

Shape (a small NNUE, after Yu Nasu's 2018 design as Stockfish uses it, smaller):

* a feature transformer ``ft_w`` (768 x H) and ``ft_b`` (H): each side's accumulator is
  ``ft_b`` plus the rows of the features on from that side (``features.py``);
* the two accumulators side to move first, clipped to [0, 1], concatenated (2H), then
  ``l1`` (2H x L1) and ``l2`` (L1 x L2), each followed by the clipped ReLU, then ``out``
  (L2 x 1);
* the output ``v`` is in units of ``scale`` centipawns, from the side to move:
  ``centipawns = v * scale``. The trainer fits ``sigmoid(v)`` to the win chance
  ``sigmoid(stockfish centipawns / scale)``, so ``scale`` (400) is the logistic scale of
  ``bench/chess_tune.py``.

The file is a numpy ``.npz`` (no pickles) with those arrays as float32, ``scale`` and a
``format`` string; :func:`load` checks every shape, type and value and refuses a file that
is not one, in one line (:class:`NetworkError`).
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import chess
import numpy as np

from gamesearch.durable import atomic_writer
from gamesearch.engines.chess.nnue.features import FEATURES, active_features
from gamesearch.errors import GameSearchError

FORMAT = "gamesearch-nnue-1"
MAX_FILE_BYTES = 64 << 20
"""A network file larger than this is refused before it is read (the shipped one is < 1 MB)."""
MAX_WIDTH = 4096
"""The widest layer a file may declare (a guard against a file that asks for gigabytes)."""
DEFAULT_SCALE = 400.0


class NetworkError(GameSearchError):
    """A network file that is missing, corrupt or of the wrong shape (one line, for users)."""


@dataclass(frozen=True)
class Network:
    """The weights of one network (float32 arrays; shapes in the module docstring)."""

    ft_w: np.ndarray
    ft_b: np.ndarray
    l1_w: np.ndarray
    l1_b: np.ndarray
    l2_w: np.ndarray
    l2_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    scale: float = DEFAULT_SCALE

    @property
    def hidden(self) -> int:
        """H, the width of one accumulator."""
        return int(self.ft_b.shape[0])

    @property
    def widths(self) -> tuple[int, int, int]:
        """(H, L1, L2)."""
        return self.hidden, int(self.l1_b.shape[0]), int(self.l2_b.shape[0])


ARRAYS = ("ft_w", "ft_b", "l1_w", "l1_b", "l2_w", "l2_b", "out_w", "out_b")


def expected_shapes(hidden: int, l1: int, l2: int) -> dict[str, tuple[int, ...]]:
    """Each array's shape for widths H, L1, L2."""
    return {"ft_w": (FEATURES, hidden), "ft_b": (hidden,), "l1_w": (2 * hidden, l1),
            "l1_b": (l1,), "l2_w": (l1, l2), "l2_b": (l2,), "out_w": (l2, 1), "out_b": (1,)}


def random_network(hidden: int = 128, l1: int = 32, l2: int = 32, seed: int = 0,
                   scale: float = DEFAULT_SCALE) -> Network:
    """A network with small random weights (for tests and as the trainer's start)."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for name, shape in expected_shapes(hidden, l1, l2).items():
        fan_in = shape[0] if len(shape) == 2 else 1
        spread = 1.0 / np.sqrt(fan_in if not name.startswith("ft") else 32)
        arrays[name] = (rng.standard_normal(shape) * spread * (1.0 if len(shape) == 2 else 0.1)
                        ).astype(np.float32)
    arrays["ft_b"] = (np.abs(arrays["ft_b"]) + 0.1).astype(np.float32)
    return Network(**arrays, scale=scale)


def validate(net: Network) -> Network:
    """``net`` itself when its arrays fit together and are finite; NetworkError if not."""
    for name in ARRAYS:
        array = getattr(net, name)
        if not isinstance(array, np.ndarray) or array.dtype != np.float32:
            raise NetworkError(f"network array {name} is not float32")
    hidden, l1, l2 = net.widths
    if not all(0 < w <= MAX_WIDTH for w in (hidden, l1, l2)):
        raise NetworkError(f"network widths {hidden}, {l1}, {l2} are out of range "
                           f"(1..{MAX_WIDTH})")
    for name, shape in expected_shapes(hidden, l1, l2).items():
        if getattr(net, name).shape != shape:
            raise NetworkError(f"network array {name} has shape {getattr(net, name).shape}, "
                               f"expected {shape}")
        if not np.isfinite(getattr(net, name)).all():
            raise NetworkError(f"network array {name} holds a value that is not finite")
    if not (np.isfinite(net.scale) and 1.0 <= net.scale <= 10_000.0):
        raise NetworkError(f"network scale {net.scale} is out of range (1..10000)")
    return net


def load(path: str | os.PathLike[str]) -> Network:
    """Read and check a network file; one-line NetworkError for anything else."""
    path = Path(path)
    try:
        if not path.is_file():
            raise NetworkError(f"network file {path.name!r} does not exist or is not a file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise NetworkError(f"network file {path.name!r} is larger than "
                               f"{MAX_FILE_BYTES >> 20} MB")
        with np.load(path, allow_pickle=False) as data:
            names = set(data.files)
            missing = [n for n in (*ARRAYS, "format", "scale") if n not in names]
            if missing:
                raise NetworkError(f"network file {path.name!r} lacks {', '.join(missing)}")
            if str(data["format"]) != FORMAT:
                raise NetworkError(f"network file {path.name!r} is format "
                                   f"{str(data['format'])[:40]!r}, expected {FORMAT!r}")
            for name in ARRAYS:  # shapes before reading, so a huge declared array is not loaded
                if any(d > FEATURES * MAX_WIDTH for d in data[name].shape):
                    raise NetworkError(f"network array {name} is too large")
            arrays = {name: np.asarray(data[name]) for name in ARRAYS}
            scale = float(data["scale"])
    except NetworkError:
        raise
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError) as exc:
        raise NetworkError(f"network file {path.name!r} is not a readable network "
                           f"({type(exc).__name__})") from None
    return validate(Network(**arrays, scale=scale))


def save(net: Network, path: str | os.PathLike[str]) -> None:
    """Write ``net`` atomically (temp file, fsync, rename) after checking it."""
    validate(net)
    with atomic_writer(Path(path), binary=True) as handle:
        np.savez(handle, format=np.array(FORMAT), scale=np.array(net.scale, np.float64),
                 **{name: getattr(net, name) for name in ARRAYS})


def clipped(x: np.ndarray) -> np.ndarray:
    """The clipped ReLU, min(max(x, 0), 1)."""
    return np.clip(x, 0.0, 1.0)


def accumulator(net: Network, board: chess.Board, perspective: bool) -> np.ndarray:
    """One side's accumulator, summed from scratch (float64)."""
    rows = active_features(board, perspective)
    return net.ft_b.astype(np.float64) + net.ft_w[rows].astype(np.float64).sum(axis=0)


def forward(net: Network, board: chess.Board) -> float:
    """The network's output ``v`` for ``board``, from the side to move (float64)."""
    us = accumulator(net, board, board.turn)
    them = accumulator(net, board, not board.turn)
    x = clipped(np.concatenate([us, them]))
    x = clipped(x @ net.l1_w.astype(np.float64) + net.l1_b)
    x = clipped(x @ net.l2_w.astype(np.float64) + net.l2_b)
    return float((x @ net.out_w.astype(np.float64) + net.out_b)[0])


def evaluate(net: Network, board: chess.Board) -> float:
    """The reference evaluation in centipawns from the side to move: ``forward * scale``."""
    return forward(net, board) * net.scale


__all__ = ["ARRAYS", "FORMAT", "Network", "NetworkError", "accumulator", "evaluate",
           "expected_shapes", "forward", "load", "random_network", "save", "validate"]
