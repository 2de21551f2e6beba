"""Endgame databases by retrograde analysis: the readable algorithm over any enumerable
game (retrograde.py), its compiled sweep (sweep.py), the durable build job and the packed,
checksummed, memory-mapped files it writes (build.py, store.py). Games provide the
indexing (for checkers: games/checkers/index.py); the catalog joins the two."""
