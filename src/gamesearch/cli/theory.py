"""Game-theory commands: nash, dominance, normal-form, spe (the library is
gamesearch.theory; docs/THEORY.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.cli.theory_input import format_number, json_number, load_matrix_game, load_tree
from gamesearch.errors import GameSearchError


def _mix_text(names: list[str], mix: Any) -> str:
    parts = [f"{names[k]}: {format_number(p)}" for k, p in enumerate(mix) if p != 0]
    return ", ".join(parts)


@app.command("nash")
def nash_command(
    file: str = typer.Argument(..., metavar="FILE",
                               help="a game: .nfg, .json or .csv (or a tree: .efg)"),
    method: str = typer.Option("auto", "--method", "-m",
                               help="auto | support | vertex | lemke-howson | pure | lp | "
                               "logit | simpdiv | gnm (logit, simpdiv, gnm and pure: any "
                               "number of players; auto: every equilibrium by support "
                               "enumeration where that fits, else lp, lemke-howson, or "
                               "simpdiv for three players or more)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Nash equilibria of a normal-form game (exact fractions for integer payoffs).

    A .efg tree is solved as 'efg --solve' does (one equilibrium of a two-player game,
    sequence-form LCP, in behaviour strategies).
    """
    from gamesearch.theory.workload import auto_method, check_method

    if file.strip().lower().endswith(".efg"):
        if method.strip().lower() != "auto":
            raise GameSearchError(f"nash {file}: a tree is solved by the sequence-form LCP; "
                                  "--method is for normal-form games")
        from gamesearch.cli.efg import solve_tree

        tree = load_tree(file)
        if tree.num_players != 2:
            raise GameSearchError(f"nash {file}: a tree of {tree.num_players} players; its "
                                  "solver (the sequence-form LCP) takes two ('qre FILE.efg' "
                                  "traces the agent logit QRE of any tree)")
        solve_tree(tree, json_out)
        return
    game = load_matrix_game(file)
    if method.strip().lower() == "auto":
        method = auto_method(game)
    check_method(game, method)
    found = _nash_with_progress(game, method)
    if json_out:
        from gamesearch.theory.logit_nash import max_regret

        data = found.as_dict(game)
        data["max_regret"] = [max_regret(game, p) for p in found.equilibria]
        print_json(data)
        return
    table = Table(title=f"{game.title or Path(file).name}: Nash equilibria ({found.method})")
    table.add_column("#", justify="right")
    for player in game.players:
        table.add_column(player)
    table.add_column("payoffs")
    for k, (profile, pay) in enumerate(zip(found.equilibria, found.payoffs(game))):
        cells = [_mix_text(game.strategies[i], mix) for i, mix in enumerate(profile)]
        table.add_row(str(k + 1), *cells, ", ".join(format_number(v) for v in pay))
    console.print(table)
    if not found.equilibria:
        console.print("no equilibrium found")
    else:
        from gamesearch.theory.logit_nash import max_regret

        worst = max(max_regret(game, p) for p in found.equilibria)
        console.print(f"maximum regret over the equilibria listed: {format_number(worst)}")
    for note in found.notes:
        console.print(f"[yellow]note[/]: {note}")


def _nash_with_progress(game, method: str):
    """Equilibria by ``method``; long support enumerations show a progress bar."""
    from math import comb

    from gamesearch.theory.nash import nash
    from gamesearch.theory.support_enumeration import support_enumeration

    if method.strip().lower() not in ("support", "support-enumeration") or \
            game.num_players != 2 or comb(sum(game.shape), game.shape[0]) < 200_000:
        return nash(game, method)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("support pairs", total=comb(sum(game.shape), game.shape[0]) - 1)
        return support_enumeration(game, lambda done, total: bar.update(task, completed=done))


@app.command("dominance")
def dominance_command(
    file: str = typer.Argument(..., metavar="FILE", help="a game: .nfg, .json or .csv"),
    iterated: bool = typer.Option(False, "--iterated", help="eliminate until none is left"),
    mixed: bool = typer.Option(False, "--mixed", help="also domination by mixed strategies"),
    weak: bool = typer.Option(False, "--weak", help="weak instead of strict dominance"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Dominated strategies, iterated elimination and dominant-strategy equilibria."""
    from gamesearch.theory.dominance import (
        dominant_strategy_equilibria,
        dominated_strategies,
        iterated_elimination,
    )
    from gamesearch.theory.workload import check_dominance

    game = load_matrix_game(file)
    check_dominance(game, mixed)
    strict = not weak
    if iterated:
        result = iterated_elimination(game, strict=strict, mixed=mixed)
        steps = [d for _, d in result.steps]
        survivors = [[game.strategies[i][k] for k in keep]
                     for i, keep in enumerate(result.survivors)]
    else:
        steps = dominated_strategies(game, strict=strict, mixed=mixed)
        survivors = None
    equilibria = [game.profile_name(p) for p in dominant_strategy_equilibria(game, strict)]
    if json_out:
        print_json({
            "strict": strict, "mixed": mixed, "iterated": iterated,
            "dominated": [{"player": game.players[d.player],
                           "strategy": game.strategies[d.player][d.dominated],
                           "by": [json_number(p) for p in d.by],
                           "text": d.describe(game)} for d in steps],
            "survivors": survivors,
            "dominant_strategy_equilibria": equilibria,
        })
        return
    kind = "strictly" if strict else "weakly"
    table = Table(title=f"{game.title or Path(file).name}: {kind} dominated strategies"
                        + (" (iterated)" if iterated else ""))
    table.add_column("step" if iterated else "#", justify="right")
    table.add_column("player")
    table.add_column("strategy")
    table.add_column("dominated by")
    for k, d in enumerate(steps):
        names = game.strategies[d.player]
        by = " + ".join((names[t] if p == 1 else f"{format_number(p)} {names[t]}")
                        for t, p in enumerate(d.by) if p != 0)
        table.add_row(str(k + 1), game.players[d.player], names[d.dominated], by)
    console.print(table)
    if not steps:
        console.print("no dominated strategy")
    if survivors is not None:
        for player, names in zip(game.players, survivors):
            console.print(f"[bold]{player} keeps[/]: {', '.join(names)}")
    if equilibria:
        console.print(f"[bold]dominant-strategy equilibrium[/]: {', '.join(equilibria)}")
    else:
        console.print(f"no {kind} dominant-strategy equilibrium")


def _cell(game, i: int, j: int) -> str:
    """One cell of a two-player matrix: the payoff (zero-sum) or both payoffs."""
    source = game.exact_payoffs if game.exact else game.payoffs
    if game.is_zero_sum:
        return format_number(source[0, i, j])
    return ", ".join(format_number(source[p, i, j]) for p in range(2))


def _matrix_table(game, title: str, columns: range | None = None,
                  numbered: bool = False) -> Table:
    """The matrix (or the given columns of it); ``numbered``: strategies as r1, c1, ..."""
    columns = range(game.shape[1]) if columns is None else columns
    table = Table(title=title)
    table.add_column(f"{game.players[0]} \\ {game.players[1]}")
    for j in columns:
        table.add_column(f"c{j + 1}" if numbered else game.strategies[1][j], justify="center")
    for i, name in enumerate(game.strategies[0]):
        table.add_row(f"r{i + 1}" if numbered else name, *[_cell(game, i, j) for j in columns])
    return table


def _print_matrix(game, title: str) -> None:
    """The matrix whole when it fits the terminal; else with numbered strategies, in blocks
    of columns that fit, and a legend (rich would squeeze a wide table to empty cells)."""
    from rich.cells import cell_len

    rows, cols = game.shape[0], game.shape[1]
    cells = [[_cell(game, i, j) for j in range(cols)] for i in range(rows)]
    corner = cell_len(f"{game.players[0]} \\ {game.players[1]}")

    def column(j: int, numbered: bool) -> int:  # its text, padding 2, a border 1
        head = f"c{j + 1}" if numbered else game.strategies[1][j]
        return max(cell_len(head), *(cell_len(cells[i][j]) for i in range(rows))) + 3

    def first(numbered: bool) -> int:  # the row names, with both outer borders
        names = [f"r{i + 1}" for i in range(rows)] if numbered else game.strategies[0]
        return max(corner, *(cell_len(n) for n in names)) + 4

    if first(False) + sum(column(j, False) for j in range(cols)) <= console.width:
        console.print(_matrix_table(game, title))
        return
    start = 0
    while start < cols:
        stop, used = start + 1, first(True) + column(start, True)
        while stop < cols and used + column(stop, True) <= console.width:
            used += column(stop, True)
            stop += 1
        part = f"{title}, columns {start + 1}-{stop} of {cols}" if stop - start < cols else title
        console.print(_matrix_table(game, part, range(start, stop), True))
        start = stop
    for p, letter, where in ((0, "r", "rows"), (1, "c", "columns")):
        console.print(f"[bold]{game.players[p]}[/] ({where})")
        for k, name in enumerate(game.strategies[p]):
            console.print(f"  {letter}{k + 1} = {name}")


@app.command("normal-form")
def normal_form_command(
    tree: str = typer.Argument(..., metavar="TREE_FILE",
                               help="a tree file (JSON), or a small game such as nim:piles=1-2"),
    reduced: bool = typer.Option(False, "--reduced", help="the reduced normal form"),
    output: str | None = typer.Option(None, "--output", "-o",
                                      help="also write the game (.nfg, .json or .csv)"),
    force: bool = typer.Option(False, "--force", help="let -o replace an existing file"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """A perfect-information game as a matrix of plans, with maximin, minimax, equilibria."""
    from gamesearch.durable import check_output, check_suffix
    from gamesearch.theory.extensive import to_normal_form
    from gamesearch.theory.formats import save_normal_form
    from gamesearch.theory.pure import pure_equilibria
    from gamesearch.theory.zero_sum import maximin, minimax

    target = None
    if output:  # an existing file may be a person's own game: replaced only with --force
        check_suffix(output, (".nfg", ".json", ".csv"), "game file")
        target = check_output(output, None, force)
    tree_game = load_tree(tree)
    normal = to_normal_form(tree_game, reduced=reduced)
    game = normal.game
    if target is not None:
        save_normal_form(game, target)
    pure = [game.profile_name(p) for p in pure_equilibria(game)]
    data: dict[str, Any] = {
        "players": game.players,
        "strategies": game.strategies,
        "payoffs": [[json_number(v) for v in game.payoff(p)]
                    for p in _profiles(game.shape)],
        "pure_equilibria": pure,
        "reduced": reduced,
    }
    if game.is_zero_sum:
        low, rows = maximin(game)
        high, cols = minimax(game)
        data.update(maximin=json_number(low), minimax=json_number(high),
                    maximin_strategies=[game.strategies[0][i] for i in rows],
                    minimax_strategies=[game.strategies[1][j] for j in cols])
    if json_out:
        print_json(data)
        return
    sizes = " x ".join(str(s) for s in game.shape)
    title = f"{'reduced ' if reduced else ''}normal form ({sizes} pure strategies)"
    if game.num_players == 2:
        _print_matrix(game, title)
    else:
        table = Table(title=title)
        for p in game.players:
            table.add_column(p)
        table.add_column("payoffs")
        for profile, pay in zip(_profiles(game.shape), data["payoffs"]):
            table.add_row(*(game.strategies[i][k] for i, k in enumerate(profile)),
                          ", ".join(map(str, pay)))
        console.print(table)
    if game.is_zero_sum:
        console.print(f"[bold]maximin[/]: {data['maximin']} "
                      f"({', '.join(data['maximin_strategies'])})   "
                      f"[bold]minimax[/]: {data['minimax']} "
                      f"({', '.join(data['minimax_strategies'])})")
    console.print(f"[bold]pure equilibria[/]: {', '.join(pure) or 'none'}")


def _profiles(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    import itertools

    return list(itertools.product(*[range(s) for s in shape]))


@app.command("spe")
def spe_command(
    tree: str = typer.Argument(..., metavar="TREE_FILE",
                               help="a tree file (JSON), or a small game such as nim:piles=1-2"),
    limit: int = typer.Option(200_000, "--limit", min=1, max=10**8,
                              help="give up beyond this many distinct positions"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """A subgame-perfect equilibrium by backward induction, with payoffs and ties."""
    from gamesearch.errors import LimitError
    from gamesearch.theory.backward_induction import backward_induction

    game = load_tree(tree)
    if not getattr(game, "perfect_information", lambda: True)():
        raise GameSearchError(f"{tree}: backward induction needs perfect information; this "
                              "game has information sets with several nodes (try "
                              "sequence-form)")
    try:
        spe = backward_induction(game, limit=limit)
    except LimitError as err:
        raise LimitError(f"{err} (raise --limit to try anyway)") from None
    root = game.initial_state()

    def name(state: Any) -> str:
        namer = getattr(game, "node_name", None)
        return namer(state) if namer else game.render(state).replace("\n", " ")

    def path_text() -> list[str]:
        s, out = root, []
        for a in spe.path:
            out.append(game.action_to_string(s, a))
            s = game.result(s, a)
        return out

    choices = [{"node": name(s), "player": game.player_name(game.to_move(s)),
                "action": game.action_to_string(s, a),
                "payoffs": [json_number(v) for v in spe.values[game.result(s, a)]]}
               for s, a in spe.strategy.items()]
    ties = [{"node": name(t.state), "player": game.player_name(t.player),
             "actions": [game.action_to_string(t.state, a) for a in t.actions],
             "payoffs": [[json_number(v) for v in u] for u in t.payoffs],
             "matters": t.matters} for t in spe.ties]
    data = {"payoffs": [json_number(v) for v in spe.payoffs],
            "players": [game.player_name(i) for i in range(game.num_players)],
            "path": path_text(), "strategy": choices, "ties": ties}
    if json_out:
        print_json(data)
        return
    table = Table(title="subgame-perfect equilibrium (backward induction)")
    table.add_column("node")
    table.add_column("player")
    table.add_column("action")
    table.add_column("payoffs after it")
    for c in choices:
        table.add_row(c["node"], c["player"], c["action"], ", ".join(map(str, c["payoffs"])))
    console.print(table)
    pay = ", ".join(f"{p}: {v}" for p, v in zip(data["players"], data["payoffs"]))
    console.print(f"[bold]payoffs[/]: {pay}")
    console.print(f"[bold]path of play[/]: {' '.join(data['path'])}")
    if not ties:
        console.print("no ties: the subgame-perfect equilibrium is unique")
    for t in ties:
        effect = "matters to another player" if t["matters"] else "same payoffs for all"
        console.print(f"[yellow]tie[/] at {t['node']} ({t['player']}): "
                      f"{', '.join(t['actions'])} ({effect}); took {t['actions'][0]}")


@app.command("sequence-form")
def sequence_form_command(
    game_spec: str = typer.Argument(..., metavar="GAME",
                                    help="a two-player zero-sum game with information sets "
                                    "(a name, or a .efg file)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Value and optimal strategies of an imperfect-information game (sequence-form LP)."""
    from gamesearch.theory.sequence_form import solve_sequence_form

    game = load_tree(game_spec)
    solution = solve_sequence_form(game)
    if json_out:
        print_json(solution.as_dict())
        return
    for player, strategy in enumerate(solution.strategies):
        table = Table(title=f"{game.player_name(player)}: optimal behaviour strategy")
        table.add_column("information set")
        table.add_column("action probabilities")
        for info, probs in strategy.items():
            table.add_row(str(info), ", ".join(f"{a}: {format_number(p)}"
                                               for a, p in probs.items()))
        console.print(table)
    exact = "exact" if solution.exact else "floating point"
    console.print(f"[bold]value for {game.player_name(0)}[/]: "
                  f"{format_number(solution.value)} ({exact})")
