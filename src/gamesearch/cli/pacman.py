"""``gamesearch pacman``: play and match Pacman against ghosts, list layouts, and run the
Pacman-course game-tree test cases."""

from __future__ import annotations

import time as timer

import typer

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app

pacman_app = typer.Typer(help="Pacman against ghosts: play, match, layouts, tree tests.",
                         no_args_is_help=True)
app.add_typer(pacman_app, name="pacman")

LAYOUT = typer.Option("small", "--layout", "-l", help="a shipped layout or a .lay file")
PACMAN = typer.Option("expectimax:depth=2", "--pacman",
                      help="expectimax|minimax|alphabeta|greedy|random[:depth=ROUNDS] or human")
GHOSTS = typer.Option("random", "--ghosts", help="random|directional|adversarial[:depth=N]")
TREE_FILES = typer.Argument(..., metavar="FILE...", help="course game-tree case files")
EVALUATION = typer.Option("better", "--evaluation", help="better|score (score starves)")


def _game(layout: str, max_moves: int, evaluation: str):
    from gamesearch.games.pacman import Pacman

    return Pacman(layout=layout, max_moves=max_moves, evaluation=evaluation)


def _agents(game, pacman: str, ghosts: str, seed: int | None) -> list:
    from gamesearch.games.pacman_agents import ghost_agents, pacman_agent

    first = pacman_agent(pacman, seed=seed)
    if first.interactive:
        first.ask = _ask
    return [first, *ghost_agents(ghosts, game.num_players - 1, seed=seed)]


def _ask(game, state) -> str:
    keys = {"n": "North", "s": "South", "e": "East", "w": "West", "x": "Stop", "": "Stop"}
    legal = game.actions(state)
    text = typer.prompt(f"your move ({', '.join(legal)}; n/s/e/w/x)", default="",
                        show_default=False).strip()
    return keys.get(text.lower(), text.capitalize())


@pacman_app.command("play")
def play_command(
    layout: str = LAYOUT,
    pacman: str = PACMAN,
    ghosts: str = GHOSTS,
    seed: int | None = typer.Option(None, "--seed", help="seed for random ghosts"),
    max_moves: int = typer.Option(500, "--max-moves", help="Pacman moves before the game ends"),
    evaluation: str = EVALUATION,
    delay: float = typer.Option(0.0, "--delay", help="seconds to pause after each move"),
    json_out: bool = typer.Option(False, "--json", help="JSON summary (no board)"),
) -> None:
    """Watch (or play as ``--pacman human``) one game of Pacman in the terminal."""
    from gamesearch.games.pacman import WON
    from gamesearch.games.pacman_agents import play_game

    game = _game(layout, max_moves, evaluation)
    agents = _agents(game, pacman, ghosts, seed)
    moves: list[str] = []

    def show(state, player, result) -> None:
        moves.append(result.action)
        if json_out or player != 0:
            return
        console.clear()
        console.print(game.render(state))
        console.print(f"Pacman ({agents[0].spec}) plays [bold]{result.action}[/]"
                      + (f", value {result.value:.1f}" if result.value is not None else ""))
        if delay:
            timer.sleep(delay)

    final = play_game(game, agents, on_move=show)
    summary = {"value": final.score, "score": final.score, "won": final.status == WON,
               "moves": final.moves, "layout": game.layout.name, "pacman": agents[0].spec,
               "ghosts": ghosts}
    if json_out:
        print_json(summary)
        return
    console.print(game.render(final))
    console.print(f"[bold]{'Pacman wins' if summary['won'] else 'Pacman loses'}[/] with "
                  f"score {final.score}")


@pacman_app.command("match")
def match_command(
    layout: str = LAYOUT,
    pacman: str = PACMAN,
    ghosts: str = GHOSTS,
    games: int = typer.Option(10, "--games", "-n", help="number of games"),
    seed: int = typer.Option(0, "--seed", help="first seed (game i uses seed + i)"),
    max_moves: int = typer.Option(500, "--max-moves"),
    evaluation: str = EVALUATION,
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Play N games and report the win rate and the average score."""
    from rich.console import Console
    from rich.progress import Progress

    from gamesearch.errors import GameSearchError
    from gamesearch.games.pacman import WON
    from gamesearch.games.pacman_agents import play_game

    if games < 1:
        raise GameSearchError(f"--games {games}: play at least one game")
    game = _game(layout, max_moves, evaluation)
    scores, wins, started = [], 0, timer.perf_counter()
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"pacman on {game.layout.name}", total=games)
        for i in range(games):
            agents = _agents(game, pacman, ghosts, seed + i)
            if agents[0].interactive:
                raise GameSearchError("match: a human cannot play a match; use 'pacman play'")
            final = play_game(game, agents)
            scores.append(final.score)
            wins += final.status == WON
            bar.update(task, advance=1)
    mean = sum(scores) / games
    report = {"value": mean, "games": games, "wins": wins, "win_rate": wins / games,
              "average_score": mean, "scores": scores, "layout": game.layout.name,
              "pacman": pacman, "ghosts": ghosts,
              "seconds": round(timer.perf_counter() - started, 3)}
    if json_out:
        print_json(report)
        return
    console.print(f"{games} games on {game.layout.name}: Pacman {pacman} against {ghosts} "
                  f"ghosts")
    console.print(f"[bold]win rate[/]: {wins}/{games} = {wins / games:.0%}   "
                  f"[bold]average score[/]: {mean:.1f}   "
                  f"(min {min(scores)}, max {max(scores)})")


@pacman_app.command("layouts")
def layouts_command(json_out: bool = typer.Option(False, "--json")) -> None:
    """List the shipped layouts with their size, ghosts, food and capsules."""
    from gamesearch.games.pacman import layout_names, load_layout

    rows = []
    for name in layout_names():
        lay = load_layout(name)
        rows.append({"name": name, "size": f"{lay.width}x{lay.height}",
                     "ghosts": len(lay.ghosts), "food": len(lay.food),
                     "capsules": len(lay.capsules)})
    if json_out:
        print_json({"layouts": rows})
        return
    for row in rows:
        console.print(f"{row['name']:8} {row['size']:6} ghosts {row['ghosts']}  food "
                      f"{row['food']:3}  capsules {row['capsules']}")


@pacman_app.command("tree")
def tree_command(
    files: list[str] = TREE_FILES,
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Run Pacman-course game-tree cases: value, action and the states visited, in order,
    checked against the case's expectations (exit status 1 when one fails)."""
    from gamesearch.games.pacman_trees import read_case

    reports, failed = [], 0
    for path in files:
        case = read_case(path)
        value, action, visited = case.run()
        checks = {
            "value": case.expected_value is None or abs(value - case.expected_value) < 1e-9,
            "action": case.expected_action is None or action == case.expected_action,
            "visited": case.expected_visited is None or visited == case.expected_visited,
        }
        ok = all(checks.values())
        failed += not ok
        reports.append({"file": path, "algorithm": case.algorithm, "value": value,
                        "action": action, "visited": visited, "states_visited": len(visited),
                        "passed": ok, "checks": checks})
    if json_out:
        print_json({"value": reports[0]["value"] if len(reports) == 1 else None,
                    "cases": reports, "failed": failed})
    else:
        for r in reports:
            mark = "[green]pass[/]" if r["passed"] else "[red]FAIL[/]"
            console.print(f"{mark} {r['file']}: {r['algorithm']} value {r['value']:g}, action "
                          f"{r['action']}, {r['states_visited']} states: "
                          f"{' '.join(r['visited'])}")
    if failed:
        raise typer.Exit(1)
