"""End-to-end: the page in a real browser (Debian's Chromium driven by Playwright).

One server (``gamesearch serve``) for the module. Set GAMESEARCH_SCREENSHOTS=1 to write the
screenshots into docs/img/ (they are committed); otherwise they go to a temporary folder.
Facts: tic-tac-toe is a draw, so an exact alpha-beta player never loses it; the classic tree
has value 3 and alpha-beta prunes its leaves 4 and 6 (AIMA 3rd ed., fig. 5.5); matching
pennies has the unique equilibrium (1/2, 1/2) for both players and value 0.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from budget import load_factor
from web_browser import close_clean, new_page, page_fixtures, require_browser

sync_api = require_browser()


server, browser, shots = page_fixtures(sync_api)


@pytest.fixture
def page(browser):
    page = new_page(browser, {"width": 1100, "height": 720})
    yield page
    close_clean(page)


def test_play_a_whole_tictactoe_game_by_clicking(server, page, shots):
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=alphabeta:time=0.3")
    page.wait_for_selector("#board rect[data-move]")
    status = page.locator("#status")
    settled = ("/your move|Game over/.test(document.getElementById('status').textContent)"
               " && document.querySelectorAll('#movelist li').length >= {n}")
    page.wait_for_function(settled.format(n=0))
    for _ in range(6):
        if "Game over" in status.text_content():
            break
        n = page.locator("#movelist li").count()
        page.click('#board rect[data-mark=""]')  # the first free square
        # settled again: the AI has answered (two more moves), or the game is over
        page.wait_for_function(settled.format(n=n + 1) + " && (document.getElementById("
                               "'status').textContent.includes('Game over') || document."
                               f"querySelectorAll('#movelist li').length >= {n + 2})")
        if n == 0:  # mid-game picture: the AI's thinking and the verdict's values
            page.wait_for_function("document.getElementById('verdict').textContent != ''")
            page.screenshot(path=str(shots / "play.png"))
    text = status.text_content()
    assert re.fullmatch(r"Game over: (O wins|draw)", text), text  # exact search never loses
    marks = page.locator('#board rect[data-mark="X"], #board rect[data-mark="O"]').count()
    assert page.locator("#movelist li").count() == marks >= 5
    assert page.locator("#thinking tbody tr").count() >= 1
    assert "moves=" in page.url


def test_undo_takes_back_the_ai_reply_and_swap_lets_the_ai_start(server, page):
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=alphabeta:time=0.3")
    page.wait_for_selector('#board rect[data-move="5"]')
    page.click('#board rect[data-move="5"]')
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 2 && "
                           "document.getElementById('status').textContent.includes('your move')")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 0")
    assert page.locator('#board rect[data-mark="X"]').count() == 0
    page.click("#swap")  # the AI now plays X and moves first
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 1 && "
                           "document.getElementById('status').textContent.includes('your move')")
    assert page.text_content("#status").startswith("O to move")
    assert "p1=alphabeta" in page.url


def test_resign_ends_the_game_with_the_reason_and_undo_takes_it_back(server, page):
    """Issue 38: a Resign button in every game; Go's board keeps its Pass button."""
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=alphabeta:time=0.3")
    page.wait_for_selector('#board rect[data-move="5"]')
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('your move')")
    assert page.is_enabled("#resign")
    page.click("#resign")
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('Game over')")
    assert page.text_content("#status") == "Game over: X resigned: O wins"
    assert "resigned=0" in page.url and page.is_disabled("#resign")
    assert page.locator('#board rect[data-mark=""]').count() == 9  # nothing more to play
    page.click("#undo")
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('your move')")
    assert "resigned" not in page.url
    page.goto(server + "#/play?game=go:size=5&p1=human&p2=human")
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('your move')")
    page.click('#board button[data-move="pass"]')
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 1")
    page.click('#board button[data-move="pass"]')
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('Game over')")
    assert "W+7" in page.text_content("#status") and "both passed" in page.text_content(
        "#status")


def test_a_shared_link_restores_the_position(server, page):
    page.goto(server + "#/play?game=tictactoe&moves=1+5+2&p1=human&p2=human")
    page.wait_for_selector('#board rect[data-move="1"][data-mark="X"]')
    assert page.get_attribute('#board rect[data-move="5"]', "data-mark") == "O"
    assert page.get_attribute('#board rect[data-move="2"]', "data-mark") == "X"
    assert page.text_content("#status").startswith("O to move")


def test_step_alphabeta_through_the_classic_tree(server, page, shots):
    page.goto(server + "#/tree?name=classic&algo=alphabeta")
    page.wait_for_selector("#tree-svg .tnode")
    status = page.locator("#tree-status")
    for _ in range(40):
        page.click("#tree-step")
        page.wait_for_function("/Step \\d|Root/.test(document.getElementById('tree-status')"
                               ".textContent)")
        if status.text_content().startswith("Root value"):
            break
    assert status.text_content().startswith("Root value 3")
    pruned = page.locator("#tree-svg .tnode.leaf.pruned")
    assert pruned.count() == 2
    assert sorted(pruned.nth(i).locator(".value").text_content() for i in range(2)) == ["4", "6"]
    assert page.locator("#tree-svg .tnode.leaf:not(.pruned)").count() == 7
    assert page.text_content('#tree-svg [data-id="0"] .value') == "3"
    page.screenshot(path=str(shots / "tree-lab.png"))
    with page.expect_download() as download:
        page.click("#tree-export")
    picture = Path(download.value.path()).read_text()
    assert picture.startswith("<svg") and picture.count('class="tnode leaf pruned') == 2
    page.click("#tree-back")
    assert status.text_content().startswith("Step")


def test_edit_a_leaf_and_rerun(server, page):
    page.goto(server + "#/tree?name=classic&algo=minimax")
    page.click('#tree-svg [data-id="2"]')  # the leaf 3 under the first MIN node
    page.fill("#node-value", "10")
    page.press("#node-value", "Enter")
    page.click("#tree-run")
    page.wait_for_function("document.getElementById('tree-status').textContent"
                           ".startsWith('Root value')")
    assert page.text_content("#tree-status").startswith("Root value 8")  # min(10, 12, 8)


def test_solve_a_matrix_game(server, page, shots):
    page.goto(server + "#/matrix")
    page.wait_for_function("document.getElementById('matrix-equilibria').textContent || "
                           "document.getElementById('matrix-error').textContent",
                           timeout=60_000)
    error = page.text_content("#matrix-error")
    if "gamesearch.theory" in error:
        pytest.skip(f"matrix lab unavailable: {error}")
    assert "Row (1/2, 1/2) · Column (1/2, 1/2)" in page.text_content("#matrix-equilibria")
    assert page.text_content("#matrix-value").startswith("Zero-sum value 0")
    page.select_option("#matrix-select", "iterated dominance")
    page.wait_for_function("document.getElementById('matrix-steps').children.length == 4")
    for _ in range(4):
        page.click("#matrix-step")
    assert page.locator("#matrix-table th.struck").count() == 4  # r2, r3, c2, c3
    assert page.locator("#matrix-table td.pure-eq").count() == 1
    assert "pure: (r1, c1) payoffs (4, 3)" in page.text_content("#matrix-equilibria")
    page.screenshot(path=str(shots / "matrix-lab.png"))
    # Open a Gambit file (outcome form, named strategies): the prisoner's dilemma.
    nfg = ('NFG 1 R "Dilemma" { "Row" "Column" } { { "C" "D" } { "C" "D" } }\n""\n'
           '{ { "" -1, -1 } { "" 0, -3 } { "" -3, 0 } { "" -2, -2 } }\n1 2 3 4\n')
    page.set_input_files("#matrix-file", files=[{"name": "dilemma.nfg", "mimeType": "text/plain",
                                                  "buffer": nfg.encode()}])
    page.wait_for_function("document.getElementById('matrix-equilibria').textContent"
                           ".includes('pure: (D, D) payoffs (-2, -2)')")


# --- issue 12: the page plays like a game site ---------------------------------------------

SETTLED = ("/your move|Game over/.test(document.getElementById('status').textContent)"
           " && document.getElementById('busy').hidden"
           " && document.querySelectorAll('#movelist li').length >= {n}")


@pytest.mark.slow
def test_a_whole_connect_four_game_with_the_page_defaults_never_falls_back(server, page):
    """The page's defaults (person against alpha-beta 1 s, verdict on): every AI move must
    come from a real search, not the 'first move in the game's order' fallback."""
    page.goto(server + "#/play?game=connect4")
    page.wait_for_selector('#board rect.column[data-move="4"]')
    assert page.input_value("#players [data-side='1'] .kind") == "alphabeta"
    assert page.input_value("#players [data-side='1'] .options") == "time=1"
    assert page.is_checked("#verdict-on")
    page.wait_for_function(SETTLED.format(n=0))
    order = ["4", "3", "5", "2", "6", "1", "7"]
    for _ in range(22):
        if "Game over" in page.text_content("#status"):
            break
        n = page.locator("#movelist li").count()
        legal = page.evaluate("[...document.querySelectorAll('#board rect.column')]"
                              ".map((r) => r.dataset.move)")
        full = page.evaluate("document.querySelector('#board svg').querySelectorAll("
                             "'circle').length")
        assert full == 42 and legal
        # a person's move: the first column in centre-out order that is not full
        grid = page.evaluate("[...document.querySelectorAll('#board circle.disc')]"
                             ".filter((c) => c.getAttribute('fill') === '#fff')"
                             ".map((c) => c.dataset.cell.split(',')[1])")
        column = next(c for c in order if str(int(c) - 1) in grid)
        page.click(f'#board rect.column[data-move="{column}"]')
        page.wait_for_function(SETTLED.format(n=n + 1) + " && (document.getElementById("
                               "'status').textContent.includes('Game over') || document."
                               f"querySelectorAll('#movelist li').length >= {n + 2})",
                               timeout=60_000)
        assert page.text_content("#play-error") == ""
    assert "Game over" in page.text_content("#status")
    sources = page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                            ".map((b) => b.dataset.source).filter(Boolean)")
    moves = page.locator("#movelist li").count()
    assert len(sources) == moves // 2  # every AI move (O, the even ones) has its source
    assert "fallback" not in sources, sources
    assert page.locator("#board circle.win").count() >= 4 or "draw" in page.text_content(
        "#status")


def test_undo_clears_the_panels_and_new_game_starts_again(server, page):
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=alphabeta:time=0.3")
    page.wait_for_selector('#board rect[data-move="5"]')
    page.wait_for_function(SETTLED.format(n=0))
    page.click('#board rect[data-move="5"]')
    page.wait_for_function(SETTLED.format(n=2))
    assert page.text_content("#think-note").startswith("played")
    page.click("#undo")
    page.wait_for_function(SETTLED.format(n=0) + " && !document.querySelector('#movelist li')")
    assert page.text_content("#think-note") == ""
    assert page.locator("#thinking tbody tr").count() == 0
    page.click('#board rect[data-move="1"]')
    page.wait_for_function(SETTLED.format(n=2))
    page.click("#new-game")
    page.wait_for_function(SETTLED.format(n=0) + " && !document.querySelector('#movelist li')")
    assert page.text_content("#think-note") == "" and page.text_content("#play-error") == ""


def test_the_move_list_steps_back_and_forth_and_marks_the_last_move(server, page):
    page.goto(server + "#/play?game=tictactoe&moves=1+5+2&p1=human&p2=human")
    page.wait_for_selector('#board rect.last[data-move="2"]')
    page.click('#movelist button[data-index="0"]')  # after move 1
    page.wait_for_selector('#board rect.last[data-move="1"]')
    assert page.get_attribute('#board rect[data-move="5"]', "data-mark") == ""
    assert page.text_content("#status").startswith("Viewing the position after move 1 of 3")
    page.click("#forward")
    page.wait_for_selector('#board rect.last[data-move="5"]')
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board rect.last[data-move="1"]')
    page.click("#last")
    page.wait_for_selector('#board rect.last[data-move="2"]')
    assert page.text_content("#status").startswith("O to move")
    assert page.locator("#movelist li").count() == 3  # browsing did not change the game


def test_the_winning_line_is_highlighted(server, page):
    page.goto(server + "#/play?game=connect4&moves=1+2+1+2+1+2+1&p1=human&p2=human")
    page.wait_for_function("document.getElementById('status').textContent"
                           ".includes('Game over: X wins')")
    cells = sorted(page.evaluate("[...document.querySelectorAll('#board circle.win')]"
                                 ".map((c) => c.dataset.cell)"))
    assert cells == ["2,0", "3,0", "4,0", "5,0"]  # column 1, the four lowest rows


def test_every_seat_gets_a_selector_with_the_games_default(server, page):
    page.goto(server + "#/play?game=whist")
    page.wait_for_selector("#players [data-side='3'] .kind")
    assert page.locator("#players .player-config").count() == 4
    kinds = [page.input_value(f"#players [data-side='{s}'] .kind") for s in range(4)]
    assert kinds == ["human", "pimc", "pimc", "pimc"]
    offered = page.evaluate("[...document.querySelectorAll(\"#players [data-side='1'] "
                            ".kind option\")].map((o) => o.value)")
    assert "alphabeta" not in offered and {"pimc", "ismcts"} <= set(offered)


def test_hidden_cards_are_question_marks_until_the_end(server, page):
    page.goto(server + "#/play?game=kuhn_poker&p1=human&p2=ismcts:iterations=300,seed=1"
              "&seed=4")  # the same deal and answers every run
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 2")
    moves = page.evaluate("[...document.querySelectorAll('#movelist button')]"
                          ".map((b) => b.textContent)")
    assert moves[0] in ("J", "Q", "K") and moves[1] == "?"
    assert page.get_attribute("#board .card.face", "data-card") == moves[0]  # your card
    assert page.locator("#board .card.back").count() == 1  # the other, face down
    assert "deal=" in page.url and "%3F" in page.url  # the link holds '?', not the card
    for _ in range(3):  # pass whenever it is our turn: the game ends within two turns
        page.wait_for_function(SETTLED.format(n=2), timeout=60_000)
        if "Game over" in page.text_content("#status"):
            break
        n = page.locator("#movelist li").count()
        shown = page.evaluate("[...document.querySelectorAll('#movelist button')]"
                              ".map((b) => b.textContent)")
        assert shown[1] == "?" and page.locator("#thinking tbody tr").count() == 0
        page.click('#board button[data-move="p"]')
        page.wait_for_function(SETTLED.format(n=n + 1), timeout=60_000)
    assert "Game over" in page.text_content("#status")
    shown = page.evaluate("[...document.querySelectorAll('#movelist button')]"
                          ".map((b) => b.textContent)")
    assert "?" not in shown and shown[0] == moves[0]
    assert shown[1] in {"J", "Q", "K"} - {moves[0]}  # revealed at the end


XSS = "<img src=x onerror=f()>"  # short enough to pass the server's name limit


def test_names_from_links_and_files_are_text_never_html(server, page):
    import base64
    import json

    page.add_init_script("window.f = () => { window.__xss = 1; }")
    data = {"text": "1 -1\n-1 1", "row_names": [XSS, "b"], "column_names": ["c", XSS]}
    packed = base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    page.goto(server + f"#/matrix?m={packed}")
    page.wait_for_function("document.getElementById('matrix-table').textContent"
                           ".includes('onerror')", timeout=60_000)
    assert page.locator("#matrix-table img, #matrix-equilibria img").count() == 0
    assert page.text_content("#matrix-table tr:nth-child(2) th") == XSS
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=" + XSS.replace(" ", "%20"))
    page.wait_for_selector("#players [data-side='1'] .kind")
    assert page.locator("#players img, #play-error img").count() == 0
    page.wait_for_function("document.getElementById('play-error').textContent != ''")
    assert XSS in page.text_content("#play-error")  # refused, its name shown as text
    page.wait_for_timeout(300)
    assert page.evaluate("window.__xss") is None


@pytest.mark.parametrize("where", ["#/play?game=connect4&moves=4+4+3",
                                   "#/play?game=whist&p1=human&seed=1",
                                   "#/tree?name=deep&algo=alphabeta", "#/matrix", "#/efg"])
def test_no_sideways_scrolling_on_a_phone(server, browser, where):
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        phone.goto(server + where)
        phone.wait_for_load_state("networkidle")
        phone.wait_for_timeout(500)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{where}: the page is {width} px wide on a 390 px screen"
    finally:
        phone.close()


@pytest.mark.parametrize("tree, algo", [("deep", "alphabeta"), ("classic", "alphabeta"),
                                        ("chance", "expectiminimax"),
                                        ("two-min", "alphabeta")])
def test_tree_lab_labels_do_not_overlap_and_name_the_nodes(server, page, tree, algo):
    page.goto(server + f"#/tree?name={tree}&algo={algo}")
    page.wait_for_selector("#tree-svg .tnode")
    page.click("#tree-run")
    page.wait_for_function("document.getElementById('tree-status').textContent"
                           ".startsWith('Root value')")
    boxes = page.evaluate("""[...document.querySelectorAll('#tree-svg text')]
        .filter((t) => t.textContent).map((t) => {
          const b = t.getBoundingClientRect();
          return [t.textContent, b.left, b.top, b.right, b.bottom]; })""")
    overlaps = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5 and a[2] < b[4] - 0.5
                and b[2] < a[4] - 0.5]
    assert not overlaps, overlaps[:5]
    page.click("#tree-reset")
    page.click("#tree-step")
    status = page.text_content("#tree-status")
    name = re.search(r"node (\S+)", status).group(1)
    assert page.text_content('#tree-svg [data-id="0"] .name') == name


SLOW_ANSWERS = """
const plain = window.fetch;
window.fetch = async (url, options) => {
  const answer = await plain(url, options);
  const wait = String(url).includes('/api/verdict') ? 700
    : String(url).includes('/api/position') ? 250 : 0;
  if (wait) await new Promise((done) => setTimeout(done, wait));
  return answer;
};
window.mismatches = [];
window.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const listed = document.querySelectorAll('#movelist li').length;
    const marked = document.querySelectorAll('#board rect[data-mark="X"], '
                                             + '#board rect[data-mark="O"]').length;
    if (document.querySelector('#board rect') && listed !== marked) {
      window.mismatches.push([listed, marked]);
    }
  }).observe(document.body, { childList: true, subtree: true });
});
"""


def test_the_move_list_and_the_board_agree_while_answers_arrive_late(server, page):
    """The old undo test failed about 1 run in 2: undo shortened the move list one move at a
    time while it asked the server, and a verdict answering meanwhile redrew the page: the
    list said 0 moves while the board still showed the X. Answers are slowed down here so
    that the verdict always lands in the middle of the undo."""
    page.add_init_script(SLOW_ANSWERS)
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=alphabeta:time=0.3")
    page.wait_for_selector('#board rect[data-move="5"]')
    page.wait_for_function("/your move/.test(document.getElementById('status').textContent)")
    page.click('#board rect[data-move="5"]')
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 2 && "
                           "document.getElementById('status').textContent.includes('your move')")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#movelist li').length == 0")
    page.wait_for_timeout(1500)  # every late answer has landed
    assert page.evaluate("window.mismatches") == []
    assert page.locator('#board rect[data-mark="X"]').count() == 0


def test_a_link_to_another_game_gives_that_games_default_seats(server, page):
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=random")
    page.wait_for_selector("#board rect[data-move]")
    assert page.input_value("#players [data-side='1'] .kind") == "random"
    page.goto(server + "#/play?game=pig")  # the same page: only the address changes
    page.wait_for_function("document.querySelector(\"#players [data-side='1'] .kind\")"
                           ".value === 'pig-optimal'")
    assert page.text_content("#play-error") == ""


def _square(page, name):
    """The clickable layer of the square ``name`` (the hit rectangle above its piece)."""
    index = page.evaluate("(n) => [...document.querySelectorAll('#board rect.square')]"
                          ".findIndex((r) => r.dataset.square === n)", name)
    assert index >= 0, f"no square {name} on the board"
    return page.locator("#board rect.square-hit").nth(index)


def test_othello_by_clicking_a_square_the_ai_answers_from_a_search(server, page):
    """d3 is one of black's four opening moves (it flips d4); the engine then answers."""
    page.goto(server + "#/play?game=othello")
    page.wait_for_selector('#board rect.square[data-square="d3"]', timeout=90_000)
    assert page.locator("#board .legal-dot").count() == 4  # c4 d3 e6 f5
    _square(page, "d3").click()
    page.wait_for_function(SETTLED.format(n=2), timeout=90_000)
    pieces = page.evaluate("[...document.querySelectorAll('#board [data-piece]')]"
                           ".map((p) => p.dataset.piece)")
    assert len(pieces) == 6 and pieces.count("X") + pieces.count("O") == 6
    assert page.text_content("#board .disc-count") == "black 3  white 3"  # 4+1 then 1 flip back
    sources = page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                            ".map((b) => b.dataset.source).filter(Boolean)")
    assert sources == ["search"], sources


def test_chess_by_two_clicks_the_engine_answers_from_a_search(server, page):
    """e2 then e4: the pawn moves; the engine's reply is searched (not the fallback) and the
    verdict says chess is not solved instead of failing. The engine's time is the default
    (1 s) stretched by the machine's load: at load 22 on 2 cores the 1 s search overran its
    hard deadline and answered from there (source "deadline"), and in CI at 2.1 s too."""
    page.goto(server + f"#/play?game=chess&p2=chess-engine:time={min(load_factor(), 10):.1f}")
    page.wait_for_selector('#board rect.square[data-square="e2"]', timeout=90_000)
    _square(page, "e2").click()
    assert page.locator("#board rect.square.selected").count() == 1
    assert page.locator("#board .legal-dot").count() == 2  # e3 and e4
    _square(page, "e4").click()
    page.wait_for_function(SETTLED.format(n=2), timeout=90_000)
    moves = page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                          ".map((b) => [b.textContent, b.dataset.source])")
    # "deadline" is still a searched move (its best line when the hard deadline came, which
    # happens when CI's load starves the worker); only "fallback" is unsearched
    assert moves[0] == ["e4", ""] and moves[1][1] in {"search", "deadline"}, moves  # SAN
    page.wait_for_function("document.getElementById('verdict').textContent"
                           ".includes('not solved')")
    assert page.text_content("#play-error") == ""


def test_checkers_by_two_clicks_the_engine_answers_from_a_search(server, page):
    """11 then 15: the man moves; the engine's reply is searched, not the fallback."""
    page.goto(server + "#/play?game=checkers")
    page.wait_for_selector('#board rect.square[data-square="11"]', timeout=90_000)
    _square(page, "11").click()
    assert page.locator("#board .legal-dot").count() == 2  # 15 and 16
    _square(page, "15").click()
    page.wait_for_function(SETTLED.format(n=2), timeout=90_000)
    moves = page.evaluate("[...document.querySelectorAll('#movelist button.move')]"
                          ".map((b) => [b.textContent, b.dataset.source])")
    assert moves[0] == ["11-15", ""] and moves[1][1] == "search", moves
    assert page.locator("#board [data-piece]").count() == 24
    assert page.text_content("#play-error") == ""


def test_matrix_lab_plots_the_qre_branch_and_solves_a_three_player_file(server, page):
    """The two-player example gets its logit branch drawn (one line per strategy); the
    three-player example (an .nfg) is solved by simplicial subdivision, with its regret."""
    page.goto(server + "#/matrix")
    page.wait_for_function("document.querySelectorAll('#matrix-qre polyline').length == 4",
                           timeout=60_000)
    page.select_option("#matrix-select", "three-player matching pennies (.nfg)")
    page.wait_for_function("document.getElementById('matrix-equilibria').textContent"
                           ".includes('simplicial subdivision')", timeout=60_000)
    text = page.text_content("#matrix-equilibria")
    assert "1 (0.5, 0.5) · 2 (0.5, 0.5) · 3 (0.5, 0.5)" in text
    assert "No pure-strategy equilibrium" in text
    assert page.locator("#matrix-qre polyline").count() == 6


def test_extensive_form_lab_draws_solves_and_redraws_an_edited_file(server, page, shots):
    page.goto(server + "#/efg")
    page.wait_for_function("document.getElementById('efg-solution').textContent"
                           ".includes('agent logit QRE')", timeout=60_000)
    assert page.locator("#efg-canvas circle").count() == 4  # 1, 3, 2, 3 (horse)
    assert page.locator("#efg-canvas rect").count() == 5
    assert page.locator("#efg-canvas path").count() == 1  # player 3's information set
    page.screenshot(path=str(shots / "efg-lab.png"))
    page.select_option("#efg-select", "entry deterrence")
    page.wait_for_function("document.getElementById('efg-solution').textContent"
                           ".includes('backward induction')", timeout=60_000)
    assert "entrant #1: out 0, in 1" in page.text_content("#efg-solution")
    # edit the file: fighting now pays the incumbent, so the entrant stays out
    page.fill("#efg-text", page.input_value("#efg-text").replace('{ -1 -1 }', '{ -1 3 }'))
    page.click("#efg-solve")
    page.wait_for_function("document.getElementById('efg-solution').textContent"
                           ".includes('out 1, in 0')", timeout=60_000)
    page.fill("#efg-text", "EFG 2 R {")
    page.click("#efg-solve")
    page.wait_for_function("document.getElementById('efg-error').textContent.length > 0")


@pytest.mark.parametrize("where, error", [("#/efg?e=garbage!!", "efg-error"),
                                          ("#/matrix?m=garbage!!", "matrix-error")])
def test_a_link_the_lab_cannot_read_says_so_and_shows_an_example(server, page, where, error):
    page.goto(server + where)
    page.wait_for_function(f"document.getElementById('{error}').textContent"
                           ".includes('An example is shown instead')", timeout=60_000)
    assert "could not be read" in page.text_content(f"#{error}")


def test_a_tree_link_naming_what_is_not_there_says_so_and_runs_the_default(server, page):
    page.goto(server + "#/tree?name=nosuch&algo=nonsense")
    page.wait_for_function("document.getElementById('tree-error').textContent"
                           ".includes('No tree named')", timeout=60_000)
    error = page.text_content("#tree-error")
    assert 'No algorithm "nonsense"' in error and 'No tree named "nosuch"' in error
    assert page.input_value("#tree-algo") == "alphabeta"
    page.click("#tree-run")
    page.wait_for_function("document.getElementById('tree-status').textContent"
                           ".includes('Root value')", timeout=60_000)
    assert page.text_content("#tree-error") == ""


def test_save_game_downloads_the_record_where_the_game_has_one(server, browser, page, tmp_path):
    page.goto(server + "#/play?game=chess&p1=human&p2=human&moves=e2e4+e7e5")
    page.wait_for_selector("#save-game:not([hidden])", timeout=60_000)
    with page.expect_download() as download:
        page.click("#save-game")
    assert download.value.suggested_filename == "gamesearch-chess.pgn"
    saved = tmp_path / "game.pgn"
    download.value.save_as(saved)
    assert "1. e4 e5" in saved.read_text()
    # a page of its own, waiting for tic-tac-toe's own cells: the wait was for chess's
    # squares, so it passed while the old chess board was still drawn and failed once the
    # tic-tac-toe board replaced it (twice in full suites)
    fresh = browser.new_page(viewport={"width": 1100, "height": 720})
    fresh.goto(server + "#/play?game=tictactoe&p1=human&p2=human")
    fresh.wait_for_selector("#board rect[data-move]", timeout=60_000)
    fresh.wait_for_timeout(300)
    assert fresh.locator("#save-game").is_hidden()
    fresh.close()
