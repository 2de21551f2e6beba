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
RULES = typer.Option("course", "--rules",
                     help="course (the Berkeley course's engine) or simple (ours before)")
NUM_GHOSTS = typer.Option(4, "--num-ghosts", help="place at most N of the layout's ghosts")
MAX_DELAY = 60.0
MAX_GAMES = 100_000
QUIT_KEYS = ("q", "quit", "exit")


def _game(layout: str, max_moves: int, evaluation: str, rules: str = "course",
          num_ghosts: int = 4):
    from gamesearch.games.pacman import Pacman

    return Pacman(layout=layout, max_moves=max_moves, evaluation=evaluation, rules=rules,
                  ghosts=num_ghosts)


def _agents(game, pacman: str, ghosts: str, seed: int | None) -> list:
    from gamesearch.engines.pacman.agents import ghost_agents, pacman_agent

    first = pacman_agent(pacman, seed=seed)
    if first.interactive:
        first.ask = _ask
    return [first, *ghost_agents(ghosts, game.num_players - 1, seed=seed)]


def _ask(game, state) -> str:
    """Show the board as it is now and ask for a legal move until one comes; ``q`` (or the
    end of the input) quits the game with exit status 0."""
    from gamesearch.errors import GameSearchError

    _show_board(game, state)
    legal = game.actions(state)
    while True:
        try:
            text = typer.prompt(f"your move ({', '.join(legal)}; n/s/e/w/x, q quits)",
                                default="x", show_default=False)
        except (typer.Abort, EOFError):
            text = "q"
        if text.strip().lower() in QUIT_KEYS:
            console.print("quit")
            raise typer.Exit(0)
        try:
            return game.action_to_string(state, game.string_to_action(state, text))
        except GameSearchError as err:
            console.print(str(err))


def _show_board(game, state, line: str = "") -> None:
    """The board as it is (its last line: score, food, moves, and how the game ended)."""
    console.clear()
    console.print(game.render(state))
    if line:
        console.print(line)


def check_delay(delay: float) -> float:
    """A pause between moves: 0 to MAX_DELAY seconds (a negative one would crash sleep)."""
    from gamesearch.errors import GameSearchError

    if not 0 <= delay <= MAX_DELAY:  # also refuses nan
        raise GameSearchError(f"--delay {delay}: a pause of 0 to {MAX_DELAY:g} seconds")
    return delay


@pacman_app.command("play")
def play_command(
    layout: str = LAYOUT,
    pacman: str = PACMAN,
    ghosts: str = GHOSTS,
    seed: int | None = typer.Option(None, "--seed", help="seed for random ghosts"),
    max_moves: int = typer.Option(500, "--max-moves", help="Pacman moves before the game ends"),
    evaluation: str = EVALUATION,
    rules: str = RULES,
    num_ghosts: int = NUM_GHOSTS,
    delay: float = typer.Option(0.0, "--delay", help="seconds to pause after each round"),
    player1: str | None = typer.Option(None, "--player1", "-1",
                                       help="the generic play's name for --pacman"),
    player2: str | None = typer.Option(None, "--player2", "-2",
                                       help="the generic play's name for --ghosts "
                                            "(an agent spec for every ghost)"),
    json_out: bool = typer.Option(False, "--json", help="JSON summary (no board)"),
) -> None:
    """Watch (or play as ``--pacman human``) one game of Pacman in the terminal: the board
    after every round; a human sees it before each of his moves."""
    from gamesearch.engines.pacman.agents import play_game
    from gamesearch.games.pacman import outcome

    check_delay(delay)
    pacman, ghosts = player1 or pacman, player2 or ghosts
    game = _game(layout, max_moves, evaluation, rules, num_ghosts)
    agents = _agents(game, pacman, ghosts, seed)
    human = agents[0].interactive
    moves: list[str] = []
    last: dict[str, str] = {}

    def show(state, player, result) -> None:
        moves.append(result.action)
        if player == 0:
            last["line"] = (f"Pacman ({agents[0].spec}) played [bold]{result.action}[/]"
                            + (f", value {result.value:.1f}" if result.value is not None
                               else ""))
        after = game.result(state, result.action)
        if json_out or game.is_terminal(after) or game.to_move(after) != 0 or human:
            return  # a round is not over yet; a human's prompt shows the board itself
        _show_board(game, after, last["line"])
        if delay:
            timer.sleep(delay)

    final = play_game(game, agents, on_move=show)
    result = outcome(final)
    summary = {"value": final.score, "score": final.score, "won": result == "won",
               "outcome": result, "moves": final.moves, "layout": game.layout.name,
               "rules": game.rules, "pacman": agents[0].spec, "ghosts": ghosts}
    if json_out:
        print_json(summary)
        return
    _show_board(game, final, last.get("line", ""))


@pacman_app.command("match")
def match_command(
    layout: str = LAYOUT,
    pacman: str = PACMAN,
    ghosts: str = GHOSTS,
    games: int = typer.Option(10, "--games", "-n", help="number of games"),
    seed: int = typer.Option(0, "--seed", help="first seed (game i uses seed + i)"),
    max_moves: int = typer.Option(500, "--max-moves"),
    evaluation: str = EVALUATION,
    rules: str = RULES,
    num_ghosts: int = NUM_GHOSTS,
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Play N games and report the win rate, the games that ran out of moves (neither won
    nor lost) and the average score."""
    from collections import Counter

    from rich.console import Console
    from rich.progress import Progress

    from gamesearch.engines.pacman.agents import play_game
    from gamesearch.errors import GameSearchError
    from gamesearch.games.pacman import outcome

    if not 1 <= games <= MAX_GAMES:
        raise GameSearchError(f"--games {games}: play 1 to {MAX_GAMES} games")
    game = _game(layout, max_moves, evaluation, rules, num_ghosts)
    scores, results, started = [], Counter(), timer.perf_counter()
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"pacman on {game.layout.name}", total=games)
        for i in range(games):
            agents = _agents(game, pacman, ghosts, seed + i)
            if agents[0].interactive:
                raise GameSearchError("match: a human cannot play a match; use 'pacman play'")
            final = play_game(game, agents)
            scores.append(final.score)
            results[outcome(final)] += 1
            bar.update(task, advance=1)
    mean, wins = sum(scores) / games, results["won"]
    report = {"value": mean, "games": games, "wins": wins, "win_rate": wins / games,
              "losses": results["lost"], "out_of_moves": results["out of moves"],
              "average_score": mean, "scores": scores, "layout": game.layout.name,
              "rules": game.rules, "pacman": pacman, "ghosts": ghosts,
              "seconds": round(timer.perf_counter() - started, 3)}
    if json_out:
        print_json(report)
        return
    console.print(f"{games} games on {game.layout.name}: Pacman {pacman} against {ghosts} "
                  f"ghosts")
    console.print(f"[bold]win rate[/]: {wins}/{games} = {wins / games:.0%}   "
                  f"lost {results['lost']}, out of moves {results['out of moves']}   "
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
    from gamesearch.engines.pacman.course_trees import read_case

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
