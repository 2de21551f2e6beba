"""Go on boards from 2x2 to 19x19: readable rules (rules.py) and notation (notation.py)."""
