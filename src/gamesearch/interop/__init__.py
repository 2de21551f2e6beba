"""Bridges to the libraries reinforcement-learning users work with (docs/INTEROP.md).

* :mod:`gamesearch.interop.spaces`     fixed action spaces and observations (no dependency)
* :mod:`gamesearch.interop.pettingzoo` any game as a PettingZoo AEC environment (``[rl]``)
* :mod:`gamesearch.interop.gymnasium`  one seat of a game as a Gymnasium environment (``[rl]``)
* :mod:`gamesearch.interop.openspiel`  any OpenSpiel game as a gamesearch game (``[openspiel]``)

The modules know no game: they speak the protocol of :mod:`gamesearch.game`. The optional
libraries are imported by the module that needs them only.
"""
