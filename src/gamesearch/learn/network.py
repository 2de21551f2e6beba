"""A small fully connected network in numpy: value and gradient, nothing more.

Why numpy and not JAX: TD(lambda) updates the weights after every single move of every
game, one position at a time, on a network of a few thousand weights. At that size the
cost is the per-call overhead, and numpy's (microseconds) is far below a JAX dispatch or
jit re-entry on CPU; numpy is also already a core dependency, so learning needs no extra
install (docs/LEARNING.md measures and explains the choice).

The network is ``inputs -> sigmoid hidden layer -> sigmoid output``: the output is a
probability (of winning, for TD-Gammon), as in Tesauro's network.
"""

from __future__ import annotations

import numpy as np

from gamesearch.errors import GameSearchError


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, safe for large arguments."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


class ValueNetwork:
    """One hidden layer of sigmoid units and one sigmoid output: ``v(x) in (0, 1)``.

    The parameters are :attr:`params` = ``[w1 (hidden, inputs), b1 (hidden), w2 (hidden),
    b2 ()]``; :meth:`value_and_grad` returns the gradient in the same layout, which is what
    TD(lambda)'s eligibility traces accumulate.
    """

    def __init__(self, inputs: int, hidden: int, seed: int = 0, scale: float = 0.1) -> None:
        if inputs < 1 or hidden < 1:
            raise GameSearchError(f"a network needs inputs and hidden units >= 1, got "
                                  f"{inputs} and {hidden}")
        rng = np.random.default_rng(seed)
        self.params: list[np.ndarray] = [
            rng.uniform(-scale, scale, (hidden, inputs)),
            rng.uniform(-scale, scale, hidden),
            rng.uniform(-scale, scale, hidden),
            np.zeros(()),
        ]

    @property
    def inputs(self) -> int:
        """How many numbers one position is encoded into."""
        return self.params[0].shape[1]

    @property
    def hidden(self) -> int:
        """How many hidden units."""
        return self.params[0].shape[0]

    def values(self, x: np.ndarray) -> np.ndarray:
        """The outputs for a batch ``x`` of shape (n, inputs): shape (n,)."""
        w1, b1, w2, b2 = self.params
        h = sigmoid(x @ w1.T + b1)
        return sigmoid(h @ w2 + b2)

    def value(self, x: np.ndarray) -> float:
        """The output for one input vector."""
        return float(self.values(x[None, :])[0])

    def value_and_grad(self, x: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The output for one input vector and its gradient with respect to each parameter
        (back-propagation through the two sigmoid layers)."""
        w1, b1, w2, b2 = self.params
        h = sigmoid(w1 @ x + b1)
        v = float(sigmoid(np.dot(w2, h) + b2))
        dv = v * (1.0 - v)  # d v / d (output pre-activation)
        dh = dv * w2 * h * (1.0 - h)  # d v / d (hidden pre-activations)
        return v, [np.outer(dh, x), dh, dv * h, np.asarray(dv)]

    def copy(self) -> ValueNetwork:
        """An independent copy (same weights)."""
        other = ValueNetwork.__new__(ValueNetwork)
        other.params = [p.copy() for p in self.params]
        return other

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights by name, for saving in an ``.npz``."""
        return {f"param{i}": p for i, p in enumerate(self.params)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> ValueNetwork:
        """A network from :meth:`arrays`' output; shapes are checked (a damaged file)."""
        try:
            params = [np.asarray(arrays[f"param{i}"], dtype=float) for i in range(4)]
        except KeyError as err:
            raise GameSearchError(f"network weights lack {err.args[0]!r}") from None
        hidden, inputs = params[0].shape if params[0].ndim == 2 else (0, 0)
        if (hidden < 1 or params[1].shape != (hidden,) or params[2].shape != (hidden,)
                or params[3].shape != ()):
            raise GameSearchError("network weights have inconsistent shapes")
        if not all(np.isfinite(p).all() for p in params):
            raise GameSearchError("network weights contain NaN or infinity")
        net = cls.__new__(cls)
        net.params = params
        return net
