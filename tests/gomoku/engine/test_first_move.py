"""A fresh process's first engine move gets its whole budget: the kernels are loaded and the
transposition table's pages are mapped when the engine is built, before any clock starts.

Before, a fresh ``plies play --movetime 0.3`` searched its first move to depth 1-4 (87 to
1,785 nodes; later moves 100,000+): each new page of the 64 MB table probed by the first
search cost a page fault (16,384 of them), about 0.2 s of the 0.3.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fresh_process import run_plies

SCRIPT = r"""
import json, os
import numba.core.registry
from plies.gomoku import Board
from plies.gomoku.engine import Engine

def loaded():
    # compiled or cache-loaded specialisations of every plies kernel in this process
    import gc
    return sum(
        len(d.overloads)
        for d in gc.get_objects()
        if isinstance(d, numba.core.registry.CPUDispatcher)
        and d.py_func.__module__.startswith("plies.")
    )

def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

Engine("freestyle", 15, hash_mb=1)  # kernels loaded: what follows measures the table
r0 = resident()
engine = Engine("freestyle", 15)  # the default 64 MB table
built = resident() - r0
board = Board.from_moves(["h8"], 15)
out = []
for _ in range(2):
    k0 = loaded()
    result = engine.search(board, movetime=0.2)
    out.append({"kernels": loaded() - k0, "nodes": result.nodes, "built": built})
    board.play(result.move)
print(json.dumps(out))
"""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc/self/statm")
def test_first_search_loads_no_kernel_and_finds_the_table_resident() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    first, second = json.loads(proc.stdout.strip().splitlines()[-1])
    # every kernel was loaded by the constructor (no compile or cache load mid-search) ...
    assert first["kernels"] == 0, first
    assert second["kernels"] == 0, second
    # ... and the 64 MB table's pages were written then (np.zeros alone maps none of them)
    assert first["built"] > 60 * 2**20, first


def test_plies_play_first_engine_move_searches_like_the_later_ones() -> None:
    """``plies play --movetime 0.3`` in a fresh process (the cache is warm from the test
    above): the first engine move's nodes are at least a quarter of the later moves' median
    (before: 87-1,785 nodes against 100,000 and more)."""
    # --book off: the shipped book would answer these opening moves without a search; the
    # human's later stones go to far corners, cells no engine reply near h8 can have taken
    proc = run_plies(
        ["play", "--movetime", "0.3", "--book", "off"], stdin="h8\na1\no15\nquit\n", timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    nodes = [int(n) for n in re.findall(r"depth \d+/\d+\s+(\d+) nodes", proc.stdout)]
    assert len(nodes) >= 3, proc.stdout[-2000:]
    later = statistics.median(nodes[1:])
    assert nodes[0] >= later / 4, nodes
