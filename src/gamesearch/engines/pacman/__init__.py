"""The pacman engine: what plays or solves pacman (search, evaluation, solvers, agents)."""
