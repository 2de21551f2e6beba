"""The GTP client is the line client with GTP's answer shape (outside/gtp_client.py builds
on outside/line_client.py): it shares the line client's lifecycle, so it reports the
program's processor time and turns an unreadable answer into one line at once."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

from gamesearch.errors import GameSearchError
from gamesearch.outside.gtp_client import GtpClient
from gamesearch.outside.line_client import LineClient

# A GTP program: `spin` burns processor time for a while, `garble` answers bytes that are
# not UTF-8, `lines` answers on two lines, anything else is refused.
FAKE = textwrap.dedent("""
    import sys, time
    out = sys.stdout.buffer
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "protocol_version":
            out.write(b"= 2\\n\\n")
        elif word == "spin":
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
            out.write(b"=1 done\\n\\n")
        elif word == "garble":
            out.write(b"= \\xff\\xfe\\xfa\\n\\n")
        elif word == "lines":
            out.write(b"= first\\nsecond\\n\\n")
        elif word == "quit":
            out.write(b"=\\n\\n")
            out.flush()
            break
        else:
            out.write(b"? unknown command\\n\\n")
        out.flush()
""")


@pytest.fixture
def client(tmp_path: Path):
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE)
    gtp = GtpClient([sys.executable, str(script)])
    yield gtp
    gtp.close()


def test_the_gtp_client_is_a_line_client() -> None:
    assert issubclass(GtpClient, LineClient)


def test_answers_keep_gtp_shape(client: GtpClient) -> None:
    assert client.ask("spin") == "done"  # the id after "=" is dropped
    assert client.ask("lines") == "first\nsecond"
    with pytest.raises(GameSearchError, match="refused 'nonsense': unknown command"):
        client.ask("nonsense")


def test_the_program_s_processor_time_is_measured(client: GtpClient) -> None:
    before = client.cpu_seconds()
    if before is None:
        pytest.skip("no /proc here")
    client.ask("spin")
    assert client.cpu_seconds() >= before + 0.25


def test_an_unreadable_answer_is_one_line_at_once(client: GtpClient) -> None:
    """Bytes that are not text end the conversation at once, not after the deadline."""
    start = time.monotonic()
    with pytest.raises(GameSearchError, match="has stopped"):
        client.ask("garble", seconds=30.0)
    assert time.monotonic() - start < 20.0


def test_a_program_that_quits_is_closed(client: GtpClient) -> None:
    client.close()
    assert client.proc.poll() is not None
