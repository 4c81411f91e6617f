"""Time the VCF and VCT solvers on the 15 quintet Renju problems (tests/data/quintet).

    python benchmarks/quintet_solve.py [--repeat 3] [--movetime 10] [--nodes N] [NAME ...]

Prints, per problem, whether a line was found, the median wall and CPU time over the repeats
and the solver's counts (VCT: df-pn nodes and the moves made by its VCF probes). ``--nodes``
caps the df-pn nodes instead of the clock (deterministic counts, for comparing versions on a
loaded machine). One fresh ``Engine`` for all; the first call compiles or loads the kernels
and is not timed. Results go to docs/engine.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from plies.gomoku import Board, Move, rules
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine.api import Engine

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "quintet"


def problems() -> list[dict]:
    text = (DATA / "quintet_mate_tests.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def problem_board(problem: dict) -> Board:
    """The problem's position as a board (stones interleaved; black may pass through
    forbidden points on the way, which the position itself never needs)."""
    size = problem["size"]
    black = [Move(x, size - 1 - y) for x, y in problem["black"]]
    white = [Move(x, size - 1 - y) for x, y in problem["white"]]
    board = Board(size, problem["rule"], forbidden="loses")
    for i in range(max(len(black), len(white))):
        for stones in (black, white):
            if i < len(stones):
                board.play(stones[i])
    expect = 1 if problem["side_to_move"] == "black" else 2
    if board.to_move != expect or board.is_over:
        raise ValueError(f"{problem['name']}: cannot set up the position")
    return board


def solve_vcf(problem: dict) -> list[int] | None:
    """The VCF kernel on the problem's stones (some VCF problems have one stone more for the
    side to move than a game could have, so no Board holds them)."""
    size = problem["size"]
    black = [(x, size - 1 - y) for x, y in problem["black"]]
    white = [(x, size - 1 - y) for x, y in problem["white"]]
    side = 1 if problem["side_to_move"] == "black" else 2
    st, tb = ST.state_from_stones(size, size, rules.RENJU, black, white, side)
    keys, depth = V.new_vcf_tt()
    seq = np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64)
    stop = np.zeros(1, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    n = V.vcf(st, tb, V.MAX_VCF_DEPTH, 10_000_000, keys, depth, seq, stop, counter)
    return [int(p) for p in seq[:n]] if n > 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--movetime", type=float, default=10.0)
    ap.add_argument("--nodes", type=int, default=None, help="df-pn node limit (no clock)")
    args = ap.parse_args()
    engine = Engine("renju", 15, hash_mb=1)
    engine.vct(problem_board(problems()[5]), max_depth=2, max_nodes=1000)  # warm up
    print(
        f"{'problem':33s} {'kind':4s} {'found':5s} {'plies':>5s} {'median s':>9s} "
        f"{'cpu s':>7s} {'nodes':>9s} {'vcf moves':>10s}"
    )
    for p in problems():
        if args.names and p["name"] not in args.names:
            continue
        vcf = p["solver"] == "VCFDFS"
        board = None if vcf else problem_board(p)
        times = []
        cpu = []
        line = None
        stats = {"nodes": "-", "vcf_nodes": "-"}
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            c0 = time.process_time()
            if vcf:
                line = solve_vcf(p)
            elif args.nodes is not None:
                line = engine.vct(board, max_depth=40, max_nodes=args.nodes)
                stats = engine.vct_stats
            else:
                line = engine.vct(board, max_depth=40, movetime=args.movetime)
                stats = engine.vct_stats
            cpu.append(time.process_time() - c0)
            times.append(time.perf_counter() - t0)
        found = "yes" if line else "no"
        plies = len(line) if line else 0
        print(
            f"{p['name']:33s} {'VCF' if vcf else 'VCT':4s} {found:5s} {plies:5d} "
            f"{statistics.median(times):9.3f} {statistics.median(cpu):7.3f} "
            f"{stats['nodes']:>9} {stats['vcf_nodes']:>10}",
            flush=True,
        )


if __name__ == "__main__":
    main()
