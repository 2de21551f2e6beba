"""A policy-and-value network in numpy (AlphaZero's two heads on a small trunk), with Adam.

``x -> ReLU(W1 x + b1) -> ReLU(W2 h1 + b2) -> [softmax policy logits, tanh value]``.
The loss on a batch of (input, search policy pi, outcome z) is AlphaZero's:
``mean( -sum(pi * log p) + (z - v)^2 ) + l2 * |W|^2``. The gradient is back-propagated by
hand (checked against finite differences in tests/test_alphazero.py). A small fully
connected trunk instead of AlphaZero's residual convolutions: on a 7x6 board it is
enough to show the method, and it trains on this machine's CPU (docs/LEARNING.md).
"""

from __future__ import annotations

import numpy as np

from gamesearch.errors import GameSearchError

NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


class PolicyValueNetwork:
    """Two hidden ReLU layers, a policy head of ``actions`` logits and a tanh value head."""

    def __init__(self, inputs: int, actions: int, hidden: int = 128, seed: int = 0) -> None:
        if min(inputs, actions, hidden) < 1:
            raise GameSearchError("a policy-value network needs inputs, actions and hidden "
                                  "units >= 1")
        rng = np.random.default_rng(seed)

        def he(rows: int, cols: int) -> np.ndarray:
            return rng.normal(0.0, np.sqrt(2.0 / cols), (rows, cols))

        self.params: dict[str, np.ndarray] = {
            "w1": he(hidden, inputs), "b1": np.zeros(hidden),
            "w2": he(hidden, hidden), "b2": np.zeros(hidden),
            "wp": he(actions, hidden) * 0.1, "bp": np.zeros(actions),
            "wv": he(1, hidden)[0] * 0.1, "bv": np.zeros(()),
        }
        self.adam = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def _forward(self, x: np.ndarray):
        p = self.params
        z1 = x @ p["w1"].T + p["b1"]
        h1 = np.maximum(z1, 0.0)
        z2 = h1 @ p["w2"].T + p["b2"]
        h2 = np.maximum(z2, 0.0)
        logits = h2 @ p["wp"].T + p["bp"]
        v = np.tanh(h2 @ p["wv"] + p["bv"])
        return h1, h2, logits, v

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy probabilities (n, actions) and values (n,) for a batch of inputs."""
        _, _, logits, v = self._forward(np.atleast_2d(x))
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), v

    def loss_and_grads(self, x: np.ndarray, pi: np.ndarray, z: np.ndarray,
                       l2: float = 1e-4) -> tuple[float, dict[str, np.ndarray], dict]:
        """AlphaZero's loss on a batch and its gradient for every parameter; the third
        value holds the loss's parts (policy cross-entropy, value squared error)."""
        p = self.params
        n = x.shape[0]
        h1, h2, logits, v = self._forward(x)
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        policy_loss = float(-(pi * log_p).sum() / n)
        value_loss = float(((z - v) ** 2).sum() / n)
        reg = l2 * sum(float((p[k] ** 2).sum()) for k in ("w1", "w2", "wp", "wv"))
        d_logits = (np.exp(log_p) * pi.sum(axis=1, keepdims=True) - pi) / n
        d_pre_v = (-2.0 * (z - v) / n) * (1.0 - v * v)
        grads = {"wp": d_logits.T @ h2, "bp": d_logits.sum(axis=0),
                 "wv": d_pre_v @ h2, "bv": np.asarray(d_pre_v.sum())}
        d_h2 = d_logits @ p["wp"] + np.outer(d_pre_v, p["wv"])
        d_z2 = d_h2 * (h2 > 0)
        grads["w2"], grads["b2"] = d_z2.T @ h1, d_z2.sum(axis=0)
        d_z1 = (d_z2 @ p["w2"]) * (h1 > 0)
        grads["w1"], grads["b1"] = d_z1.T @ x, d_z1.sum(axis=0)
        for k in ("w1", "w2", "wp", "wv"):
            grads[k] = grads[k] + 2.0 * l2 * p[k]
        parts = {"policy": policy_loss, "value": value_loss}
        return policy_loss + value_loss + reg, grads, parts

    def train_step(self, x: np.ndarray, pi: np.ndarray, z: np.ndarray, lr: float = 1e-3,
                   l2: float = 1e-4) -> dict:
        """One Adam step on a batch; returns the loss's parts before the step."""
        loss, grads, parts = self.loss_and_grads(x, pi, z, l2)
        self.steps += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            m, s = self.adam[k]
            m *= b1
            m += (1 - b1) * g
            s *= b2
            s += (1 - b2) * g * g
            m_hat = m / (1 - b1 ** self.steps)
            s_hat = s / (1 - b2 ** self.steps)
            self.params[k] -= lr * m_hat / (np.sqrt(s_hat) + eps)
        return {"loss": loss, **parts}

    def copy(self) -> PolicyValueNetwork:
        """An independent copy (weights and optimizer state)."""
        other = PolicyValueNetwork.__new__(PolicyValueNetwork)
        other.params = {k: v.copy() for k, v in self.params.items()}
        other.adam = {k: (m.copy(), s.copy()) for k, (m, s) in self.adam.items()}
        other.steps = self.steps
        return other

    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """Weights and optimizer state by name, for an ``.npz``."""
        out = {f"{prefix}{k}": v for k, v in self.params.items()}
        for k, (m, s) in self.adam.items():
            out[f"{prefix}adam_m_{k}"], out[f"{prefix}adam_s_{k}"] = m, s
        out[f"{prefix}steps"] = np.array(self.steps)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str = "") -> PolicyValueNetwork:
        """A network from :meth:`arrays`' output (optimizer state when present)."""
        net = cls.__new__(cls)
        try:
            net.params = {k: np.asarray(arrays[f"{prefix}{k}"], dtype=float) for k in NAMES}
        except KeyError as err:
            raise GameSearchError(f"policy-value weights lack {err.args[0]!r}") from None
        hidden, inputs = net.params["w1"].shape if net.params["w1"].ndim == 2 else (0, 0)
        shapes_ok = (hidden > 0 and net.params["w2"].shape == (hidden, hidden)
                     and net.params["wp"].ndim == 2 and net.params["wp"].shape[1] == hidden
                     and net.params["wv"].shape == (hidden,))
        if not shapes_ok or not all(np.isfinite(v).all() for v in net.params.values()):
            raise GameSearchError("policy-value weights are damaged (shapes or values)")
        net.adam = {k: (np.asarray(arrays.get(f"{prefix}adam_m_{k}", np.zeros_like(v))),
                        np.asarray(arrays.get(f"{prefix}adam_s_{k}", np.zeros_like(v))))
                    for k, v in net.params.items()}
        net.steps = int(arrays.get(f"{prefix}steps", 0))
        return net
