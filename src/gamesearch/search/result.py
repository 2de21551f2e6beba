"""Kept for old imports: the result contract now lives in the core (:mod:`gamesearch.result`),
so that compiled kernels can return it without importing the search layer."""

from gamesearch.result import (
    Clock,
    SearchResult,
    SearchStats,
    SearchTimeout,
    effective_branching_factor,
)

__all__ = ["Clock", "SearchResult", "SearchStats", "SearchTimeout", "effective_branching_factor"]
