"""bench/web_soak.py's own judgement: which page endings are a game's real end (no
resignation; Go by two passes with the score shown), and a stopped soak's progress file
read back (finished games kept, an unfinished one played again)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("httpx")

from bench.web_soak import real_end, resumed, tally_of  # noqa: E402


def moves(*names):
    return [{"move": m, "source": "search", "text": m} for m in names]


def test_go_ends_by_two_passes_with_the_score():
    assert real_end("go", "Game over: W+3.5 (both passed)", moves("E5", "pass", "pass")) is None
    assert "two passes" in real_end("go", "Game over: W+3.5", moves("pass", "E5"))
    assert "score" in real_end("go", "Game over: both passed", moves("E5", "pass", "pass"))


def test_a_resignation_is_not_a_real_end():
    assert "resignation" in real_end("chess", "Game over: White resigned: Black wins", [])
    assert real_end("chess", "Game over: Black wins by checkmate", moves("d8h4")) is None


def test_progress_read_back(tmp_path):
    path = tmp_path / "progress.jsonl"
    lines = [{"game": "chess", "index": 0, "sources": {"search": 30, "fallback": 1},
              "max_move_s": 2.5, "end": "page: Game over: draw", "plies": 60},
             {"game": "chess", "index": 1, "sources": {"search": 3}, "max_move_s": 9.0,
              "end": "unfinished: out of time after 6 plies", "plies": 6},
             {"game": "go", "index": 0, "sources": {"search": 40}, "max_move_s": 4.0,
              "end": "page: Game over: B+2", "plies": 80}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = resumed(path)
    assert sorted(done) == ["chess", "go"] and len(done["chess"]) == 1
    row = tally_of("chess", done["chess"]).row()
    assert (row["games"], row["moves"], row["fallbacks"], row["max_move_s"]) == (1, 31, 1, 2.5)
    assert resumed(tmp_path / "none.jsonl") == {}
