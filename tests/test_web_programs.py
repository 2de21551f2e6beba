"""No web request starts a program (issue #39, security): agents that drive an outside
program (uci, gtp, edax, gnubg) are offered only with the programs the server's operator
named (``serve --program``), chosen by name; a request never names a path or arguments, and
no reply shows a path on the server.

The programs here are stand-ins named like the real engines (stockfish, gnugo, edax, gnubg)
on the server's PATH: each writes a line to a marker file when started, so a request that
starts one leaves a trace whether or not the program then speaks the protocol.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.errors import GameSearchError  # noqa: E402
from gamesearch.outside import programs  # noqa: E402
from gamesearch.web import validate  # noqa: E402
from gamesearch.web.app import create_app  # noqa: E402

ENGINES = ("stockfish", "gnugo", "edax", "gnubg", "sentinel")


@pytest.fixture()
def fake_engines(tmp_path, monkeypatch):
    """Stand-in programs on PATH (inherited by the server's workers) and their marker."""
    marker = tmp_path / "started.txt"
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ENGINES:
        script = folder / name
        script.write_text(f"#!/bin/sh\necho {name} >> '{marker}'\nexit 1\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder, marker


def started(marker: Path) -> list[str]:
    return marker.read_text().split() if marker.exists() else []


REQUESTS = [
    ("chess", "uci"), ("chess", "uci:cmd=stockfish"), ("chess", "uci:cmd=sentinel"),
    ("chess", "uci:cmd=sh"), ("go:size=9", "gtp"), ("go:size=9", "gtp:cmd=sentinel"),
    ("othello", "edax"), ("othello", "edax:cmd=sentinel"), ("chess", "uci:cmd=/bin/sh"),
    ("chess", "uci:cmd=sentinel --evil"),
]


def test_no_request_starts_a_program(fake_engines):
    """Without ``--program``, every request naming an outside agent is refused (4xx) and
    nothing is started; the agent list offers none of them."""
    folder, marker = fake_engines
    with TestClient(create_app(workers=1, warm=False)) as client:
        offered = {a["name"] for a in client.get("/api/agents").json()["agents"]}
        assert not offered & {"uci", "gtp", "edax", "gnubg"}
        seats = client.get("/api/seats", params={"game": "chess"}).json()["seats"]
        assert all("uci" not in seat["agents"] for seat in seats)
        for game, agent in REQUESTS:
            reply = client.post("/api/move", json={"game": game, "moves": [], "agent": agent})
            assert 400 <= reply.status_code < 500, (agent, reply.text)
            assert str(folder) not in reply.text and "/bin/" not in reply.text
    assert started(marker) == []


def test_offered_programs_are_chosen_by_name_only(fake_engines):
    """With ``--program sentinel``, a request may choose "sentinel" (started with the
    operator's command, not the request's) and nothing else; no reply shows its path."""
    folder, marker = fake_engines
    offer = programs.parse_offers(["sentinel"])
    assert offer == {"sentinel": [str(folder / "sentinel")]}
    with TestClient(create_app(workers=1, warm=False, programs=offer)) as client:
        offered = {a["name"] for a in client.get("/api/agents").json()["agents"]}
        assert {"uci", "gtp"} <= offered
        for agent in ("uci:cmd=stockfish", "uci:cmd=sh", "uci:cmd=/bin/sh", "gtp:cmd=gnugo"):
            game = "go:size=9" if agent.startswith("gtp") else "chess"
            reply = client.post("/api/move", json={"game": game, "moves": [], "agent": agent})
            assert 400 <= reply.status_code < 500, (agent, reply.text)
        assert started(marker) == []
        # The default command of ``uci`` is stockfish, which is not offered: refused inside
        # the worker before anything starts.
        reply = client.post("/api/move", json={"game": "chess", "moves": [], "agent": "uci"})
        assert started(marker) == []
        assert "does not offer a program named 'stockfish'" in reply.text
        reply = client.post("/api/move", json={"game": "chess", "moves": [],
                                               "agent": "uci:cmd=sentinel"})
        assert started(marker) == ["sentinel"]  # the operator's program, by its name
        assert str(folder) not in reply.text and str(marker) not in reply.text


def test_the_restriction_holds_inside_the_process(monkeypatch):
    """Once a process offers programs, ``program_argv`` starts only those, with the
    operator's arguments; a path or another name is refused without showing a path."""
    monkeypatch.setattr(programs, "_OFFERED", None)
    programs.offer({"engine": ["/opt/x/engine", "--quiet"]})
    assert programs.program_argv("engine", "uci", "stockfish") == ["/opt/x/engine", "--quiet"]
    assert programs.program_argv("engine --evil", "uci", "x") == ["/opt/x/engine", "--quiet"]
    for cmd in ("sh", "/bin/sh", "../engine", ""):
        with pytest.raises(GameSearchError, match="does not offer") as err:
            programs.program_argv(cmd, "uci", "stockfish")
        assert "/bin" not in str(err.value)


def test_agent_spec_refuses_outside_agents_unless_offered():
    for spec in ("uci", "gtp", "edax", "gnubg", "uci:cmd=stockfish"):
        with pytest.raises(GameSearchError, match="outside program|offers no program"):
            validate.agent_spec(spec)
    assert validate.agent_spec("uci:cmd=stockfish", {"stockfish"})[0] == "uci:cmd=stockfish"
    with pytest.raises(GameSearchError, match="offers no program named 'gnugo'"):
        validate.agent_spec("uci:cmd=gnugo", {"stockfish"})


@pytest.mark.parametrize("text", ["", "a=b=c/../x", "two words", "x=/nonexistent/prog"])
def test_serve_program_option_is_checked(text):
    with pytest.raises(GameSearchError):
        programs.parse_offers([text])


def test_public_messages_carry_no_path():
    said = validate.public_message("engine /usr/games/stockfish died; see '/root/.x/log.txt'")
    assert "/usr" not in said and "/root" not in said and "stockfish" in said
    assert validate.public_message("beta 2 <= alpha 3; score 1/2") == \
        "beta 2 <= alpha 3; score 1/2"
