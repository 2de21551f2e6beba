"""``gamesearch pdn read|write``: checkers games as PDN files (Portable Draughts Notation),
so a match's or a tournament's games open in other checkers software, and PDN games from
elsewhere are checked move by move against our rules (games/checkers/pdn.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.cli.records import read_record_text, records_of
from gamesearch.errors import GameSearchError

pdn_app = typer.Typer(help="Checkers games as PDN files: read (and check) or write.",
                      no_args_is_help=True)
app.add_typer(pdn_app, name="pdn")


def _fen_of(start: str | None) -> str | None:
    """The PDN FEN of a match's start (a FEN or moves from the opening), None for the
    opening position itself."""
    if not start:
        return None
    from gamesearch.games.checkers.notation import fen
    from gamesearch.games.checkers.rules import Checkers

    rules = Checkers()
    state = rules.state_from_string(start)
    return None if state == rules.initial_state() else fen(state[0], state[1])


@pdn_app.command("write")
def write_command(
    source: Path = typer.Argument(..., help="a match file (match --out) or a tournament "
                                  "database (tournament --db)"),
    out: Path = typer.Argument(..., help="the PDN file to write"),
    event: str = typer.Option("gamesearch", "--event", help="the Event tag"),
    force: bool = typer.Option(False, "--force", help="replace OUT even if it is not ours"),
) -> None:
    """Write the checkers games of a match or tournament as PDN.

    gamesearch pdn write games.jsonl games.pdn
    """
    from gamesearch.catalog.game_records import game_of_format
    from gamesearch.durable import atomic_write, check_output
    from gamesearch.games.checkers.pdn import PdnGame, result_token, write_pdn
    from gamesearch.records import record_file_is_ours

    records, _ = records_of(source, game_of_format("pdn"))
    out = check_output(out, lambda p: record_file_is_ours("pdn", p), force=force,
                       what="PDN file")  # only a file with our mark is replaced
    games = []
    for r in records:
        games.append(PdnGame(moves=[*r["opening"], *r["moves"]],
                             result=result_token(r["utilities"]),
                             tags={"Event": event, "Round": str(r["index"] + 1),
                                   "Black": r["seats"][0], "White": r["seats"][1]},
                             start=_fen_of(r["start"])))
    for g in games:
        g.final_state()  # every move replays by the rules before anything is written
    atomic_write(out, write_pdn(games))
    console.print(f"{len(games)} games written to {out}")


@pdn_app.command("read")
def read_command(
    path: Path = typer.Argument(..., help="a PDN file"),
    json_out: bool = typer.Option(False, "--json", help="JSON output (moves included)"),
) -> None:
    """Read a PDN file, replay every game by the rules and list them.

    gamesearch pdn read games.pdn
    """
    from gamesearch.games.checkers.notation import fen
    from gamesearch.games.checkers.pdn import MAX_TEXT, read_pdn

    text = read_record_text(path, MAX_TEXT, "PDN")
    games = read_pdn(text)
    if not games:
        raise GameSearchError(f"{str(path)!r} holds no PDN games (tag pairs and moves)")
    rows = []
    for number, g in enumerate(games, 1):
        final = g.final_state()
        rows.append({"game": number, "black": g.tags.get("Black", "?"),
                     "white": g.tags.get("White", "?"), "result": g.result,
                     "moves": g.moves, "final": fen(final[0], final[1])})
    if json_out:
        print_json(rows)
        return
    table = Table(title=f"{path.name}: {len(rows)} games, every move legal")
    for column in ("#", "Black", "White", "result", "plies", "final position"):
        table.add_column(column)
    for r in rows:
        table.add_row(str(r["game"]), r["black"], r["white"], r["result"],
                      str(len(r["moves"])), r["final"])
    console.print(table)
