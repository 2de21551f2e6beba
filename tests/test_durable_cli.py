"""The files of the long jobs on the command line: match --out, train cfr, book,
normal-form -o, solve pig --plot never clobber a user's file, and a broken file (bad match
line, damaged checkpoint or book, fuzzed) is one clear line, exit 2."""

from __future__ import annotations

import json
import os

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from gamesearch.durable import (
    npz_kind,
)
from gamesearch.errors import GameSearchError


def one_line_error(code: int, err: str, *words: str) -> None:
    """Exit 2, one line on stderr, no traceback, naming ``words``."""
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


# --- match --out ------------------------------------------------------------------------


def test_match_file_with_a_bad_line_is_one_line(cli, tmp_path) -> None:
    out = tmp_path / "m.jsonl"
    args = ("match", "tictactoe", "random", "random", "--games", "3", "--seed", "1",
            "--out", str(out))
    assert cli(*args)[0] == 0
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], "garbage", *lines[1:]]) + "\n")
    one_line_error(*cli(*args)[::2], "line 2")
    out.write_text("\n".join([lines[0], json.dumps({"type": "game", "index": "x"})]) + "\n")
    one_line_error(*cli(*args)[::2], "line 2")


def test_match_torn_tail_is_replayed_with_a_note(cli, tmp_path) -> None:
    out = tmp_path / "m.jsonl"
    args = ("match", "tictactoe", "random", "random", "--games", "3", "--seed", "1",
            "--out", str(out), "--json")
    code, first, _ = cli(*args)
    assert code == 0
    text = out.read_text()
    out.write_text(text[:-20])  # the last game line cut short by a kill
    code, again, err = cli(*args)
    assert code == 0 and "cut short" in err
    assert json.loads(again)["wins"] == json.loads(first)["wins"]
    assert games_without_times(out.read_text()) == games_without_times(text)  # same seed


def games_without_times(text: str) -> list[dict]:
    """The game records of a match file, less their wall-clock times."""
    records = [json.loads(line) for line in text.splitlines()[1:]]
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def test_match_never_overwrites_a_users_file(cli, tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a match\n")
    args = ("match", "tictactoe", "random", "random", "--games", "2", "--out", str(notes))
    one_line_error(*cli(*args)[::2], "--force")
    assert notes.read_text() == "not a match\n"
    assert cli(*args, "--force")[0] == 0
    assert json.loads(notes.read_text().splitlines()[0])["type"] == "match"
    one_line_error(*cli("match", "tictactoe", "random", "random", "--out",
                        str(tmp_path / "nodir" / "m.jsonl"))[::2], "does not exist")


# --- train cfr --------------------------------------------------------------------------


def test_train_cfr_refuses_files_that_are_not_ours(cli, tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "10", "--out", str(notes))[::2],
                   "is a file")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "10", "--out",
                        str(tmp_path / "nodir" / "run"))[::2], "does not exist")
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "strategy.json").write_text("{}")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "10", "--out", str(folder))[::2],
                   "--force")
    assert (folder / "strategy.json").read_text() == "{}"
    assert cli("train", "cfr", "kuhn_poker", "-n", "10", "--out", str(folder), "--force")[0] == 0
    # a finished run is not started over by mistake
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "10", "--out", str(folder))[::2],
                   "--resume")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "5", "--total", "9", "--out",
                        str(folder))[::2], "not both")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "--checkpoint-every", "nan", "--out",
                        str(folder))[::2], "checkpoint-every")
    one_line_error(*cli("train", "cfr", "kuhn_poker", "--total", "5", "--out", str(folder),
                        "--resume")[::2], "already holds 10 iterations")
    code, out, _ = cli("train", "cfr", "kuhn_poker", "--total", "10", "--out", str(folder),
                       "--resume", "--json")  # the same command after the run finished
    assert code == 0 and json.loads(out)["iterations"] == 10


@pytest.mark.parametrize("cut", [0, 1, 30, 200, -1])
def test_truncated_checkpoint_is_one_line(cli, tmp_path, cut) -> None:
    folder = tmp_path / "run"
    assert cli("train", "cfr", "kuhn_poker", "-n", "20", "--out", str(folder))[0] == 0
    checkpoint = folder / "checkpoint.npz"
    data = checkpoint.read_bytes()
    checkpoint.write_bytes(data[:cut])
    one_line_error(*cli("train", "cfr", "kuhn_poker", "-n", "20", "--out", str(folder),
                        "--resume")[::2], "checkpoint")
    assert checkpoint.read_bytes() == data[:cut]  # not overwritten by the failed resume


def test_checkpoints_are_periodic_and_the_count_exact(tmp_path) -> None:
    from gamesearch.games import load_game
    from gamesearch.imperfect.cfr import CFRSolver
    from gamesearch.imperfect.training import CFRTraining

    game = load_game("kuhn_poker")
    run = CFRTraining(game, tmp_path / "run", checkpoint_every=0.0)
    run.step(37)
    # checkpoint_every=0: the checkpoint is current after every slice, before finish()
    probe = CFRSolver(game)
    extra = probe.load(run.checkpoint)
    assert probe.iterations == 37
    assert [int(t) for t, _ in extra["curve"]] == [0, 37]  # curve and sums saved together
    straight = CFRSolver(game)
    straight.run(37)
    np.testing.assert_array_equal(probe.strategy_sum, straight.strategy_sum)
    stopped = run.step(100, stop=lambda: True)
    assert stopped is None and run.solver.iterations == 37
    with pytest.raises(GameSearchError, match="kuhn_poker .cfr.* not"):
        CFRSolver(game, plus=True).load(run.checkpoint)


# --- book -------------------------------------------------------------------------------


def test_book_never_overwrites_a_users_file(cli, tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    args = ("book", "connect4", "--width", "4", "--height", "4", "--depth", "1")
    one_line_error(*cli(*args, "-o", str(notes))[::2], "not a gamesearch opening book")
    assert notes.read_text() == "my notes"
    one_line_error(*cli(*args, "-o", str(tmp_path / "nodir" / "x.npz"))[::2],
                   "does not exist")
    partial = tmp_path / "b.npz.partial"
    partial.write_text("someone's file\n")
    one_line_error(*cli(*args, "-o", str(tmp_path / "b.npz"))[::2], "--force")
    assert partial.read_text() == "someone's file\n"
    book = tmp_path / "book"  # no .npz suffix: written to exactly that name
    assert cli(*args, "-o", str(book))[0] == 0
    assert npz_kind(book) == "connect4-book" and not (tmp_path / "book.npz").exists()
    before = book.stat().st_mtime_ns
    assert cli(*args, "-o", str(book))[0] == 0  # finished already: nothing to do
    assert book.stat().st_mtime_ns == before
    assert cli(*args, "-o", str(book), "--force")[0] == 0  # ours: rebuilt on request
    assert book.stat().st_mtime_ns > before
    assert cli("book", "connect4", "--width", "4", "--height", "4", "--depth", "2", "-o",
               str(book))[0] == 0  # ours, another depth: rebuilt
    assert cli(*args, "-o", str(notes), "--force")[0] == 0
    assert npz_kind(notes) == "connect4-book"


def test_book_partial_of_another_build_is_refused(tmp_path) -> None:
    from gamesearch.engines.connect4.book import build_book, partial_header

    path = tmp_path / "b.npz"
    (tmp_path / "b.npz.partial").write_text(partial_header(5, 4, 3) + "\n12 1\n")
    with pytest.raises(GameSearchError, match="another build .5x4 depth 3"):
        build_book(4, 4, 2, path)
    (tmp_path / "b.npz.partial").write_text(partial_header(4, 4, 2) + "\n12 x\n")
    with pytest.raises(GameSearchError, match="line 2"):
        build_book(4, 4, 2, path)


# --- normal-form -o ---------------------------------------------------------------------


def test_normal_form_output_never_replaces_a_file_without_force(cli, tmp_path) -> None:
    game_file = tmp_path / "g.nfg"
    game_file.write_text("my own game\n")
    one_line_error(*cli("normal-form", "nim:piles=1-2", "-o", str(game_file))[::2], "--force")
    assert game_file.read_text() == "my own game\n"
    assert cli("normal-form", "nim:piles=1-2", "-o", str(game_file), "--force")[0] == 0
    assert game_file.read_text().startswith("NFG 1 R")
    one_line_error(*cli("normal-form", "nim:piles=1-2", "-o",
                        str(tmp_path / "nodir" / "g.nfg"))[::2], "does not exist")


# --- fuzz: whatever a results file, checkpoint or partial book holds --------------------

LINES = st.one_of(
    st.text(max_size=40),
    st.builds(lambda d: json.dumps(d), st.dictionaries(
        st.sampled_from(["type", "index", "a_seat", "moves", "utilities", "score_a",
                         "seconds", "x"]),
        st.one_of(st.integers(-3, 3), st.text(max_size=3), st.just("game"),
                  st.lists(st.integers(0, 2), max_size=2), st.none()), max_size=8)))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(LINES, max_size=5), st.booleans())
def test_any_match_file_resumes_or_is_one_clear_error(tmp_path, lines, newline) -> None:
    from gamesearch.arena.match import run_match
    from gamesearch.games import load_game

    out = tmp_path / "fuzz.jsonl"
    header = {"type": "match", "game": "nim", "a": "random", "b": "random", "seed": 1}
    out.write_text("\n".join([json.dumps(header), *lines]) + ("\n" if newline else ""))
    try:
        match = run_match(load_game("nim:piles=1-2"), "random", "random", 2, seed=1, out=out,
                          game_label="nim")
    except GameSearchError as err:
        assert "\n" not in str(err)
    else:
        assert sorted(r.index for r in match.records)[:2] == [0, 1]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_damaged_checkpoint_is_one_clear_error(tmp_path, data) -> None:
    from gamesearch.games import load_game
    from gamesearch.imperfect.cfr import CFRSolver

    game = load_game("kuhn_poker")
    path = tmp_path / "c.npz"
    if not path.exists():
        solver = CFRSolver(game)
        solver.run(3)
        solver.save(path)
    good = path.read_bytes()
    cut = data.draw(st.integers(0, len(good) - 1))
    flip = data.draw(st.integers(0, len(good) - 1))
    damaged = bytearray(good[:cut] if data.draw(st.booleans()) else good)
    if flip < len(damaged):
        damaged[flip] ^= 0xFF
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(damaged))
    try:
        CFRSolver(game).load(bad)
    except GameSearchError as err:
        assert "\n" not in str(err)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_damaged_book_is_one_clear_error(tmp_path, data) -> None:
    from gamesearch.engines.connect4.book import OpeningBook

    path = tmp_path / "b.npz"
    if not path.exists():
        OpeningBook(4, 4, 1, np.array([1, 5, 9], np.int64), np.array([0, 1, -1], np.int8)
                    ).save(path)
    good = path.read_bytes()
    cut = data.draw(st.integers(0, len(good) - 1))
    flip = data.draw(st.integers(0, len(good) - 1))
    damaged = bytearray(good[:cut] if data.draw(st.booleans()) else good)
    if flip < len(damaged):
        damaged[flip] ^= data.draw(st.integers(1, 255))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(damaged))
    try:
        OpeningBook.load(bad)
    except GameSearchError as err:
        assert "\n" not in str(err)


def test_a_kill_during_the_checkpoint_write_keeps_the_previous_one(tmp_path, monkeypatch) -> None:
    """The old failure: a kill mid-write left an empty checkpoint and every resume failed."""
    from gamesearch.games import load_game
    from gamesearch.imperfect import cfr
    from gamesearch.imperfect.cfr import CFRSolver

    game = load_game("kuhn_poker")
    solver = CFRSolver(game)
    solver.run(10)
    solver.save(tmp_path / "c.npz")
    solver.run(10)

    def dies_mid_write(handle, **arrays):
        handle.write(b"PK\x03\x04 half a zip")
        raise KeyboardInterrupt  # stands for the kill

    monkeypatch.setattr(cfr.np, "savez", dies_mid_write)
    with pytest.raises(KeyboardInterrupt):
        solver.save(tmp_path / "c.npz")
    monkeypatch.undo()
    resumed = CFRSolver(game)
    resumed.load(tmp_path / "c.npz")
    assert resumed.iterations == 10 and os.listdir(tmp_path) == ["c.npz"]


def test_book_ctrl_c_says_what_is_kept_and_how_to_resume(cli, tmp_path, monkeypatch) -> None:
    from gamesearch.engines.connect4 import book as connect4_book

    def interrupted(width, height, depth, path, progress=None, force=False, **kw):
        with open(f"{path}.partial", "w") as handle:  # three solved, two reported
            handle.write(connect4_book.partial_header(width, height, depth) + "\n1 0\n2 0\n3 1\n")
        progress(2, 10)
        raise KeyboardInterrupt

    monkeypatch.setattr(connect4_book, "build_book", interrupted)
    code, _, err = cli("book", "connect4", "--width", "4", "--height", "4", "--depth", "2",
                       "-o", str(tmp_path / "b.npz"))
    assert code == 130
    assert "interrupted after 3 of 10 positions" in err and "again to resume" in err


# --- pictures ---------------------------------------------------------------------------


def test_pig_plot_replaces_only_pictures_gamesearch_drew(cli, tmp_path) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n a person's picture")
    one_line_error(*cli("solve", "pig", "--goal", "10", "--plot", str(photo))[::2],
                   "not a gamesearch picture")
    assert photo.read_bytes().endswith(b"a person's picture")
    ours = tmp_path / "policy.png"
    assert cli("solve", "pig", "--goal", "10", "--plot", str(ours))[0] == 0
    from gamesearch.durable import png_is_ours

    assert png_is_ours(ours) and not png_is_ours(photo)
    assert cli("solve", "pig", "--goal", "12", "--plot", str(ours))[0] == 0  # ours: redrawn
    one_line_error(*cli("solve", "pig", "--goal", "10", "--plot",
                        str(tmp_path / "nodir" / "p.png"))[::2], "does not exist")


def test_the_shipped_pig_picture_is_marked_as_ours() -> None:
    """So that the documented `solve pig --plot docs/pig_policy.png` can redraw it."""
    from pathlib import Path

    from gamesearch.durable import png_is_ours

    shipped = Path(__file__).resolve().parent.parent / "docs" / "pig_policy.png"
    assert png_is_ours(shipped)


def test_tournament_force_never_deletes_a_results_database(cli, tmp_path) -> None:
    """--force lets --db replace a file that is not a results database; on one of ours it
    resumes (it used to delete every finished game and start again)."""
    import sqlite3

    db = tmp_path / "t.sqlite"
    args = ("tournament", "nim:piles=1-2", "--players", "random", "--players",
            "random:seed=2", "--games", "2", "--seed", "1", "--db", str(db), "--json")
    assert cli(*args)[0] == 0
    code, out, err = cli(*args, "--force")
    assert code == 0, err
    con = sqlite3.connect(db)
    try:
        commands = con.execute("SELECT count(*) FROM commands").fetchone()[0]
        finished = con.execute("SELECT count(*) FROM results").fetchone()[0]
    finally:
        con.close()
    assert (commands, finished) == (2, 2)  # the first run's games kept, nothing replayed
