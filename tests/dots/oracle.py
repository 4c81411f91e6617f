"""A deliberately simple Dots and Boxes implementation: the oracle for the property tests.

Lines are ``('h', r, c)`` / ``('v', r, c)`` tuples in a set; a box is complete when its four
named sides are in the set. Values by memoised exhaustive minimax.
"""

from __future__ import annotations

from functools import cache


def all_lines(rows: int, cols: int) -> list[tuple[str, int, int]]:
    hs = [("h", r, c) for r in range(rows + 1) for c in range(cols)]
    vs = [("v", r, c) for r in range(rows) for c in range(cols + 1)]
    return hs + vs


def sides(r: int, c: int) -> list[tuple[str, int, int]]:
    return [("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)]


def completed_by(rows: int, cols: int, drawn: frozenset, line) -> int:
    """Boxes that ``line`` completes when added to ``drawn``."""
    after = drawn | {line}
    n = 0
    for r in range(rows):
        for c in range(cols):
            s = sides(r, c)
            if line in s and all(x in after for x in s):
                n += 1
    return n


_VALUES: dict = {}


def value(rows: int, cols: int, drawn: frozenset) -> int:
    """The mover's margin over the rest of the game under perfect play (memoised per size
    for the whole test session)."""
    if (rows, cols) not in _VALUES:
        _VALUES[(rows, cols)] = _value_function(rows, cols)
    return _VALUES[(rows, cols)](frozenset(drawn))


def _value_function(rows: int, cols: int):
    lines = all_lines(rows, cols)

    @cache
    def v(d: frozenset) -> int:
        free = [x for x in lines if x not in d]
        if not free:
            return 0
        best = -1000
        for x in free:
            k = completed_by(rows, cols, d, x)
            child = d | {x}
            best = max(best, k + v(child) if k else -v(child))
        return best

    return v


def replay(rows: int, cols: int, moves: list) -> tuple[frozenset, int, list[int]]:
    """Play ``moves`` (tuples) from the start: the lines, the player to move, the scores."""
    drawn: frozenset = frozenset()
    player, scores = 0, [0, 0]
    for x in moves:
        k = completed_by(rows, cols, drawn, x)
        drawn = drawn | {x}
        if k:
            scores[player] += k
        else:
            player = 1 - player
    return drawn, player, scores
