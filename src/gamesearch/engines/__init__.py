"""Engines: one package per game, everything that plays or solves that game.

``engines/<game>/`` joins its game's rules (``games/<game>``) to the game-agnostic algorithms
(search, imperfect, theory, learn, tables, outside): search and evaluation, solvers and
endgame tables, training, the game's own agents. An engine imports only its own game and the
layers below; engines never import each other (import-linter checks both).
"""
