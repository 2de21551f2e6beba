"""Games of GNU Go against itself on 9x9, the teacher's games for the Go network's supervised
start (issue 43; AlphaGo's first stage learned its policy from strong players' moves).

``python bench/go_gnugo_games.py --games 2000 --out gnugo-L10.jsonl`` plays GNU Go 3.8
(``--level``, 10 by default; Chinese rules, komi 7, ``--capture-all-dead`` so that area
scoring of the last board is fair) against itself, one process for both colours. Game
``n`` opens with ``k`` random moves (``k`` drawn from 0..``--opening``, each move uniform
over the legal points that do not fill the mover's own one-point eye) and GNU Go's random
seed set to ``seed + n`` (``set_random_seed``), so that games differ; then GNU Go plays both
sides until two passes (or our rules' cap of 4 x 81 moves). A resignation counts as a pass.
The game is scored by our rules (Tromp-Taylor area, komi 7).

Each game is one JSON line, written when it ends and flushed (``durable.LineLog``: a kill
loses at most the game in play, a torn last line is cut off): ``index``, ``opening``
(``k``: the first ``k`` moves were random, not GNU Go's), ``moves`` (GTP vertices and
``pass``) and ``margin`` (Black's area minus White's and komi). The first line is the
run's settings; the same command resumes (game ``n`` is played from its own seeds, so a
resumed file holds what an unbroken run writes), other settings or a file this script did
not make are refused with one line. Ctrl-C (or SIGTERM) stops after the game in play; a
second Ctrl-C stops at once, dropping it.

``gamesearch train supervised go --data FILE ...`` learns from these files.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path

from gamesearch.durable import LineLog, StopRequest
from gamesearch.engines.go.teacher import TEACHER_KIND as KIND
from gamesearch.errors import GameSearchError

GNUGO = "gnugo --mode gtp --chinese-rules --capture-all-dead --level {level}"


def header(settings: dict) -> str:
    """The file's first line: what made it and with which settings."""
    return json.dumps({"kind": KIND, **settings}, sort_keys=True)


def is_ours(line: str) -> bool:
    """Whether a first line is this script's header."""
    try:
        first = json.loads(line)
    except ValueError:
        return False
    return isinstance(first, dict) and first.get("kind") == KIND


def own_eye(cells: str, size: int, point: int, stone: str) -> bool:
    """Whether every neighbour of ``point`` is ``stone`` (a one-point eye of its own)."""
    from gamesearch.games.go.rules import neighbours

    return all(cells[q] == stone for q in neighbours(size)[point])


def random_opening(game, rng: random.Random, plies: int) -> tuple[object, list[int]]:
    """The state after ``plies`` random moves (fewer if a side has none but the pass)."""
    from gamesearch.games.go.notation import STONES

    state, moves = game.initial_state(), []
    for _ in range(plies):
        options = [a for a in game.actions(state) if a != game.pass_action
                   and not own_eye(state[0], game.size, a, STONES[state[1]])]
        if not options:
            break
        action = rng.choice(options)
        state = game.result(state, action)
        moves.append(action)
    return state, moves


def play_game(player, game, index: int, seed: int, opening: int) -> dict:
    """Game ``index``: its random opening, then GNU Go against itself to the end."""
    from gamesearch.games.go.notation import vertex

    rng = random.Random(seed * 1_000_003 + index)
    k = rng.randint(0, opening)
    state, actions = random_opening(game, rng, k)
    opened = len(actions)
    player.prepare(game)
    player.client.ask(f"set_random_seed {(seed + index) % 2**31}")
    while not game.is_terminal(state):
        action = player(game, state).action
        state = game.result(state, action)
        actions.append(action)
    return {"index": index, "opening": opened,
            "moves": [vertex(a, game.size) if a != game.pass_action else "pass"
                      for a in actions],
            "margin": game.score(state)}


def main(argv: list[str] | None = None) -> int:
    """Play until the file holds ``--games`` games; one line and exit 2 on bad input."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games the file should hold")
    parser.add_argument("--level", type=int, default=10, help="GNU Go's level (1-10)")
    parser.add_argument("--opening", type=int, default=4,
                        help="at most this many random moves open a game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gnugo", default="gnugo", help="the GNU Go program")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 10_000_000 or not 1 <= args.level <= 10 or \
            not 0 <= args.opening <= 40 or not 0 <= args.seed < 2**31:
        print("go_gnugo_games: --games is 1..10,000,000, --level 1..10, --opening 0..40 and "
              "--seed 0..2^31-1", file=sys.stderr)
        return 2
    from gamesearch.engines.go.gtp_player import GtpPlayer
    from gamesearch.games.go.rules import Go

    cmd = GNUGO.format(level=args.level).replace("gnugo", args.gnugo, 1)
    settings = {"level": args.level, "opening": args.opening, "seed": args.seed,
                "size": 9, "komi": 7.0}
    try:
        log = LineLog(args.out, header(settings), is_ours, what="games file")
    except GameSearchError as err:
        print(f"go_gnugo_games: {err}", file=sys.stderr)
        return 2
    with log:
        had = json.loads(log.header_line)
        if {k: had.get(k) for k in settings} != settings:
            changed = ", ".join(k for k in settings if had.get(k) != settings[k])
            print(f"go_gnugo_games: {args.out} was made with other settings ({changed}); "
                  "use them or another --out", file=sys.stderr)
            return 2
        done = len(log.lines)
        game, player = Go(9, 7.0), GtpPlayer(cmd)
        began, moves = time.monotonic(), 0
        try:
            with StopRequest() as stop:
                if stop._previous is not None:  # SIGTERM as the first Ctrl-C
                    signal.signal(signal.SIGTERM, stop._handle)
                while done < args.games and not stop.requested:
                    record = play_game(player, game, done, args.seed, args.opening)
                    log.append(json.dumps(record))
                    done += 1
                    moves += len(record["moves"])
                    rate = moves / max(time.monotonic() - began, 1e-9) * 3600
                    print(f"\rgames {done:,} / {args.games:,}  {rate:,.0f} moves an hour",
                          end="", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # the second Ctrl-C: the game in play is dropped
            pass
        except GameSearchError as err:
            print(f"\ngo_gnugo_games: {err}", file=sys.stderr)
            return 2
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            player.close()
    print(f"\n{done:,} games in {args.out}; the same command goes on", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
