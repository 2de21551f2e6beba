"""The othello engine: what plays or solves othello (search, evaluation, solvers, agents)."""
