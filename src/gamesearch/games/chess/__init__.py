"""Chess: the rules over python-chess (``rules.py``) and a compiled move generator
(``kernel.py``) checked move for move against them."""
