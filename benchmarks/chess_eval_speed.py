"""Time of one static evaluation (and, for scale, of one full move generation), averaged over
the positions of the WAC set. The printed checksum (sum over the set) must not change when the
evaluation is only made faster. On a busy machine compare the minimum over many short runs
(load only adds time).

    PYTHONPATH=src python benchmarks/chess_eval_speed.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import chess
import numpy as np
from numba import njit

from plies.chess.engine.board import MAX_MOVES, generate
from plies.chess.engine.evaluate import SCRATCH, evaluate
from plies.chess.position import Position, default_eval_arrays

WAC = Path(__file__).resolve().parent / "data" / "chess" / "wac.epd"


@njit(nogil=True)
def _eval_loop(bds, sts, w, scratch, repeat):
    total = 0
    for _ in range(repeat):
        for i in range(bds.shape[0]):
            total += evaluate(bds[i], sts[i], w, scratch)
    return total


@njit(nogil=True)
def _gen_loop(bds, sts, out, repeat):
    total = 0
    for _ in range(repeat):
        for i in range(bds.shape[0]):
            total += generate(bds[i], sts[i], out, 0, True)
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    pst, w = default_eval_arrays()
    positions = [
        Position.from_board(chess.Board.from_epd(line)[0])
        for line in WAC.read_text().splitlines()
        if line.strip()
    ]
    bds = np.stack([p.bd for p in positions])
    sts = np.stack([p.st for p in positions])
    scratch = np.zeros(SCRATCH + 64, dtype=np.int64)
    out = np.zeros(MAX_MOVES, dtype=np.int64)
    checksum = _eval_loop(bds, sts, w, scratch, 1)
    _gen_loop(bds, sts, out, 1)
    calls = args.repeat * len(positions)
    ev, gen = [], []
    for _ in range(args.runs):
        t = time.process_time()
        _eval_loop(bds, sts, w, scratch, args.repeat)
        ev.append((time.process_time() - t) / calls * 1e9)
        t = time.process_time()
        _gen_loop(bds, sts, out, args.repeat)
        gen.append((time.process_time() - t) / calls * 1e9)
    print(
        f"evaluate {statistics.median(ev):.0f} ns/call (min {min(ev):.0f}), generate "
        f"{statistics.median(gen):.0f} ns/call (min {min(gen):.0f}) (CPU time, median and minimum "
        f"of {args.runs} runs); eval checksum {checksum}"
    )


if __name__ == "__main__":
    main()
