"""The Gomoku family: freestyle, standard, Renju and Caro on boards of 5..22 cells a side.

``Board``, ``Move``, ``parse_move`` and ``parse_moves`` are imported on first use, so that
importing a light submodule (``plies.gomoku.pbrain`` answers ``START`` before numba loads)
does not pay for numba and the kernels.
"""

from plies.kernel_cache import ensure_fresh

ensure_fresh()  # before any kernel is loaded from numba's cache (see plies.kernel_cache)

__all__ = ["Board", "Move", "parse_move", "parse_moves"]


def __getattr__(name: str):
    if name == "Board":
        from plies.gomoku.board import Board

        return Board
    if name in ("Move", "parse_move", "parse_moves"):
        from plies.gomoku import notation

        return getattr(notation, name)
    raise AttributeError(f"module 'plies.gomoku' has no attribute {name!r}")
