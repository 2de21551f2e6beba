"""The UCI face of the chess engine (``gamesearch uci``): see ``session.py``."""
