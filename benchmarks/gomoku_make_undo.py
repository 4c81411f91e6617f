"""Cost of one make + undo of the Gomoku engine state, on the bench positions.

    python benchmarks/gomoku_make_undo.py [--reps 300] [--rounds 7]

Every candidate cell (an empty cell near a stone) of every bench position is played and taken
back ``reps`` times in a compiled loop; the figure is the minimum over ``rounds`` of the CPU time
per make + undo pair (the minimum is the run least disturbed by other work on the machine).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from plies.gomoku import Board
from plies.gomoku.engine import state as ST
from plies.gomoku.engine.bench import bench_positions


@njit(nogil=True)
def _loop(st, tb, cells, reps: int) -> int:
    total = 0
    for _ in range(reps):
        for i in range(cells.shape[0]):
            ST.make(st, tb, cells[i])
            total += st.info[ST.I_VALSUM]
            ST.undo(st, tb)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    data = []
    for rule, size, moves in bench_positions():
        st, tb = ST.state_from_board(Board.from_moves(moves, size, rule))
        cells = np.flatnonzero((st.cells == 0) & (st.near > 0)).astype(np.int64)
        _loop(st, tb, cells, 1)
        data.append((st, tb, cells))
    best = float("inf")
    for _ in range(args.rounds):
        seconds = 0.0
        pairs = 0
        for st, tb, cells in data:
            t = time.process_time()
            _loop(st, tb, cells, args.reps)
            seconds += time.process_time() - t
            pairs += args.reps * cells.shape[0]
        best = min(best, seconds / pairs)
    print(f"{best * 1e9:.0f} ns per make + undo (minimum over {args.rounds} rounds)")


if __name__ == "__main__":
    main()
