"""The backgammon engine: what plays or solves backgammon (search, evaluation, solvers, agents)."""
