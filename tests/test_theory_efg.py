"""Gambit .efg files: reading, writing, errors, behaviour-strategy equilibria, Gambit."""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.games import load_game
from gamesearch.theory import efg as efg_module
from gamesearch.theory.behaviour import behaviour_regret, expected_payoffs
from gamesearch.theory.efg import read_efg, write_efg
from gamesearch.theory.sequence_form import solve_sequence_form

# Selten's horse (Selten 1975): 1 goes Down or Across; after Across 2 goes down or across;
# 3 moves (Left/Right) not knowing whether 1 went Down or 2 went down. The files are the
# web lab's examples (src/gamesearch/data/efg).
EXAMPLES = Path(__file__).resolve().parent.parent / "src" / "gamesearch" / "data" / "efg"
HORSE = (EXAMPLES / "seltens_horse.efg").read_text()

# The beer-quiche game (Cho and Kreps 1987): the sender is weak (1/10) or strong (9/10),
# has beer or quiche; the receiver sees the breakfast and duels or not.
BEER_QUICHE = (EXAMPLES / "beer_quiche.efg").read_text()


def horse(d_or_a, a_prob, left_prob):
    return [{(0, 1): {"D": 1 - d_or_a, "A": d_or_a}},
            {(1, 1): {"d": 1 - a_prob, "a": a_prob}},
            {(2, 1): {"L": left_prob, "R": 1 - left_prob}}]


def test_seltens_horse_known_equilibria():
    game = read_efg(HORSE)
    assert game.num_players == 3 and not game.perfect_information()
    # Two components (Selten 1975): Across, across, Left with probability at least 3/4;
    # Down, across with probability at least 1/3, Right.
    for profile in (horse(1, 1, 1), horse(1, 1, F(3, 4)), horse(0, 1, 0), horse(0, F(1, 3), 0)):
        assert behaviour_regret(game, profile) == [0, 0, 0]
    assert expected_payoffs(game, horse(1, 1, 1)) == (1, 1, 1)
    for profile in (horse(1, 1, F(1, 2)), horse(0, 0, 0), horse(0, F(1, 4), 0)):
        assert max(behaviour_regret(game, profile)) > 0


def beer_quiche(weak, strong, after_beer, after_quiche):
    return [{(0, 1): {"beer": weak, "quiche": 1 - weak},
             (0, 2): {"beer": strong, "quiche": 1 - strong}},
            {(1, 1): {"duel": after_beer, "not": 1 - after_beer},
             (1, 2): {"duel": after_quiche, "not": 1 - after_quiche}}]


def test_beer_quiche_pooling_equilibria():
    game = read_efg(BEER_QUICHE)
    assert game.chance_outcomes(0) == [("weak", F(1, 10)), ("strong", F(9, 10))]
    # Both pooling equilibria (Cho and Kreps 1987): no duel on the pooled breakfast, a duel
    # with probability at least 1/2 after the other.
    for profile in (beer_quiche(1, 1, 0, F(1, 2)), beer_quiche(1, 1, 0, 1),
                    beer_quiche(0, 0, F(1, 2), 0), beer_quiche(0, 0, 1, 0)):
        assert behaviour_regret(game, profile) == [0, 0]
    assert expected_payoffs(game, beer_quiche(1, 1, 0, 1)) == (F(29, 10), F(9, 10))
    # No separating equilibrium; a pooling one with too little threat fails.
    for profile in (beer_quiche(0, 1, 0, 1), beer_quiche(1, 1, 0, F(1, 4))):
        assert max(behaviour_regret(game, profile)) > 0


def test_round_trip_keeps_the_game():
    for text in (HORSE, BEER_QUICHE):
        game = read_efg(text)
        again = read_efg(write_efg(game))
        assert [(n.kind, n.player, n.payoffs) for n in again.nodes] == \
            [(n.kind, n.player, n.payoffs) for n in game.nodes]
        assert {k: (v.actions, v.probs) for k, v in again.infosets.items()} == \
            {k: (v.actions, v.probs) for k, v in game.infosets.items()}


def test_kuhn_poker_exported_and_solved_from_efg():
    game = read_efg(write_efg(load_game("kuhn_poker")))
    solution = solve_sequence_form(game)
    assert solution.exact and solution.value == F(-1, 18)  # Kuhn (1950)


def test_outcomes_on_the_path_add_up_and_can_be_reused():
    text = """EFG 2 R "" { "A" "B" }
p "" 1 1 "" { "x" "y" } 1 "bonus" { 1, 1/2 }
t "" 2 "end" { 2 -1 }
t "" 2
"""
    game = read_efg(text)
    assert game.utilities(1) == (3, F(-1, 2)) and game.utilities(2) == (3, F(-1, 2))


BAD = {
    "probabilities": ('EFG 2 R "" { "A" }\nc "" 1 "" { "h" 1/2 "t" 1/3 } 0\nt "" 0\nt "" 0\n',
                      "sum to 5/6, not 1"),
    "mismatch": ('EFG 2 R "" { "A" "B" }\np "" 1 1 "" { "x" "y" } 0\n'
                 'p "" 2 1 "" { "l" "r" } 0\nt "" 0\nt "" 0\n'
                 'p "" 2 1 "" { "l" "m" "r" } 0\nt "" 0\nt "" 0\nt "" 0\n',
                 "line 6: information set 1 of player 2 has actions"),
    "player": ('EFG 2 R "" { "A" }\np "" 2 1 "" { "x" } 0\nt "" 0\n', "player 2 is not"),
    "short": ('EFG 2 R "" { "A" }\np "" 1 1 "" { "x" "y" } 0\nt "" 0\n', "ends before"),
    "trailing": ('EFG 2 R "" { "A" }\nt "" 0\nt "" 0\n', "after the end of the tree"),
    "outcome": ('EFG 2 R "" { "A" }\nt "" 3\n', "outcome 3 is used before"),
    "payoffs": ('EFG 2 R "" { "A" "B" }\nt "" 1 "" { 1 }\n', "1 payoffs for 2 players"),
    "infoset": ('EFG 2 R "" { "A" }\np "" 1 4 0\n', "used before its actions"),
    "kind": ('EFG 2 R "" { "A" }\nq "" 0\n', "not a node kind"),
    "header": ("NFG 1 R", "starts with 'EFG 2 R'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_one_clear_error(case):
    text, message = BAD[case]
    with pytest.raises(FileFormatError, match=message):
        read_efg(text, "bad.efg")


def test_too_many_nodes_is_refused(monkeypatch):
    text = write_efg(load_game("kuhn_poker"))
    monkeypatch.setattr(efg_module, "MAX_NODES", 5)
    with pytest.raises(FileFormatError, match="more than 5 nodes"):
        read_efg(text)
    with pytest.raises(GameSearchError, match="more than 5 nodes"):
        write_efg(load_game("kuhn_poker"))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzzed_files_raise_only_file_format_errors(data):
    text = BEER_QUICHE
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 6))
        junk = data.draw(st.text(alphabet='0123456789 /{}"ptc-.\n', max_size=6))
        text = text[:at] + junk + text[at + cut:]
    try:
        game = read_efg(text)
    except FileFormatError as err:
        assert "\n" not in str(err)
        return
    write_efg(game)  # whatever reads also writes


def run(capsys, *args):
    from gamesearch.cli.main import main

    main(list(args))
    return capsys.readouterr().out


def test_cli_show_write_and_solve(capsys, tmp_path):
    path = tmp_path / "kuhn.efg"
    assert "wrote" in run(capsys, "efg", "kuhn_poker", "--write", str(path))
    assert "player 1 [J]" in run(capsys, "efg", str(path), "--max-lines", "5")
    data = json.loads(run(capsys, "sequence-form", str(path), "--json"))
    assert data["value"] == "-1/18"
    tree = tmp_path / "entry.efg"  # perfect information: backward induction
    tree.write_text('EFG 2 R "entry" { "E" "I" }\np "" 1 1 "" { "out" "in" } 0\n'
                    't "" 1 "" { 0 2 }\np "" 2 1 "" { "fight" "share" } 0\n'
                    't "" 2 "" { -1 -1 }\nt "" 3 "" { 1 1 }\n')
    data = json.loads(run(capsys, "spe", str(tree), "--json"))
    assert data["path"] == ["in", "share"] and data["payoffs"] == ["1", "1"]
    horse_file = tmp_path / "horse.efg"
    horse_file.write_text(HORSE)
    for args in (("spe", str(horse_file)), ("efg", str(path), "--write", str(path))):
        with pytest.raises(SystemExit) as exit_info:
            run(capsys, *args)
        assert exit_info.value.code == 2
        assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_gambit_reads_what_we_write(name, tmp_path):
    gbt = pytest.importorskip("pygambit")
    game = load_game(name)
    path = tmp_path / f"{name}.efg"
    path.write_text(write_efg(game))
    theirs = gbt.read_efg(str(path))
    ours = read_efg(path.read_text())
    assert len(theirs.players) == 2
    assert len(theirs.infosets) == len({(n.player, n.infoset) for n in ours.nodes
                                        if n.kind == "p"})
    assert len(theirs.nodes) == len(ours.nodes)
    if name == "kuhn_poker":
        result = gbt.nash.lp_solve(theirs, rational=True)
        assert F(str(result.equilibria[0].payoff(list(theirs.players)[0]))) == F(-1, 18)


# --- the sequence-form LCP (two players, general sum) -----------------------------------
def random_kuhn_shaped(seed: int):
    """Kuhn poker's tree and information sets with random general-sum integer payoffs."""
    import random
    import re

    rng = random.Random(seed)
    text = write_efg(load_game("kuhn_poker"))
    return read_efg(re.sub(r"\{ (-?\d+), (-?\d+) \}",
                           lambda m: f"{{ {rng.randint(-5, 5)}, {rng.randint(-5, 5)} }}", text))


def test_lcp_beer_quiche_gives_an_exact_verified_equilibrium():
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    found = solve_sequence_lcp(read_efg(BEER_QUICHE))
    assert found.exact and found.regret == [0, 0]
    sender = found.strategies[0]
    assert sender[(0, 1)] == sender[(0, 2)]  # every equilibrium of beer-quiche pools


def test_lcp_on_kuhn_poker_finds_the_value():
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    game = load_game("kuhn_poker")
    found = solve_sequence_lcp(game)
    assert max(found.regret) <= 1e-12
    assert float(expected_payoffs(game, list(found.strategies))[0]) == pytest.approx(-1 / 18)


@pytest.mark.parametrize("seed", range(15))
def test_lcp_random_general_sum_games_are_verified(seed):
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    found = solve_sequence_lcp(random_kuhn_shaped(seed))
    assert max(float(g) for g in found.regret) <= 1e-9


def test_lcp_agrees_in_validity_with_gambit(tmp_path):
    gbt = pytest.importorskip("pygambit")
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    for seed in range(3):
        game = random_kuhn_shaped(100 + seed)
        path = tmp_path / f"g{seed}.efg"
        path.write_text(write_efg(game))
        theirs = gbt.nash.lcp_solve(gbt.read_efg(str(path)), rational=False)
        assert theirs.equilibria and float(theirs.equilibria[0].max_regret()) <= 1e-9
        assert max(float(g) for g in solve_sequence_lcp(game).regret) <= 1e-9


def test_cli_efg_solve(capsys, tmp_path):
    path = tmp_path / "bq.efg"
    path.write_text(BEER_QUICHE)
    out = run(capsys, "efg", str(path), "--solve")
    assert "maximum regret: 0 (exact" in out and "payoffs: " in out
    horse_file = tmp_path / "horse.efg"
    horse_file.write_text(HORSE)
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, "efg", str(horse_file), "--solve")
    assert exit_info.value.code == 2 and "two-player" in capsys.readouterr().err
