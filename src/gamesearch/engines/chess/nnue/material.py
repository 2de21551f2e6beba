"""A stand-in network that counts material: for benchmarks and tests while no trained
network ships (and a check that the search plays chess with a network at all).

The cost of a network in the search depends on its widths only, but the tree it searches
depends on its values: a material-blind random network makes quiescence search nearly
every capture sequence. This one's value is the material balance (to +-2000 centipawns,
pawn 100, knight 320, bishop 330, rook 500, queen 900) plus a little noise from small
random weights everywhere else: accumulator unit 0 holds our material, unit 1 theirs;
``l1`` unit 0 is 0.5 + (ours - theirs) / 4000, passed on by ``l2`` unit 0 to the output.
"""

from __future__ import annotations

import numpy as np

from gamesearch.engines.chess.nnue import network as N

PIECE_VALUES = (100, 320, 330, 500, 900, 0)
MATERIAL_UNIT = 8000.0
"""Centipawns of material per accumulator unit (a side's whole army is below one)."""
RANGE = 4000.0
"""The span of material balance the network represents (+-RANGE / 2)."""


def material_network(hidden: int = 128, l1: int = 32, l2: int = 32, seed: int = 1,
                     noise: float = 0.02) -> N.Network:
    """A network of these widths (each at least 2) valued at the material balance."""
    net = N.random_network(hidden, l1, l2, seed=seed)
    w = {name: getattr(net, name) * np.float32(noise) for name in N.ARRAYS}
    for colour in range(2):
        for piece in range(6):
            rows = slice((colour * 6 + piece) * 64, (colour * 6 + piece + 1) * 64)
            w["ft_w"][rows, colour] = PIECE_VALUES[piece] / MATERIAL_UNIT
            w["ft_w"][rows, 1 - colour] = 0.0
    w["ft_b"][:2] = 0.0
    w["l1_w"][:, 0] = 0.0
    w["l1_w"][0, 0], w["l1_w"][1, 0] = MATERIAL_UNIT / RANGE, -MATERIAL_UNIT / RANGE
    w["l1_b"][0] = 0.5
    w["l2_w"][:, 0] = 0.0
    w["l2_w"][0, 0] = 1.0
    w["l2_b"][0] = 0.0
    w["out_w"][0, 0] = RANGE / net.scale
    w["out_b"][0] = -0.5 * RANGE / net.scale
    return N.validate(N.Network(**{k: v.astype(np.float32) for k, v in w.items()},
                                scale=net.scale))


__all__ = ["material_network"]
