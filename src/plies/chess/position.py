"""The boundary between python-chess and the compiled board.

``Position.from_board(board)`` copies a ``chess.Board`` (with enough of its move stack to
detect repetitions since the last irreversible move) into the kernel arrays, standard chess or
Chess960 (the castling rooks' squares from python-chess's cleaned castling rights); moves
convert both ways with ``to_int`` / ``to_move`` (castling as king-takes-rook for a Chess960
board, else as the king's two-square move). Nothing of python-chess runs inside a search.
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
    chess960: bool = False  # castling moves convert to python-chess as king-takes-rook

    @classmethod
    def from_board(cls, board: chess.Board, pst: np.ndarray | None = None) -> Position:
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
    def from_fen(cls, fen: str, pst: np.ndarray | None = None, chess960: bool = False) -> Position:
        return cls.from_board(chess.Board(fen, chess960=chess960), pst)

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
        # castling: right bit 1 << (2 * colour + wing), wing 0 the king side (rook on a higher
        # file than the king) and 1 the queen side; a move from or to a square keeps the rights
        # of I_CMASK + square (the king's square clears its side's, a rook's square its own)
        rights = 0
        st[B.I_CMASK : B.I_CMASK + 64] = 15
        for rsq in chess.scan_forward(board.clean_castling_rights()):
            colour = 0 if chess.square_rank(rsq) == 0 else 1
            ksq = int(st[B.I_KSQ + colour])
            bit = 2 * colour + (0 if rsq > ksq else 1)
            rights |= 1 << bit
            st[B.I_CROOK + bit] = rsq
            st[B.I_CMASK + rsq] &= ~(1 << bit)
            st[B.I_CMASK + ksq] &= ~(3 << (2 * colour))
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
        return cls(bd, st, hist, pst, board.chess960)

    def copy(self) -> Position:
        return Position(self.bd.copy(), self.st.copy(), self.hist.copy(), self.pst, self.chess960)

    # --- moves ------------------------------------------------------------------------------

    def to_int(self, move: chess.Move) -> int:
        """The kernel encoding of a python-chess move in this position (castling as
        king-takes-rook, or as the king's two-square move)."""
        fr, to = move.from_square, move.to_square
        piece = int(self.bd[fr]) & 7
        promo = move.promotion or 0
        flag = 0
        if piece == B.KING and int(self.bd[to]) == (B.ROOK | (int(self.bd[fr]) & 8)):
            flag = B.FLAG_CASTLE
            to = (fr & 56) + (6 if to > fr else 2)
        elif piece == B.KING and abs(to - fr) == 2:
            flag = B.FLAG_CASTLE
        elif piece == B.PAWN:
            if abs(to - fr) == 16:
                flag = B.FLAG_DOUBLE
            elif (to - fr) % 8 != 0 and self.bd[to] == 0:
                flag = B.FLAG_EP
        return fr | (to << 6) | (promo << 12) | (flag << 16)

    @staticmethod
    def to_move(mv: int, rooks=None) -> chess.Move:
        """The python-chess move of kernel move ``mv``; with ``rooks`` (the castling rooks'
        squares, ``st[I_CROOK:I_CROOK + 4]``) castling is king-takes-rook (Chess960)."""
        promo = (mv >> 12) & 7
        fr, to = mv & 63, (mv >> 6) & 63
        if rooks is not None and (mv >> 16) == B.FLAG_CASTLE:
            to = int(rooks[2 * (fr >> 5 & 1) + (0 if (to & 7) == 6 else 1)])
        return chess.Move(fr, to, promo or None)

    @property
    def castle_rooks(self):
        """The ``rooks`` argument of :meth:`to_move` for this position's notation."""
        return self.st[B.I_CROOK : B.I_CROOK + 4].copy() if self.chess960 else None

    def move(self, mv: int) -> chess.Move:
        """The python-chess move of kernel move ``mv`` in this position's notation."""
        return self.to_move(mv, self.castle_rooks)

    def legal_ints(self) -> list[int]:
        out = np.zeros((1, B.MAX_MOVES), dtype=np.int64)
        n = B.legal_moves(self.bd, self.st, self.hist, self.pst, out, 0)
        return [int(m) for m in out[0, :n]]

    def legal_moves(self) -> list[chess.Move]:
        rooks = self.castle_rooks
        return [self.to_move(m, rooks) for m in self.legal_ints()]

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
