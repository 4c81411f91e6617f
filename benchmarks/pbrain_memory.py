"""Peak memory of the pbrain-plies brain under Gomocup's ``max_memory`` (docs/pbrain.md).

    python benchmarks/pbrain_memory.py [--turn-ms 400]

For each configuration (max_memory, board, threads) a fresh brain process plays three moves
(``BOARD`` with three stones, then two ``TURN``s) and reports the table the brain chose (its
``DEBUG engine ...`` line) and its peak resident set size (Linux ``VmHWM``). The kernels are
loaded once first (``pbrain.load_kernels`` in a process of its own), so no compilation's peak
is counted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CONFIGS = [  # max_memory in MB (0: none), board size, threads
    (0, 15, 1),
    (200, 15, 1),
    (250, 20, 1),
    (300, 20, 2),
    (350, 20, 1),
    (350, 20, 2),
    (1024, 20, 1),
]


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc (Linux only)")


def run_brain(max_memory_mb: int, size: int, threads: int, turn_ms: int) -> tuple[str, float]:
    """The brain's sizing line and its peak RSS in MB after three moves."""
    env = dict(os.environ, PLIES_PBRAIN_DEBUG="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies.gomoku.pbrain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    sizing = ""

    def ask(*lines: str) -> str:
        nonlocal sizing
        proc.stdin.write("".join(line + "\n" for line in lines))
        proc.stdin.flush()
        while True:
            reply = proc.stdout.readline()
            if not reply:
                raise RuntimeError("the brain exited")
            reply = reply.strip()
            if reply.startswith("DEBUG engine") and " hash " in reply:
                sizing = reply[len("DEBUG ") :]
            if not reply.startswith(("MESSAGE", "DEBUG", "SUGGEST")):
                return reply

    c = size // 2
    try:
        if ask(f"START {size}") != "OK":
            raise RuntimeError("START failed")
        info = [f"INFO timeout_turn {turn_ms}", f"INFO thread_num {threads}"]
        if max_memory_mb:
            info.append(f"INFO max_memory {max_memory_mb * 1024 * 1024}")
        proc.stdin.write("".join(line + "\n" for line in info))
        ask("BOARD", f"{c},{c},2", f"{c + 1},{c + 1},1", f"{c},{c + 1},2", "DONE")
        ask(f"TURN {c - 1},{c + 2}")
        ask(f"TURN {c + 2},{c - 1}")
        return sizing, peak_rss_mb(proc.pid)
    finally:
        proc.stdin.write("END\n")
        proc.stdin.flush()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turn-ms", type=int, default=400, help="INFO timeout_turn of each move")
    args = ap.parse_args()
    code = "from plies.gomoku.pbrain import load_kernels; load_kernels()"
    subprocess.run([sys.executable, "-c", code], check=True)
    print(f"{'max_memory':>10s} {'board':>6s} {'threads':>7s} {'peak RSS':>9s}  brain's sizing")
    for mem, size, threads in CONFIGS:
        sizing, peak = run_brain(mem, size, threads, args.turn_ms)
        label = f"{mem} MB" if mem else "none"
        board = f"{size}x{size}"
        print(f"{label:>10s} {board:>6s} {threads:>7d} {peak:>6.0f} MB  {sizing}", flush=True)


if __name__ == "__main__":
    main()
