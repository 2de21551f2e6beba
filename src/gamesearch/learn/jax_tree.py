"""A JAX training state (weights, Adam's state, games in play: any pytree) as a checkpoint's
flat named arrays and back, for the trainers that checkpoint with
:mod:`gamesearch.learn.checkpoint`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from gamesearch.errors import GameSearchError


def tree_arrays(tree: Any) -> dict[str, np.ndarray]:
    """The pytree's leaves as ``leaf_0``, ``leaf_1``, ... in JAX's flattening order."""
    return {f"leaf_{k}": np.asarray(leaf)
            for k, leaf in enumerate(jax.tree_util.tree_leaves(tree))}


def restore_tree(template: Any, arrays: dict[str, np.ndarray], path: str | Path) -> Any:
    """A pytree shaped as ``template`` holding :func:`tree_arrays`' leaves; a missing or
    misshapen leaf is one line naming the checkpoint ``path``."""
    leaves, tree = jax.tree_util.tree_flatten(template)
    try:
        loaded = [jnp.asarray(arrays[f"leaf_{k}"], dtype=leaf.dtype).reshape(leaf.shape)
                  for k, leaf in enumerate(leaves)]
    except (KeyError, ValueError, TypeError) as err:
        raise GameSearchError(f"{str(path)!r}: damaged checkpoint ({err})") from None
    return jax.tree_util.tree_unflatten(tree, loaded)


def params_like(params: dict, arrays: dict[str, np.ndarray], path: str | Path,
                keep: frozenset[str] | set[str] = frozenset()) -> dict:
    """``params`` with each array replaced by the saved network's (``best_NAME`` in a
    weights file's ``arrays``), of the same shape and dtype, except the names in ``keep``,
    which stay as they are; a missing or misshapen array is one line naming ``path``."""
    for k, v in params.items():
        w = arrays.get(f"best_{k}")
        if k not in keep and (w is None or w.shape != v.shape):
            raise GameSearchError(f"{str(path)!r} is not a network of this shape "
                                  f"({k}: {None if w is None else w.shape} for {v.shape})")
    return {k: v if k in keep else jnp.asarray(arrays[f"best_{k}"], dtype=v.dtype)
            for k, v in params.items()}
