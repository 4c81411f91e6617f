"""Nodes per CPU second of the Gomoku bench (one thread, after a warm-up).

    PYTHONPATH=src python benchmarks/gomoku_bench_cpu.py [--depth 9] [--repeat 1]

Runs ``run_bench(depth=4)`` to load or compile the kernels, then the bench to ``--depth``
``--repeat`` times, printing the nodes, the signature and nodes per CPU second of the process
(``time.process_time``: the machine's other jobs do not inflate it). To compare two builds,
run this alternately for each in separate processes and compare the best (or median) rates.
"""

from __future__ import annotations

import argparse
import time

from plies.gomoku.engine.bench import run_bench


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    run_bench(depth=4)  # warm-up: compile or load the kernels
    for _ in range(args.repeat):
        c0 = time.process_time()
        report = run_bench(depth=args.depth)
        cpu = time.process_time() - c0
        print(
            f"nodes {report.nodes}  signature {report.signature}  "
            f"{report.nodes / cpu:.0f} nodes/CPU s  {report.nps} nodes/s wall"
        )


if __name__ == "__main__":
    main()
