"""The play view's board as a lichess player expects it, in a real browser (Debian's
Chromium, Playwright): flip (button, ``f``, the link), drag and drop as well as two clicks
(at 1280 px and at a 390 px phone width), castling by dropping the king on its rook, the
promotion chooser (queen first), keyboard play, the move list's keys, SAN with paired
numbers, coordinates in each game's notation, a move tree (variations in parentheses, the
browsed ply in the link), FEN shown and taken from a link (a bad one is a message), PGN, SGF
and PDN opened, game ends in words, resigning, draw offers and Go's pass. Both seats are
people unless an AI is the point, so no test waits for a search. Facts: 1. f3 e5 2. g4
Qh4# is the fool's mate; 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 lets White castle short.

GAMESEARCH_SCREENSHOTS=1 writes the screenshots into docs/img/ (chess with a variation and
a finished Go game, at 1280 and 390 px)."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from web_browser import ONE_COLD_WORKER, close_clean, new_page, page_fixtures, require_browser

sync_api = require_browser()
pytest.importorskip("chess", reason="python-chess is not installed")

PEOPLE = "&p1=human&p2=human"
CASTLE = "e2e4+e7e5+g1f3+b8c6+f1c4+g8f6"
PHONE = {"width": 390, "height": 800}
DESK = {"width": 1280, "height": 800}


server, browser, shots = page_fixtures(sync_api, ONE_COLD_WORKER)


def open_page(browser, viewport=DESK):
    return new_page(browser, viewport, 30_000)


@pytest.fixture
def page(browser, server):
    page = open_page(browser)
    page.server = server
    yield page
    close_clean(page)


@pytest.fixture
def phone(browser, server):
    page = open_page(browser, PHONE)
    page.server = server
    yield page
    close_clean(page)


def moves_shown(page):
    return page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                         ".map((b) => b.textContent)")


def texts(page, selector):
    return page.evaluate("(s) => [...document.querySelectorAll(s)].map((t) => t.textContent)",
                         selector)


def list_text(page):
    """The move list as it reads: its words with a space between (none inside brackets)."""
    words = page.evaluate("""() => {
      const out = [], walk = document.createTreeWalker(document.getElementById('movelist'),
                                                        NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) out.push(walk.currentNode.textContent.trim());
      return out.filter(Boolean);
    }""")
    return " ".join(words).replace("( ", "(").replace(" )", ")")


def wait_moves(page, n):
    page.wait_for_function(f"document.querySelectorAll('#movelist li').length == {n}")


def centre(page, name):
    """The page coordinates of the centre of square ``name``."""
    box = page.locator(f'#board rect.square[data-square="{name}"]').bounding_box()
    assert box, f"no square {name}"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_square(page, name):
    page.mouse.click(*centre(page, name))


def drag(page, start, end):
    page.mouse.move(*centre(page, start))
    page.mouse.down()
    x, y = centre(page, end)
    page.mouse.move(x - 10, y - 10, steps=4)
    page.mouse.move(x, y, steps=2)
    page.mouse.up()


def chess_page(page, query):
    if page.url != "about:blank":  # a fresh page: no board of the last address in the way
        page.goto("about:blank")
    page.goto(page.server + "#/play?game=chess" + query)
    page.wait_for_selector('#board rect.square[data-square="e2"]', timeout=60_000)


def test_flip_by_button_key_and_link(page):
    chess_page(page, PEOPLE)
    a1 = centre(page, "a1")
    h8 = centre(page, "h8")
    assert a1[1] > h8[1] and a1[0] < h8[0]  # White at the bottom
    page.click("#flip")
    assert centre(page, "a1")[1] < centre(page, "h8")[1]  # Black at the bottom now
    assert "flip=1" in page.url
    files = page.evaluate("[...document.querySelectorAll('#board .coord-file')]"
                          ".sort((a, b) => a.getBBox().x - b.getBBox().x)"
                          ".map((t) => t.textContent).join('')")
    assert files == "hgfedcba"
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("f")
    page.wait_for_function("!location.hash.includes('flip=1')")
    assert centre(page, "a1")[1] > centre(page, "h8")[1]
    page.goto(page.server + "#/play?game=tictactoe")  # another game, then the link again
    page.wait_for_selector("#board .cell-number")
    chess_page(page, PEOPLE + "&flip=1")
    assert centre(page, "a1")[1] < centre(page, "h8")[1]


@pytest.mark.parametrize("where", ["page", "phone"])
def test_drag_and_drop_and_two_clicks_play_moves(request, where, shots):
    page = request.getfixturevalue(where)
    chess_page(page, PEOPLE)
    drag(page, "e2", "e4")
    wait_moves(page, 1)
    click_square(page, "e7")
    click_square(page, "e5")
    wait_moves(page, 2)
    drag(page, "g1", "f3")
    wait_moves(page, 3)
    drag(page, "b8", "b5")  # not a knight's move: nothing is played
    page.wait_for_timeout(300)
    assert moves_shown(page) == ["e4", "e5", "Nf3"]
    assert page.locator('#board [data-piece="N"]').count() == 2
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling on a phone


def test_castling_by_dropping_the_king_on_its_rook(page):
    chess_page(page, f"&moves={CASTLE}" + PEOPLE)
    wait_moves(page, 6)
    drag(page, "e1", "h1")
    wait_moves(page, 7)
    assert moves_shown(page)[-1] == "O-O"
    assert page.evaluate("[...document.querySelectorAll('#movelist button.move')].at(-1)"
                         ".dataset.move") == "e1g1"


def test_promotion_chooser_over_the_square_queen_first(page):
    fen = quote("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    chess_page(page, f"&fen={fen}" + PEOPLE)
    click_square(page, "a7")
    click_square(page, "a8")
    choices = page.locator("#board .promotion-choice")
    assert choices.count() == 4
    order = page.evaluate("[...document.querySelectorAll('#board .promotion-choice')]"
                          ".map((g) => g.dataset.promotion)")
    assert order == ["a7a8q", "a7a8r", "a7a8b", "a7a8n"]
    queen = choices.nth(0).bounding_box()
    a8 = page.locator('#board rect.square[data-square="a8"]').bounding_box()
    assert abs(queen["x"] - a8["x"]) < 3 and abs(queen["y"] - a8["y"]) < 3  # over the square
    choices.nth(1).click()  # a rook (a knight would leave a dead draw)
    wait_moves(page, 1)
    assert moves_shown(page) == ["a8=R"]
    drag(page, "h7", "g6")  # Black's reply
    wait_moves(page, 2)
    assert list_text(page) == "1. a8=R Kg6"
    black = quote("8/7k/8/8/8/8/1p6/7K b - - 0 1")  # Black first: "1... b1=Q+"
    chess_page(page, f"&fen={black}" + PEOPLE)
    click_square(page, "b2")
    click_square(page, "b1")
    page.locator("#board .promotion-choice").nth(0).click()
    wait_moves(page, 1)
    assert list_text(page) == "1... b1=Q+"


def test_keyboard_plays_moves(page):
    chess_page(page, PEOPLE)
    page.focus('#board rect.square-hit[tabindex="0"]')  # one tab stop: a1 to start
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("a1")
    for key in ["ArrowRight"] * 4 + ["ArrowUp", "Enter", "ArrowUp", "ArrowUp", "Enter"]:
        page.keyboard.press(key)
    wait_moves(page, 1)
    assert moves_shown(page) == ["e4"]


@pytest.mark.parametrize("where", ["page", "phone"])
def test_move_list_san_pairs_and_keys(request, where):
    page = request.getfixturevalue(where)
    chess_page(page, "&moves=e2e4+e7e5+g1f3+b8c6" + PEOPLE)
    wait_moves(page, 4)
    assert list_text(page) == "1. e4 e5 2. Nf3 Nc6"
    page.keyboard.press("Home")
    page.wait_for_function("location.hash.includes('ply=0')")
    assert page.locator('#board [data-piece="P"]').count() == 8
    page.keyboard.press("ArrowRight")
    page.wait_for_function("location.hash.includes('ply=1')")
    page.keyboard.press("ArrowDown")  # the end
    page.wait_for_function("!location.hash.includes('ply=')")
    page.keyboard.press("ArrowUp")  # the start
    page.wait_for_function("location.hash.includes('ply=0')")
    page.keyboard.press("End")
    page.wait_for_function("!location.hash.includes('ply=')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("location.hash.includes('ply=3')")
    assert page.text_content("#movelist button.move.current") == "Nf3"


def test_coordinates_in_each_games_notation(page):
    chess_page(page, PEOPLE)
    coords = texts(page, "#board .coord")
    assert "".join(coords[:8]) == "abcdefgh" and sorted(coords[8:]) == list("12345678")
    page.goto(page.server + "#/play?game=go:size=9" + PEOPLE)
    page.wait_for_selector('#board rect.square[data-square="J9"]')
    files = "".join(texts(page, "#board .coord-file"))
    assert files == "ABCDEFGHJ"  # Go skips I
    page.goto(page.server + "#/play?game=tictactoe" + PEOPLE)
    page.wait_for_selector("#board .cell-number")
    numbers = texts(page, "#board .cell-number")
    assert numbers == [str(i) for i in range(1, 10)]


@pytest.mark.parametrize("where", ["page", "phone"])
def test_a_move_while_browsing_starts_a_variation(request, where, shots):
    page = request.getfixturevalue(where)
    chess_page(page, "&moves=e2e4+e7e5+g1f3+b8c6" + PEOPLE)
    wait_moves(page, 4)
    page.click('#movelist button.move[data-move="e7e5"]')
    page.wait_for_function("location.hash.includes('ply=2')")
    drag(page, "d2", "d4")
    page.wait_for_function("document.querySelectorAll('#movelist .variation').length == 1")
    assert list_text(page) == "1. e4 e5 2. Nf3 (2. d4) 2... Nc6"
    assert "moves=e2e4+e7e5+d2d4" in page.url and "ply=" not in page.url
    name = "play-chess-variation" + ("-phone" if where == "phone" else "")
    page.screenshot(path=str(shots / f"{name}.png"))
    page.click('#movelist button.move[data-move="b8c6"]')  # back into the main line
    page.wait_for_function("location.hash.includes('moves=e2e4+e7e5+g1f3+b8c6')")
    assert page.text_content("#movelist button.move.current") == "Nc6"
    page.click('#movelist button.move[data-move="e2e4"]')
    page.wait_for_function("location.hash.includes('ply=1')")
    page.reload()
    page.wait_for_selector("#movelist button.move.current")
    assert page.text_content("#movelist button.move.current") == "e4"
    assert page.text_content("#status").startswith("Viewing the position after move 1 of 4")


def test_fen_shown_taken_from_a_link_and_a_bad_one_is_a_message(page):
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    chess_page(page, f"&fen={quote(fen)}" + PEOPLE)
    assert page.input_value("#position-text") == fen
    assert page.text_content("#position-title") == "FEN"
    assert page.locator('#board rect.square[data-square="e5"]').count() == 1
    assert page.text_content("#play-error") == ""
    drag(page, "g1", "f3")
    wait_moves(page, 1)
    assert page.input_value("#position-text").startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")
    assert "fen=" in page.url
    page.goto(page.server + "#/play?game=chess&fen=" + quote("rnbqkbnr/pppppppp/9/8 w") + PEOPLE)
    page.wait_for_function("document.getElementById('play-error').textContent.includes('FEN')")
    page.wait_for_selector('#board [data-piece="K"]')  # the start position instead
    assert page.locator('#board [data-piece]').count() == 32


def test_pgn_sgf_and_pdn_open_from_the_paste_box_and_a_file(page, tmp_path):
    chess_page(page, PEOPLE)
    page.click("#import-box summary")
    page.fill("#import-text", '[Event "x"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    page.click("#import-open")
    wait_moves(page, 4)
    assert list_text(page) == "1. f3 e5 2. g4 Qh4#"
    assert page.text_content("#status") == "Game over: Black wins by checkmate"
    page.fill("#import-text", "(;GM[1]SZ[9]KM[6.5];B[ee];W[cc])")
    page.click("#import-open")
    page.wait_for_selector('#board rect.square[data-square="J9"]')
    wait_moves(page, 2)
    assert moves_shown(page) == ["E5", "C7"] and page.input_value("#game-select") == "go"
    pdn = tmp_path / "game.pdn"
    pdn.write_text('[Event "x"]\n\n1. 11-15 23-19 *\n')
    page.set_input_files("#import-file", str(pdn))
    page.wait_for_selector('#board rect.square[data-square="32"]')
    wait_moves(page, 2)
    assert moves_shown(page) == ["11-15", "23-19"]
    page.fill("#import-text", "(;GM[1]SZ[9];B[ee];W[ee])")  # an illegal move: a message
    page.click("#import-open")
    page.wait_for_function("document.getElementById('play-error').textContent.includes('move 2')")
    assert moves_shown(page) == ["11-15", "23-19"]  # the game on the board stays


def test_go_pass_and_the_end_in_words_with_the_score(page, shots):
    walls = "C1+D1+C2+D2+C3+D3+C4+D4+C5+D5"  # Black owns columns A-C, White D-E
    page.goto(page.server + f"#/play?game=go:size=5,komi=0.5&moves={walls}" + PEOPLE)
    page.wait_for_selector('#board button[data-move="pass"]')
    assert page.text_content('#board button[data-move="pass"]') == "Pass"
    page.click('#board button[data-move="pass"]')
    wait_moves(page, 11)
    page.click('#board button[data-move="pass"]')
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    status = page.text_content("#status")
    assert re.fullmatch(r"Game over: (Black|White) wins \([BW]\+\d+\.5: area black \d+, "
                        r"white \d+, komi 0\.5; both passed\)", status), status
    assert status == ("Game over: Black wins (B+4.5: area black 15, white 10, komi 0.5; "
                      "both passed)")
    assert page.locator("#board .territory-black").count() == 10
    page.screenshot(path=str(shots / "play-go-finished.png"))
    phone = open_page(page.context.browser, PHONE)
    phone.goto(page.url)
    phone.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    phone.screenshot(path=str(shots / "play-go-finished-phone.png"))
    assert not phone.errors
    phone.close()


def test_resign_and_a_draw_offer_to_the_ai(page):
    chess_page(page, "&p1=human&p2=chess-engine:time=0.2")
    page.wait_for_selector("#offer-draw:not([hidden])")
    page.click("#offer-draw")  # the AI has not searched yet: declined
    page.wait_for_function("document.getElementById('think-note').textContent.includes('declines')")
    page.click("#resign")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    assert page.text_content("#status") == "Game over: White resigned: Black wins"
    assert "resigned=0" in page.url
    assert page.is_disabled("#resign") and page.is_hidden("#offer-draw")
    page.reload()
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    assert page.text_content("#status") == "Game over: White resigned: Black wins"


def test_checkmate_by_name(page):
    chess_page(page, "&moves=f2f3+e7e5+g2g4+d8h4" + PEOPLE)
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    assert page.text_content("#status") == "Game over: Black wins by checkmate"
