"""Outside programs a player drives (UCI and GTP engines, gnubg): finding them, and the
protocols spoken to them. Game-agnostic: each game's adapter lives in its engine package."""
