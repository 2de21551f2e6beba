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
    """One entry per player: the agent kinds that fit that seat and its default agent."""
    spec = game.strip()
    rules = cached_game(spec)
    offered = set(validate.offered_agents(request.app.state.programs))
    out = []
    for player in range(rules.num_players):
        kinds = [k for k in agents_for(rules, player) if k in offered]
        out.append({"name": rules.player_name(player), "agents": kinds,
                    "default": default_agent(rules, player)})
    # seconds a move takes when its agent names no bound (the entry's, see validate.move_times)
    move_time = game_entry(rules.name).move_time
    return {"game": spec, "seats": out, "hidden": hidden.is_hidden_game(rules),
            "move_time": move_time, "hard_budget": validate.hard_budget(move_time)}
