"""The Pacman course's game-tree cases (written by us from the lectures' examples): value,
action, and the exact order and number of states each algorithm looks at."""

from pathlib import Path

import pytest

from gamesearch.engines.pacman.course_trees import parse_case, read_case
from gamesearch.errors import FileFormatError
from gamesearch.search.alphabeta import alphabeta

CASES = sorted((Path(__file__).parent / "data" / "pacman_trees").glob("*.test"))


def test_there_are_cases_for_every_algorithm() -> None:
    kinds = {read_case(p).algorithm for p in CASES}
    assert kinds == {"minimax", "alphabeta", "expectimax"} and len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = read_case(path)
    value, action, visited = case.run()
    assert value == pytest.approx(case.expected_value)
    assert action == case.expected_action
    assert visited == case.expected_visited  # the exact order, hence the exact number


def test_our_alphabeta_prunes_on_equality_where_the_course_does_not() -> None:
    case = read_case(Path(__file__).parent / "data" / "pacman_trees" / "3-alphabeta-equality.test")
    seen = []
    result = alphabeta(case.game, 0, tt=False, order=False, killers=False, history=False,
                       trace=lambda e, s, **d: seen.append(case.game.node_name(s))
                       if e in ("enter", "leaf") else None)
    assert result.value == case.expected_value
    assert "G" not in seen and "G" in case.expected_visited


@pytest.mark.parametrize("text, message", [
    ('alg: "MinimaxAgent"\n', "missing field"),
    ('alg: "Greedy"\ndepth: "1"\nnum_agents: "2"\nstart_state: "A"\n'
     'successors: """\nA x B\n"""\nevaluation: """\nB 1\n"""\n', "is not one of"),
    ('alg: "MinimaxAgent"\ndepth: "1"\nnum_agents: "2"\nstart_state: "A"\n'
     'successors: """\nA x B\n"""\nevaluation: """\nC 1\n"""\n', "no evaluation"),
    ('alg: "MinimaxAgent"\ndepth: "one"\nnum_agents: "2"\nstart_state: "A"\n'
     'successors: """\nA x B\n"""\nevaluation: """\nB 1\n"""\n', "not an integer"),
    ('alg: "MinimaxAgent"\nsuccessors: """\nA x B\n', "never closes"),
    ('this is not a field\n', "expected key"),
])
def test_broken_cases_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(FileFormatError, match=message):
        parse_case(text, source="broken.test")
