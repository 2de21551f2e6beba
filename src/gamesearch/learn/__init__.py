"""Evaluation functions and learning: weighted features (and later TD / self-play)."""

from gamesearch.learn.features import Feature, WeightedFeatures, with_evaluation

__all__ = ["Feature", "WeightedFeatures", "with_evaluation"]
