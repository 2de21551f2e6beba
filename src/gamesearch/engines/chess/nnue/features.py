"""The network's inputs: which of the 768 features are on, seen from one side.

A feature is a piece on a square, described from a perspective (the side whose accumulator
it feeds): ``(relative colour * 6 + piece type - 1) * 64 + relative square``, where the
relative colour is 0 for the perspective's own pieces and 1 for the other side's, and the
relative square is the square (a1 = 0 ... h8 = 63) as the perspective sees it: unchanged
for White, flipped top to bottom (``square ^ 56``) for Black. Both sides thus see the same
picture of their own position, and one set of weights serves both accumulators.

Moving a piece switches one feature off and one on in each perspective; a capture switches
one more off. That is what lets the compiled search update the accumulators on make and
unmake instead of summing them again (the "efficiently updatable" of NNUE).
"""

from __future__ import annotations

import chess

FEATURES = 768
"""Inputs per perspective: 2 relative colours x 6 piece types x 64 squares."""


def feature_index(perspective: bool, colour: bool, piece_type: int, square: int) -> int:
    """The feature of a ``piece_type`` (1 pawn ... 6 king, python-chess's numbering) of
    ``colour`` on ``square`` (0 = a1), seen from ``perspective`` (``chess.WHITE`` or
    ``chess.BLACK``)."""
    relative_colour = 0 if colour == perspective else 1
    relative_square = square if perspective == chess.WHITE else square ^ 56
    return (relative_colour * 6 + piece_type - 1) * 64 + relative_square


def active_features(board: chess.Board, perspective: bool) -> list[int]:
    """The features that are on in ``board`` from ``perspective``, in ascending order."""
    return sorted(feature_index(perspective, piece.color, piece.piece_type, square)
                  for square, piece in board.piece_map().items())


__all__ = ["FEATURES", "active_features", "feature_index"]
