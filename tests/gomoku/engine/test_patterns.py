"""Line-pattern tables against a slow, direct reference and hand-checked lines."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from plies.gomoku import rules
from plies.gomoku.engine import patterns as P

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
RULES = [rules.FREESTYLE, rules.STANDARD, rules.RENJU, rules.CARO, rules.CARO5]


def _wins(line: tuple[int, ...], lo: int, hi: int, own: int, rule: int) -> bool:
    n = hi - lo + 1
    if n < 5:
        return False
    if rule == rules.FREESTYLE:
        return True
    if rule == rules.STANDARD:
        return n == 5
    if rule == rules.RENJU:
        return n == 5 or own == WHITE
    opp = 3 - own
    left = line[lo - 1] if lo > 0 else EMPTY
    right = line[hi + 1] if hi < 10 else EMPTY
    if left == opp and right == opp:
        return False
    return True if rule == rules.CARO else n == 5


def _run_through_centre(line: tuple[int, ...], own: int) -> tuple[int, int]:
    lo = hi = 5
    while lo > 0 and line[lo - 1] == own:
        lo -= 1
    while hi < 10 and line[hi + 1] == own:
        hi += 1
    return lo, hi


def _winning_runs(line: tuple[int, ...], own: int, rule: int) -> list[tuple[int, int, int]]:
    """(cell, lo, hi) for every empty cell where one more own stone wins through the centre."""
    out = []
    for e in range(11):
        if e == 5 or line[e] != EMPTY:
            continue
        trial = list(line)
        trial[e] = own
        a, b = _run_through_centre(tuple(trial), own)
        if a <= e <= b and _wins(tuple(trial), a, b, own, rule):
            out.append((e, a, b))
    return out


@cache
def reference(line: tuple[int, ...], own: int, rule: int) -> int:
    """The pattern of an 11-cell line whose centre holds an own stone, straight from the
    definition in patterns.py, by plain recursion."""
    lo, hi = _run_through_centre(line, own)
    if _wins(line, lo, hi, own, rule):
        return P.F5
    if hi - lo + 1 >= 5:
        return P.FORBID if (rule == rules.RENJU and own == BLACK and hi - lo >= 5) else P.DEAD
    runs = _winning_runs(line, own, rule)
    points = len(runs)
    fours = {frozenset(range(a, b + 1)) - {e} for e, a, b in runs}
    if points:
        if points >= 2 and rule in (rules.CARO, rules.CARO5):
            # one opponent stone that leaves no winning point (it caps the other five's end)
            for g in range(11):
                if g == 5 or line[g] != EMPTY:
                    continue
                trial = list(line)
                trial[g] = 3 - own
                if not _winning_runs(tuple(trial), own, rule):
                    return P.B4
        if len(fours) >= 2:
            return P.FORBID if (rule == rules.RENJU and own == BLACK) else P.F4
        return P.F4 if points >= 2 else P.B4
    down = {P.F4: P.F3, P.B4: P.B3, P.F3: P.F2, P.B3: P.B2, P.F2: P.F1, P.B2: P.B1}
    best = P.DEAD
    for e in range(11):
        if e == 5 or line[e] != EMPTY:
            continue
        trial = list(line)
        trial[e] = own
        child = reference(tuple(trial), own, rule)
        if child == P.FORBID:
            continue
        best = max(best, down.get(child, P.DEAD))
    return best


def _line_of(key: int) -> tuple[int, ...]:
    line = [EMPTY] * 11
    for off in range(-5, 6):
        if off:
            line[off + 5] = (key >> (2 * P.key_slot(off))) & 3
    return tuple(line)


def _realistic_keys(rng: np.random.Generator, count: int) -> list[int]:
    """Keys as they occur on boards: walls only as a run from either end of the window."""
    keys = []
    for _ in range(count):
        line = list(rng.choice([EMPTY, EMPTY, BLACK, BLACK, WHITE], size=11))
        left = int(rng.integers(0, 6)) if rng.random() < 0.3 else 0
        right = int(rng.integers(0, 6)) if rng.random() < 0.3 else 0
        for i in range(left):
            line[i] = WALL
        for i in range(right):
            line[10 - i] = WALL
        line[5] = EMPTY
        keys.append(P.encode_line("".join(".XO#"[v] for v in line)))
    return keys


@pytest.mark.parametrize("rule", RULES)
def test_table_matches_reference_on_random_lines(rule: int) -> None:
    table = P.pattern_table(rule)
    rng = np.random.default_rng(rule)
    for key in _realistic_keys(rng, 1500):
        line = list(_line_of(key))
        for side, own in ((0, BLACK), (1, WHITE)):
            line[5] = own
            expected = reference(tuple(line), own, rule)
            assert table[side, key] == expected, (rule, own, P.PATTERN_NAMES[expected], key)


@pytest.mark.parametrize(
    ("line", "rule", "expected"),
    [
        ("...XX.XX...", rules.FREESTYLE, P.F5),
        ("...XX.X....", rules.FREESTYLE, P.F4),  # .XXXX.
        ("..OXX.X....", rules.FREESTYLE, P.B4),  # blocked four
        ("###XX.X....", rules.FREESTYLE, P.B4),  # the edge blocks too
        ("###XX.XO...", rules.FREESTYLE, P.DEAD),
        ("...XX......", rules.FREESTYLE, P.F3),
        ("..X.X......", rules.FREESTYLE, P.F3),  # split three X.XX
        ("....X......", rules.FREESTYLE, P.F2),
        ("...........", rules.FREESTYLE, P.F1),
        (".XXXX.X....", rules.FREESTYLE, P.F5),  # six wins in freestyle
        (".XXXX.X....", rules.STANDARD, P.DEAD),  # ... not in standard
        (".XXXX.X....", rules.RENJU, P.FORBID),  # black overline is forbidden in Renju
        (".X.XX.X.X..", rules.RENJU, P.DEAD),  # both completions are overlines
        ("..XX..X.X..", rules.RENJU, P.B4),
        (".XXX..XXX..", rules.RENJU, P.B4),
        ("...X..XX.X.", rules.FREESTYLE, P.F4),  # X.XXX.X: two fours on one line
        ("...X..XX.X.", rules.RENJU, P.FORBID),  # ... a forbidden double four for black
        (".OXXX.O....", rules.CARO, P.DEAD),  # five blocked at both ends does not win
        ("OXXXX......", rules.CARO, P.F5),  # one end blocked: wins
        ("#XXXX.O....", rules.CARO, P.F5),  # the edge does not block in Caro
        ("..XXX..O...", rules.FREESTYLE, P.F4),  # .XXXX.O: an open four ...
        ("..XXX..O...", rules.CARO, P.B4),  # ... but under Caro O.XXXX.O after the block
        ("..XXX..O...", rules.CARO5, P.B4),
    ],
)
def test_hand_checked_lines(line: str, rule: int, expected: int) -> None:
    got = P.pattern_table(rule)[0, P.encode_line(line)]
    assert P.PATTERN_NAMES[got] == P.PATTERN_NAMES[expected]


def test_white_overline_wins_in_renju_only() -> None:
    six = P.encode_line(".OOOO.O....")  # the centre makes six in a row
    assert P.pattern_table(rules.RENJU)[1, six] == P.F5
    assert P.pattern_table(rules.FREESTYLE)[1, six] == P.F5
    assert P.pattern_table(rules.STANDARD)[1, six] == P.DEAD


def test_encode_line_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        P.encode_line("XXXXX")
    with pytest.raises(ValueError):
        P.encode_line(".....X.....")


@pytest.mark.parametrize("rule", [rules.RENJU, rules.CARO])
def test_fresh_build_equals_the_cached_table(rule: int) -> None:
    # the cached .npy (used everywhere else) must be what the builder makes today
    fresh = np.zeros(P.N_KEYS, dtype=np.uint8)
    P.build_table(rule, BLACK, fresh)
    assert np.array_equal(fresh, P.pattern_table(rule)[0])
