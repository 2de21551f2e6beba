"""The go engine: what plays or solves go (search, evaluation, solvers, agents)."""
