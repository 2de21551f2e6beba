"""A residual convolutional policy-and-value network in JAX (AlphaGo Zero's shape, small):
the network the batched trainer (:mod:`gamesearch.learn.jax_alphazero`) uses for a game
whose input is a board of planes (``JaxGame.shape``).

    x (rows, cols, planes) -> conv3x3 -> ReLU
      -> blocks x [ h + conv3x3(ReLU(conv3x3(h))) -> ReLU ]
      -> policy: conv1x1 to 2 planes -> ReLU -> dense to the actions' logits
      -> value:  conv1x1 to 1 plane  -> dense to 64 -> ReLU -> dense -> tanh

The value's 1x1 convolution is linear: with a ReLU after it (AlphaGo Zero has one, after
a batch normalisation that keeps it alive) its single plane died in the first device run
(#43): negative on every point of every board from some iteration on, so the value was one
constant (-0.005) and its loss stayed at 0.99 over 8 million positions. ``value_relu``
keeps that old head for the networks trained with it.

No batch normalisation (its running statistics would be a second state to carry through
self-play and export): each block's second convolution starts at zero, so every block
starts as the identity and the deep network trains like a shallow one at first (the
"Fixup" idea, Zhang et al. 2019). Parameters are a flat dict of arrays, so checkpoints
and the exported ``weights.npz`` store them as they store the fully connected network;
:class:`gamesearch.learn.resnet.ResidualNetwork` is the same arithmetic in numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp

VALUE_HIDDEN = 64
VALUE_HEAD = ("vc_w", "vc_b", "vd_w", "vd_b", "vo_w", "vo_b")
"""The value head's parameters (``ResNet.init``'s names): a new run from a network with the
other value head takes everything else and starts these afresh."""


def _conv(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    """A 'same' convolution of NHWC inputs with HWIO weights, plus a bias."""
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y + b


@dataclass(frozen=True)
class ResNet:
    """``blocks`` residual blocks of ``channels`` 3x3 filters on a (rows, cols, planes)
    board, with ``actions`` policy logits."""

    shape: tuple[int, int, int]
    actions: int
    blocks: int = 6
    channels: int = 64
    value_relu: bool = False
    """A ReLU after the value's 1x1 convolution (the first networks' head, above)."""

    def init(self, key: jax.Array) -> dict:
        """He-initialised weights; each block's second convolution zero (identity blocks)."""
        rows, cols, planes = self.shape
        c, keys = self.channels, iter(jax.random.split(key, 2 * self.blocks + 6))

        def he(shape: tuple[int, ...], fan_in: int) -> jax.Array:
            return jax.random.normal(next(keys), shape) * jnp.sqrt(2.0 / fan_in)

        params = {"stem_w": he((3, 3, planes, c), 9 * planes), "stem_b": jnp.zeros(c)}
        for i in range(self.blocks):
            params[f"r{i}_w1"] = he((3, 3, c, c), 9 * c)
            params[f"r{i}_b1"] = jnp.zeros(c)
            params[f"r{i}_w2"] = jnp.zeros((3, 3, c, c))
            params[f"r{i}_b2"] = jnp.zeros(c)
            next(keys)
        area = rows * cols
        params.update({
            "pc_w": he((1, 1, c, 2), c), "pc_b": jnp.zeros(2),
            "pd_w": he((2 * area, self.actions), 2 * area) * 0.1,
            "pd_b": jnp.zeros(self.actions),
            "vc_w": he((1, 1, c, 1), c), "vc_b": jnp.zeros(1),
            "vd_w": he((area, VALUE_HIDDEN), area), "vd_b": jnp.zeros(VALUE_HIDDEN),
            "vo_w": he((VALUE_HIDDEN,), VALUE_HIDDEN) * 0.1, "vo_b": jnp.zeros(()),
        })
        return params

    def apply(self, params: dict, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Policy logits (n, actions) and values in [-1, 1] (n,) for flat inputs (n, rows *
        cols * planes), laid out row by row with the planes innermost."""
        h = x.reshape((-1, *self.shape))
        h = jax.nn.relu(_conv(h, params["stem_w"], params["stem_b"]))
        for i in range(self.blocks):
            inner = jax.nn.relu(_conv(h, params[f"r{i}_w1"], params[f"r{i}_b1"]))
            h = jax.nn.relu(h + _conv(inner, params[f"r{i}_w2"], params[f"r{i}_b2"]))
        n = h.shape[0]
        p = jax.nn.relu(_conv(h, params["pc_w"], params["pc_b"])).reshape(n, -1)
        logits = p @ params["pd_w"] + params["pd_b"]
        v = _conv(h, params["vc_w"], params["vc_b"])
        v = (jax.nn.relu(v) if self.value_relu else v).reshape(n, -1)
        v = jax.nn.relu(v @ params["vd_w"] + params["vd_b"])
        return logits, jnp.tanh(v @ params["vo_w"] + params["vo_b"])

    def decayed(self, params: dict) -> list[str]:
        """The weights (not biases) that L2 regularisation shrinks."""
        return [k for k in params if k.rsplit("_", 1)[1].startswith("w")]
