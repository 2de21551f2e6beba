"""The checkers engine: what plays or solves checkers (search, evaluation, solvers, agents)."""
