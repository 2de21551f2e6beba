"""Notebook pictures (gamesearch.display, gamesearch.drawing, each game's ENTRY.svg): the
SVG parses, the right pieces stand in the right places for known positions, the last move
and arrows are drawn when asked; the search tree marks the cut-offs, the normal form lists
its equilibria, a search result shows its principal variation."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from gamesearch import display
from gamesearch.games import entries, load_game

NS = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    """The picture's root element (it must be well-formed SVG)."""
    root = ET.fromstring(str(picture))
    assert root.tag == f"{NS}svg"
    return root


def classes(root: ET.Element) -> list[set[str]]:
    """Every element's set of classes, in document order."""
    return [set(e.get("class", "").split()) for e in root.iter()]


def pieces(root: ET.Element) -> Counter:
    """How many elements of class ``piece`` each side has (the class after ``piece``)."""
    found: Counter = Counter()
    for e in root.iter():
        words = e.get("class", "").split()
        if "piece" in words:
            found[" ".join(w for w in words if w not in ("piece", "lastmove", "marked",
                                                          "bar"))] += 1
    return found


def count(root: ET.Element, name: str) -> int:
    return sum(name in c for c in classes(root))


def test_every_game_with_a_board_draws_itself_and_its_marks() -> None:
    """Every entry with a board picture draws its start (or first decision) position, and
    a last move and an arrow add their marks."""
    drawn = [e.name for e in entries() if e.svg is not None]
    assert {"tictactoe", "nim", "connect4", "chess", "checkers", "othello", "go",
            "backgammon", "pacman", "tree", "pig", "takeaway", "kuhn_poker", "leduc_poker",
            "whist", "strategy_fusion", "openspiel"} <= set(drawn)
    for name in drawn:
        if name == "openspiel" and importlib.util.find_spec("pyspiel") is None:
            continue  # the [openspiel] extra is not installed
        game = load_game(name)
        state = game.initial_state()
        if game.to_move(state) < 0:  # a roll first
            state = game.result(state, game.actions(state)[0])
        plain = parse(display.svg(game, state))
        assert count(plain, "arrow") == 0, name
        first = game.actions(state)[0]
        marked = parse(display.svg(game, state, arrows=[first]))
        assert count(marked, "arrow") + count(marked, "pv") + count(marked, "marked") > 0, \
            name


def test_chess_start_has_its_32_pieces_and_marks() -> None:
    game = load_game("chess")
    state, last = display.play_out(game, ["e2e4"])
    root = parse(display.svg(game, state, lastmove=last, arrows=["g8f6", "e7e5"]))
    uses = [e.get("href") for e in root.iter(f"{NS}use")]
    assert len(uses) == 32
    colours = Counter(h.split("-")[0].lstrip("#") for h in uses)
    assert colours == {"white": 16, "black": 16}
    assert Counter(uses)["#white-pawn"] == 8 and Counter(uses)["#black-knight"] == 2
    lastmove = [c for c in classes(root) if "lastmove" in c]
    assert {"e2", "e4"} == {sq for c in lastmove for sq in c if sq in ("e2", "e4")}
    assert count(root, "arrow") >= 2


def test_othello_start_has_two_discs_each() -> None:
    game = load_game("othello")
    state = game.initial_state()
    root = parse(display.svg(game, state))
    assert pieces(root) == {"black": 2, "white": 2}
    after, last = display.play_out(game, ["d3"])
    root = parse(display.svg(game, after, lastmove=last))
    assert pieces(root) == {"black": 4, "white": 1}
    assert [c for c in classes(root) if "lastmove" in c and "d3" in c]


def test_connect4_discs_stand_in_their_columns() -> None:
    game = load_game("connect4")
    state, last = display.play_out(game, "4453")
    root = parse(display.svg(game, state, lastmove=last, arrows=[5]))
    discs = [(e.get("class").split()[1], int(e.get("data-column")), int(e.get("data-row")))
             for e in root.iter() if "piece" in e.get("class", "").split()]
    # first player (red): 4, 5; second (yellow): 4 (on top of red), 3
    assert sorted(discs) == sorted([("red", 4, 1), ("yellow", 4, 2), ("red", 5, 1),
                                    ("yellow", 3, 1)])
    ringed = [e for e in root.iter() if "lastmove" in e.get("class", "").split()]
    assert [(e.get("data-column"), e.get("data-row")) for e in ringed] == [("3", "1")]
    assert count(root, "arrow") >= 1


def test_go_stones_after_two_moves() -> None:
    game = load_game("go:size=9")
    state, last = display.play_out(game, ["E5", "C3"])
    root = parse(display.svg(game, state, lastmove=last))
    assert pieces(root) == {"black": 1, "white": 1}
    assert [c for c in classes(root) if "lastmove" in c and "c3" in c]
    assert count(root, "territory") == 0  # the game is not over


def test_backgammon_start_has_fifteen_checkers_a_side() -> None:
    game = load_game("backgammon")
    state = game.result(game.initial_state(), (3, 1))  # X starts with 3-1
    root = parse(display.svg(game, state, arrows=["8/5 6/5"]))
    assert pieces(root) == {"X": 15, "O": 15}
    assert count(root, "arrow") == 2  # one per step
    after = game.result(state, game.string_to_action(state, "8/5 6/5"))
    root = parse(display.svg(game, after, lastmove="8/5 6/5"))
    assert pieces(root) == {"X": 15, "O": 15} and count(root, "arrow") == 2
    assert "_repr_svg_" in dir(after) and parse(after._repr_svg_()) is not None


def test_tictactoe_cells_and_numbers() -> None:
    game = load_game("tictactoe")
    state, last = display.play_out(game, ["5", "1"])
    root = parse(display.svg(game, state, lastmove=last, arrows=[8]))
    assert pieces(root) == {"X": 1, "O": 1}
    numbers = [e.text for e in root.iter(f"{NS}text") if "label" in e.get("class", "")]
    assert numbers == [str(i) for i in range(1, 10)]
    assert [c for c in classes(root) if "lastmove" in c]
    assert count(root, "arrow") == 1


def test_checkers_start_and_nim_piles() -> None:
    game = load_game("checkers")
    root = parse(display.svg(game, game.initial_state(), arrows=["9-13"]))
    assert pieces(root) == {"black man": 12, "white man": 12}
    nim = load_game("nim")  # piles 3, 4, 5
    state, last = display.play_out(nim, ["3:2"])
    root = parse(display.svg(nim, state, lastmove=last))
    assert sum(pieces(root).values()) == 3 + 4 + 3
    assert count(root, "taken") == 2


def test_pacman_draws_the_maze() -> None:
    game = load_game("pacman")
    state = game.initial_state()
    root = parse(display.svg(game, state, arrows=game.actions(state)))
    assert count(root, "pacman") == 1
    assert count(root, "ghost") == len(state.ghosts)
    assert count(root, "food") == state.food.bit_count()
    assert count(root, "arrow") == len(game.actions(state))


def test_takeaway_draws_its_sticks_the_last_take_and_the_scores() -> None:
    game = load_game("takeaway")  # 3 players, 10 sticks, take 1-3
    state, last = display.play_out(game, ["2"])
    root = parse(display.svg(game, state, lastmove=last, arrows=["3"]))
    assert count(root, "piece") == 8 and count(root, "taken") == 2
    assert count(root, "marked") == 3  # the most an arrow's move would take
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert "8 left" in texts and "P1: 2" in texts
    assert [e.text for e in root.iter(f"{NS}text") if e.get("class") == "to-move"] == ["P2: 0"]
    many = load_game("takeaway", sticks=5000)
    big = parse(display.svg(many, many.initial_state()))
    assert count(big, "piece") == 60 and "5000 left (4940 not drawn)" in \
        [e.text for e in big.iter(f"{NS}text")]


def cards(root: ET.Element, kind: str = "card") -> list[str]:
    """The ``data-card`` of every group of class ``kind`` (``card``, ``marked``...)."""
    return [e.get("data-card") for e in root.iter(f"{NS}g")
            if kind in e.get("class", "").split()]


def test_the_card_games_draw_their_deck_then_the_deal_and_the_betting() -> None:
    """Before the deal: Kuhn's three cards in a fan, Leduc's two suits in two fans, whist's
    trick of each suit's top card; after it the hands, the public card, the pot and the
    betting in words, an arrow's move or card marked."""
    kuhn = load_game("kuhn_poker")
    assert cards(parse(display.svg(kuhn, kuhn.initial_state()))) == ["J", "Q", "K"]
    state, _ = display.play_out(kuhn, [2, 0, "b"])  # K to P1, J to P2, P1 bets
    root = parse(display.svg(kuhn, state, arrows=["b"]))
    assert cards(root) == ["K", "J"]
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert "pot 3: bet" in texts and "2 in" in texts and "P2:" in texts
    assert [e.text for e in root.iter(f"{NS}text") if "marked" in e.get("class", "")] == \
        ["call"]  # facing a bet, b calls
    leduc = load_game("leduc_poker")
    assert cards(parse(display.svg(leduc, leduc.initial_state()))) == \
        ["Js", "Qs", "Ks", "Jh", "Qh", "Kh"]
    state, _ = display.play_out(leduc, [0])
    root = parse(display.svg(leduc, state, arrows=[5]))
    assert cards(root, "marked") == ["Kh"] and "Js" not in cards(root)[1:]  # dealt, not in the deck
    state, _ = display.play_out(leduc, [0, 3, "c", "c", 4])
    assert cards(parse(display.svg(leduc, state))) == ["Js", "Qh", "Ks"]  # the public K
    whist = load_game("whist")
    assert sorted(cards(parse(display.svg(whist, whist.initial_state())))) == \
        ["AC", "AD", "AH", "AS"]
    dealt, _ = display.play_out(whist, list(range(12)))
    mover = whist.to_move(dealt)
    lead = whist.actions(dealt)[0]
    root = parse(display.svg(whist, dealt, arrows=[lead]))
    assert len(cards(root)) == 12 and cards(root, "marked") == [whist.card_name(lead)]
    assert [e.text for e in root.iter(f"{NS}text") if e.get("class") == "to-move"] == \
        [f"P{mover + 1}"]
    played, last = display.play_out(whist, [lead], dealt)
    root = parse(display.svg(whist, played, lastmove=last))
    assert len(cards(root)) == 12  # 11 held, 1 in the trick
    assert cards(root, "lastmove") == [whist.card_name(lead)]


def test_pig_draws_the_banked_scores_the_turn_total_and_the_die() -> None:
    game = load_game("pig")
    state, last = display.play_out(game, ["roll", "4", "roll", "5"])
    root = parse(display.svg(game, state, lastmove=last, arrows=["hold"]))
    assert count(root, "pip") == 5 and count(root, "die") == 1
    assert count(root, "turn") == 1 and count(root, "marked") == 1  # hold marks the turn
    assert "0 + 9" in [e.text for e in root.iter(f"{NS}text")]
    pigged, last = display.play_out(game, ["roll", "1"], state)
    root = parse(display.svg(game, pigged, lastmove=last, arrows=["roll"]))
    pips = [e for e in root.iter() if e.get("class") == "pip"]
    assert len(pips) == 1 and pips[0].get("fill") == "#c00"  # the pig: the turn is lost
    assert [e.get("class") for e in root.iter() if "marked" in e.get("class", "")] == \
        ["die marked"]
    from gamesearch.errors import GameSearchError

    with pytest.raises(GameSearchError, match="last move '7'"):
        display.svg(game, pigged, lastmove="7")


def lastmove_cells(root: ET.Element) -> list[tuple[float, float]]:
    """The (row, column) of each cell marked ``lastmove`` in a Pacman picture (24 px)."""
    return [((float(e.get("y")) - 1) / 24, (float(e.get("x")) - 1) / 24) for e in root.iter()
            if "lastmove" in e.get("class", "").split()]


def test_pacman_marks_the_last_move_of_whoever_made_it() -> None:
    """Pacman's and the ghosts' moves interleave: the last move is its mover's, drawn from
    the cell it left to the cell it reached (Stop: the one cell)."""
    game = load_game("pacman", ghosts=1, rules="simple")
    state = game.initial_state()
    assert count(parse(display.svg(game, state)), "lastmove") == 0
    move = next(a for a in game.actions(state) if a != "Stop")
    after, last = display.play_out(game, [move], state)
    assert lastmove_cells(parse(display.svg(game, after, lastmove=last))) == [
        tuple(map(float, state.pacman)), tuple(map(float, after.pacman))]
    ghost = next(a for a in game.actions(after) if a != "Stop")
    later, last = display.play_out(game, [ghost], after)
    assert lastmove_cells(parse(display.svg(game, later, lastmove=last))) == [
        tuple(map(float, after.ghosts[0])), tuple(map(float, later.ghosts[0]))]
    stopped, last = display.play_out(game, ["Stop"], later)
    assert lastmove_cells(parse(display.svg(game, stopped, lastmove=last))) == [
        tuple(map(float, later.pacman))]
    from gamesearch.errors import GameSearchError

    with pytest.raises(GameSearchError, match="last move 'Up'"):
        display.svg(game, stopped, lastmove="Up")


def test_search_tree_marks_the_lectures_cut_offs() -> None:
    """The classic tree: alpha-beta prunes the 2nd MIN node's last two leaves (4 and 6)."""
    root = parse(display.search_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    pruned = [e for e in root.iter() if {"node", "pruned"} <= set(e.get("class", "").split())]
    assert len(pruned) == 2
    values = {e.text for e in root.iter(f"{NS}text") if e.get("class") == "value"}
    assert {"3", "2"} <= values
    assert "2 pruned" in root.find(f"{NS}desc").text
    minimax = parse(display.search_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "minimax"))
    assert count(minimax, "pruned") == 0


def test_normal_form_lists_its_equilibria() -> None:
    from gamesearch.theory import NormalFormGame

    dilemma = NormalFormGame.bimatrix([[3, 0], [5, 1]], [[3, 5], [0, 1]],
                                      strategies=[["C", "D"], ["C", "D"]])
    shown = display.normal_form(dilemma)._repr_html_()
    assert "Pure equilibria (marked): (D, D)" in shown
    assert shown.count('class="marked"') == 1
    pennies = NormalFormGame.zero_sum([[1, -1], [-1, 1]], strategies=[["H", "T"], ["H", "T"]])
    shown = display.normal_form(pennies)._repr_html_()
    assert "Pure equilibria (marked): none" in shown
    assert "mixed" in shown and "H 1/2, T 1/2" in shown


def test_search_result_html_has_its_pv() -> None:
    from gamesearch.search.alphabeta import alphabeta

    game = load_game("tictactoe")
    state, _ = display.play_out(game, ["1", "5"])
    answer = alphabeta(game, state)
    raw = answer._repr_html_()
    assert " ".join(str(a) for a in answer.pv) in raw
    written = display.result(answer, game, state)._repr_html_()
    assert "PV" in written and " ".join(str(a + 1) for a in answer.pv) in written
    assert "exact" in written


def test_a_game_without_a_picture_shows_its_text() -> None:
    """A game without a drawing of its own (every built-in one has one now: the card
    games, strategy fusion and OpenSpiel's since #40) shows its text picture."""
    from gamesearch.games.strategy_fusion import StrategyFusion

    class Unregistered(StrategyFusion):
        name = "no_entry_of_its_own"

    game = Unregistered()
    state = game.initial_state()
    root = parse(display.svg(game, state))
    lines = [e.text for e in root.iter(f"{NS}text")]
    assert lines == game.render(state).splitlines()


def test_a_wrong_move_is_named() -> None:
    """An arrow's text is read by the game's rules, a last move the drawing cannot place
    is named: one clear error, not a drawing's traceback."""
    from gamesearch.errors import GameSearchError

    chess = load_game("chess")
    with pytest.raises(GameSearchError, match="e2e5"):
        display.svg(chess, chess.initial_state(), arrows=["e2e5"])
    c4 = load_game("connect4")
    with pytest.raises(GameSearchError, match="last move 'x'"):
        display.svg(c4, c4.initial_state(), lastmove="x")
    with pytest.raises(GameSearchError, match="not JSON"):
        display.search_tree("[[3, 12")
