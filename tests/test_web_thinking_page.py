"""The thinking table in a real browser (Debian's Chromium, Playwright): while the AI
thinks, one row per depth, at most 12, each with the Score's text from the first player's
view (what the evaluation bar shows, its kind in the cell) and the line in the game's
notation (SAN for chess, not UCI).

Fact: after 1. f3 e5 2. g4 Black mates at once with Qh4# (the fool's mate)."""

from __future__ import annotations

from web_browser import ONE_COLD_WORKER, close_clean, new_page, page_fixtures, require_browser

sync_api = require_browser()

FOOL = "f2f3+e7e5+g2g4"


server, browser = page_fixtures(sync_api, ONE_COLD_WORKER)[:2]


def test_thinking_rows_in_san_once_per_depth_with_the_scores_text(browser, server):
    page = new_page(browser, {"width": 1280, "height": 800}, 60_000)
    page.goto(server + f"#/play?game=chess&moves={FOOL}&p1=human&p2=alphabeta:depth=2")
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('Game over')")
    rows = page.evaluate("[...document.querySelectorAll('#thinking tbody tr')].map((r) =>"
                         " [...r.cells].map((c) => [c.textContent, c.dataset.kind || '']))")
    close_clean(page)
    assert 1 <= len(rows) <= 12
    depths = [row[0][0] for row in rows]
    assert len(depths) == len(set(depths)), depths  # each depth once
    assert depths[0] == "2"  # the deepest first
    score, kind = rows[0][1]
    assert kind in {"utility", "centipawns"}, rows[0]  # the Score's, not a bare value
    assert score in {"loss", "#-1"} or score.startswith("-"), rows[0]  # White is mated
    assert rows[0][2][0].split()[0] == "Qh4#", rows[0]  # SAN, not d8h4
