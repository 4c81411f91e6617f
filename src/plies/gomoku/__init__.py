"""The Gomoku family: freestyle, standard, Renju and Caro on boards of 5..22 cells a side."""

from plies.gomoku.board import Board
from plies.gomoku.notation import Move, parse_move, parse_moves

__all__ = ["Board", "Move", "parse_move", "parse_moves"]
