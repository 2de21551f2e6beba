"""End-to-end: the page in a real browser (Debian's Chromium driven by Playwright).

One server (``gamesearch serve``) for the module. Set GAMESEARCH_SCREENSHOTS=1 to write the
screenshots into docs/img/ (they are committed); otherwise they go to a temporary folder.
Facts: tic-tac-toe is a draw, so an exact alpha-beta player never loses it; the classic tree
has value 3 and alpha-beta prunes its leaves 4 and 6 (AIMA 3rd ed., fig. 5.5); matching
pennies has the unique equilibrium (1/2, 1/2) for both players and value 0.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("uvicorn", reason="the web extras are not installed")


@pytest.fixture(scope="module")
def server():
    code = "from gamesearch.cli.main import main; main(['serve', '--port', '0', '--workers', '2'])"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+/", line)
    if not match:
        proc.kill()
        pytest.fail(f"the server did not start: {line!r}")
    yield match.group(0)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1100, "height": 720})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    if os.environ.get("GAMESEARCH_SCREENSHOTS"):
        folder = Path(__file__).resolve().parents[1] / "docs" / "img"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")


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
