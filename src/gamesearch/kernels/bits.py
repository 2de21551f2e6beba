"""Bit tricks shared by the compiled templates of bitboard games."""

from __future__ import annotations

import functools


def popcount(x):
    """Bits set in a non-negative 64-bit integer below 2^63, in constant time (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@functools.cache
def bit_intrinsics() -> tuple:
    """``(POPCNT, CLZ)``: the processor's population count and leading-zero count on a
    uint64 (LLVM's ctpop and ctlz), for compiled templates (the Othello solver and its
    pattern evaluation)."""
    from llvmlite import ir
    from numba.core import types as nt
    from numba.extending import intrinsic

    @intrinsic
    def popcnt(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return nt.int64(nt.uint64), codegen

    @intrinsic
    def clz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return nt.int64(nt.uint64), codegen

    return popcnt, clz
