"""Bit tricks shared by the compiled templates of bitboard games."""

from __future__ import annotations


def popcount(x):
    """Bits set in a non-negative 64-bit integer below 2^63, in constant time (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56
