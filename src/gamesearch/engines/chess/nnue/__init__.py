"""The chess engine's learned evaluation (NNUE-style): the network's file format and its
plain reference forward pass (``network.py``, the specification), the input features
(``features.py``); the compiled, incrementally updated inference and the trainer sit
beside them."""
