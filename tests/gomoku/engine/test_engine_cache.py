"""The search kernels load from the numba cache in a fresh process (DESIGN.md's warning).

``pvs`` is recursive; numba's cache breaks when a cached kernel calls a recursive cached kernel,
or when a recursive call changes an argument's type (numba issue 6713). Running a full search
(with VCF at the leaves and Renju checks) twice in fresh processes proves the second process,
which loads everything from the cache written by this test run, works.
"""

from __future__ import annotations

import textwrap

from fresh_process import run_twice

SCRIPT = textwrap.dedent(
    """
    from plies.gomoku import Board
    from plies.gomoku.engine.api import Engine

    for rule in ("freestyle", "renju"):
        board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11", "h9"], 15, rule)
        engine = Engine(rule, hash_mb=4)
        result = engine.search(board, nodes=30000)
        print(rule, result.move, result.score, result.nodes)
    """
)


def test_search_runs_twice_from_the_cache() -> None:
    outputs = run_twice(SCRIPT)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") == 2
