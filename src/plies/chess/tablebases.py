"""Syzygy endgame tablebases at the root, through python-chess (``chess.syzygy``).

``probe_root(tablebase, board)`` returns the table move and a score when the position has few
enough pieces and no castling rights: among the legal moves it keeps those with the best WDL
for the mover (probed on the position after the move), and among them prefers, when winning,
the quickest conversion (zeroing moves first, then the smallest DTZ), when losing the longest
resistance. Scores: ``TB_WIN`` minus the DTZ for a win (a large centipawn value below the mate
range), 0 for draws (including the 50-move "cursed" and "blessed" results), the negation for
losses. Inside the search the WDL tables are probed by the compiled prober instead
(``syzygy_kernel``; a compiled kernel cannot call python-chess, whose WDL probe costs 44-93 us
of CPU, over a hundred nodes: docs/chess.md, ``benchmarks/chess_syzygy.py``).
"""

from __future__ import annotations

from typing import Protocol

import chess
import chess.syzygy

from plies.errors import InvalidOption

TB_WIN = 20000


class Tablebase(Protocol):
    """What ``probe_root`` needs (``chess.syzygy.Tablebase`` has it; tests pass a fake)."""

    def probe_wdl(self, board: chess.Board) -> int: ...

    def probe_dtz(self, board: chess.Board) -> int: ...

    def close(self) -> None: ...


def open_tablebase(path: str) -> chess.syzygy.Tablebase:
    """Open every directory of ``path`` (separated by ``;`` or the OS path separator)."""
    import os

    dirs = [d for part in path.split(";") for d in part.split(os.pathsep) if d.strip()]
    if not dirs:
        raise InvalidOption("SyzygyPath is empty")
    tb = chess.syzygy.Tablebase()
    for d in dirs:
        if not os.path.isdir(d):
            raise InvalidOption(f"SyzygyPath: no directory {d!r}")
        tb.add_directory(d)
    return tb


def max_pieces(tablebase) -> int:
    """The most pieces the opened tables cover (7 for a fake without the attribute)."""
    n = 0
    for attr in ("wdl", "dtz"):
        for name in getattr(tablebase, attr, {}) or {}:
            n = max(n, len(name) - 1)
    return n or 7


def probe_root(tablebase: Tablebase, board: chess.Board) -> tuple[chess.Move, int] | None:
    """(move, score) from the tables for the side to move, or None when they do not apply."""
    if board.castling_rights or chess.popcount(board.occupied) > max_pieces(tablebase):
        return None
    best: tuple | None = None
    try:
        for move in board.legal_moves:
            zeroing = board.is_zeroing(move)
            board.push(move)
            try:
                if board.is_checkmate():
                    wdl, dtz = 2, 0
                else:
                    wdl = -tablebase.probe_wdl(board)
                    dtz = -tablebase.probe_dtz(board)
            finally:
                board.pop()
            if wdl > 0:
                # win: zeroing first, then the fastest conversion
                rank = (wdl, 1 if zeroing else 0, -abs(dtz))
            elif wdl < 0:
                rank = (wdl, 0, abs(dtz))
            else:
                rank = (0, 0, 0)
            if best is None or rank > best[0]:
                best = (rank, move, wdl, dtz)
    except (KeyError, chess.syzygy.MissingTableError):
        return None
    if best is None:
        return None
    _, move, wdl, dtz = best
    if wdl == 2:
        score = TB_WIN - abs(dtz)
    elif wdl == -2:
        score = -TB_WIN + abs(dtz)
    else:
        score = 0
    return move, score
