"""The chess engine: what plays or solves chess (search, evaluation, solvers, agents)."""
