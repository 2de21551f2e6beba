"""Analysis on the play page as a lichess player expects it, in a real browser (Debian's
Chromium, Playwright), at 1280x800 and on a 390x844 phone: the evaluation bar moves after a
blunder, the best-move arrow is drawn on the right squares, a click on a move of a line
puts the line on the board as a variation, stepping back analyses the browsed position, and
a link with variations reloads the same tree (and a resignation with it).

Facts: in tic-tac-toe, after X takes the centre, O's edge replies lose and its corner
replies draw (Wikipedia, "Tic-tac-toe"); after 1. f3 e5 2. g4 Black mates at once with
Qh4# (the fool's mate).

GAMESEARCH_SCREENSHOTS=1 writes the screenshots into docs/img/ (chess analysis at 1280
and 390 px)."""

from __future__ import annotations

import pytest

from test_web_labs import CONTRAST, UNLABELLED
from web_browser import ONE_COLD_WORKER, close_clean, new_page, page_fixtures, require_browser

sync_api = require_browser()

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
FOOL = "f2f3+e7e5+g2g4"
"""Black to move mates with d8h4."""
CHESS_ENGINE = "&engine=alphabeta:depth=2"
"""A quick engine for the analysis of chess: the test waits for no compiled engine."""


server, browser, shots = page_fixtures(sync_api, ONE_COLD_WORKER)


@pytest.fixture(params=["desk", "phone"])
def page(request, browser, server):
    page = new_page(browser, DESK if request.param == "desk" else PHONE, 30_000)
    page.server = server
    page.kind = request.param
    yield page
    close_clean(page)


def open_play(page, query):
    page.goto(page.server + "#/play?" + query)
    page.wait_for_selector("#board svg")


def share(page):
    """The bottom side's share of the evaluation bar, once it shows."""
    page.wait_for_selector("#eval-bar:not([hidden])")
    return float(page.get_attribute("#eval-bar", "data-share"))


def moves_shown(page):
    return page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                         ".map((b) => b.dataset.move)")


def test_the_bar_moves_after_a_blunder(page):
    # X took the centre; O is to move: a draw (0.5 for X, at the bottom).
    open_play(page, "game=tictactoe&moves=5&p1=human&p2=human&analysis=1")
    page.wait_for_function("document.querySelector('#eval-bar').dataset.share === '0.5'")
    # a shallow depth's even value ("+0") may come before the proven draw (CI under load)
    page.wait_for_function("document.querySelector('#eval-bar .eval-text').textContent"
                           " === 'draw'")
    page.click('#board rect[data-move="2"]')  # an edge: X now wins
    page.wait_for_function("document.querySelector('#eval-bar').dataset.share === '1'")
    assert share(page) == 1.0
    # as above: a shallow depth's "+1" may come before the proven "win" (CI)
    page.wait_for_function("document.querySelector('#eval-bar .eval-text').textContent"
                           ".startsWith('win')")
    # the best move is marked on its cell, and X (an AI seat) waits while analysis is on
    page.wait_for_selector("#board .arrow-best")
    assert page.text_content("#status").endswith("(your move)")
    page.wait_for_selector("#analysis-list button.pv-move")
    assert page.evaluate(CONTRAST) == [] and page.evaluate(UNLABELLED) == []
    page.click("#analysis-longer")  # the same position, searched longer: the same verdict
    page.wait_for_selector("#analysis-longer", state="detached")
    page.wait_for_function("(n => n.startsWith('engine:') && !n.includes('analysing'))"
                           "(document.getElementById('analysis-note').textContent)")
    assert page.locator("#analysis-longer").count() == 0  # 10 s is the most
    assert share(page) == 1.0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling on a phone


def test_the_best_move_arrow_and_a_clicked_line(page, shots):
    open_play(page, f"game=chess&moves={FOOL}&p1=human&p2=human&analysis=2{CHESS_ENGINE}")
    arrow = page.wait_for_selector("#board .arrow-best", timeout=60_000)
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == ("d8", "h4")
    # the shaft runs from d8's centre toward h4's
    line = page.locator("#board .arrow-best line").bounding_box()
    d8 = page.locator('#board rect.square[data-square="d8"]').bounding_box()
    h4 = page.locator('#board rect.square[data-square="h4"]').bounding_box()
    assert line["x"] <= d8["x"] + d8["width"] and line["x"] + line["width"] >= h4["x"]
    page.wait_for_function("document.querySelectorAll('#analysis-list li').length === 2")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # the lines wrap on a phone
    page.screenshot(path=str(shots / f"play-chess-analysis-{page.kind}.png"))
    # White, at the bottom, is mated: the bar is Black's; flipped, Black is at the bottom
    white = share(page)
    assert white < 0.5 and page.text_content("#eval-bar .eval-text").startswith("-")
    page.click("#flip")
    page.wait_for_function("(w) => Math.abs(Number(document.querySelector('#eval-bar')"
                           ".dataset.share) - (1 - w)) < 1e-9", arg=white)
    assert page.get_attribute("#board .arrow-best", "data-to") == "h4"
    # a click on the second line's first move puts it on the board as a variation
    second = page.locator("#analysis-list li").nth(1).locator("button.pv-move").first
    move = second.get_attribute("data-move")
    assert move != "d8h4"
    second.click()
    page.wait_for_function(f"location.hash.includes('moves={FOOL}+{move}')")
    assert moves_shown(page)[-1] == move
    assert page.locator(f'#movelist button.move[data-move="{move}"]').count() == 1


def test_stepping_back_analyses_the_browsed_position(page):
    if page.kind == "phone":
        pytest.skip("one width is enough for the stepping (the board test covers phones)")
    open_play(page, "game=tictactoe&moves=5+2&p1=human&p2=human&analysis=1")
    page.wait_for_function("document.querySelector('#eval-bar').dataset.share === '1'")
    page.click("#back")  # back to O's choice after the centre: a draw again
    page.wait_for_function("document.querySelector('#eval-bar').dataset.share === '0.5'")
    best = page.wait_for_selector("#analysis-list li button.pv-move")
    corner = best.get_attribute("data-move")
    assert corner in {"1", "3", "7", "9"}
    assert "ply=1" in page.url
    # a locator, not the handle: the list is redrawn as deeper lines arrive (CI clicked a
    # detached button), and every corner draws
    page.locator(f'#analysis-list li button.pv-move[data-move="{corner}"]').first.click()
    # the line goes in as a variation beside the edge move played
    page.wait_for_function(f"location.hash.includes('moves=5+{corner}')")
    assert sorted(moves_shown(page)) == sorted(["5", "2", corner])
    assert "(" in page.text_content("#movelist") and "tree=" in page.url


def test_a_link_with_variations_reloads_the_same_tree(page):
    if page.kind == "phone":
        pytest.skip("the link is the same at every width")
    open_play(page, "game=tictactoe&moves=5+1+9&p1=human&p2=human")
    page.click("#first")
    page.click("#forward")  # after 5: O plays 3 instead of 1, a variation
    page.click('#board rect[data-move="3"]')
    page.wait_for_function("location.hash.includes('tree=')")
    page.click("#resign")  # the person to move (X) resigns on this line
    page.wait_for_function("location.hash.includes('resigned=0')")
    link = page.url
    tree = page.evaluate("document.getElementById('movelist').textContent")
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector("#movelist button.move")
    page.wait_for_function("(t) => document.getElementById('movelist').textContent === t", arg=tree)
    assert sorted(moves_shown(page)) == ["1", "3", "5", "9"]
    assert "resigned" in page.text_content("#status")


def test_the_bar_follows_the_thinking_ai_without_analysis(page):
    if page.kind == "phone":
        pytest.skip("one width is enough: the bar is the same element")
    # the AI (X) opens; the bar shows its search's score (the draw, once it is proven)
    open_play(page, "game=tictactoe&p1=alphabeta:time=0.5&p2=human")
    page.wait_for_selector("#movelist button.move")
    assert 0 <= share(page) <= 1 and page.text_content("#eval-bar .eval-text")
    assert page.is_hidden("#analysis-box")
    assert page.locator("#board .arrow-best").count() == 0  # no hints for the person


def test_a_connect_four_column_gets_the_arrow(page):
    if page.kind == "phone":
        pytest.skip("the column's arrow is drawn the same at every width")
    # no verdict: a first Connect Four verdict compiles the solver in the analysis lane
    open_play(page, "game=tictactoe&p1=human&p2=human")
    page.uncheck("#verdict-on")
    # X has three in column 1 and is to move: the win drops into column 1
    page.goto(page.server + "#/play?game=connect4&moves=1+2+1+2+1+2&p1=human&p2=human"
              "&analysis=1&engine=alphabeta:pure=true")
    arrow = page.wait_for_selector("#board .arrow-best", timeout=60_000)
    assert arrow.get_attribute("data-move") == "1"
    head = page.locator("#board .arrow-best polygon").bounding_box()
    column = page.locator('#board rect.column[data-move="1"]').bounding_box()
    assert column["x"] <= head["x"] and head["x"] + head["width"] <= column["x"] + column["width"]
    page.wait_for_function("document.querySelector('#eval-bar').dataset.share === '1'")
