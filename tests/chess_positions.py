"""Random chess positions for the tests of the chess evaluation and its network (python-chess
boards): the one sampler the NNUE, data and evaluation-term tests share, so that a seed
means the same positions in each."""

from __future__ import annotations

import random

import chess


def random_board(rng: random.Random, plies: int) -> chess.Board:
    """The board after ``plies`` random legal moves from the start (fewer where the game
    ends first), each drawn from ``rng``."""
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def seeded_board(seed: int, plies: int = 30) -> chess.Board:
    """One random board of ``plies`` moves, from its own seed."""
    return random_board(random.Random(seed), plies)


def random_boards(count: int, seed: int, most: int) -> list[chess.Board]:
    """``count`` random boards of 0 to ``most - 1`` moves each, from one seed."""
    rng = random.Random(seed)
    return [random_board(rng, rng.randrange(0, most)) for _ in range(count)]
