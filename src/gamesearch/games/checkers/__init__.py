"""Checkers (English draughts): readable rules (rules.py) and notation (notation.py)."""
