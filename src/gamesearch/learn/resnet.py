"""The residual policy-and-value network's forward pass in numpy: play needs no JAX.

The arithmetic of :class:`gamesearch.learn.jax_resnet.ResNet`, read from an exported
``weights.npz`` (the trainer's ``best_*`` arrays); tests/test_go_net.py checks that both
give the same policy and value. A 3x3 'same' convolution is one matrix product: each
point's 3x3 neighbourhood of the zero-padded board, flattened (``im2col``), times the
filters flattened the same way.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamesearch.errors import GameSearchError


def _conv3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 'same' convolution of (n, rows, cols, in) by (3, 3, in, out) weights."""
    n, rows, cols, planes = x.shape
    pad = np.zeros((n, rows + 2, cols + 2, planes), dtype=x.dtype)
    pad[:, 1:-1, 1:-1] = x
    patches = np.concatenate([pad[:, dr:dr + rows, dc:dc + cols]
                              for dr in range(3) for dc in range(3)], axis=-1)
    return patches @ w.reshape(9 * planes, -1) + b


def saved_value_relu(meta: object) -> bool:
    """Whether a saved network (a weights file's or checkpoint's meta) has the old value
    head: files from before the linear one do not say, and theirs had the ReLU."""
    settings = meta.get("settings") if isinstance(meta, dict) else None
    return not isinstance(settings, dict) or bool(settings.get("value_relu", True))


class ResidualNetwork:
    """Policy probabilities and values of a trained :class:`~gamesearch.learn.jax_resnet.
    ResNet`, in numpy (float32)."""

    def __init__(self, params: dict[str, np.ndarray], shape: tuple[int, int, int],
                 value_relu: bool = False) -> None:
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.shape = shape
        self.value_relu = value_relu
        self.blocks = sum(1 for k in params if k.endswith("_w1") and k.startswith("r"))
        self.actions = int(self.params["pd_b"].shape[0])

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str = "best_",
                    value_relu: bool = False) -> ResidualNetwork:
        """The network of a weights file's arrays; the board's shape is read from them
        (``value_relu``: the old value head, :class:`~gamesearch.learn.jax_resnet.ResNet`)."""
        try:
            params = {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}
            planes = params["stem_w"].shape[2]
            area = params["vd_w"].shape[0]
        except (KeyError, IndexError, AttributeError):
            raise GameSearchError("not a residual policy-value network's weights") from None
        side = int(round(area ** 0.5))
        if side * side != area:
            raise GameSearchError("a residual network's board must be square")
        return cls(params, (side, side, planes), value_relu)

    @classmethod
    def load(cls, path: str | Path, kind: str) -> ResidualNetwork:
        """The network in a weights file of ``kind`` (``learn.checkpoint``'s format)."""
        from gamesearch.learn.checkpoint import load_checkpoint

        arrays, meta = load_checkpoint(path, kind)
        return cls.from_arrays(arrays, value_relu=saved_value_relu(meta))

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits (n, actions) and values (n,) for flat inputs (n, inputs)."""
        p = self.params
        h = np.asarray(x, dtype=np.float32).reshape((-1, *self.shape))
        h = np.maximum(_conv3(h, p["stem_w"], p["stem_b"]), 0.0)
        for i in range(self.blocks):
            inner = np.maximum(_conv3(h, p[f"r{i}_w1"], p[f"r{i}_b1"]), 0.0)
            h = np.maximum(h + _conv3(inner, p[f"r{i}_w2"], p[f"r{i}_b2"]), 0.0)
        n = h.shape[0]
        pol = np.maximum(h @ p["pc_w"][0, 0] + p["pc_b"], 0.0).reshape(n, -1)
        logits = pol @ p["pd_w"] + p["pd_b"]
        val = h @ p["vc_w"][0, 0] + p["vc_b"]
        val = (np.maximum(val, 0.0) if self.value_relu else val).reshape(n, -1)
        val = np.maximum(val @ p["vd_w"] + p["vd_b"], 0.0)
        return logits, np.tanh(val @ p["vo_w"] + p["vo_b"])

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy probabilities (n, actions) and values (n,) for flat inputs."""
        logits, v = self.forward(x)
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), v
