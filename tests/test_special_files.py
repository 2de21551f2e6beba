"""Issue 39, Files: outputs are regular files only, inputs are regular files of bounded
size, record files are replaced only when they carry our mark, a missing output folder is
one line.

Devices, named pipes and sockets are made in the test's folder (a character device only
where the tests may make one: as root), never the machine's own ``/dev`` entries, so a
regression renames a file over a node of the test's, not over ``/dev/null``. A reader that
regresses to opening a named pipe would wait for a writer for ever: :func:`fifo` keeps
opening its pipe for writing, so such a test fails (the pipe was read) instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamesearch.durable import OutputFileError, atomic_write, check_output, output_target
from gamesearch.errors import GameSearchError
from gamesearch.textinput import INPUT_LIMITS, read_input, read_text


@contextlib.contextmanager
def unblocked(path: Path) -> Iterator[None]:
    """While inside, a thread opens the pipe ``path`` for writing whenever a reader waits on
    it (and closes it at once): a reader that opens it sees an empty file, not a hang."""
    done = threading.Event()

    def feed() -> None:
        while not done.wait(0.2):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader waiting (ENXIO), or the pipe was replaced
                continue
            os.close(fd)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def make_special(kind: str, path: Path) -> contextlib.AbstractContextManager:
    """Make ``path`` a special file of ``kind`` (fifo, socket, device); the context keeps it
    alive (a socket is bound, a pipe unblocked)."""
    if kind == "fifo":
        os.mkfifo(path)
        return unblocked(path)
    if kind == "socket":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(str(path))
        except OSError as err:  # a path too long for AF_UNIX
            sock.close()
            pytest.skip(f"cannot bind a socket here: {err}")
        return contextlib.closing(sock)
    if kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # like /dev/null
        except (PermissionError, AttributeError):
            pytest.skip("making a device node needs root")
        return contextlib.nullcontext()
    raise ValueError(kind)


WORDS = {"fifo": "named pipe", "socket": "socket", "device": "character device"}
KINDS = list(WORDS)


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for word in words:
        assert word in err, err


def assert_untouched(path: Path, kind: str) -> None:
    mode = os.lstat(path).st_mode
    test = {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}[kind]
    assert test(mode), f"{path.name} was replaced by a {stat.filemode(mode)} file"


# --- outputs ------------------------------------------------------------------------------


def _chess_match(folder: Path) -> Path:
    """A match file of chess with no games yet (what ``pgn write`` exports from)."""
    path = folder / "c.jsonl"
    path.write_text(json.dumps({"type": "match", "game": "chess", "a": "random",
                                "b": "random", "seed": 1}) + "\n")
    return path


def _match_of(folder: Path, game: str) -> Path:
    path = folder / f"{game}.jsonl"
    path.write_text(json.dumps({"type": "match", "game": game, "a": "random", "b": "random",
                                "seed": 1}) + "\n")
    return path


def _tree(folder: Path) -> str:
    path = folder / "t.json"
    path.write_text("[[3, 12], [2, 4]]")
    return str(path)


def _nfg(folder: Path) -> str:
    path = folder / "g.nfg"
    path.write_text('NFG 1 R "" { "A" "B" } { 2 2 }\n1 1 0 0 0 0 1 1\n')
    return str(path)


OUTPUTS = {
    "match --out": lambda d, out: ("match", "tictactoe", "random", "random", "--games", "1",
                                   "--out", out),
    "tournament --db": lambda d, out: ("tournament", "nim:piles=1-2", "--players", "random",
                                       "--players", "random:seed=2", "--games", "1", "--db", out),
    "tournament --db --force": lambda d, out: (
        "tournament", "nim:piles=1-2", "--players", "random", "--players", "random:seed=2",
        "--games", "1", "--db", out, "--force"),
    "pgn write --force": lambda d, out: ("pgn", "write", str(_chess_match(d)), out, "--force"),
    "sgf write": lambda d, out: ("sgf", "write", str(_match_of(d, "go")), out),
    "pdn write": lambda d, out: ("pdn", "write", str(_match_of(d, "checkers")), out),
    "normal-form -o --force": lambda d, out: ("normal-form", _tree(d), "-o", out, "--force"),
    "book -o": lambda d, out: ("book", "connect4", "--depth", "1", "-o", out),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", list(OUTPUTS))
def test_outputs_refuse_special_files_even_with_force(cli, tmp_path, command, kind) -> None:
    target = tmp_path / ("out.nfg" if command.startswith("normal-form") else "out")
    with make_special(kind, target):
        code, _, err = cli(*OUTPUTS[command](tmp_path, str(target)))
        assert_untouched(target, kind)
    one_line_error(code, err, WORDS[kind], "only regular files")


@pytest.mark.parametrize("kind", KINDS)
def test_outputs_named_by_extension_refuse_special_files(cli, tmp_path, kind) -> None:
    """qre --plot and efg -o choose the format by the name: the node is named so."""
    for args, name in ((lambda p: ("qre", _nfg(tmp_path), "--plot", p), "p.png"),
                       (lambda p: ("efg", "kuhn_poker", "-o", p), "k.efg")):
        target = tmp_path / name
        with make_special(kind, target):
            code, _, err = cli(*args(str(target)))
            assert_untouched(target, kind)
        one_line_error(code, err, WORDS[kind])


def test_the_module_refuses_special_files_for_every_writer(tmp_path) -> None:
    """atomic_write is the last step of every writer: it applies the rule too."""
    for kind in ("fifo", "socket"):
        target = tmp_path / kind
        with make_special(kind, target):
            for write in (lambda t=target: atomic_write(t, b"x"),
                          lambda t=target: check_output(t, lambda p: True, force=True)):
                with pytest.raises(OutputFileError, match=WORDS[kind]):
                    write()
            assert_untouched(target, kind)


def test_links_are_written_through_and_dangling_ones_refused(cli, tmp_path) -> None:
    real = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(real.name)
    with pytest.raises(OutputFileError, match="symbolic link to 'real.jsonl'.*does not exist"):
        output_target(link)
    code, _, err = cli("match", "tictactoe", "random", "random", "--games", "1", "--out",
                       str(link))
    one_line_error(code, err, "symbolic link")
    assert link.is_symlink() and not real.exists()
    real.write_text("")  # an empty file: ours to fill
    code, _, err = cli("match", "tictactoe", "random", "random", "--games", "2", "--out",
                       str(link))
    assert code == 0, err
    assert link.is_symlink(), "the link was replaced by a file"
    assert real.read_text().count("\n") == 3  # header and two games, in the link's target
    pipe = tmp_path / "pipe"
    to_pipe = tmp_path / "to_pipe.jsonl"
    to_pipe.symlink_to(pipe.name)
    with make_special("fifo", pipe):
        code, _, err = cli("match", "tictactoe", "random", "random", "--games", "1", "--out",
                           str(to_pipe))
        assert_untouched(pipe, "fifo")
    one_line_error(code, err, "named pipe")
    assert to_pipe.is_symlink()


# --- inputs -------------------------------------------------------------------------------

INPUTS = {
    "tree": lambda d, f: ("tree", f),
    "nash": lambda d, f: ("nash", f),
    "qre": lambda d, f: ("qre", f),
    "efg": lambda d, f: ("efg", f),
    "spe": lambda d, f: ("spe", f),
    "pgn read": lambda d, f: ("pgn", "read", f),
    "sgf read": lambda d, f: ("sgf", "read", f),
    "pdn read": lambda d, f: ("pdn", "read", f),
    "pgn write SOURCE": lambda d, f: ("pgn", "write", f, str(d / "x.pgn")),
    "report": lambda d, f: ("report", f),
    "tournament --openings": lambda d, f: (
        "tournament", "tictactoe", "--players", "random", "--players", "random:seed=2",
        "--openings", f, "--db", str(d / "t.sqlite")),
    "pacman layout": lambda d, f: ("pacman", "match", "--layout", f, "--games", "1"),
    "connect4 book=": lambda d, f: ("solve", "connect4", "--book", f),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", list(INPUTS))
def test_inputs_refuse_special_files(cli, tmp_path, command, kind) -> None:
    source = tmp_path / "in"
    with make_special(kind, source):
        code, _, err = cli(*INPUTS[command](tmp_path, str(source)))
    one_line_error(code, err, WORDS[kind])


def test_dev_zero_is_refused_before_it_is_opened(tmp_path) -> None:
    """/dev/zero never ends: the rule looks at it with stat and never reads it."""
    for reader in (read_input, read_text):
        with pytest.raises(GameSearchError, match="character device"):
            reader("/dev/zero", "game file")


def test_inputs_are_bounded_by_their_format_limit(tmp_path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 100)
    assert read_input(path, "file", limit=100) == b"x" * 100
    with pytest.raises(GameSearchError, match="100 bytes; the limit is 99"):
        read_input(path, "file", limit=99)
    assert set(INPUT_LIMITS) >= {"game file", "tree file", "PGN file", "SGF file",
                                 "PDN file", "openings file", "opening book", "checkpoint"}


def test_a_pickled_book_is_refused_without_a_hint_to_load_it(cli, tmp_path) -> None:
    import numpy as np

    book = tmp_path / "b.npz"
    np.savez(book, meta=np.array([{"width": 7}], dtype=object), keys=np.zeros(1),
             values=np.zeros(1))
    code, _, err = cli("solve", "connect4", "--book", str(book))
    one_line_error(code, err, "pickled", "never loads")
    assert "allow_pickle" not in err


# --- record files: ours only with our mark --------------------------------------------------

RECORDS = {"pgn": ("chess", '[Event "club"]\n[White "me"]\n[Black "you"]\n\n1. e4 *\n'),
           "pdn": ("checkers", '[Event "club"]\n[Black "me"]\n\n1. 11-15 *\n'),
           "sgf": ("go", "(;GM[1]FF[4]SZ[9]PB[me];B[ee])\n")}


@pytest.mark.parametrize("kind", list(RECORDS))
def test_record_writers_replace_only_files_with_our_mark(cli, tmp_path, kind) -> None:
    game, users = RECORDS[kind]
    source = _match_of(tmp_path, game)
    mine = tmp_path / f"club.{kind}"
    mine.write_text(users)
    code, _, err = cli(kind, "write", str(source), str(mine))
    one_line_error(code, err, "not a gamesearch", "--force")
    assert mine.read_text() == users
    ours = tmp_path / f"ours.{kind}"
    from gamesearch.catalog.game_records import record_is_ours, record_text
    from gamesearch.games import load_game

    played = load_game(game)
    text = record_text(played, played.initial_state(), [], ["a", "b"], None)
    assert record_is_ours(kind, text) and not record_is_ours(kind, users)
    ours.write_text(text)
    assert cli(kind, "write", str(source), str(ours))[0] == 0  # our own: replaced
    assert cli(kind, "write", str(source), str(mine), "--force")[0] == 0
    assert mine.read_text() != users


# --- missing folders and unknown extensions -----------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("train", "samuel", "checkers", "--games", "1", "--out", "{no}/x"), "does not exist"),
    (("train", "alphazero", "connect4", "--rounds", "1", "--out", "{no}/x"), "does not exist"),
    (("train", "alphazero", "connect4", "--rounds", "1", "--out", "{file}"), "not a folder"),
    (("qre", "{nfg}", "--plot", "{no}/p.png"), "does not exist"),
    (("qre", "{nfg}", "--plot", "{dir}/p.xyz"), ".png, .svg"),
    (("efg", "kuhn_poker", "-o", "{no}/k.efg"), "does not exist"),
    (("efg", "kuhn_poker", "-o", "{dir}/k.txt"), ".efg"),
    (("normal-form", "nim:piles=1-2", "-o", "{dir}/g.txt"), ".nfg, .json, .csv"),
    (("tables", "build", "checkers", "--pieces", "2", "--dir", "{no}/t"), "does not exist"),
])
def test_missing_folders_and_unknown_extensions_are_one_line(cli, tmp_path, args, words):
    plain = tmp_path / "plain.txt"
    plain.write_text("a file")
    fill = {"no": str(tmp_path / "no"), "dir": str(tmp_path), "file": str(plain),
            "nfg": _nfg(tmp_path)}
    code, _, err = cli(*(a.format(**fill) for a in args))
    one_line_error(code, err, words)
    assert "log log" not in err
    assert not (tmp_path / "no").exists(), "a folder was made that nobody asked for"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.nfg", "plain.txt"]
