"""Bounded work and one-line refusals (issue 39): every command estimates its work before it
starts and refuses what it cannot finish, saying what it would need, or runs under a limit it
prints; odd argument text is one line and exit status 2, never a traceback."""

from __future__ import annotations

import pytest

LONG_NAME = "a" * 300


def one_line_error(code: int, err: str) -> str:
    """The single ``error:`` line of a refusal (exit status 2)."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    return lines[0]


# --- argument text ------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["tree", "normal-form", "spe", "sequence-form", "efg",
                                     "nash", "dominance", "qre"])
@pytest.mark.parametrize("suffix", ["", ".json", ".efg"])
def test_a_file_name_too_long_is_one_line(cli, command, suffix):
    line = one_line_error(*cli(command, LONG_NAME + suffix)[::2])
    assert "too long" in line and len(line) < 200


def test_an_empty_file_name_is_not_the_current_folder(cli):
    for command in ("tree", "nash"):
        line = one_line_error(*cli(command, "")[::2])
        assert "'.'" not in line and "empty" in line


def test_serve_host_that_no_host_name_encodes(cli):
    line = one_line_error(*cli("serve", "--host", "a\udcffb")[::2])
    assert "--host" in line
