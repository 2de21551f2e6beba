"""The rules of chess, read from python-chess (the rules oracle and the format layer).

A state is a FEN string (immutable and hashable; it carries the side to move, castling
rights, the en passant square and both move counters). An action is a move in UCI notation
(``e2e4``, ``e7e8q``, castling as the king's move ``e1g1``).

The game ends at checkmate, stalemate, insufficient material (python-chess's definition:
no sequence of legal moves can mate) and when the fifty-move rule can be claimed (100
plies without a capture or a pawn move): the draw is taken at once. Repetition needs the
history, which a FEN does not hold: the game drivers (match, tournament, ``play``, the web
app) keep it over ``repetition_key`` and end the game at the third occurrence; the engine
and the UCI face detect it along the game's moves and the search path.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import chess

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game

START_FEN = chess.STARTING_FEN
PIECE_VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500,
                chess.QUEEN: 900, chess.KING: 0}
MAX_FEN_LENGTH = 120
"""Longer text is refused before python-chess reads it (a FEN has at most ~90 chars)."""


class ChessError(GameSearchError, ValueError):
    """A malformed FEN or an illegal move."""


def board_of(fen: str) -> chess.Board:
    """The python-chess board of a FEN, or ChessError with one line saying what is wrong."""
    if not isinstance(fen, str) or len(fen) > MAX_FEN_LENGTH:
        raise ChessError(f"malformed FEN: not a FEN string of at most {MAX_FEN_LENGTH} chars")
    try:
        board = chess.Board(fen)
    except ValueError as err:
        raise ChessError(f"malformed FEN {fen!r}: {err}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [flag.name.lower().replace("_", " ") for flag in chess.Status
                    if flag and flag in status and flag.name]
        raise ChessError(f"impossible position {fen!r}: {', '.join(problems)}")
    return board


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """A legal move written in SAN (``Nf3``, ``O-O``) or UCI (``g1f3``), else ChessError."""
    text = text.strip()
    if not text or len(text) > 12:
        raise ChessError(f"malformed move {text!r}: write it in SAN (Nf3) or UCI (g1f3)")
    try:
        move = chess.Move.from_uci(text.lower() if text[:1].islower() else text)
        if move in board.legal_moves:
            return move
    except ValueError:
        pass
    try:
        move = board.parse_san(text)
        if move in board.legal_moves:  # python-chess reads "--" (and "0000") as a null move
            return move
    except ValueError:
        pass
    legal = ", ".join(sorted(board.san(m) for m in board.legal_moves)[:40])
    raise ChessError(f"illegal or malformed move {text!r}; legal moves: {legal}")


class Chess(Game):
    """Chess by the FIDE laws (draws by fifty moves and dead positions taken at once)."""

    name = "chess"
    num_players = 2
    zero_sum = True

    def __init__(self, fen: str = START_FEN) -> None:
        self.start = board_of(fen).fen()

    def initial_state(self) -> str:
        """The start position (or the FEN the game was made with)."""
        return self.start

    def to_move(self, state: str) -> int:
        """0 when White is to move, 1 for Black."""
        return 0 if state.split(" ", 2)[1] == "w" else 1

    def actions(self, state: str) -> list[str]:
        """The legal moves in UCI notation, sorted."""
        return sorted(m.uci() for m in chess.Board(state).legal_moves)

    def result(self, state: str, action: Hashable) -> str:
        """The FEN after the move."""
        board = chess.Board(state)
        board.push(chess.Move.from_uci(str(action)))
        return board.fen()

    def is_terminal(self, state: str) -> bool:
        """Mate, stalemate, a dead position, or fifty moves without capture or pawn move."""
        board = chess.Board(state)
        return (board.halfmove_clock >= 100 or board.is_insufficient_material()
                or not any(board.generate_legal_moves()))

    def utilities(self, state: str) -> tuple[float, float]:
        """(1, -1) when White mated Black, (-1, 1) the other way, (0, 0) for a draw."""
        board = chess.Board(state)
        if board.is_checkmate():
            return (-1.0, 1.0) if board.turn == chess.WHITE else (1.0, -1.0)
        return (0.0, 0.0)

    def repetition_key(self, state: str) -> str:
        """The FEN without its move counters (board, side, castling, en passant): the
        position standing the third time draws (kept by the game drivers)."""
        return " ".join(state.split()[:4])

    def evaluate(self, state: str, player: int) -> float:
        """Material (P 1, N 3.2, B 3.3, R 5, Q 9) for ``player``, squashed into (-1, 1) by
        tanh(centipawns / 1000): what the generic searches use at a depth cut-off (the
        engine has its own evaluation; the kernel's ``evaluate`` is this one)."""
        board = chess.Board(state)
        total = 0
        for piece in board.piece_map().values():
            value = PIECE_VALUES[piece.piece_type]
            total += value if piece.color == chess.WHITE else -value
        return math.tanh((total if player == 0 else -total) / 1000.0)

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    observation_shape = (8, 8, 13)
    """Ranks (8 first, as White sees the board), files, and 13 planes: the observer's pawns,
    knights, bishops, rooks, queens and king, the other side's, then all ones when the
    observer is to move (castling rights, en passant and the move counters are not shown)."""

    def num_distinct_actions(self) -> int:
        """Every (from, to, promotion) of UCI: 64 x 64 x (none, N, B, R, Q)."""
        return 64 * 64 * 5

    def action_index(self, action: Hashable) -> int:
        """``(from * 64 + to) * 5 + promotion`` of the UCI move."""
        move = chess.Move.from_uci(str(action))
        promotion = 0 if move.promotion is None else move.promotion - 1  # N=1 .. Q=4
        return (move.from_square * 64 + move.to_square) * 5 + promotion

    def observation_tensor(self, state: str, player: int) -> list[float]:
        """:attr:`observation_shape`."""
        board = chess.Board(state)
        out = [0.0] * (8 * 8 * 13)
        mine = chess.WHITE if player == 0 else chess.BLACK
        for square, piece in board.piece_map().items():
            row = 7 - chess.square_rank(square)
            plane = piece.piece_type - 1 + (0 if piece.color == mine else 6)
            out[(row * 8 + chess.square_file(square)) * 13 + plane] = 1.0
        if board.turn == mine:
            out[12::13] = [1.0] * 64
        return out

    def action_to_string(self, state: str, action: Hashable) -> str:
        """Moves are written in UCI notation (``string_to_action`` reads SAN too)."""
        return str(action)

    def string_to_action(self, state: str, text: str) -> str:
        """A legal move from SAN or UCI text; IllegalActionError otherwise."""
        try:
            return parse_move(chess.Board(state), text).uci()
        except ChessError as err:
            raise IllegalActionError(str(err)) from None

    def san(self, state: str, action: Hashable) -> str:
        """The move in standard algebraic notation (for people)."""
        board = chess.Board(state)
        return board.san(chess.Move.from_uci(str(action)))

    def state_to_string(self, state: str) -> str:
        """The FEN of the position."""
        return state

    def state_from_string(self, text: str) -> str:
        """A FEN (text with '/'), or moves (SAN or UCI) from the start position."""
        if "/" in text:
            return board_of(text.strip()).fen()
        if len(text) > 20_000:
            raise ChessError("position text too long (more than 20,000 characters)")
        return super().state_from_string(text)

    def player_name(self, player: int) -> str:
        """White (player 0, who starts) and Black."""
        return ("White", "Black")[player] if player in (0, 1) else super().player_name(player)

    def render(self, state: str) -> str:
        """The board as text, White at the bottom, with the FEN below."""
        return f"{chess.Board(state)}\n{state}"
