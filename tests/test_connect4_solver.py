"""The perfect solver: Pons' published scores, weak signs, other sizes, the opening book."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gamesearch.engines.connect4.book import OpeningBook, build_book, positions_by_ply
from gamesearch.engines.connect4.solve import read_benchmark, run_batch
from gamesearch.engines.connect4.solver import Connect4Solver
from gamesearch.games.connect4 import ConnectFour
from gamesearch.search.alphabeta import alphabeta

DATA = Path(__file__).parent / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
GAME = ConnectFour()


@pytest.fixture(scope="module")
def solver():
    return Connect4Solver()


@pytest.mark.parametrize("name", SETS)
def test_every_published_score_on_the_samples(solver, name):
    report = run_batch(GAME, solver, str(DATA / name), progress=None)
    assert report["positions"] >= 12
    assert report["wrong"] == 0, report["first_wrong"]


@pytest.mark.parametrize("name", SETS)
def test_weak_solve_gives_the_sign(solver, name):
    for moves, score in read_benchmark(str(DATA / name))[:12]:
        result = solver.solve(GAME.state_from_string(moves), weak=True).score
        assert result == (score > 0) - (score < 0), moves


def test_article_examples(solver):
    # Pons' article: "4455" scores 18 (hmm: for the player to move, X), "44455554221" -15
    assert solver.solve(GAME.state_from_string("44455554221")).score == -15
    scores = solver.analyze(GAME, GAME.state_from_string("44455554221"))
    assert max(scores.values()) == -15


def test_terminal_positions_score_the_loss():
    s = GAME.state_from_string("4545454")  # X completes column 4 with its 4th stone
    assert Connect4Solver(log_table=10).solve(s).score == -(22 - 4)


def random_positions(game: ConnectFour, count: int, min_stones: int, seed: int) -> list:
    """Non-terminal positions reached by random play with at least ``min_stones`` stones."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        s = game.initial_state()
        target = rng.randrange(min_stones, game.cells)
        while s[2] < target and not game.is_terminal(s):
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            found.append(s)
    return found


@pytest.mark.parametrize("size", [(7, 6), (5, 4)])
def test_explicit_stack_visits_the_recursive_nodes(size):
    """search() (a loop over an explicit stack, one packed table) is negamax() (recursive,
    Pons' two arrays) rewritten: without ETC both visit exactly the same nodes."""
    game = ConnectFour(*size)
    log_table = 24 if size == (7, 6) else 16
    loop = Connect4Solver(*size, log_table=log_table, etc=False)
    recursive = Connect4Solver(*size, log_table=log_table, recursive=True)
    with_etc = Connect4Solver(*size, log_table=log_table)
    for s in random_positions(game, 150, game.cells // 2 - 4, seed=3):
        a, b, c = loop.solve(s), recursive.solve(s), with_etc.solve(s)
        assert (a.score, a.nodes) == (b.score, b.nodes)
        assert c.score == b.score and c.nodes <= b.nodes + 50
        assert with_etc.solve(s, weak=True).score == (c.score > 0) - (c.score < 0)


def test_wide_keys_use_a_64_bit_table():
    """A small table leaves more key bits to keep than 25: entries grow to 64 bits."""
    small, default = Connect4Solver(log_table=16), Connect4Solver()
    assert small.table.dtype == np.uint64 and default.table.dtype == np.uint32
    assert default.table_bytes < 70_000_000  # 2^24 slots of 4 bytes
    for s in random_positions(GAME, 40, 16, seed=5):
        assert small.solve(s).score == default.solve(s).score


@pytest.mark.parametrize("size", [(4, 4), (5, 4)])
def test_other_sizes_match_pure_alphabeta(size):
    game = ConnectFour(*size)
    solver = Connect4Solver(*size, log_table=16)
    rng = random.Random(7)
    for _ in range(40):
        s = game.initial_state()
        for _ in range(rng.randrange(game.cells)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if game.cells - s[2] > 12 or game.is_terminal(s):
            continue
        assert solver.solve(s).score == alphabeta(game, s).value


def test_book_round_trip_matches_the_solver(tmp_path):
    path = tmp_path / "book.npz"
    book = build_book(5, 4, 3, path)
    loaded = OpeningBook.load(path)
    assert (loaded.keys == book.keys).all() and (loaded.values == book.values).all()
    game = ConnectFour(5, 4)
    plain = Connect4Solver(5, 4, log_table=14)
    with_book = Connect4Solver(5, 4, log_table=14, book=loaded)
    for level in positions_by_ply(game, 3):
        for state in level.values():
            assert loaded.get(game, state) == plain.solve(state).score
            assert with_book.solve(state).score == plain.solve(state).score
    assert with_book.solve(game.initial_state()).nodes <= 2  # answered by the book


def test_book_build_resumes_after_a_kill(tmp_path):
    path = tmp_path / "book.npz"
    calls = []

    def kill_after_five(done, total):
        calls.append(done)
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_book(5, 4, 3, path, progress=kill_after_five)
    partial = Path(str(path) + ".partial")
    assert len(partial.read_text().splitlines()) == 1 + 5  # a header, five solved positions
    seen = []
    book = build_book(5, 4, 3, path, progress=lambda done, total: seen.append(done))
    assert seen[0] == 5  # the five solved positions were kept
    assert not partial.exists()
    fresh = build_book(5, 4, 3, tmp_path / "fresh.npz")
    assert (book.keys == fresh.keys).all() and (book.values == fresh.values).all()


def test_batch_keeps_the_finished_positions_on_ctrl_c(solver):
    class StopsOnThird:
        calls = 0

        def solve(self, state, weak=False):
            StopsOnThird.calls += 1
            if StopsOnThird.calls == 3:
                raise KeyboardInterrupt
            return solver.solve(state, weak)

    report = run_batch(GAME, StopsOnThird(), str(DATA / "Test_L3_R1"), progress=None)
    assert report["positions"] == 2 and report["correct"] == 2
    assert report["interrupted"].startswith("after 2 of ")


def test_the_shipped_7x6_book_has_the_published_opening_values():
    """The book (built by `gamesearch book connect4 --depth 2`) against outside facts: the
    first player wins, with the centre column only; columns 3 and 5 draw, the others lose
    (Allis 1988, Tromp 1995); in the benchmark convention the win comes with the last stone
    (score 1: the empty board's score on connect4.gamesolver.org, and our solver's)."""
    from gamesearch.engines.connect4.book import default_book

    book = default_book(7, 6)
    assert book is not None and book.depth >= 2
    assert book.get(GAME, GAME.initial_state()) == 1
    first = [-book.get(GAME, GAME.state_from_string(str(c))) for c in range(1, 8)]
    assert [(v > 0) - (v < 0) for v in first] == [-1, -1, 0, 1, 0, -1, -1]
    assert max(first) == first[3] == 1
    # every entry below the book's depth is the negamax of its children's entries
    for level in positions_by_ply(GAME, book.depth - 1):
        for state in level.values():
            children = [-book.get(GAME, GAME.result(state, c)) for c in GAME.actions(state)]
            assert book.get(GAME, state) == max(children)
    # the solver with the book answers shallow positions without searching
    with_book = Connect4Solver(book=book)
    assert with_book.solve(GAME.state_from_string("4")).nodes <= 2


@pytest.mark.parametrize("size", [(7, 6), (6, 5)])
def test_the_books_readable_key_is_the_solvers_compiled_key(size):
    """One mirror-canonical key, written twice: readable (the book) and compiled (the
    solver's table), equal on random positions; a position and its mirror share it."""
    from gamesearch.engines.connect4.book import canonical_key
    from gamesearch.engines.connect4.solver import compiled

    game, rng = ConnectFour(*size), random.Random(size[0])
    code = compiled(*size)
    seen = 0
    while seen < 300:
        state, moves = game.initial_state(), []
        while not game.is_terminal(state) and seen < 300:
            readable = canonical_key(game, state)
            assert code.canonical_key(np.int64(state[0]), np.int64(state[1])) == readable
            mirrored = game.initial_state()
            for c in moves:
                mirrored = game.result(mirrored, game.width - 1 - c)
            assert canonical_key(game, mirrored) == readable
            seen += 1
            moves.append(rng.choice(list(game.actions(state))))
            state = game.result(state, moves[-1])
