"""TD(lambda) with eligibility traces (Sutton 1988; Tesauro's TD-Gammon, 1992-1995).

A prediction ``P_t`` of the final outcome is made after every move t. Learning moves each
earlier prediction towards the next one, with credit decaying by ``lambda`` per step:

    e   <- lambda * e + grad P_t          (the eligibility trace, one per weight)
    w   <- w + alpha * (P_{t+1} - P_t) * e

and at the end of the game ``P_{t+1}`` is the outcome itself. :class:`TDLambda` holds the
traces and applies these two lines; the caller says what ``P_t`` and ``P_{t+1}`` are (for
a two-player game seen from alternating sides, ``P_t`` may be ``1 - v``: the gradient is
then ``-grad v``, see :meth:`TDLambda.step`).
"""

from __future__ import annotations

import numpy as np

from gamesearch.errors import GameSearchError


class TDLambda:
    """Online TD(lambda) for a network with ``params`` and ``value_and_grad(x)``."""

    def __init__(self, net, alpha: float = 0.1, lam: float = 0.7) -> None:
        if not 0.0 <= lam <= 1.0:
            raise GameSearchError(f"lambda must be in [0, 1], got {lam}")
        if not alpha > 0.0:
            raise GameSearchError(f"the learning rate alpha must be > 0, got {alpha}")
        self.net, self.alpha, self.lam = net, alpha, lam
        self.traces = [np.zeros_like(p) for p in net.params]

    def reset(self) -> None:
        """Start a new episode: the traces go back to zero."""
        for e in self.traces:
            e[...] = 0.0

    def step(self, x: np.ndarray, target: float, flip: bool = False) -> float:
        """One TD(lambda) update of the prediction made at input ``x`` towards ``target``
        (the next prediction, or the outcome at the end). The prediction is ``v(x)``, or
        ``1 - v(x)`` when ``flip`` (the network speaks for the other side). Returns the TD
        error ``target - prediction``."""
        v, grads = self.net.value_and_grad(x)
        prediction = 1.0 - v if flip else v
        sign = -1.0 if flip else 1.0
        delta = target - prediction
        for e, g, p in zip(self.traces, grads, self.net.params):
            e *= self.lam
            e += sign * g
            p += self.alpha * delta * e
        return delta
