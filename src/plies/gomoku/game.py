"""The Gomoku :class:`~plies.gomoku.Board` as a plies.search game (an adapter, no new rules).

``GomokuGame(Board(9, "freestyle"))`` or ``GomokuGame.new(9, "renju")`` can be searched by
any plies.search algorithm; black is player 0, white player 1; moves are
:class:`~plies.gomoku.Move` cells. Importing this module registers the ``gomoku-<algorithm>``
agents (``gomoku-mcts?iterations=500``) and the game ``gomoku?size=9&rule=freestyle``.
The generic algorithms are pure Python: for real play use :mod:`plies.gomoku.engine`.
"""

from __future__ import annotations

import numpy as np

from plies.gomoku.board import Board
from plies.gomoku.notation import Move
from plies.search.agents import INT, register_game


class GomokuGame:
    """A thin adapter: every call goes to the wrapped :class:`Board` (kept as ``board``)."""

    max_utility = 1  # win/loss/draw: a proven win cannot be bettered
    __slots__ = ("board",)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else Board(15, "freestyle")

    @classmethod
    def new(cls, size: int = 15, rule: str = "freestyle") -> GomokuGame:
        """A game on an empty ``size`` x ``size`` board under ``rule``."""
        return cls(Board(size, rule))

    def current_player(self) -> int:
        return self.board.to_move - 1

    def legal_moves(self) -> list[Move]:
        return self.board.moves()

    def ordered_moves(self) -> list[Move]:
        """Cells next to a stone first, then two cells away, then the rest (centre first)."""
        board = self.board
        moves = board.moves()
        if not len(board):
            cx, cy = (board.width - 1) / 2, (board.height - 1) / 2
            return sorted(moves, key=lambda m: abs(m.x - cx) + abs(m.y - cy))
        occupied = board.to_array() != 0
        near1 = _dilate(occupied, 1)
        near2 = _dilate(occupied, 2)
        return sorted(moves, key=lambda m: 0 if near1[m.y, m.x] else 1 if near2[m.y, m.x] else 2)

    def play(self, move: Move) -> None:
        self.board.play(move)

    def undo(self) -> None:
        self.board.undo()

    def is_terminal(self) -> bool:
        return self.board.is_over

    def returns(self) -> tuple[int, int]:
        winner = self.board.winner
        return (1, -1) if winner == 1 else (-1, 1) if winner == 2 else (0, 0)

    def hash_key(self) -> int:
        """The board's Zobrist hash (the stones imply the player to move)."""
        return self.board.hash

    def copy(self) -> GomokuGame:
        return GomokuGame(self.board.copy())

    def __str__(self) -> str:
        return str(self.board)


def _dilate(mask: np.ndarray, radius: int) -> np.ndarray:
    out = mask.copy()
    h, w = mask.shape
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            ys, yd = slice(max(0, -dy), h - max(0, dy)), slice(max(0, dy), h - max(0, -dy))
            xs, xd = slice(max(0, -dx), w - max(0, dx)), slice(max(0, dx), w - max(0, -dx))
            out[yd, xd] |= mask[ys, xs]
    return out


register_game(
    "gomoku",
    lambda size=15, rule="freestyle": GomokuGame.new(size, rule),
    {"size": INT, "rule": str},
    agent_defaults={
        "minimax": {"depth": 2},
        "alphabeta": {"depth": 3},
        "negamax": {"movetime": 1.0},
        "solver": {"movetime": 10.0},
    },
)
