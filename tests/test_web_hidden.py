"""The web API's seats and hidden information: each seat is offered the agents that fit it
(the catalog's answer) with the game's default; a viewer is sent only its own information
set, the hidden cards stay on the server (a deal), and everything is shown at the end.

Facts from the rules: in Kuhn poker each player sees only their own card (Kuhn 1950); in
Leduc hold'em the public card is seen by both; in whist a player sees only their own hand
and the cards played; in strategy_fusion nobody sees the coin.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402

CARDS = {"J", "Q", "K"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, warm=False)) as c:  # no kernel: no warm-up
        yield c


def post(client, path, **body):
    return client.post(path, json=body)


def truth(client, deal):
    """The server's own record of a deal (what the page must never see)."""
    return client.app.state.deals[deal].moves


def seen(view):
    """Everything the page receives, but the deal token (random letters)."""
    return json.dumps({k: v for k, v in view.items() if k != "deal"})


# --- seats -------------------------------------------------------------------------------

def test_every_seat_of_whist_and_takeaway_has_agents_and_a_default(client):
    whist = client.get("/api/seats", params={"game": "whist"}).json()
    assert whist["hidden"] is True and len(whist["seats"]) == 4
    for seat in whist["seats"]:
        assert seat["default"] == "pimc"
        assert {"pimc", "ismcts"} <= set(seat["agents"])
        assert "alphabeta" not in seat["agents"]  # it would see every hidden card
        assert "human" not in seat["agents"]
    takeaway = client.get("/api/seats", params={"game": "takeaway:players=4"}).json()
    assert len(takeaway["seats"]) == 4 and takeaway["hidden"] is False
    assert [s["default"] for s in takeaway["seats"]] == ["maxn"] * 4


def test_seats_give_the_catalogs_defaults(client):
    c4 = client.get("/api/seats", params={"game": "connect4"}).json()
    assert [s["default"] for s in c4["seats"]] == ["alphabeta:time=1"] * 2
    assert [s["name"] for s in c4["seats"]] == ["X", "O"]
    kuhn = client.get("/api/seats", params={"game": "kuhn_poker"}).json()
    assert set(kuhn["seats"][1]["agents"]) == {"ismcts", "pimc", "random"}
    pig = client.get("/api/seats", params={"game": "pig"}).json()
    assert "pig-optimal" in pig["seats"][1]["agents"]
    ttt = client.get("/api/seats", params={"game": "tictactoe"}).json()
    assert "pig-optimal" not in ttt["seats"][1]["agents"]


def test_seats_of_an_unknown_game_is_a_4xx(client):
    response = client.get("/api/seats", params={"game": "mahjong"})
    assert response.status_code == 404 and "unknown game" in response.json()["error"]


# --- hidden information ------------------------------------------------------------------

def test_kuhn_shows_the_viewer_its_own_card_only(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    own, other = truth(client, view["deal"])[:2]
    assert view["moves"] == [own, "?"]
    assert view["text"] == f"your card {own}  betting -"
    assert other not in seen(view).replace(f"your card {own}", "")
    as_p2 = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=1).json()
    assert as_p2["moves"][0] == "?" and as_p2["moves"][1] in CARDS
    assert as_p2["legal"] == []  # player 1 is to move: its moves are not the viewer's


def test_a_spectator_sees_everything_and_no_deal_is_made(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[]).json()
    assert "?" not in view["moves"] and "deal" not in view
    assert view["text"].startswith("cards ")


def test_hidden_cards_come_back_from_the_deal_and_are_shown_at_the_end(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    deal = view["deal"]
    full = truth(client, deal)
    after = post(client, "/api/position", game="kuhn_poker", moves=[*view["moves"], "p"],
                 viewer=0, deal=deal).json()
    assert after["moves"] == [full[0], "?", "p"] and after["deal"] == deal
    end = post(client, "/api/position", game="kuhn_poker",
               moves=[*after["moves"], "p"], viewer=0, deal=deal).json()
    assert end["terminal"] and end["moves"] == [*full[:2], "p", "p"]  # revealed
    assert end["text"] == f"cards {full[0]} {full[1]}  betting pp"


@pytest.mark.parametrize("change, words", [
    ({"viewer": 1}, "another viewer"),
    ({"game": "kuhn_poker:"}, "another viewer or game"),
    ({"deal": "nonsense"}, "unknown or expired"),
    ({"deal": None}, "need the deal"),
])
def test_a_deal_is_only_read_by_its_viewer(client, change, words):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    body = {"game": "kuhn_poker", "moves": view["moves"], "viewer": 0, "deal": view["deal"],
            **change}
    response = client.post("/api/position", json=body)
    assert response.status_code == 400 and words in response.json()["error"]


def test_guessing_a_hidden_card_is_refused_whether_right_or_wrong(client):
    """Otherwise the answer would be an oracle: accepted when the guess is right."""
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    own, other = truth(client, view["deal"])[:2]
    for guess in sorted(CARDS - {own}):
        response = post(client, "/api/position", game="kuhn_poker", moves=[own, guess],
                        viewer=0, deal=view["deal"])
        assert response.status_code == 400
        assert response.json()["error"] == "move 2: a hidden outcome must be sent as '?'"


def test_whist_never_sends_another_hand(client):
    view = post(client, "/api/position", game="whist", moves=[], viewer=2).json()
    full = truth(client, view["deal"])
    assert len(view["moves"]) == len(full) == 12
    mine = [m for i, m in enumerate(full) if i % 4 == 2]
    assert [m for m in view["moves"] if m != "?"] == mine
    others = [m for i, m in enumerate(full) if i % 4 != 2]
    text = seen(view)
    assert not [card for card in others if card in text]
    assert view["text"].startswith("your hand (player 3): ")


def test_leducs_public_card_is_seen_by_both(client):
    view = post(client, "/api/position", game="leduc_poker", moves=[], viewer=0).json()
    deal = view["deal"]
    for move in ["c", "c"]:  # both check: the public card is dealt
        view = post(client, "/api/position", game="leduc_poker",
                    moves=[*view["moves"], move], viewer=0, deal=deal).json()
    full = truth(client, deal)
    assert view["moves"] == [full[0], "?", "c", "c", full[4]]
    assert f"public {full[4]}" in view["text"] and full[1] not in seen(view).replace(
        full[0], "").replace(full[4], "")


def test_strategy_fusions_coin_is_hidden(client):
    view = post(client, "/api/position", game="strategy_fusion", moves=[], viewer=0).json()
    assert view["moves"] == ["?"] and "heads" not in view["text"] + " ".join(view["legal"])


def test_no_verdict_while_cards_are_hidden(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    verdict = post(client, "/api/verdict", game="kuhn_poker", moves=view["moves"],
                   viewer=0, deal=view["deal"]).json()
    assert verdict["kind"] == "hidden"


def test_looking_back_keeps_the_deal_and_draws_nothing(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    deal, full = view["deal"], truth(client, view["deal"])
    back = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0, deal=deal,
                browse=True).json()
    assert back["moves"] == [] and back["to_move"] == -1  # chance to move: nothing drawn
    assert truth(client, deal) == full


def test_the_ais_move_in_a_hidden_game_tells_nothing_of_its_cards(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=1).json()
    answer = post(client, "/api/move", game="kuhn_poker", moves=view["moves"], viewer=1,
                  deal=view["deal"], agent="ismcts:iterations=50").json()
    assert answer["move"] in ("p", "b") and answer["pv"] == [answer["move"]]
    assert "value" not in answer and "stats" not in answer
    assert answer["position"]["moves"][:2] == ["?", view["moves"][1]]


def test_two_winners_win_in_the_outcome_line():
    from gamesearch.web.views import outcome

    class Teams:
        def utilities(self, state):
            return (1, 0, 1, 0)

        def player_name(self, p):
            return f"player {p + 1}"

    assert outcome(Teams(), None) == "player 1 and player 3 win"


def test_deals_are_bounded(client, monkeypatch):
    from gamesearch.web import hidden

    monkeypatch.setattr(hidden, "MAX_DEALS", 3)
    tokens = [post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()["deal"]
              for _ in range(5)]
    assert len(client.app.state.deals) == 3 and tokens[0] not in client.app.state.deals
    response = post(client, "/api/position", game="kuhn_poker", moves=["?", "?"], viewer=1,
                    deal=tokens[0])
    assert response.status_code == 400 and "expired" in response.json()["error"]


def test_after_the_hand_its_cards_may_come_back_for_undo_and_review(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    deal = view["deal"]
    assert view["board"]["hands"][1] == [None]  # the other card is face down, not sent
    over = post(client, "/api/position", game="kuhn_poker", moves=[*view["moves"], "b", "b"],
                viewer=0, deal=deal).json()
    assert over["terminal"] and "?" not in over["moves"]
    for k in range(len(over["moves"])):  # stepping back through the hand, cards open
        back = post(client, "/api/position", game="kuhn_poker", moves=over["moves"][:k],
                    viewer=0, deal=deal, browse=True)
        assert back.status_code == 200, back.json()
        assert back.json()["moves"] == over["moves"][:k]
    undone = post(client, "/api/position", game="kuhn_poker", moves=over["moves"][:3],
                  viewer=0, deal=deal)
    assert undone.status_code == 200 and undone.json()["to_move"] == 1
    wrong = {"J": "Q", "Q": "K", "K": "J"}[over["moves"][1]]
    guess = post(client, "/api/position", game="kuhn_poker",
                 moves=[over["moves"][0], wrong], viewer=0, deal=deal)
    assert guess.status_code == 400  # still not a card that was dealt


def test_a_fresh_deal_is_not_shown_and_a_guess_is_refused(client):
    view = post(client, "/api/position", game="kuhn_poker", moves=[], viewer=0).json()
    real = truth(client, view["deal"])[1]
    guess = post(client, "/api/position", game="kuhn_poker", moves=[view["moves"][0], real],
                 viewer=0, deal=view["deal"])
    assert guess.status_code == 400 and "sent as '?'" in guess.json()["error"]
