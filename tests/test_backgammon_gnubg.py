"""Backgammon's distinct legal plays equal GNU Backgammon's, position by position.

GNU Backgammon (the Debian package gnubg, /usr/games/gnubg) is asked, in ONE run of its
embedded Python, for its hint list of every position and roll; each of its moves is applied
to the board by our code and the set of resulting positions compared with ours. Nothing is
installed at test time: without gnubg the test is skipped (``.ci/run`` installs it).
"""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from gamesearch.games.backgammon import (
    ROLLS,
    Backgammon,
    BackgammonState,
    move_checker,
    relative,
    to_gnubg_board,
)

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists()
                                  else None)
pytestmark = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed: "
                                "apt-get install gnubg (the .ci/run script does)")

SCRIPT = r'''
import json
import gnubg
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
cases = json.load(open(INPUT))
answers = []
for case in cases:
    gnubg.command("new game")
    board = tuple(tuple(side) for side in case["board"])
    gnubg.command("set board " + gnubg.positionid(board))
    gnubg.command("set dice %d %d" % tuple(case["dice"]))
    try:
        hints = gnubg.hint(100000)["hint"]
        answers.append({"board": gnubg.board(),
                        "moves": [gnubg.parsemove(h["move"]) for h in hints]})
    except Exception as err:  # no legal move: gnubg has no hint to give
        answers.append({"board": gnubg.board(), "moves": [], "error": str(err)})
json.dump(answers, open(OUTPUT, "w"))
'''


def gnubg_plays(cases: list[tuple[BackgammonState, tuple[int, int]]], tmp: Path) -> list:
    """gnubg's plays for every (position, dice), in one run of gnubg."""
    data = [{"board": to_gnubg_board(s), "dice": list(dice)} for s, dice in cases]
    (tmp / "in.json").write_text(json.dumps(data))
    script = tmp / "plays.py"
    script.write_text(f"INPUT = {str(tmp / 'in.json')!r}\nOUTPUT = {str(tmp / 'out.json')!r}\n"
                      + SCRIPT)
    run = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True,
                         text=True, timeout=300, stdin=subprocess.DEVNULL)
    out = tmp / "out.json"
    assert out.exists(), f"gnubg produced no answer: {run.stdout[-2000:]} {run.stderr[-2000:]}"
    return json.loads(out.read_text())


def positions_after_gnubg_moves(s: BackgammonState, moves: list) -> set:
    """Apply each of gnubg's moves ((from, to) steps, mover's numbering) with our helper."""
    result = set()
    for move in moves:
        my, opp, _ = relative(s)
        for src, dst in move:
            move_checker(my, opp, src, dst)
        result.add((tuple(my), tuple(opp)))
    return result


def test_cases() -> list[tuple[BackgammonState, tuple[int, int]]]:
    game = Backgammon()
    start = game.initial_state()._replace(opening=False)
    cases = [(start._replace(dice=dice), dice) for dice, _ in ROLLS]  # every opening roll
    rng = random.Random(2024)
    while len(cases) < len(ROLLS) + 300:  # positions met in random games, with random dice
        s = game.initial_state()
        while not game.is_terminal(s) and len(cases) < len(ROLLS) + 300:
            if s.dice is None and not s.opening and rng.random() < 0.12:
                dice = rng.choice(ROLLS)[0]
                cases.append((s._replace(dice=dice), dice))
            s = game.result(s, rng.choice(game.actions(s)))
    return cases


test_cases.__test__ = False  # a helper, not a test


def test_distinct_plays_equal_gnubg(tmp_path: Path) -> None:
    game = Backgammon()
    cases = test_cases()
    answers = gnubg_plays(cases, tmp_path)
    assert len(answers) == len(cases)
    checked_bar = checked_bearoff = 0
    for (s, _dice), answer in zip(cases, answers):
        ours = {position for _, position in game.plays(s)}
        # gnubg saw the same board we sent (both conventions agree)
        assert tuple(map(tuple, answer["board"])) == to_gnubg_board(s)
        theirs = positions_after_gnubg_moves(s, answer["moves"])
        if not answer["moves"]:  # no legal move: our only play is the empty one
            assert game.actions(s) == [()], (game.render(s), answer)
            continue
        assert ours == theirs, (
            f"\n{game.render(s)}\nours only: "
            f"{[game.action_to_string(s, a) for a, p in game.plays(s) if p not in theirs]}\n"
            f"gnubg's moves: {answer['moves']}")
        checked_bar += s.bar[s.player] > 0
        checked_bearoff += any(dst == 0 for a, _ in game.plays(s) for _, dst in a)
    # the sample really exercises entering from the bar and bearing off
    assert checked_bar >= 10 and checked_bearoff >= 10, (checked_bar, checked_bearoff)
