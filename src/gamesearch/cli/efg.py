"""The ``efg`` command: show an extensive-form game (a Gambit .efg file or a built-in game
with information sets) as a tree, or write it as .efg (the library is gamesearch.theory.efg;
solve with ``spe`` or ``sequence-form``)."""

from __future__ import annotations

from typing import Any

import typer

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app


def _number(value: Any) -> str:
    from gamesearch.theory.efg import _number as efg_number

    return efg_number(value)


def tree_lines(game: Any, max_lines: int) -> list[str]:
    """The tree as indented lines: mover, information set and actions; payoffs at leaves."""
    from gamesearch.game import CHANCE

    info_of = getattr(game, "information_set", None)
    out: list[str] = []
    stack: list[tuple[Any, int, str]] = [(game.initial_state(), 0, "")]
    while stack and len(out) < max_lines:
        s, depth, via = stack.pop()
        pad = "  " * depth + (f"{via} -> " if via else "")
        if game.is_terminal(s):
            out.append(pad + "payoffs " + ", ".join(_number(u) for u in game.utilities(s)))
            continue
        mover = game.to_move(s)
        if mover == CHANCE:
            branches = [(a, f"{game.action_to_string(s, a)} ({_number(p)})")
                        for a, p in game.chance_outcomes(s)]
            out.append(pad + "chance")
        else:
            label = getattr(game, "infoset_label", None)
            info = info_of(s, mover) if info_of else None
            shown = label(*info) if label and info is not None else info
            out.append(pad + game.player_name(mover) + (f" [{shown}]" if shown is not None
                                                        else ""))
            branches = [(a, game.action_to_string(s, a)) for a in game.actions(s)]
        for a, text in reversed(branches):
            stack.append((game.result(s, a), depth + 1, text))
    if stack:
        out.append(f"... (more than {max_lines} lines; raise --max-lines)")
    return out


@app.command("efg")
def efg_command(
    source: str = typer.Argument(..., metavar="GAME",
                                 help="a .efg file, or a game with information sets "
                                      "(e.g. kuhn_poker)"),
    write: str = typer.Option(None, "--write", "-o",
                              help="write the game as .efg to this new file"),
    max_lines: int = typer.Option(200, "--max-lines", min=1, max=1_000_000,
                                  help="show at most this many lines of the tree"),
    solve: bool = typer.Option(False, "--solve",
                               help="one Nash equilibrium of a two-player game "
                                    "(sequence-form LCP), in behaviour strategies"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Show an extensive-form game as a tree, write it as a Gambit .efg file, or solve it."""
    from gamesearch.cli.theory_input import load_tree
    from gamesearch.durable import atomic_write, check_output, check_suffix
    from gamesearch.theory.efg import write_efg

    if write:  # checked before the game is built: a long build must not end in a refusal
        check_suffix(write, (".efg",), "game file")
        target = check_output(write, None, what="game file",
                              remedy="not overwriting it; choose another -o name")
    game = load_tree(source)
    if write:
        text = write_efg(game)
        atomic_write(target, text)
        nodes = text.count(chr(10)) - 3
        if json_out:
            print_json({"written": write, "nodes": nodes})
        else:
            console.print(f"wrote {write} ({nodes} nodes)")
        return
    if solve:
        solve_tree(game, json_out)
        return
    lines = tree_lines(game, max_lines)
    if json_out:
        print_json({"lines": lines, "complete": not lines[-1].startswith("... (more than")})
        return
    for line in lines:
        console.print(line, markup=False, highlight=False)


def solve_tree(game: Any, json_out: bool = False) -> None:
    """The sequence-form LCP's equilibrium, per information set, with its regret (as
    ``efg --solve`` and ``nash FILE.efg`` show it)."""
    from gamesearch.theory.behaviour import expected_payoffs
    from gamesearch.theory.sequence_lcp import solve_sequence_lcp

    found = solve_sequence_lcp(game)
    label = getattr(game, "infoset_label", None)
    if json_out:
        from gamesearch.cli.theory_input import json_number

        print_json({
            "players": [game.player_name(p) for p in range(len(found.strategies))],
            "behaviour": [{(label(*info) if label else str(info)):
                           {str(a): json_number(p) for a, p in probs.items()}
                           for info, probs in strategy.items()}
                          for strategy in found.strategies],
            "payoffs": [json_number(v) for v in expected_payoffs(game,
                                                                 list(found.strategies))],
            "max_regret": json_number(max(found.regret)), "exact": found.exact,
            "pivots": found.pivots})
        return
    for player, strategy in enumerate(found.strategies):
        console.print(f"{game.player_name(player)}:", highlight=False)
        for info, probs in strategy.items():
            name = label(*info) if label else str(info)
            mix = ", ".join(f"{a}: {_number(p)}" for a, p in probs.items())
            console.print(f"  {name}: {mix}", markup=False, highlight=False)
    pay = expected_payoffs(game, list(found.strategies))
    console.print("payoffs: " + ", ".join(_number(v) for v in pay), highlight=False)
    exact = "exact" if found.exact else "floating point"
    console.print(f"maximum regret: {_number(max(found.regret))} ({exact}, "
                  f"{found.pivots} pivots)", highlight=False)
