"""The Gomoku family: freestyle, standard, Renju and Caro on boards of 5..22 cells a side."""

from plies.kernel_cache import ensure_fresh

ensure_fresh()  # before any kernel is loaded from numba's cache (see plies.kernel_cache)

# ruff: noqa: E402

from plies.gomoku.board import Board
from plies.gomoku.notation import Move, parse_move, parse_moves

__all__ = ["Board", "Move", "parse_move", "parse_moves"]
