"""Nodes per CPU second of ``plies bench chess`` (one thread, after warm-up).

    PYTHONPATH=src python benchmarks/chess_bench_cpu.py [--repeat 3] [--depth 11]

Runs the bench ``--repeat`` times in this process after a warm-up and prints, per run, the
nodes, the signature, nodes per CPU second of the process (``time.process_time``, which the
machine's other jobs do not inflate) and nodes per wall second. To compare two versions, run
this alternately for each in separate processes and compare medians.
"""

from __future__ import annotations

import argparse
import statistics
import time

from plies.chess.engine.bench import run_bench


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--depth", type=int, default=11)
    args = ap.parse_args()
    run_bench(depth=6)  # warm-up: compile or load the kernels
    cpu_rates = []
    for _ in range(args.repeat):
        c0 = time.process_time()
        report = run_bench(depth=args.depth)
        cpu = time.process_time() - c0
        cpu_rates.append(report.nodes / cpu)
        print(
            f"nodes {report.nodes:,}  signature {report.signature}  "
            f"{report.nodes / cpu:,.0f} nodes/CPU s  {report.nps:,} nodes/s wall"
        )
    print(f"median {statistics.median(cpu_rates):,.0f} nodes/CPU s")


if __name__ == "__main__":
    main()
