"""The pig engine: what plays or solves pig (search, evaluation, solvers, agents)."""
