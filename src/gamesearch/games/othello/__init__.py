"""Othello (Reversi): the readable rules (`rules.py`), the board-string notation
(`notation.py`) and the compiled bitboard kernel with perft and the exact endgame solver
(`kernel.py`, `solver.py`)."""
