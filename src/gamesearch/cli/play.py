"""``gamesearch play``: a game in the terminal, people and agents in any mix.

A person types moves in the game's notation (``help`` lists the legal ones, ``quit``
leaves); a bad move is explained and asked again. After each AI move the command shows
what the AI thought: value, depth, principal variation, nodes and time. Chance moves are
sampled (``--seed`` makes them reproducible).
"""

from __future__ import annotations

import random
import sys

import typer
from rich.console import Console

from gamesearch.cli.common import EXTRA_ARGS, console, extra_params, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import CHANCE, Game, State, move_text


def default_ai(game: Game, player: int = 1) -> str:
    """The agent spec the CLI plays against when none is given: the catalog's default."""
    from gamesearch.catalog import default_agent

    return default_agent(game, player)


class QuitGame(Exception):
    """The person asked to leave (``quit``) or the input ended."""


@app.command("play", context_settings=EXTRA_ARGS)
def play_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    player1: str = typer.Option("human", "--player1", "-1", help="agent spec for player 1"),
    player2: str | None = typer.Option(None, "--player2", "-2",
                                       help="agent spec for player 2 (and any further "
                                            "players); default: a sensible AI"),
    seed: int | None = typer.Option(None, "--seed", help="seed for chance moves"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                                help="start from this position"),
    json_out: bool = typer.Option(False, "--json",
                                  help="JSON record of the game on stdout (board on stderr)"),
) -> None:
    """Play a game in the terminal: people type moves, agents show what they thought.

    You against alpha-beta, searching 9 plies a move:
    gamesearch play connect4 --player2 alphabeta:depth=9

    AI against AI runs by itself:
    gamesearch play tictactoe --player1 alphabeta --player2 random

    Game parameters go as extra options:
    gamesearch play nim --piles 3,4,5 --misere
    """
    from gamesearch.agents import make_agent
    from gamesearch.catalog import check_agent_fits
    from gamesearch.cli.common import load_with_params, position

    game = load_with_params(game_name, extra_params(ctx))
    state = position(game, position_text)
    if game.is_terminal(state):
        raise GameSearchError(f"position {position_text!r}: the game is already over")
    out = Console(stderr=True, highlight=False) if json_out else console
    specs = [player1] + [player2 or default_ai(game, p) for p in range(1, game.num_players)]
    agents = []
    for seat, spec in enumerate(specs):
        check_agent_fits(spec, game, seat)
        agent = make_agent(spec)
        if agent.interactive:
            agent.ask = _asker(out)
        agent.prepare(game)  # compile kernels before any clock runs
        agents.append(agent)
    for p, agent in enumerate(agents):
        out.print(f"{game.player_name(p)}: {agent.spec}")
    rng = random.Random(seed)
    moves: list[str] = []
    try:
        state = _play(game, state, agents, rng, out, moves)
    except QuitGame as reason:
        print(f"game abandoned ({reason}) after {len(moves)} moves", file=sys.stderr)
        raise typer.Exit(0 if str(reason) == "quit" else 1) from None
    utilities = list(game.utilities(state))
    verdict = _verdict(game, utilities)
    if json_out:
        print_json({"value": utilities[0] if len(utilities) == 2 else utilities,
                    "utilities": utilities, "result": verdict, "moves": moves,
                    "players": specs, "start": position_text or ""})
        return
    out.print(f"[bold]game over[/]: {verdict} (utilities {tuple(utilities)})")


def _play(game: Game, state: State, agents: list, rng: random.Random, out: Console,
          moves: list[str]) -> State:
    """The game loop: show the board, let the mover move, report, until the end."""
    from gamesearch.agents import act

    while not game.is_terminal(state):
        out.print()
        out.print(game.render(state))
        mover = game.to_move(state)
        if mover == CHANCE:
            result = act(agents[0], game, state, rng)
            text = game.action_to_string(state, result.action)
            out.print(f"[magenta]chance[/]: {text}")
        else:
            agent = agents[mover]
            if not agent.interactive:
                out.print(f"{game.player_name(mover)} ({agent.spec}) is thinking...")
            result = agent(game, state)
            if result.action not in game.actions(state):
                raise GameSearchError(f"agent {agent.spec!r} played an illegal move "
                                      f"{move_text(game, state, result.action)!r}")
            text = game.action_to_string(state, result.action)
            if not agent.interactive:
                out.print(f"{game.player_name(mover)} plays [bold]{text}[/]")
                _show_thoughts(game, state, result, out)
        moves.append(text)
        state = game.result(state, result.action)
    out.print()
    out.print(game.render(state))
    return state


def _show_thoughts(game: Game, state: State, result, out: Console) -> None:
    """Value, depth, principal variation, nodes and time of an AI's move."""
    data = result.as_dict(game, state)
    s = result.stats
    if result.value is None and not s.nodes:
        return
    pv = " ".join(map(str, data["pv"]))
    out.print(f"  [dim]value {data['value']} (for {game.player_name(game.to_move(state))}), "
              f"depth {s.depth}, PV {pv}, {s.nodes + s.leaves:,} nodes, {s.seconds:.3f} s[/]")


def _asker(out: Console):
    """The prompt a human agent uses: re-asks on a bad move; 'help', 'quit'."""
    def ask(game: Game, state: State) -> str:
        who = game.player_name(game.to_move(state))
        while True:
            out.print(f"{who}, your move ('help' lists moves, 'quit' leaves): ", end="")
            try:
                text = input().strip()
            except EOFError:
                raise QuitGame("end of input") from None
            if text.lower() in ("quit", "exit", "q"):
                raise QuitGame("quit")
            if text.lower() in ("help", "?", ""):
                legal = [game.action_to_string(state, a) for a in game.actions(state)]
                out.print(f"legal moves: {' '.join(legal)}")
                continue
            try:
                game.string_to_action(state, text)
            except IllegalActionError as err:
                out.print(f"[red]{err}[/]: try again")
                continue
            return text
    return ask


def _verdict(game: Game, utilities: list) -> str:
    """'X wins', 'draw' or the winner among N players."""
    best = max(utilities)
    winners = [p for p, u in enumerate(utilities) if u == best]
    if len(winners) == len(utilities):
        return "draw"
    if len(winners) == 1:
        return f"{game.player_name(winners[0])} wins"
    return "shared: " + ", ".join(game.player_name(p) for p in winners)
