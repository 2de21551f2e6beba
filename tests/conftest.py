"""Test session set-up: compile the numba kernels once when pytest-xdist runs workers.

On a fresh clone numba's on-disk cache is empty, and every worker of ``pytest -n N`` would
compile the same kernels at the same time (N times the work, on the same cores). Here the
workers share ``gamesearch warmup``'s steps, each step under a lock, so each kernel is
compiled once; the tests then load the compiled code from the cache. A serial run needs
nothing: kernels compile on first use and are cached for the next run.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# A loaded machine (CI neighbours, parallel builds) makes data generation slow: hypothesis'
# too_slow health check then fails a test that found no bug. Timing is not what the property
# tests check, so the default profile drops that check and the per-example deadline.
settings.register_profile("gamesearch", suppress_health_check=[HealthCheck.too_slow],
                          deadline=None)
settings.load_profile("gamesearch")


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: each worker compiles what it uses
        return
    from gamesearch.catalog.warmup import warmup_steps

    shared = tmp_path_factory.getbasetemp().parent  # the same folder for every worker
    steps = warmup_steps()
    # Workers share the steps: even-numbered ones take them from the first, odd-numbered
    # from the last, each step under its own lock, so every kernel is compiled once and
    # two workers compile at the same time until they meet.
    number = int(worker.removeprefix("gw")) if worker.removeprefix("gw").isdigit() else 0
    order = range(len(steps)) if number % 2 == 0 else range(len(steps) - 1, -1, -1)
    for k in order:
        with open(shared / f"gamesearch-kernel-{k}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            done = shared / f"gamesearch-kernel-{k}.done"
            if not done.exists():
                steps[k][1]()
                done.touch()


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], object]) -> Path:
    """A folder ``build`` fills once per test run, shared by the xdist workers: the first
    worker to ask builds it (under a lock; the other waits for it), later askers find it
    done. Read-only for the tests: a test that changes it copies it first."""
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's base is popen-gwN in the run's folder: share that folder
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder, done = shared / name, shared / f"{name}.done"
    try:
        import fcntl
    except ImportError:  # not POSIX: each worker builds its own
        folder, done, fcntl = base / name, base / f"{name}.done", None
    with open(folder.with_name(f"{name}.lock"), "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            build(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def checkers_tables3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 3-piece checkers tables (34 slices), built once per run: test_checkers_tables and
    test_checkers_engine both read them (each built its own before, and the first of those
    built them four times over)."""
    from gamesearch.engines.checkers.tables import table_spec
    from gamesearch.tables.build import build_tables

    return built_once(tmp_path_factory, "checkers-tables-3",
                      lambda folder: build_tables(table_spec(3), folder))


FILE_SECONDS = {
    "test_arena_tournament": 92, "test_checkers_tables": 85, "test_check_game": 83,
    "test_web_e2e": 82, "test_durable_kill": 82, "test_web_api": 75, "test_chess_tables": 58,
    "test_checkers_engine": 40, "test_web_robust": 37, "test_checkers": 32,
    "test_connect4_cli": 29, "test_theory_agent_qre": 22, "test_go_kernel": 21,
    "test_cli_truth": 20, "test_catalog": 19, "test_chess_uci_threads": 18,
    "test_speed_startup": 18, "test_td_gammon": 15, "test_notebooks": 55,
}
"""About how long each of the slowest test files runs on one core (CI, 2026-11-26, less what
the commits after 46a34ea cut from the checkers tables, the Ray kill test and the CFR kill
tests, as measured file by file): the order in which the two workers take files,
heaviest first."""


def pytest_configure(config: pytest.Config) -> None:
    """Hand files to the workers heaviest first (``--dist loadfile``). xdist's default order
    (most tests first) left files of a few long kill tests for the end, one worker running
    them while the other had finished: longest-first ends the two workers together."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Heaviest files first (FILE_SECONDS), each file's tests kept together and in order."""
    first = {}
    for k, item in enumerate(items):
        first.setdefault(item.path, k)
    items.sort(key=lambda item: (-FILE_SECONDS.get(item.path.stem, 0), first[item.path]))


def pytest_unconfigure(config: pytest.Config) -> None:
    """A test that leaves a non-daemon thread running (an outside engine's reader nobody
    closed) would hold the process open after the summary, for ever, since Python joins
    such threads before it exits: CI then ran out of time with every test passed. Name the
    threads and end the run as failed instead."""
    import sys
    import threading

    left = [t for t in threading.enumerate()
            if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if not left:
        return
    names = ", ".join(t.name for t in left)
    print(f"\nthreads still running after the tests (a test did not close what it started): "
          f"{names}", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(3)


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run the command line in-process: (exit status, stdout, stderr); ``stdin`` is what a
    person would type."""
    from gamesearch.cli.main import main

    def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err
    return run
