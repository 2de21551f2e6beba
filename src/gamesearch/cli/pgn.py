"""``gamesearch pgn read|write``: chess games as PGN files, so a match's or a tournament's
games open in any chess GUI or database, and PGN games from elsewhere are checked move by
move (games/chess/pgn.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.cli.records import read_record_text, records_of
from gamesearch.errors import GameSearchError

pgn_app = typer.Typer(help="Chess games as PGN files: read (and check) or write.",
                      no_args_is_help=True)
app.add_typer(pgn_app, name="pgn")


@pgn_app.command("write")
def write_command(
    source: Path = typer.Argument(..., help="a match file (match --out) or a tournament "
                                  "database (tournament --db) of chess games"),
    out: Path = typer.Argument(..., help="the PGN file to write"),
    event: str = typer.Option("gamesearch", "--event", help="the Event tag"),
    force: bool = typer.Option(False, "--force", help="replace OUT even if it is not ours"),
) -> None:
    """Write the chess games of a match or tournament as PGN.

    gamesearch pgn write games.jsonl games.pgn
    """
    import chess

    from gamesearch.catalog.game_records import game_of_format
    from gamesearch.durable import atomic_write, check_output
    from gamesearch.games import load_game
    from gamesearch.games.chess.pgn import PgnRecord, result_token, write_pgn
    from gamesearch.records import record_file_is_ours

    records, label = records_of(source, game_of_format("pgn"))
    game = load_game(label)
    out = check_output(out, lambda p: record_file_is_ours("pgn", p), force=force,
                       what="PGN file")  # only a file with our mark is replaced
    games = []
    for r in records:
        start = game.state_from_string(r["start"]) if r.get("start") else \
            game.initial_state()
        state, moves = start, []
        for text in [*r["opening"], *r["moves"]]:
            action = game.string_to_action(state, text)
            moves.append(str(action))
            state = game.result(state, action)
        games.append(PgnRecord(
            moves, result_token(r["utilities"]),
            {"Event": event, "Site": "gamesearch", "Round": str(r["index"] + 1),
             "White": r["seats"][0], "Black": r["seats"][1]},
            None if start == chess.STARTING_FEN else start))
    atomic_write(out, write_pgn(games))
    console.print(f"{len(games)} games written to {out}")


@pgn_app.command("read")
def read_command(
    path: Path = typer.Argument(..., help="a PGN file"),
    json_out: bool = typer.Option(False, "--json", help="JSON output (moves included)"),
) -> None:
    """Read a PGN file, replay every game's main line by the rules and list them.

    gamesearch pgn read games.pgn
    """
    from gamesearch.games.chess.pgn import MAX_TEXT, read_pgn

    text = read_record_text(path, MAX_TEXT, "PGN")
    games = read_pgn(text)
    if not games:
        raise GameSearchError(f"{str(path)!r} holds no PGN games (tag pairs and moves)")
    rows = []
    for number, g in enumerate(games, 1):
        rows.append({"game": number, "white": g.tags.get("White", "?"),
                     "black": g.tags.get("Black", "?"), "result": g.result,
                     "moves": g.moves, "final": g.final_board().fen()})
    if json_out:
        print_json(rows)
        return
    table = Table(title=f"{path.name}: {len(rows)} games, every move legal")
    for column in ("#", "White", "Black", "result", "plies", "final position"):
        table.add_column(column)
    for r in rows:
        table.add_row(str(r["game"]), r["white"], r["black"], r["result"],
                      str(len(r["moves"])), r["final"])
    console.print(table)
