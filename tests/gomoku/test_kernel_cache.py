"""The numba cache must work across processes.

DESIGN.md records that a ``cache=True`` kernel calling a recursive ``cache=True`` kernel
segfaulted when a second process loaded it from the cache (the first, compiling, process was
fine). This runs the same script in two fresh processes sharing an empty cache directory: the
first compiles and writes the cache, the second loads it. Both must succeed and agree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    from plies.gomoku import Board
    from plies.gomoku import rules

    rules.warmup()

    # Renju: a false double three (the row's only straight-four point is a double four),
    # which needs the recursive forbidden check, then a real double three.
    board = Board(15, "renju")
    black = [(3, 6), (5, 6), (4, 7), (6, 7), (4, 8), (6, 8), (4, 9)]
    white = [(14, 14), (11, 14), (8, 14), (14, 11), (14, 8), (14, 5), (12, 12)]
    for b, w in zip(black, white):
        board.play(b)
        board.play(w)
    print("forbidden", sorted(m.pbrain() for m in board.forbidden_points()))
    print("a", board.is_forbidden((6, 6)))
    board.undo()
    board.undo()
    print("a without (4,9)", board.is_forbidden((6, 6)))

    # a win for every rule, with its line
    for rule in rules.RULE_NAMES:
        board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "l8"], 15, rule)
        print(rule, board.winner, [m.pbrain() for m in board.winning_line])
    """
)


def run(cache_dir) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    return subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_kernels_load_from_a_warm_cache_in_a_second_process(tmp_path):
    cache = tmp_path / "numba-cache"
    first = run(cache)
    assert first.returncode == 0, first.stderr
    cached = [p.name for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert any("is_forbidden" in name for name in cached), cached  # the cache was written

    second = run(cache)
    assert second.returncode == 0, f"exit {second.returncode}: {second.stderr}"
    assert second.stdout == first.stdout
    lines = first.stdout.splitlines()
    assert "a False" in lines and "a without (4,9) True" in lines
    assert "renju 1 ['7,7', '8,7', '9,7', '10,7', '11,7']" in lines
