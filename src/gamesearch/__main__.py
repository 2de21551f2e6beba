"""``python -m gamesearch``: the same as the ``gamesearch`` command."""

from gamesearch.cli.main import main

main()
