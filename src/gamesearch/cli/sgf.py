"""``gamesearch sgf read|write``: Go games as SGF files, so a match's or a tournament's
games open in Sabaki or GoGui, and SGF games from elsewhere are checked move by move
against our rules (games/go/sgf.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.cli.records import records_of
from gamesearch.errors import GameSearchError

sgf_app = typer.Typer(help="Go games as SGF files: read (and check) or write.",
                      no_args_is_help=True)
app.add_typer(sgf_app, name="sgf")


@sgf_app.command("write")
def write_command(
    source: Path = typer.Argument(..., help="a match file (match --out) or a tournament "
                                  "database (tournament --db) of Go games"),
    out: Path = typer.Argument(..., help="the SGF file to write (its games one after another)"),
    force: bool = typer.Option(False, "--force", help="replace OUT even if it is not ours"),
) -> None:
    """Write the Go games of a match or tournament as SGF (one collection).

    gamesearch sgf write games.jsonl games.sgf
    """
    from gamesearch.catalog.game_records import game_of_format
    from gamesearch.durable import atomic_write, check_output
    from gamesearch.games import load_game
    from gamesearch.games.go.sgf import SgfRecord, result_text, write_sgf
    from gamesearch.records import record_file_is_ours

    records, label = records_of(source, game_of_format("sgf"))
    game = load_game(label)
    out = check_output(out, lambda p: record_file_is_ours("sgf", p), force=force,
                       what="SGF file")  # only a file with our mark is replaced
    texts = []
    for r in records:
        start = game.state_from_string(r["start"]) if r.get("start") else None
        if start is not None and start[0] == game.initial_state()[0] and start[1] == 0:
            start = None  # the empty board, Black first: no set-up to write
        state = start or game.initial_state()
        actions = []
        for text in [*r["opening"], *r["moves"]]:
            action = game.string_to_action(state, text)
            actions.append(action)
            state = game.result(state, action)
        record = SgfRecord(game.size, game.komi, actions,
                           None if start is None else (start[0], start[1]),
                           {"black": r["seats"][0], "white": r["seats"][1]},
                           result_text(game, state) if game.is_terminal(state) else None)
        texts.append(write_sgf(record).strip())
    atomic_write(out, "\n".join(texts) + "\n")
    console.print(f"{len(texts)} games written to {out}")


@sgf_app.command("read")
def read_command(
    path: Path = typer.Argument(..., help="an SGF file (one game or a collection)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output (moves included)"),
) -> None:
    """Read SGF games, replay every move by the rules and list them.

    gamesearch sgf read games.sgf
    """
    from gamesearch.games.go.notation import vertex
    from gamesearch.games.go.sgf import MAX_BYTES, read_sgf
    from gamesearch.textinput import read_input

    if not path.exists():
        raise GameSearchError(f"no file {str(path)!r}")
    data = read_input(path, "SGF file", MAX_BYTES)
    rows = []
    for number, record in enumerate(read_sgf(data), 1):
        game, final = record.game(), record.states()[-1]
        rows.append({"game": number, "size": record.size, "komi": record.komi,
                     "black": record.players.get("black"), "white": record.players.get("white"),
                     "result": record.result,
                     "moves": [vertex(a, record.size) for a in record.moves],
                     "final": game.state_to_string(final).split()[0],
                     "score": game.score(final)})
    if not rows:
        raise GameSearchError(f"{str(path)!r} holds no SGF games")
    if json_out:
        print_json(rows)
        return
    table = Table(title=f"{path.name}: {len(rows)} games, every move legal")
    for column in ("#", "size", "komi", "Black", "White", "result", "moves", "area - komi"):
        table.add_column(column)
    for r in rows:
        table.add_row(str(r["game"]), str(r["size"]), f"{r['komi']:g}", str(r["black"]),
                      str(r["white"]), str(r["result"]), str(len(r["moves"])),
                      f"{r['score']:+g}")
    console.print(table)
