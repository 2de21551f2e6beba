"""The connect4 engine: what plays or solves connect4 (search, evaluation, solvers, agents)."""
