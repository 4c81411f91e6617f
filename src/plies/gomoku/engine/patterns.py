"""Line-pattern tables: what one line through an empty cell offers a side that plays there.

A *line key* describes the ten cells around a cell along one direction (offsets -5..-1 and
1..5), two bits each: 0 empty, 1 black, 2 white, 3 wall (off the board). Bit slot ``i`` holds
offset ``i - 5`` for ``i < 5`` and offset ``i - 4`` otherwise, so the key has 20 bits.

For every key, rule and side the pattern table gives the pattern the side makes on that line by
playing the centre, by the classic "moves to five" recursion over the 11-cell window:

* ``F5``  the move makes a winning line (per rule: exactly five, Caro's blocked ends...);
* ``F4``  open four: two or more winning points remain (the opponent cannot stop it);
* ``B4``  a four: exactly one winning point;
* ``F3``/``B3``  one more own stone can make an ``F4`` / at best a ``B4``;
* ``F2``/``B2``, ``F1``/``B1``  likewise two and three stones away;
* ``DEAD`` no five containing the centre can ever be made on this line;
* ``FORBID`` (Renju, black only) the move makes an overline, or two fours on this one line.

Continuations that are forbidden on the line itself are not counted for Renju black. All fives
considered contain the centre, so the 11-cell window decides every case. Tables are computed by
a compiled dynamic programme (states with more own stones first) and cached as ``.npy`` files.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import njit

from plies.gomoku import rules
from plies.gomoku.rules import BLACK, RENJU, WHITE

DEAD = 0
FORBID = 1
B1 = 2
F1 = 3
B2 = 4
F2 = 5
B3 = 6
F3 = 7
B4 = 8
F4 = 9
F5 = 10
N_PATTERNS = 11
PATTERN_NAMES = ("dead", "forbid", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5")

KEY_BITS = 20
N_KEYS = 1 << KEY_BITS
TABLE_VERSION = 2  # 2: Caro fours that one stone stops are blocked fours


@njit(cache=True, nogil=True)
def key_slot(offset: int) -> int:
    """Bit slot (0..9) of the cell at ``offset`` (-5..-1, 1..5) from the centre."""
    return offset + 5 if offset < 0 else offset + 4


# a decoded line: the 11-cell window at indices 1..11 (centre CENTRE), a wall at 0 and 12, so
# the rules kernels' own run counting and winning-line test apply to it unchanged
CENTRE = 6
LINE_LEN = 13


@njit(cache=True, nogil=True)
def _decode(key: int, line) -> None:
    """Fill ``line`` (see CENTRE) from a 20-bit key; the centre is left empty."""
    line[0] = 3
    line[LINE_LEN - 1] = 3
    for off in range(-5, 6):
        if off == 0:
            line[CENTRE] = 0
        else:
            line[CENTRE + off] = (key >> (2 * key_slot(off))) & 3


@njit(cache=True, nogil=True)
def _run(line, own: int):
    """The own run through the centre (which must hold an own stone): (lo, hi)."""
    c = np.int64(CENTRE)  # int64 arguments, not literals: one specialisation of each kernel
    lo = CENTRE - rules.count_run(line, c, np.int64(-1), own)
    hi = CENTRE + rules.count_run(line, c, np.int64(1), own)
    return lo, hi


@njit(cache=True, nogil=True)
def _win_with(line, own: int, rule: int, e: int):
    """(whether an own stone on the empty cell ``e`` makes a winning line through the (own)
    centre, the run through the centre then as (lo, hi))."""
    line[e] = own
    a, b = _run(line, own)
    win = (a <= e <= b) and rules.five_in_direction(line, np.int64(CENTRE), np.int64(1), own, rule)
    line[e] = 0
    return win, a, b


@njit(cache=True, nogil=True)
def _wins_somewhere(line, own: int, rule: int) -> bool:
    """Whether one more own stone on an empty cell of the window makes a winning line through
    the (own) centre."""
    for e in range(1, LINE_LEN - 1):
        if e != CENTRE and line[e] == 0 and _win_with(line, own, rule, e)[0]:
            return True
    return False


@njit(cache=True, nogil=True)
def _one_block_stops(line, own: int, rule: int) -> bool:
    """Whether a single opponent stone on the window stops every winning point of the line
    (possible under Caro, where blocking one end of a four can cap the other five at both
    ends)."""
    for g in range(1, LINE_LEN - 1):
        if g == CENTRE or line[g] != 0:
            continue
        line[g] = 3 - own
        stopped = not _wins_somewhere(line, own, rule)
        line[g] = 0
        if stopped:
            return True
    return False


@njit(cache=True, nogil=True)
def _classify_fours(line, own: int, rule: int) -> int:
    """Pattern of the line with the centre played, at the four-and-above level, or -1 if the
    line holds no winning point (then the caller looks further). Whether a run wins is the
    rules kernels' own test (one source of truth per rule); the wall beyond the window is
    never an opponent stone, so Caro treats it as open."""
    lo, hi = _run(line, own)
    if rules.five_in_direction(line, np.int64(CENTRE), np.int64(1), own, rule):
        return F5
    if hi - lo + 1 >= 5:
        # a run through the centre that does not win can never become a winning line
        if rule == RENJU and own == BLACK and hi - lo + 1 >= 6:
            return FORBID
        return DEAD
    points = 0
    mask1 = -1
    mask2 = -1
    for e in range(1, LINE_LEN - 1):
        if e == CENTRE or line[e] != 0:
            continue
        win, a, b = _win_with(line, own, rule, e)
        if not win:
            continue
        points += 1
        mask = ((1 << (b - a + 1)) - 1) << a
        mask ^= 1 << e
        if mask1 == -1:
            mask1 = mask
        elif mask != mask1:
            mask2 = mask
    if points == 0:
        return -1
    caro = rule == rules.CARO or rule == rules.CARO5
    if points >= 2 and caro and _one_block_stops(line, own, rule):
        return B4  # Caro: one stone stops every five (a block that caps the other five's end)
    if mask2 != -1:
        # two different fours on one line: forbidden for Renju black, unstoppable otherwise
        if rule == RENJU and own == BLACK:
            return FORBID
        return F4
    if points >= 2:
        return F4
    return B4


@njit(cache=True, nogil=True)
def _downgrade(p: int) -> int:
    if p == F4:
        return F3
    if p == B4:
        return B3
    if p == F3:
        return F2
    if p == B3:
        return B2
    if p == F2:
        return F1
    if p == B2:
        return B1
    return DEAD


@njit(cache=True, nogil=True)
def build_table(rule: int, own: int, out) -> None:
    """Fill ``out[key]`` with the pattern ``own`` makes by playing the centre of ``key``."""
    n = 1 << KEY_BITS
    own_count = np.zeros(n, dtype=np.int8)
    for key in range(n):
        c = 0
        for slot in range(10):
            if (key >> (2 * slot)) & 3 == own:
                c += 1
        own_count[key] = c
    line = np.zeros(LINE_LEN, dtype=np.int8)
    for level in range(10, -1, -1):
        for key in range(n):
            if own_count[key] != level:
                continue
            _decode(key, line)
            line[CENTRE] = own
            p = _classify_fours(line, own, rule)
            if p == -1:
                best = DEAD
                for off in range(-5, 6):
                    if off == 0 or line[CENTRE + off] != 0:
                        continue
                    child = out[key | (own << (2 * key_slot(off)))]
                    if child == FORBID:
                        continue
                    d = _downgrade(child)
                    if d > best:
                        best = d
                p = best
            out[key] = p


def _cache_dir() -> Path:
    base = os.environ.get("PLIES_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "plies"
    )
    return Path(base)


_TABLES: dict[int, np.ndarray] = {}


def pattern_table(rule: int) -> np.ndarray:
    """The ``uint8[2, N_KEYS]`` table for ``rule``: row 0 for black, row 1 for white.

    Built once per machine and cached as ``.npy`` in ``$PLIES_CACHE_DIR`` (default
    ``~/.cache/plies``); an unreadable cache file is rebuilt.
    """
    table = _TABLES.get(rule)
    if table is not None:
        return table
    path = _cache_dir() / f"patterns-v{TABLE_VERSION}-rule{rule}.npy"
    try:
        table = np.load(path)
        if table.shape != (2, N_KEYS) or table.dtype != np.uint8:
            table = None
    except (OSError, ValueError):
        table = None
    if table is None:
        table = np.zeros((2, N_KEYS), dtype=np.uint8)
        build_table(rule, BLACK, table[0])
        build_table(rule, WHITE, table[1])
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, table)
            os.replace(tmp, path)
        except OSError:
            pass
    _TABLES[rule] = table
    return table


def forget_tables() -> None:
    """Drop the tables loaded so far (2 MB each): an engine keeps its own packed copy, and a
    later :func:`pattern_table` loads the cache file again (the lean brain counts its MB)."""
    _TABLES.clear()


def encode_line(cells: str) -> int:
    """The key of an 11-character line written as text, centre at index 5 (for tests and docs).

    Characters: ``.`` empty, ``X`` black, ``O`` white, ``#`` wall; the centre must be ``.``.
    """
    if len(cells) != 11 or cells[5] != ".":
        raise ValueError("a line is 11 characters with an empty centre")
    values = {".": 0, "X": 1, "O": 2, "#": 3}
    key = 0
    for off in range(-5, 6):
        if off:
            key |= values[cells[off + 5]] << (2 * int(key_slot(off)))
    return key


__all__ = [
    "B1",
    "B2",
    "B3",
    "B4",
    "DEAD",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "FORBID",
    "PATTERN_NAMES",
    "build_table",
    "encode_line",
    "key_slot",
    "pattern_table",
]
