"""``gamesearch play``: a game in the terminal, people and agents in any mix.

A person types moves in the game's notation (``help`` lists the legal ones, ``quit``
leaves); a bad move is explained and asked again. After each AI move the command shows
what the AI thought: value, depth, principal variation, nodes and time. Chance moves are
sampled (``--seed`` makes them reproducible).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import typer
from rich.console import Console

from gamesearch.cli.common import (
    EXTRA_ARGS,
    Output,
    console,
    extra_params,
    format_scalar,
    print_json,
)
from gamesearch.cli.game_options import options_epilog
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import CHANCE, Game, State, final_utilities, outcome_text, render_view
from gamesearch.loop import Ply, run_game


def default_ai(game: Game, player: int = 1) -> str:
    """The agent spec the CLI plays against when none is given: the catalog's default."""
    from gamesearch.catalog import default_agent

    return default_agent(game, player)


class QuitGame(Exception):
    """The person asked to leave (``quit``) or the input ended."""


@app.command("play", context_settings=EXTRA_ARGS, epilog=options_epilog())
def play_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    player1: str = typer.Option("human", "--player1", "-1", help="agent spec for player 1"),
    player2: str | None = typer.Option(None, "--player2", "-2",
                                       help="agent spec for player 2 (and any further "
                                            "players); default: a sensible AI"),
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**32 - 1,
                                    help="seed for chance moves and for every "
                                    "agent that takes one (unless its spec gives a seed)"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                                help="start from this position"),
    json_out: bool = typer.Option(False, "--json",
                                  help="JSON record of the game on stdout (board on stderr)"),
    record: Path | None = typer.Option(None, "--record",
                                       help="add the game to this file as PGN (chess), SGF "
                                            "(Go) or PDN (checkers), even if abandoned"),
) -> None:
    """Play a game in the terminal: people type moves, agents show what they thought.

    You against alpha-beta, searching 9 plies a move:
    gamesearch play connect4 --player2 alphabeta:depth=9

    AI against AI runs by itself:
    gamesearch play tictactoe --player1 alphabeta --player2 random

    Game parameters go as extra options:
    gamesearch play nim --piles 3,4,5 --misere

    Each chess game kept as PGN (Go: SGF, checkers: PDN):
    gamesearch play chess --record games.pgn
    """
    from gamesearch.catalog import check_agent_fits
    from gamesearch.cli.common import load_with_params, position
    from gamesearch.cli.play_record import append_record, check_record

    game = load_with_params(game_name, extra_params(ctx))
    state = position(game, position_text)
    if game.is_terminal(state):
        raise GameSearchError(f"position {position_text!r}: the game is already over")
    if record is not None:
        check_record(record, game)  # before the game: a bad path costs no game
    start = state
    out = Output(stderr=True, highlight=False) if json_out else console
    specs = [player1] + [player2 or default_ai(game, p) for p in range(1, game.num_players)]
    agents = []
    for seat, spec in enumerate(specs):
        check_agent_fits(spec, game, seat)
        agent = _seeded_agent(spec, seed, seat)
        if agent.interactive:
            agent.ask = _asker(out)
        agent.prepare(game)  # compile kernels before any clock runs
        agents.append(agent)
    for p, agent in enumerate(agents):
        out.print(f"{game.player_name(p)}: {agent.spec}")
    rng = random.Random(seed)
    moves: list[str] = []
    try:
        state = _play(game, state, agents, rng, out, moves,
                      random.Random(f"{seed}/views") if seed is not None else random.Random())
    except QuitGame as reason:
        print(f"game abandoned ({reason}) after {len(moves)} moves", file=sys.stderr)
        if record is not None:
            append_record(record, game, start, moves, specs, None)
            print(f"game added to {record}", file=sys.stderr)
        raise typer.Exit(0 if str(reason) == "quit" else 1) from None
    utilities = list(final_utilities(game, state))
    if record is not None:
        append_record(record, game, start, moves, specs, utilities)
    verdict = outcome_text(game, utilities)
    if not game.is_terminal(state):
        verdict += " by repetition (the same position a third time)"
    if json_out:
        print_json({"value": utilities[0] if len(utilities) == 2 else utilities,
                    "utilities": utilities, "result": verdict, "moves": moves,
                    "players": specs, "seed": seed, "start": position_text or ""})
        return
    out.print(f"[bold]game over[/]: {verdict} (utilities {format_scalar(utilities)})"
              + (f"; added to {record}" if record is not None else ""))


def _seeded_agent(spec: str, seed: int | None, seat: int):
    """The agent of ``spec``; with ``--seed``, an agent that takes a seed and was given none
    in its spec gets one of its own (per seat), so the whole game is reproducible."""
    import inspect

    from gamesearch.agents import AGENTS, make_agent
    from gamesearch.spec import parse_spec

    name, params = parse_spec(spec)
    if seed is not None and "seed" not in params and name in AGENTS \
            and "seed" in inspect.signature(AGENTS[name].factory).parameters:
        return make_agent(spec, seed=seed * 1_000_003 + seat)
    return make_agent(spec)


def _viewer(game: Game, agents: list, mover: int) -> int | None:
    """Whose view the terminal shows: in a game with hidden information and people playing,
    the person (the one to move, when several share the terminal); else everything."""
    if not (hasattr(game, "information_set") and hasattr(game, "sample_state")):
        return None
    people = [p for p, agent in enumerate(agents) if agent.interactive]
    if not people:
        return None
    return mover if mover in people else people[0]


def _play(game: Game, state: State, agents: list, rng: random.Random, out: Console,
          moves: list[str], views: random.Random) -> State:
    """Show the board, let the mover move, report, until the end: the game loop
    (:func:`gamesearch.loop.run_game`) with the terminal's display as its callbacks.

    Each agent, a person too, is given only what its player may see (a state drawn from its
    information set where the game hides something); people see their own view of the board."""
    def turn(state: State, mover: int) -> None:
        out.print()
        out.print(render_view(game, state, _viewer(game, agents, mover)))
        if mover != CHANCE and not agents[mover].interactive:
            out.print(f"{game.player_name(mover)} ({agents[mover].spec}) is thinking...")

    def moved(state: State, ply: Ply) -> None:
        hidden = _viewer(game, agents, ply.player) is not None
        if ply.player == CHANCE:
            out.print(f"[magenta]chance[/]: {'moves (unseen)' if hidden else ply.text}")
        elif not agents[ply.player].interactive:
            out.print(f"{game.player_name(ply.player)} plays [bold]{ply.text}[/]")
            _show_thoughts(game, ply.seen, ply.result, out, hidden=hidden)
        moves.append(ply.text)

    final = run_game(game, agents, state, rng=rng, views=views, max_plies=None,
                     on_turn=turn, on_move=moved).final
    out.print()
    out.print(game.render(final))  # the end: every card on the table
    return final


def _show_thoughts(game: Game, state: State, result, out: Console, hidden: bool = False) -> None:
    """Value, depth, principal variation, nodes and time of an AI's move (``hidden``: only
    the effort: its value and line would tell a person the cards it holds)."""
    data = result.as_dict(game, state)
    s = result.stats
    if result.value is None and not s.nodes:
        return
    if hidden:
        out.print(f"  [dim]{s.nodes + s.leaves:,} nodes, {s.seconds:.3f} s[/]")
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
