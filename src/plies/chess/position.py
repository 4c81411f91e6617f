"""The boundary between python-chess and the compiled board.

``Position.from_board(board)`` copies a ``chess.Board`` (with enough of its move stack to
detect repetitions since the last irreversible move) into the kernel arrays; moves convert both
ways with ``to_int`` / ``to_move``. Nothing of python-chess runs inside a search.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess
import numpy as np

from plies.chess.engine import board as B
from plies.chess.engine import params as P
from plies.errors import InvalidOption

_DEFAULT_PST, _DEFAULT_W = P.eval_arrays()
HISTORY_KEEP = 200  # earlier positions carried into the search for repetition detection


def default_eval_arrays() -> tuple[np.ndarray, np.ndarray]:
    return _DEFAULT_PST, _DEFAULT_W


@dataclass
class Position:
    bd: np.ndarray  # int8[64]
    st: np.ndarray  # int64[ST_SIZE]
    hist: np.ndarray  # int64[MAX_HIST, H_COLS]
    pst: np.ndarray

    @classmethod
    def from_board(cls, board: chess.Board, pst: np.ndarray | None = None) -> Position:
        if board.chess960:
            raise InvalidOption("Chess960 is not supported by the plies chess engine")
        pst = _DEFAULT_PST if pst is None else pst
        root = board.copy(stack=True)
        replay: list[chess.Move] = []
        keep = min(board.halfmove_clock, HISTORY_KEEP)
        while root.move_stack and len(replay) < keep:
            replay.append(root.pop())
        pos = cls._from_fen_board(root, pst)
        for move in reversed(replay):
            B.make(pos.bd, pos.st, pos.hist, pos.pst, pos.to_int(move))
        return pos

    @classmethod
    def from_fen(cls, fen: str, pst: np.ndarray | None = None) -> Position:
        return cls.from_board(chess.Board(fen), pst)

    @classmethod
    def _from_fen_board(cls, board: chess.Board, pst: np.ndarray) -> Position:
        bd = np.zeros(64, dtype=np.int8)
        st = np.zeros(B.ST_SIZE, dtype=np.int64)
        for sq, piece in board.piece_map().items():
            code = piece.piece_type | (0 if piece.color == chess.WHITE else 8)
            bd[sq] = code
            st[B.I_CNT + code] += 1
            if piece.piece_type == chess.KING:
                st[B.I_KSQ + (0 if piece.color else 1)] = sq
        if st[B.I_CNT + B.KING] != 1 or st[B.I_CNT + (B.KING | 8)] != 1:
            raise InvalidOption("a position needs exactly one king of each colour")
        st[B.I_SIDE] = 0 if board.turn == chess.WHITE else 1
        rights = 0
        for bit, sq in ((1, chess.H1), (2, chess.A1), (4, chess.H8), (8, chess.A8)):
            if board.castling_rights & chess.BB_SQUARES[sq]:
                rights |= bit
        st[B.I_CASTLE] = rights
        ep = -1
        if board.ep_square is not None and board.has_legal_en_passant():
            ep = board.ep_square
        st[B.I_EP] = ep
        st[B.I_HALF] = board.halfmove_clock
        st[B.I_FULL] = board.fullmove_number
        hist = np.zeros((B.MAX_HIST, B.H_COLS), dtype=np.int64)
        st[B.I_HASH] = B.compute_hash(bd, st)
        mg, eg, phase = B.compute_psq(bd, pst)
        st[B.I_MG], st[B.I_EG], st[B.I_PHASE] = mg, eg, phase
        return cls(bd, st, hist, pst)

    def copy(self) -> Position:
        return Position(self.bd.copy(), self.st.copy(), self.hist.copy(), self.pst)

    # --- moves ------------------------------------------------------------------------------

    def to_int(self, move: chess.Move) -> int:
        """The kernel encoding of a python-chess move in this position."""
        fr, to = move.from_square, move.to_square
        piece = int(self.bd[fr]) & 7
        promo = move.promotion or 0
        flag = 0
        if piece == B.KING and abs(to - fr) == 2:
            flag = B.FLAG_CASTLE
        elif piece == B.PAWN:
            if abs(to - fr) == 16:
                flag = B.FLAG_DOUBLE
            elif (to - fr) % 8 != 0 and self.bd[to] == 0:
                flag = B.FLAG_EP
        return fr | (to << 6) | (promo << 12) | (flag << 16)

    @staticmethod
    def to_move(mv: int) -> chess.Move:
        promo = (mv >> 12) & 7
        return chess.Move(mv & 63, (mv >> 6) & 63, promo or None)

    def legal_ints(self) -> list[int]:
        out = np.zeros((1, B.MAX_MOVES), dtype=np.int64)
        n = B.legal_moves(self.bd, self.st, self.hist, self.pst, out, 0)
        return [int(m) for m in out[0, :n]]

    def legal_moves(self) -> list[chess.Move]:
        return [self.to_move(m) for m in self.legal_ints()]

    def push(self, move: chess.Move | int) -> None:
        mv = move if isinstance(move, int) else self.to_int(move)
        B.make(self.bd, self.st, self.hist, self.pst, mv)

    def pop(self) -> None:
        B.undo(self.bd, self.st, self.hist)

    @property
    def key(self) -> int:
        return int(self.st[B.I_HASH])

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        out = np.zeros((depth + 1, B.MAX_MOVES), dtype=np.int64)
        return int(B.perft(self.bd, self.st, self.hist, self.pst, out, depth, 0))
