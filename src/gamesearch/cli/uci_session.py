"""A UCI dialogue (Universal Chess Interface) around the chess engine
(:class:`~gamesearch.engines.chess.engine.ChessEngine`).

Commands: ``uci``, ``isready``, ``ucinewgame``, ``position startpos|fen F [moves ...]``,
``go`` (``wtime btime winc binc movestogo movetime depth nodes infinite``), ``stop``,
``ponderhit``, ``setoption name Hash|Threads value N``, ``setoption name TablesPath value
DIR`` (endgame tables, probed before searching), ``setoption name Use NNUE value
true|false`` (evaluate with the network instead of the hand-written terms), ``setoption
name EvalFile value FILE`` (the network file; empty: the one that ships), ``setoption name
SingularExtensions value true|false`` (off by default), ``setoption name RfpMargin|
FutilityBase|FutilityStep|NullBase|NullDivisor|LmpBase|LmrBase|LmrDivisor value N`` (the
search settings, ``engines/chess/tuning.py``), ``quit``. A
network file that is missing or corrupt is answered with an ``info string`` and the engine
evaluates with the hand-written terms. The search runs in a
thread, so ``stop``, ``isready`` and ``quit`` are answered while it thinks; with
``Threads`` N > 1 that thread runs N - 1 helper threads beside it (Lazy SMP on one shared
table, ``engines/chess/engine.py``), all stopped and joined before its ``bestmove``. Nothing the GUI
sends can end the dialogue but ``quit`` and the end of input: malformed or out-of-order
commands are answered with one ``info string`` line and otherwise ignored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import NamedTuple

import chess

from gamesearch.engines.chess.engine import ChessEngine, clock_budget
from gamesearch.engines.chess.scale import MAX_HASH_MB, MAX_THREADS
from gamesearch.engines.chess.tuning import TUNING, UCI_NAMES, check_tuning, uci_name
from gamesearch.errors import GameSearchError
from gamesearch.result import Limit, SearchResult

NAME = "gamesearch chess"
GO_INTS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes",
           "mate")


class Search(NamedTuple):
    """What a ``go`` asks: the limit, the soft budget of a clock, and whether it is
    ``infinite`` (or ``ponder``: search until ``stop``)."""

    limit: Limit
    soft: float | None
    infinite: bool


class UciError(ValueError):
    """A command the engine cannot follow (reported as ``info string``)."""


class UciSession:
    """One UCI dialogue: feed it lines with :meth:`handle`; it writes with ``send``."""

    def __init__(self, send: Callable[[str], None], hash_mb: int = 64) -> None:
        self._send = send
        self._lock = threading.Lock()
        self.engine = ChessEngine(hash_mb)
        self.board = chess.Board()
        self.thread: threading.Thread | None = None
        self.use_nnue = False
        self.eval_file: str | None = None
        self.quit = False
        self.busy = False
        # loading the compiled search takes a second or two (30 s the very first time):
        # started at once, so 'uci' answers now and 'isready' / 'go' wait for it
        self.warming = threading.Thread(target=self.engine.warm_up, daemon=True)
        self.warming.start()

    def send(self, line: str) -> None:
        """Write one line to the GUI (the search thread writes too)."""
        with self._lock:
            self._send(line)

    @property
    def searching(self) -> bool:
        """True from ``go`` until its ``bestmove`` is sent."""
        return self.busy

    def run(self, lines: Iterable[str]) -> None:
        """Answer every line until ``quit`` or the end of input."""
        for line in lines:
            self.handle(line)
            if self.quit:
                break
        self.finish()

    def finish(self) -> None:
        """Stop any search and wait for its ``bestmove``."""
        if self.thread is not None:
            self.engine.stop()
            self.thread.join()
            self.thread = None

    def handle(self, line: str) -> None:
        """One command line; errors become ``info string``."""
        words = line.strip().split()
        if not words:
            return
        command, args = words[0], words[1:]
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None:
            self.send(f"info string unknown command {command[:40]!r}")
            return
        try:
            handler(args)
        except UciError as err:
            self.send(f"info string error: {err}")

    # --- the commands ------------------------------------------------------------------
    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send("id author the gamesearch authors")
        self.send(f"option name Hash type spin default 64 min 1 max {MAX_HASH_MB}")
        self.send(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.send("option name TablesPath type string default <empty>")
        self.send("option name Use NNUE type check default false")
        self.send("option name EvalFile type string default <empty>")
        self.send("option name SingularExtensions type check default false")
        for name, (_, default, low, high) in TUNING.items():  # the search settings
            self.send(f"option name {uci_name(name)} type spin default {default} "
                      f"min {low} max {high}")
        self.send("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.warming.join()
        self.send("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        pass

    def cmd_ponderhit(self, args: list[str]) -> None:
        pass

    def cmd_quit(self, args: list[str]) -> None:
        self.quit = True

    def cmd_stop(self, args: list[str]) -> None:
        self.finish()

    def _idle(self, command: str) -> None:
        if self.searching:
            raise UciError(f"'{command}' while searching: send 'stop' first")
        if self.thread is not None:
            self.thread.join()
            self.thread = None

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self._idle("ucinewgame")
        self.engine.new_game()
        self.board = chess.Board()

    def cmd_setoption(self, args: list[str]) -> None:
        self._idle("setoption")
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise UciError("setoption: expected 'setoption name NAME value VALUE'")
        name, value = text[5:].split(" value ", 1)
        name = name.strip().lower()
        if name in ("use nnue", "evalfile"):
            self._set_evaluation(name, value.strip())
            return
        if name == "singularextensions":
            if value.strip().lower() not in ("true", "false"):
                raise UciError(f"SingularExtensions must be true or false, got "
                               f"{value.strip()[:20]!r}")
            self.engine.singular = value.strip().lower() == "true"
            return
        if name == "tablespath":
            try:
                self.engine.set_tables(value.strip() if value.strip() not in ("", "<empty>")
                                       else None)
            except GameSearchError as err:
                raise UciError(f"TablesPath: {err}") from None
            return
        try:
            number = int(value.strip())
        except ValueError:
            raise UciError(f"setoption {name}: {value.strip()[:20]!r} is not a whole number")\
                from None
        if name in UCI_NAMES:
            setting = UCI_NAMES[name]
            try:
                check_tuning(setting, number, uci_name(setting))
            except ValueError as err:
                raise UciError(str(err)) from None
            self.engine.set_tuning(setting, number)
        elif name == "hash":
            if not 1 <= number <= MAX_HASH_MB:
                raise UciError(f"Hash must be 1..{MAX_HASH_MB} MB, got {number}")
            self.engine.set_hash(number)
        elif name == "threads":
            try:
                self.engine.set_threads(number)  # the engine checks the range
            except ValueError as err:
                raise UciError(str(err)) from None
        else:
            raise UciError(f"unknown option {name[:40]!r} (known: Hash, Threads, TablesPath, "
                           "Use NNUE, EvalFile, SingularExtensions, "
                           f"{', '.join(uci_name(n) for n in TUNING)})")

    def _set_evaluation(self, name: str, value: str) -> None:
        """``Use NNUE`` or ``EvalFile``: load the network where it is asked for (compiling its
        search in the background, as at the start: ``isready`` waits); a file that does not
        load leaves the hand-written evaluation, said in an ``info string``."""
        if name == "use nnue":
            if value.lower() not in ("true", "false"):
                raise UciError(f"Use NNUE must be true or false, got {value[:20]!r}")
            self.use_nnue = value.lower() == "true"
        else:
            self.eval_file = value if value not in ("", "<empty>") else None
        self.warming.join()
        if not self.use_nnue:
            self.engine.set_evaluation("hand")
            return
        try:
            self.engine.set_evaluation("nnue", self.eval_file)
        except GameSearchError as err:
            self.engine.set_evaluation("hand")
            raise UciError(f"{err}; evaluating with the hand-written evaluation") from None
        self.warming = threading.Thread(target=self.engine.warm_up, daemon=True)
        self.warming.start()

    def cmd_position(self, args: list[str]) -> None:
        self._idle("position")
        if not args or args[0] not in ("startpos", "fen"):
            raise UciError("position: expected 'position startpos|fen FEN [moves ...]'")
        rest = args[1:]
        if args[0] == "startpos":
            board = chess.Board()
        else:
            fen_words = rest[:rest.index("moves")] if "moves" in rest else rest
            rest = rest[len(fen_words):]
            from gamesearch.games.chess.rules import board_of

            try:
                board = board_of(" ".join(fen_words))
            except ValueError as err:
                raise UciError(str(err)) from None
        if rest:
            if rest[0] != "moves":
                raise UciError(f"position: expected 'moves', got {rest[0][:20]!r}")
            for text in rest[1:]:
                try:
                    move = chess.Move.from_uci(text)
                except ValueError:
                    move = None
                if move is None or move not in board.legal_moves:
                    raise UciError(f"illegal move {text[:20]!r} in position "
                                   f"{board.fen()}: position unchanged")
                board.push(move)
        self.board = board

    def cmd_go(self, args: list[str]) -> None:
        self._idle("go")
        search = self.limits(args)
        self.warming.join()
        self.engine.position(self.board)
        self.busy = True
        self.engine.arm()
        self.thread = threading.Thread(target=self._search, args=(search,), daemon=True)
        self.thread.start()

    def limits(self, args: list[str]) -> Search:
        """The limits of a ``go`` command (times in milliseconds become seconds)."""
        values: dict[str, int] = {}
        flags = set()
        i = 0
        while i < len(args):
            word = args[i]
            if word in GO_INTS:
                if i + 1 >= len(args):
                    raise UciError(f"go {word}: missing its value")
                try:
                    values[word] = int(args[i + 1])
                except ValueError:
                    raise UciError(f"go {word}: {args[i + 1][:20]!r} is not a whole number")\
                        from None
                i += 2
            elif word in ("infinite", "ponder"):
                flags.add(word)
                i += 1
            elif word == "searchmoves":
                raise UciError("go searchmoves is not supported")
            else:
                raise UciError(f"go: unknown parameter {word[:20]!r}")
        white = self.board.turn == chess.WHITE
        left = values.get("wtime" if white else "btime")
        inc = values.get("winc" if white else "binc", 0)
        depth = values.get("depth")
        if "mate" in values:
            depth = max(1, 2 * values["mate"] + 1)
        limit = Limit(depth=max(1, depth) if depth is not None else None,
                      nodes=max(1, values["nodes"]) if "nodes" in values else None)
        if flags:  # infinite or ponder: until 'stop'
            return Search(limit, None, True)
        if "movetime" in values:
            return Search(replace(limit, time=max(1, values["movetime"]) / 1000), None, False)
        if left is not None:
            budget = clock_budget(max(0, left) / 1000, max(0, inc) / 1000,
                                  values.get("movestogo"))
            bounded, soft = budget.bounds(limit)
            return Search(bounded, soft, False)
        return Search(limit, None, False)

    def _search(self, search: Search) -> None:
        try:
            result = self.engine.go(search.limit, self._info, armed=True, soft=search.soft,
                                    infinite=search.infinite)
            best = result.action if result is not None else None
        except Exception as err:  # noqa: BLE001 - the engine must answer with some move
            self.send(f"info string search failed: {type(err).__name__}: {err}")
            moves = list(self.board.legal_moves)
            best = moves[0].uci() if moves else None
        if search.infinite:  # UCI: after 'go infinite' the bestmove waits for 'stop'
            while not self.engine.stopped() and not self.quit:
                time.sleep(0.005)
        with self._lock:
            self.busy = False  # the GUI may send 'position' as soon as it reads bestmove
            self._send(f"bestmove {best or '0000'}")

    def _info(self, result: SearchResult) -> None:
        stats = result.stats
        mate = stats.extra.get("mate")
        score = f"mate {mate}" if mate is not None else f"cp {stats.extra['cp']}"
        nps = int(stats.nodes / stats.seconds) if stats.seconds > 0 else 0
        self.send(f"info depth {stats.depth} seldepth {stats.extra['seldepth']} "
                  f"score {score} nodes {stats.nodes} nps {nps} "
                  f"time {int(stats.seconds * 1000)} pv {' '.join(result.pv)}")
