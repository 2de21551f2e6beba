"""The core commands: games, solve (the others come from their own modules)."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from gamesearch.cli.common import (
    EXTRA_ARGS,
    console,
    extra_params,
    format_scalar,
    position,
    print_json,
    print_report,
    save_picture,
)
from gamesearch.cli.game_options import options_epilog
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError, LimitError


@app.command("games")
def games_command(json_out: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """List the built-in games."""
    from gamesearch.games import entries

    if json_out:
        print_json({"games": [{"name": e.name, "summary": e.summary} for e in entries()]})
        return
    table = Table(title="games")
    table.add_column("name")
    table.add_column("summary")
    for entry in entries():
        table.add_row(escape(entry.name), escape(entry.summary))  # [openspiel] is no markup
    console.print(table)


DEFAULT_SOLVE_NODES = 200_000
"""Nodes an exact search (``solve`` without --depth or --time) may expand before it gives
up: chess from a legal endgame, Go or a long take-away would search for ever."""

EXACT_SOLVE_SECONDS = 120.0
"""And the seconds it may take: a node of Go costs a hundred times one of Nim."""


def _too_many_nodes(name: str, nodes: int, seconds: float | None = None) -> LimitError:
    spent = f" (stopped after {seconds:.0f} s, its limit)" if seconds is not None else ""
    return LimitError(f"solve {name}: not solved within {nodes:,} nodes (--nodes) or "
                      f"{EXACT_SOLVE_SECONDS:g} s{spent}; give --depth or --time for a "
                      "searched answer, or raise --nodes")


def _node_clock(name: str, nodes: int):
    """A clock for an exact alpha-beta search that refuses it past ``nodes`` nodes or
    :data:`EXACT_SOLVE_SECONDS`: the search asks it every ``CHECK_EVERY`` nodes."""
    from gamesearch.result import Clock
    from gamesearch.search.alphabeta import CHECK_EVERY

    counted = {"nodes": 0}
    clock: Clock

    def stop() -> bool:
        counted["nodes"] += CHECK_EVERY
        if counted["nodes"] > nodes:
            raise _too_many_nodes(name, nodes)
        if clock.elapsed() > EXACT_SOLVE_SECONDS:
            raise _too_many_nodes(name, nodes, clock.elapsed())
        return False

    clock = Clock(None, stop)
    return clock


def _node_trace(name: str, nodes: int):
    """A max^n trace that refuses the search past ``nodes`` nodes or
    :data:`EXACT_SOLVE_SECONDS`."""
    import time as clock

    counted = {"nodes": 0}
    began = clock.perf_counter()

    def trace(event: str, *_: object, **__: object) -> None:
        if event == "enter":
            counted["nodes"] += 1
            if counted["nodes"] > nodes:
                raise _too_many_nodes(name, nodes)
            if counted["nodes"] % 64 == 0 and clock.perf_counter() - began > EXACT_SOLVE_SECONDS:
                raise _too_many_nodes(name, nodes, clock.perf_counter() - began)

    return trace


@app.command("solve", context_settings=EXTRA_ARGS, epilog=options_epilog())
def solve_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                                help="the position (game-specific notation)"),
    depth: int | None = typer.Option(None, "--depth", min=1, max=1000,
                                     help="depth limit in plies"),
    time: float | None = typer.Option(None, "--time", min=0.001, max=86_400,
                                      help="time budget in seconds"),
    nodes: int = typer.Option(DEFAULT_SOLVE_NODES, "--nodes", min=1, max=10**12,
                              help="without --depth or --time: give up the exact search "
                              "past this many nodes"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Solve a position: value, best move, principal variation and statistics.

    Game parameters go as extra options, e.g. ``solve nim --piles 3,4,5 --misere``.
    Without --depth or --time the search goes to the end of the game, within --nodes
    (200,000 by default) and 120 s; a game beyond them needs a limit.
    """
    from gamesearch.cli.game_options import split_solve_options
    from gamesearch.games import game_entry
    from gamesearch.search.alphabeta import alphabeta
    from gamesearch.spec import call_with_params, parse_spec

    name, spec_params = parse_spec(game_name)
    entry = game_entry(name)
    params, solver_options = split_solve_options(entry, {**spec_params, **extra_params(ctx)},
                                                 depth=depth, time=time)
    game = call_with_params(entry.factory, params, f"game {entry.name!r}", entry.ranges)
    state = position(game, position_text)
    if entry.solver is not None:
        from gamesearch.cli.common import progress_bar

        plot = str(solver_options.get("plot") or "") if entry.plot is not None else ""
        if plot:  # a file we may not write is refused before the solver runs
            from gamesearch.durable import check_output, png_is_ours

            check_output(plot, png_is_ours, what="picture", remedy="choose another --plot name")
        with progress_bar() as progress:
            report = entry.solver(game, state, {"depth": depth, "time": time,
                                                **solver_options, "progress": progress})
        if plot:  # the engine draws its answer; only faces write files of pictures
            report["plot"] = save_picture(entry.plot(game, solver_options), plot)
        if json_out:
            print_json(report)
        else:
            print_report(report)
        return
    if game.is_terminal(state):
        raise GameSearchError(f"position {position_text!r}: the game is already over")
    several = game.num_players > 2 or not game.zero_sum
    if several:  # alpha-beta's single number means nothing here: one utility per player
        if time is not None:
            raise GameSearchError(f"solve {name}: max^n takes --depth, not --time")
        from gamesearch.search.multiagent import maxn

        result = maxn(game, state, depth=depth,
                      trace=None if depth else _node_trace(name, nodes))
    elif getattr(game, "kernel", None) is not None and (depth or time):
        from gamesearch.kernels.search import kernel_alphabeta  # the same search, compiled

        result = kernel_alphabeta(game, state, depth=depth, time=time)
    else:
        result = alphabeta(game, state, depth=depth, time=time,
                           **({} if depth or time else {"clock": _node_clock(name, nodes)}))
    data = result.as_dict(game, state)
    if not (depth or time):
        data["node_limit"] = nodes
    data["to_move"] = game.player_name(game.to_move(state))
    data["algorithm"] = "max^n" if several else "alpha-beta" + (
        " (compiled)" if result.stats.extra.get("kernel") else "")
    if json_out:
        print_json(data)
        return
    console.print(game.render(state))
    console.print(f"[bold]to move[/]: {data['to_move']}")
    if several:
        names = [game.player_name(p) for p in range(game.num_players)]
        shown = ", ".join(f"{n} {format_scalar(v)}" for n, v in zip(names, data["value"]))
        console.print(f"[bold]value[/]: {shown} (max^n: each player maximizes its own)")
    else:
        console.print(f"[bold]value[/]: {data['value']} (for the player to move)")
    console.print(f"[bold]best move[/]: {data['action']}")
    console.print(f"[bold]principal variation[/]: {' '.join(map(str, data['pv']))}")
    s = result.stats
    console.print(
        f"[bold]stats[/]: {s.nodes} nodes expanded, {s.leaves} leaves, {s.cutoffs} cut-offs, "
        f"{s.tt_hits} table hits, depth {s.depth}, {s.seconds:.3f} s, "
        f"{s.nodes_per_second:,.0f} nodes/s, b* {s.branching_factor:.2f}"
    )
    if "node_limit" in data:
        console.print(f"[bold]limit[/]: an exact search within {nodes:,} nodes (--nodes) and "
                      f"{EXACT_SOLVE_SECONDS:g} s")
