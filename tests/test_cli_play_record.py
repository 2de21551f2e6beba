"""``gamesearch play --record``: each game kept as PGN, SGF or PDN, appended, read back by
the readers of those formats; an abandoned game too; bad paths refused before the game."""

from __future__ import annotations

import chess

from gamesearch.games.chess.pgn import read_pgn
from gamesearch.games.go.sgf import read_sgf

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#


def test_chess_games_are_appended_as_pgn_and_read_back(cli, tmp_path) -> None:
    pgn = tmp_path / "games.pgn"
    code, out, err = cli("play", "chess", "-1", "chess-engine:depth=2", "-2",
                         "chess-engine:depth=1", "--position", MATE_IN_ONE, "--record", str(pgn))
    assert code == 0, err
    code, _, err = cli("play", "chess", "-2", "chess-engine:depth=1", "--record", str(pgn),
                       stdin="e4\nquit\n")
    assert code == 0, err
    games = read_pgn(pgn.read_text())
    assert len(games) == 2
    assert games[0].result == "1-0" and games[0].moves == ["d1d8"]
    assert games[0].start == MATE_IN_ONE and games[0].final_board().is_checkmate()
    assert games[1].result == "*" and games[1].moves[0] == "e2e4" and len(games[1].moves) == 2
    assert games[1].tags["White"] == "human" and games[1].start is None
    assert chess.Board().variation_san([chess.Move.from_uci(m) for m in games[1].moves])


def test_go_games_are_kept_as_sgf_with_the_area_result(cli, tmp_path) -> None:
    sgf = tmp_path / "games.sgf"
    code, _, err = cli("play", "go", "--size", "5", "-1", "go-mcts:playouts=100,seed=1",
                       "-2", "go-mcts:playouts=100,seed=2", "--record", str(sgf))
    assert code == 0, err
    records = read_sgf(sgf.read_text())
    assert len(records) == 1 and records[0].size == 5 and records[0].moves
    assert records[0].result and records[0].result[0] in "BW0"


def test_bad_records_are_refused_before_any_move(cli, tmp_path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    for args, says in (
            (("tictactoe", "--record", str(tmp_path / "t.pgn")), "no record format"),
            (("chess", "--record", str(tmp_path / "no" / "g.pgn")), "does not exist"),
            (("chess", "--record", str(other)), "is not a gamesearch PGN file"),
            (("chess", "--record", str(tmp_path)), "is a folder")):
        code, out, err = cli("play", *args, stdin="e4\n")
        assert code == 2 and says in err and err.count("\n") == 1, (args, err)
        assert "e4" not in out  # no game was played
    assert other.read_text() == "my notes\n"
