"""Seat route: which agents fit each seat of a game, and the game's default per seat (the
catalog's answer, so the page offers what the command line accepts)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from gamesearch.catalog import agents_for, default_agent
from gamesearch.games import game_entry
from gamesearch.web import hidden, validate
from gamesearch.web.api_play import cached_game

router = APIRouter()


@router.get("/seats")
async def seats(request: Request, game: str = Query(max_length=200)) -> dict:
    """One entry per player: the agent kinds that fit that seat, its default agent's kind
    first (the strong one, answering within the page's clock), and each kind's one-line
    description (``summaries``)."""
    from gamesearch.agents import AGENTS
    from gamesearch.spec import parse_spec

    spec = game.strip()
    rules = cached_game(spec)
    offered = set(validate.offered_agents(request.app.state.programs))
    out = []
    for player in range(rules.num_players):
        kinds = [k for k in agents_for(rules, player) if k in offered]
        default = default_agent(rules, player)
        first = parse_spec(default)[0]
        kinds.sort(key=lambda k: k != first)  # stable: the others keep their order
        out.append({"name": rules.player_name(player), "agents": kinds, "default": default,
                    "summaries": {k: AGENTS[k].summary for k in kinds if k in AGENTS}})
    # seconds a move takes when its agent names no bound (the entry's, see validate.move_times)
    move_time = game_entry(rules.name).move_time
    return {"game": spec, "seats": out, "hidden": hidden.is_hidden_game(rules),
            "move_time": move_time, "hard_budget": validate.hard_budget(move_time)}
