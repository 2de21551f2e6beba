"""gamesearch.durable itself: atomic writes, never clobbering a user's file, append-only
logs that survive torn lines, fsync policy, permissions, a full disk, one run per output."""

from __future__ import annotations

import os
import sys
import time

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from gamesearch.durable import (
    LineLog,
    OutputFileError,
    atomic_write,
    atomic_writer,
    check_output,
    npz_kind,
    remove_stale_temps,
)

# --- the module -------------------------------------------------------------------------


def test_atomic_writer_keeps_the_old_file_when_the_write_fails(tmp_path) -> None:
    path = tmp_path / "f.txt"
    atomic_write(path, "old\n")
    with pytest.raises(RuntimeError), atomic_writer(path, binary=False) as handle:
        handle.write("half of the new")
        raise RuntimeError("killed mid-write")
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["f.txt"]  # no temporary file left behind
    atomic_write(path, b"new")
    assert path.read_bytes() == b"new"


def test_stale_temporary_files_are_removed(tmp_path) -> None:
    path = tmp_path / "a.npz"
    (tmp_path / ".a.npz.x1y2.tmp").write_bytes(b"left by kill -9")
    (tmp_path / ".other.npz.x1y2.tmp").write_bytes(b"not a.npz's")
    remove_stale_temps(path)
    assert sorted(os.listdir(tmp_path)) == [".other.npz.x1y2.tmp"]


def test_check_output_refuses_what_is_not_ours(tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    with pytest.raises(OutputFileError, match="not a gamesearch book.*--force"):
        check_output(notes, lambda p: False, what="book")
    assert check_output(notes, lambda p: False, force=True) == notes
    assert check_output(notes, lambda p: True) == notes
    with pytest.raises(OutputFileError, match="folder .*nodir.* does not exist"):
        check_output(tmp_path / "nodir" / "x.npz", lambda p: True)
    with pytest.raises(OutputFileError, match="is a folder"):
        check_output(tmp_path, lambda p: True)
    (tmp_path / "empty").write_text("")
    check_output(tmp_path / "empty", lambda p: False)  # nothing to lose
    assert notes.read_text() == "my notes"


def test_npz_kind_reads_the_magic_entry(tmp_path) -> None:
    np.savez(tmp_path / "ours.npz", gamesearch=np.array("cfr-checkpoint"), x=np.zeros(3))
    np.savez(tmp_path / "theirs.npz", x=np.zeros(3))
    (tmp_path / "text.npz").write_text("hello")
    assert npz_kind(tmp_path / "ours.npz") == "cfr-checkpoint"
    assert npz_kind(tmp_path / "theirs.npz") is None
    assert npz_kind(tmp_path / "text.npz") is None
    assert npz_kind(tmp_path / "missing.npz") is None


def _ours(line: str) -> bool:
    return line.startswith("# log")


def test_line_log_appends_and_cuts_a_torn_tail(tmp_path) -> None:
    path = tmp_path / "log.txt"
    with LineLog(path, "# log v1", _ours) as log:
        assert log.lines == [] and not log.torn
        log.append("a")
        log.append("b")
    assert path.read_text() == "# log v1\na\nb\n"
    with open(path, "a") as handle:
        handle.write("c-cut-sh")  # a kill in the middle of a line
    with LineLog(path, "# log v1", _ours) as log:
        assert log.lines == ["a", "b"] and log.torn == "c-cut-sh"
        log.append("c")
    assert path.read_text() == "# log v1\na\nb\nc\n"  # not "c-cut-shc"
    with pytest.raises(ValueError):
        LineLog(path, "# log v1", _ours).append("two\nlines")


def test_line_log_never_takes_over_a_foreign_file(tmp_path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n")
    with pytest.raises(OutputFileError, match="--force"):
        LineLog(path, "# log v1", _ours)
    assert path.read_text() == "shopping list\n"
    with LineLog(path, "# log v1", _ours, force=True) as log:
        assert log.lines == []
    assert path.read_text() == "# log v1\n"


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_line_log_opens_any_bytes_or_refuses_cleanly(tmp_path, data) -> None:
    """Whatever is in the file: it opens (the complete lines are read) or one clear error."""
    path = tmp_path / "fuzz.txt"
    path.write_bytes(b"# log v1\n" + data)
    try:
        with LineLog(path, "# log v1", _ours) as log:
            assert all("\n" not in line for line in log.lines)
    except OutputFileError as err:
        assert "UTF-8" in str(err)
    assert not path.read_bytes() or path.read_bytes().endswith(b"\n")



def test_line_log_fsyncs_at_most_once_a_second_and_on_close(tmp_path, monkeypatch) -> None:
    """An fsync per record made fast matches 5x slower; a flush per record is enough for
    kill -9, and the periodic fsync bounds what a power cut can take."""
    import gamesearch.durable as durable

    calls = []
    monkeypatch.setattr(durable.os, "fsync", lambda fd: calls.append(fd))
    log = LineLog(tmp_path / "log.txt", "# log v1", _ours, sync_every=3600)
    created = len(calls)  # the header file's own fsync
    for i in range(200):
        log.append(str(i))
    assert len(calls) == created  # flushed, not fsynced
    assert (tmp_path / "log.txt").read_text().count("\n") == 201  # yet all in the file
    log.close()
    assert len(calls) == created + 1
    log = LineLog(tmp_path / "log.txt", "# log v1", _ours, sync_every=0)
    log.append("x")
    log.append("y")
    assert len(calls) == created + 3


def test_replaced_files_keep_their_permissions_and_new_ones_follow_the_umask(tmp_path) -> None:
    path = tmp_path / "f.txt"
    umask = os.umask(0o022)
    try:
        atomic_write(path, "a")
        assert path.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600
        path.chmod(0o640)
        atomic_write(path, "b")
        assert path.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)


def test_a_full_disk_is_one_line_and_keeps_the_old_file(tmp_path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    path = tmp_path / "f.txt"
    atomic_write(path, "old")
    with pytest.raises(OutputFileError, match="cannot write"), atomic_writer(path) as handle:
        with open("/dev/full", "wb") as full:
            full.write(b"x" * 10)
            full.flush()  # ENOSPC, as a full disk would answer handle.write
        handle.write(b"never")
    assert path.read_text() == "old"


# --- two runs on the same output ---------------------------------------------------------


def test_a_second_run_on_the_same_output_is_refused_while_the_first_runs(tmp_path) -> None:
    """Two runs appending to one file (or checkpointing one folder) would undo each
    other's work: the second is one clear line, and the first is unharmed."""
    from gamesearch.games import load_game
    from gamesearch.imperfect.training import CFRTraining

    path = tmp_path / "log.txt"
    first = LineLog(path, "# log v1", _ours)
    first.append("a")
    with pytest.raises(OutputFileError, match="another running gamesearch"):
        LineLog(path, "# log v1", _ours)
    first.append("b")
    first.close()
    with LineLog(path, "# log v1", _ours) as again:  # released on close
        assert again.lines == ["a", "b"]
    game = load_game("kuhn_poker")
    run = CFRTraining(game, tmp_path / "run")
    with pytest.raises(OutputFileError, match="another running gamesearch"):
        CFRTraining(game, tmp_path / "run", resume=True)
    run.step(5)
    run.finish()  # releases the folder
    assert CFRTraining(game, tmp_path / "run", resume=True).solver.iterations == 5


def test_a_second_match_process_on_the_same_file_is_refused(tmp_path) -> None:
    import subprocess

    out = tmp_path / "m.jsonl"
    args = [sys.executable, "-m", "gamesearch", "match", "connect4", "mcts:iterations=2000",
            "random", "--games", "50", "--out", str(out)]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not out.exists() or out.read_bytes().count(b"\n") < 2:  # a game is done
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.02)
        second = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and "another running gamesearch" in second.stderr
    finally:
        first.kill()
        first.wait()
