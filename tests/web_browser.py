"""What the browser tests share: Debian's Chromium driven by Playwright, and a server of the
web app started in a process of its own and waited for until it answers."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SERVE = "from gamesearch.cli.main import main; main(['serve', '--port', '0', '--workers', '2'])"
"""``gamesearch serve`` as a user starts it (it warms the kernels before it listens)."""
ONE_COLD_WORKER = (
    "from gamesearch.web.app import create_app; import uvicorn, socket;"
    "s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1];"
    "s.close(); print(f'http://127.0.0.1:{port}/', flush=True);"
    "uvicorn.run(create_app(workers=1, warm=False), host='127.0.0.1', port=port,"
    " log_level='warning')")
"""The app with one play worker and no warm-up, on a free port: for tests of the page itself
(the agents they use compile in seconds)."""


def require_browser() -> object:
    """Skip the calling test module without Chromium, Playwright or the web extras; the
    Playwright sync API where they are all there."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)",
                    allow_module_level=True)
    api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pytest.importorskip("uvicorn", reason="the web extras are not installed")
    return api


def ready(url: str, seconds: float = 180) -> None:
    """Wait until the server answers ``/api/games`` (it loads its compiled kernels first:
    seconds, or minutes on a busy machine), so that no test's first page pays for it."""
    end = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "api/games", timeout=5):
                return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.3)


@contextlib.contextmanager
def running_server(code: str = SERVE) -> Iterator[str]:
    """The URL of a server that ``python -c code`` starts (its first line of output names
    it), once it answers; stopped afterwards. GAMESEARCH_WEB_URL names one already running
    instead (while editing the page)."""
    if os.environ.get("GAMESEARCH_WEB_URL"):
        yield os.environ["GAMESEARCH_WEB_URL"]
        return
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://[\d.]+:\d+/", line)
        if not match:
            pytest.fail(f"the server did not start: {line!r}")
        ready(match.group(0))
        yield match.group(0)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextlib.contextmanager
def launched(api: object) -> Iterator[object]:
    """A headless Chromium for a module's tests."""
    with api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


# --- the fixtures and pages the browser test modules share ----------------------------------
# A module takes them by assignment (``server, browser, shots = page_fixtures(sync_api)``):
# pytest finds a fixture by its name in the module.

def page_fixtures(api: object, code: str = SERVE) -> tuple[object, object, object]:
    """A module's ``server`` (of ``code``), ``browser`` and ``shots`` fixtures."""
    return server_fixture(code), browser_fixture(api), shots_fixture()


def server_fixture(code: str = SERVE) -> object:
    """A module's ``server`` fixture: the URL of :func:`running_server` of ``code``."""

    @pytest.fixture(scope="module")
    def server() -> Iterator[str]:
        with running_server(code) as url:
            yield url

    return server


def browser_fixture(api: object) -> object:
    """A module's ``browser`` fixture: one headless Chromium (:func:`launched`)."""

    @pytest.fixture(scope="module")
    def browser() -> Iterator[object]:
        with launched(api) as b:
            yield b

    return browser


def shots_fixture() -> object:
    """A module's ``shots`` fixture: where its screenshots go (docs/img/ with
    GAMESEARCH_SCREENSHOTS=1, a temporary folder otherwise)."""

    @pytest.fixture(scope="module")
    def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
        if os.environ.get("GAMESEARCH_SCREENSHOTS"):
            folder = Path(__file__).resolve().parents[1] / "docs" / "img"
            folder.mkdir(parents=True, exist_ok=True)
            return folder
        return tmp_path_factory.mktemp("screenshots")

    return shots


def new_page(browser: object, viewport: dict, timeout_ms: float | None = None) -> object:
    """A page of ``viewport`` size that keeps its script errors in ``page.errors`` (see
    :func:`close_clean`); ``timeout_ms``: its default wait, which GAMESEARCH_WEB_TIMEOUT_MS
    overrides."""
    page = browser.new_page(viewport=viewport)
    if timeout_ms is not None:
        page.set_default_timeout(float(os.environ.get("GAMESEARCH_WEB_TIMEOUT_MS", timeout_ms)))
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    return page


def close_clean(page: object) -> None:
    """Close a page of :func:`new_page`; a script error it had fails the test."""
    errors = page.errors
    page.close()
    assert not errors, f"errors in the page: {errors}"
