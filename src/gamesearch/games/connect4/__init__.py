"""Connect Four: the readable rules (`rules.py`, the specification), the centre-first column
order both share (`geometry.py`) and the compiled bitboard kernel (`kernel.py`)."""

from gamesearch.games.connect4.rules import ConnectFour, open_window_score

__all__ = ["ConnectFour", "open_window_score"]
