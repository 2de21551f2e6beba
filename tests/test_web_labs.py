"""The page as a player and a student meet it (issue #38), in a real browser: real boards for
backgammon, poker and Pacman; the home page; Undo after a hidden hand; labs that explain;
no stale screen after an error; contrast and labels.

Facts used: on the classic tree (AIMA fig. 5.2) alpha-beta's MIN node B gets beta 3 from its
first leaf and the second MIN node is cut when its first leaf 2 meets alpha 3; in the entry
deterrence game the equilibrium (out, fight) is a Nash equilibrium that is not subgame
perfect (Selten 1978); backgammon has 15 checkers a side and Kuhn poker one card each.
GAMESEARCH_SCREENSHOTS=1 writes the pictures into docs/img/; GAMESEARCH_WEB_URL=http://...
tests a server already running instead of starting one.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
from pathlib import Path

import pytest

from web_browser import close_clean, new_page, page_fixtures, require_browser

sync_api = require_browser()

WIDE, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}

# WCAG contrast of every visible piece of text against what lies under it: an HTML
# element's nearest opaque background, an SVG text's shape in the same group (tree nodes)
# or else its picture's background.
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92
                                      : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = ([r, g, b]) => 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q);
    return (y + 0.05) / (x + 0.05); };
  const opaque = (c) => { const v = rgb(c);
    return v.length === 3 || (v.length === 4 && v[3] > 0.5); };
  const under = (node) => {
    for (let e = node; e; e = e.parentElement) {
      if (e instanceof SVGElement && e.tagName !== 'svg') {
        const shape = e.parentElement && e.parentElement.querySelector(':scope > .shape');
        if (shape && e.tagName === 'text') return getComputedStyle(shape).fill;
        continue;
      }
      const bg = getComputedStyle(e).backgroundColor;
      if (opaque(bg)) return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  const bad = [];
  const visible = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  for (const e of document.querySelectorAll('body *')) {
    if (!visible(e) || e.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || ['OPTION', 'SCRIPT', 'STYLE', 'TITLE'].includes(e.tagName)) continue;
    // a board's art has its own colours; the values drawn on it are text to read
    if (e.closest('#board svg, .game-card svg') && !e.matches('.move-value')) continue;
    const fg = e instanceof SVGElement ? getComputedStyle(e).fill : getComputedStyle(e).color;
    if (!rgb(fg).length) continue;
    const r = ratio(rgb(fg), rgb(under(e)));
    const what = `${e.tagName}.${e.getAttribute('class') || ''}`;
    if (r < 4.5) bad.push(`${what} "${e.textContent.trim().slice(0, 20)}" ${r.toFixed(2)}`);
  }
  return bad;
}"""

# Every control has a name a screen reader reads: words, aria-label, or a <label>.
UNLABELLED = """() => [...document.querySelectorAll('button, input, select, textarea')]
  .filter((e) => !(e.getAttribute('aria-label') || e.labels && e.labels.length
                   || (e.tagName === 'BUTTON' && /[A-Za-z0-9]/.test(e.textContent))))
  .map((e) => e.id || e.outerHTML.slice(0, 60))"""


def pack(data: dict) -> str:
    """The page's base64url JSON (static/js/url.js)."""
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


server, browser, shots = page_fixtures(sync_api)


@pytest.fixture
def open_page(browser):
    pages = []

    def make(viewport=WIDE):
        page = new_page(browser, viewport)
        pages.append(page)
        return page

    yield make
    for page in pages:
        close_clean(page)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


def moves(page) -> int:
    return page.locator("#movelist li").count()


def bet_until_over(page) -> None:
    """Bet (or call) until the hand is over, waiting each time for the AI's answer."""
    for _ in range(3):
        if "Game over" in page.text_content("#status"):
            break
        n = moves(page)
        page.locator("#board button[data-move]:not([disabled])").last.click()  # bet, call
        page.wait_for_function("document.getElementById('status').textContent.includes("
                               "'Game over') || (document.getElementById('status').textContent"
                               ".includes('your move') && document.querySelectorAll("
                               f"'#movelist li').length >= {n + 2})")
    page.wait_for_function("document.getElementById('status').textContent.includes('Game over')")


# --- 1. real boards ----------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "390"])
def test_backgammon_is_a_board_moved_by_clicking_a_checker_then_a_point(server, open_page,
                                                                         shots, viewport):
    page = open_page(viewport)
    page.goto(server + "#/play?game=backgammon&p1=human&p2=human&seed=5")
    page.wait_for_selector("#board svg.backgammon [data-movable]")
    # the dice come from the link's seed: the same game every run (and kept in the link)
    seeded = page.evaluate("""() => fetch('/api/position', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'backgammon', moves: [], seed: 5})})
        .then((r) => r.json()).then((p) => p.moves)""")
    assert page.locator("#movelist li").first.text_content().strip().endswith(seeded[0])
    assert "seed=5" in page.url
    assert page.locator("#board .generic-moves").count() == 0
    assert page.locator("#board .bg-checker").count() == 30  # 15 a side
    assert page.locator("#board .bg-point").count() == 24
    assert page.locator("#board .bg-die").count() in (2, 4)
    assert page.locator("#board .bg-tray").count() == 1
    before = moves(page)
    box = page.locator("#board [data-movable]").first.bounding_box()  # the first step dragged
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    target = page.locator("#board .bg-point.target, #board .bg-tray.target").first.bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2,
                    steps=4)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#board .bg-controls').textContent"
                           ".includes('so far') || document.querySelectorAll('#movelist li')"
                           f".length > {before}")
    for _ in range(4):  # then one checker step at a time, by clicks, until the play is done
        if moves(page) > before:
            break
        page.locator("#board [data-movable]").first.click()
        targets = page.locator("#board .bg-point.target, #board .bg-tray.target")
        assert targets.count() >= 1  # the legal destinations are shown
        # a checker may stand on the point (a blot to hit): the board takes the click by
        # where it falls, so the point is clicked there even when a checker covers it
        targets.first.click(force=True)
        page.wait_for_timeout(100)
    page.wait_for_function(f"document.querySelectorAll('#movelist li').length > {before}")
    played = page.locator("#movelist li").nth(before).text_content()  # then the next roll
    assert re.fullmatch(r"((bar|\d+)/(off|\d+)\*? ?)+", played.strip()), played
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"backgammon-{viewport['width']}.png"))


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "390"])
def test_poker_shows_cards_chips_and_worded_bets(server, open_page, shots, viewport):
    page = open_page(viewport)
    page.goto(server + "#/play?game=kuhn_poker&p1=human&p2=ismcts:iterations=200,seed=1"
              "&seed=2")  # the same deal and the same answers every run
    page.wait_for_selector("#board svg.poker")
    page.wait_for_selector("#board .bet-buttons button:not([disabled])")
    assert page.locator("#board .card.face").count() == 1  # my card
    assert page.locator("#board .card.back").count() == 1  # theirs, face down
    assert "pot 2" in page.locator("#board .pot").text_content()
    words = set(page.locator("#board .bet-buttons button").all_text_contents())
    assert words == {"Check", "Bet"}, words
    page.screenshot(path=str(shots / f"poker-{viewport['width']}.png"))
    bet_until_over(page)
    assert page.locator("#board .card.face").count() == 2  # the showdown shows both
    no_sideways_scroll(page)
    leduc = open_page(viewport)
    leduc.goto(server + "#/play?game=leduc_poker&p1=human&p2=human&seed=2")
    leduc.wait_for_selector("#board svg.poker")
    assert set(leduc.locator("#board .bet-buttons button").all_text_contents()) == \
        {"Check", "Bet"}


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "390"])
def test_pacman_is_a_maze_with_animated_agents(server, open_page, shots, viewport):
    page = open_page(viewport)
    page.goto(server + "#/play?game=pacman&p1=human&p2=ghost:seed=1")
    page.wait_for_selector("#board svg.maze [data-agent=pacman]")
    assert page.locator("#board .wall").count() > 20
    assert page.locator("#board .food").count() > 10
    assert page.locator("#board .capsule").count() >= 1
    assert page.locator("#board [data-agent^=ghost]").count() >= 1
    where = page.locator("#board [data-agent=pacman]").get_attribute("style")
    page.wait_for_selector("#board .maze-buttons button:not([disabled])")
    assert page.locator("#board .maze-last").count() == 0  # no move yet
    page.locator("#board .maze-target").first.click()  # a neighbouring cell
    page.wait_for_function("document.getElementById('status').textContent.includes('your move')"
                           " && document.querySelectorAll('#movelist li').length >= 2")
    pacman = page.locator("#board [data-agent=pacman]")
    assert pacman.evaluate("g => getComputedStyle(g).transitionDuration") != "0s"
    page.wait_for_timeout(400)
    assert pacman.get_attribute("style") != where  # it went somewhere
    # the last move (the last ghost's) is marked as on the other boards: the cell its mover
    # reached is where one of the agents now stands (a Stop marks that one cell alone)
    assert page.locator("#board .maze-last").count() in (1, 2)
    to = page.locator("#board .maze-last[data-last=to]")
    cell = (float(to.get_attribute("y")) - 1, float(to.get_attribute("x")) - 1)
    stands = page.evaluate("""() => [...document.querySelectorAll('#board [data-agent]')]
        .map((g) => g.style.transform.match(/[-\\d.]+/g).map(Number))""")
    assert any(abs(x - 13 - cell[1]) < 1 and abs(y - 13 - cell[0]) < 1 for x, y in stands), \
        (cell, stands)
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"pacman-{viewport['width']}.png"))


# --- 2. the home page --------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "390"])
def test_home_page_offers_games_by_name_and_picture_and_agents_strong_first(
        server, open_page, shots, viewport):
    page = open_page(viewport)
    page.goto(server)
    page.wait_for_selector("#home-games button")
    assert "how" in page.text_content("#view-home").lower()
    titles = page.locator("#home-games .game-title").all_text_contents()
    assert "Kuhn poker" in titles and "Tic-tac-toe" in titles
    assert not any("_" in t for t in titles), titles
    chess = page.locator("#home-games button[data-game=chess] img")
    page.wait_for_function("document.querySelector('#home-games button[data-game=chess] img')"
                           ".naturalWidth > 0")
    assert chess.count() == 1
    for drawn in ("pig", "takeaway"):  # the games drawn since the initials tiles (#39)
        page.wait_for_function(f"document.querySelector('#home-games button[data-game={drawn}]"
                               " img')?.naturalWidth > 0")
    # every game's tile is its picture, none its initials (the card games since #40); a
    # picture that failed to load would be replaced by the initials' tile
    page.wait_for_function("""() => [...document.querySelectorAll('#home-games button')]
        .every((b) => b.querySelector('.tile') || b.querySelector('img')?.complete)""")
    initials = page.evaluate("""() => [...document.querySelectorAll('#home-games button')]
        .filter((b) => b.querySelector('.tile') || !(b.querySelector('img')?.naturalWidth > 0))
        .map((b) => b.dataset.game)""")
    if importlib.util.find_spec("pyspiel") is None:  # OpenSpiel's game needs its extra
        initials = [name for name in initials if name != "openspiel"]
    assert initials == [], initials
    for card_game in ("kuhn_poker", "leduc_poker", "whist"):
        size = page.locator(f"#home-games button[data-game={card_game}] img").bounding_box()
        assert size["width"] == 80 and size["height"] == 80, (card_game, size)
    page.click("#home-games button[data-game=chess]")
    page.wait_for_selector("#home-choice .agent-link")
    first = page.locator("#home-choice .agent-link").first
    assert first.get_attribute("data-agent") == "chess-engine"
    assert len(page.locator("#home-choice .agent-list li").first.text_content()) > 30
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"home-{viewport['width']}.png"),
                    full_page=viewport is WIDE)  # with the opponents offered
    first.click()
    page.wait_for_selector("#board svg")
    assert "p2=chess-engine" in page.url
    assert page.locator("#verdict-box").get_attribute("open") is None  # asked for, not shown


# --- 3. hidden information ---------------------------------------------------------------

def test_undo_and_stepping_back_after_a_kuhn_hand(server, open_page):
    page = open_page()
    page.goto(server + "#/play?game=kuhn_poker&p1=human&p2=ismcts:iterations=200,seed=1"
              "&seed=3")
    page.wait_for_selector("#board button[data-move]:not([disabled])")
    bet_until_over(page)
    page.click("#movelist li:nth-child(3) button")  # back to the first bet
    page.wait_for_function("document.getElementById('status').textContent.includes('Viewing')")
    assert page.text_content("#play-error") == ""
    page.click("#last")
    n = moves(page)
    page.click("#undo")
    page.wait_for_function(f"document.querySelectorAll('#movelist li').length < {n}")
    page.wait_for_function("document.getElementById('status').textContent.includes('your move')")
    assert page.text_content("#play-error") == ""


# --- 4. the labs teach -------------------------------------------------------------------

def boxes_overlap(page) -> list:
    return page.evaluate("""() => {
      const r = [...document.querySelectorAll('#tree-svg text')].map((t) => [t, t.getBBox()]);
      const out = [];
      for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
        const [a, b] = [r[i][1], r[j][1]];
        if (a.x + 0.5 < b.x + b.width && b.x + 0.5 < a.x + a.width &&
            a.y + 0.5 < b.y + b.height && b.y + 0.5 < a.y + a.height)
          out.push(`${r[i][0].textContent} / ${r[j][0].textContent}`);
      }
      return out;
    }""")


def test_tree_lab_updates_bounds_as_children_return_and_says_why_it_cuts(server, open_page,
                                                                         shots):
    page = open_page()
    page.goto(server + "#/tree?name=classic&algo=alphabeta")
    page.wait_for_selector("#tree-svg")
    for k in range(1, 4):  # enter A, enter B, leaf 3 returns to B
        page.click("#tree-step")
        page.wait_for_function("document.getElementById('tree-status').textContent"
                               f".startsWith('Step {k} /')")
    b = page.locator('#tree-svg g[data-id="1"] .bounds').all_text_contents()
    assert "β 3" in b, b  # beta lowered as the leaf returns, before B is done
    assert "beta = min(+∞, 3) = 3" in page.text_content("#tree-why")
    for k in range(4, 10):
        page.click("#tree-step")
        page.wait_for_function("document.getElementById('tree-status').textContent"
                               f".startsWith('Step {k} /')")
    why = page.text_content("#tree-why")
    assert "beta 2 ≤ alpha 3: MAX already has 3 here, MIN will not allow more than 2" in why
    status = page.text_content("#tree-status")
    page.click("#tree-back")
    assert page.text_content("#tree-status") != status
    assert page.locator("#tree-cuts li").count() == 0  # the cut is undone
    page.click("#tree-run")
    page.wait_for_function("document.getElementById('tree-status').dataset.rootValue == '3'")
    assert page.locator("#tree-cuts li").count() == 1
    assert boxes_overlap(page) == []
    page.screenshot(path=str(shots / "tree-lab-1280.png"))
    assert page.evaluate(CONTRAST) == []
    for name, algo in (("chance", "expectiminimax"), ("two-min", "alphabeta")):
        page.goto(server + f"#/tree?name={name}&algo={algo}")
        page.click("#tree-run")
        page.wait_for_function("document.getElementById('tree-status').dataset.rootValue")
        assert boxes_overlap(page) == [], name
    phone = open_page(PHONE)
    phone.goto(server + "#/tree?name=deep&algo=alphabeta")
    phone.wait_for_selector("#tree-svg")
    phone.click("#tree-run")
    # (an unset rootValue is undefined, which != '' too: wait for a value, then the drawing)
    phone.wait_for_function(
        "(document.getElementById('tree-status').dataset.rootValue || '') !== ''")
    phone.wait_for_selector('#tree-svg g[data-id="0"] .shape', state="visible")
    assert boxes_overlap(phone) == []
    root = phone.locator('#tree-svg g[data-id="0"] .shape').bounding_box()
    assert root["x"] >= 0 and root["x"] + root["width"] <= 390, root
    phone.screenshot(path=str(shots / "tree-lab-390.png"))


def test_efg_lab_flags_non_credible_threats_and_writes_numbers_as_people_do(server, open_page):
    page = open_page()
    page.goto(server + "#/efg")
    page.wait_for_function("document.getElementById('efg-status').textContent.includes('nodes')")
    assert page.input_value("#efg-select") == "Selten's horse"  # the example drawn
    page.select_option("#efg-method", "qre")
    page.click("#efg-solve")
    page.wait_for_function("document.getElementById('efg-solution').textContent.includes('QRE')")
    shown = page.text_content("#efg-solution") + page.text_content("#efg-canvas")
    assert not re.search(r"\de-\d", shown), shown
    text = (Path(__file__).resolve().parents[1] / "src/gamesearch/data/efg/"
            "entry_deterrence.efg").read_text()
    page.goto(server + "#/efg?e=" + pack({"text": text, "method": "lcp"}))
    page.wait_for_function("document.getElementById('efg-solution').textContent"
                           ".includes('pivots')")
    solution = page.text_content("#efg-solution")
    assert "Not subgame perfect" in solution and "not credible" in solution
    assert "fight" in solution and "accommodate" in solution
    assert page.input_value("#efg-select") == "entry deterrence"
    bad = open_page()
    bad.goto(server + "#/efg?e=" + pack({"method": "lcp"}))
    bad.wait_for_function("document.getElementById('efg-error').textContent != ''")
    assert "undefined" not in bad.input_value("#efg-text")


def test_nim_draws_what_the_verdict_promises_and_hover_shows_the_take(server, open_page):
    page = open_page()
    page.goto(server + "#/play?game=nim&p1=human&p2=alphabeta")
    page.wait_for_selector('#board rect[data-move="3:5"]')
    # hover once the page has settled (the position and its verdict in): a redraw on their
    # arrival replaced the hovered stick under a still mouse in a run at load 20
    page.wait_for_function("document.getElementById('status').textContent.includes('your move')"
                           " && document.getElementById('verdict').textContent != ''")
    page.hover('#board rect[data-move="3:3"]')  # the third stick from the top of pile 3
    assert page.locator("#board .stick.take").count() == 3
    assert page.locator("#board .stick.best").count() == 0  # not before it is asked for
    page.click("#verdict-box summary")
    page.wait_for_selector("#board .stick.best")
    best = page.text_content("#board .best-note")
    assert best.startswith("best: take "), best
    assert re.search(r"best: (\S+)", page.text_content("#verdict"))


# --- 5. errors and polish ----------------------------------------------------------------

def test_no_stale_screen_after_an_error_and_a_bad_agent_is_refused_on_load(server, open_page):
    page = open_page()
    page.goto(server + "#/play?game=tictactoe&p1=human&p2=nosuchagent")
    page.wait_for_selector("#board rect[data-move]")
    assert "nosuchagent" in page.text_content("#play-error")
    page.goto(server + "#/play?game=nosuchgame&p1=human&p2=alphabeta")
    page.wait_for_function("document.getElementById('play-error').textContent != ''")
    assert page.locator("#board *").count() == 0  # no board of the game before
    page.goto(server + "#/play?game=tictactoe&p1=alphabeta:depth=zz&p2=human")
    page.wait_for_function("document.getElementById('play-error').textContent != ''")
    page.wait_for_timeout(300)
    assert "thinking" not in page.text_content("#think-note")
    page.goto(server + "#/matrix")
    page.wait_for_selector("#matrix-equilibria h3")
    page.fill("#matrix-text", "1 2\n3")
    page.click("#matrix-solve")
    page.wait_for_function("document.getElementById('matrix-error').textContent != ''")
    assert page.text_content("#matrix-equilibria") == ""
    page.goto(server + "#/efg")
    page.wait_for_selector("#efg-canvas svg")
    page.fill("#efg-text", "EFG 2 R nonsense")
    page.click("#efg-solve")
    page.wait_for_function("document.getElementById('efg-error').textContent != ''")
    assert page.locator("#efg-canvas *").count() == 0
    assert page.text_content("#efg-solution") == ""


def test_not_found_is_a_page_for_browsers_and_json_for_the_api(server, open_page):
    page = open_page()
    answer = page.goto(server + "no/such/page")
    assert answer.status == 404 and "text/html" in answer.headers["content-type"]
    assert page.locator("a[href='/']").count() == 1
    answer = page.goto(server + "api/no-such-route")
    assert answer.status == 404 and "application/json" in answer.headers["content-type"]


def test_contrast_and_labels_everywhere(server, open_page):
    page = open_page()
    page.goto(server + "#/play?game=tictactoe&moves=5&p1=human&p2=human")
    page.wait_for_function("document.getElementById('verdict').textContent != ''")
    page.click("#verdict-box summary")
    page.wait_for_function("document.querySelectorAll('#board .move-value').length > 0")
    bad = page.evaluate(CONTRAST)  # the grey move values on the board too
    for view in ("#/home", "#/matrix", "#/efg", "#/tree?name=classic"):
        page.goto(server + view)
        page.wait_for_timeout(600)
        bad += page.evaluate(CONTRAST)
        assert page.evaluate(UNLABELLED) == [], view
    page.goto(server + "#/matrix?m=" + pack({"text": "3 0\n2 2\n0 3"}))
    page.wait_for_selector("#matrix-table td")
    page.click("#matrix-step")
    bad += page.evaluate(CONTRAST)
    assert bad == []
