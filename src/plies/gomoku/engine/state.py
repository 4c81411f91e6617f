"""The engine's position: incremental line keys, patterns, threat classes and cell values.

The board layout is the rules kernels' padded array (see ``plies.gomoku.rules``), so every
rules kernel (winner, Renju forbidden check) runs on the engine's board directly.

For every cell and direction the state keeps the 20-bit line key of its ten neighbours; for
every empty cell and side, the four line patterns packed into a 16-bit index ``p4`` (a nibble a
direction), and from it, through two small tables, the cell's *threat class* and *value*.
Playing or taking back a stone touches only the cells within five steps on its four lines.
Counts of empty cells per class and side, and the sums of cell values per side, are kept too,
so "does the opponent have a four?" and the evaluation cost nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from plies.gomoku import rules
from plies.gomoku.engine import params
from plies.gomoku.engine import patterns as P
from plies.gomoku.rules import BLACK, EMPTY, PAD, RENJU, WALL, WHITE

# threat classes of an empty cell for one side (what playing there makes)
C_NONE = 0
C_THREE = 1  # an open three
C_THREE2 = 2  # two open threes
C_FOUR = 3  # a four (one winning point)
C_FOUR_THREE = 4  # a four and an open three
C_FLEX4 = 5  # an open four or two fours: wins next move
C_FIVE = 6  # a winning line
C_FORBID = 7  # Renju black: overline or double four (certainly forbidden)
N_CLASSES = 8
CHECK_FLAG = 8  # Renju black: two or more threes, the exact recursive check decides
CLASS_NAMES = ("none", "three", "double-three", "four", "four-three", "flex-four", "five", "forbid")

MAX_CELLS = rules.MAX_SIZE * rules.MAX_SIZE
# a move changes at most its own cell and five cells each way on its four lines
UNDO_ROWS = MAX_CELLS * 41 + 1
NEAR_RADIUS = 2

# info[] slots
I_WIDTH = 0
I_HEIGHT = 1
I_STRIDE = 2
I_RULE = 3
I_PLY = 4
I_VALSUM = 5  # 5: black, 6: white
I_SIDE = 7  # colour to move
I_BASE_PLY = 8  # number of stones the state started with (undo stops there)

# weights[] slots
W_ATTACK = 0
W_DEFENCE = 1
W_COUNT = 2


class Tables(NamedTuple):
    """The read-only tables of one rule."""

    pattern: np.ndarray  # uint8[2**20]: line key -> black's pattern | white's pattern << 4
    p4class: np.ndarray  # uint8[2, 2**16]: packed four patterns -> threat class (| CHECK_FLAG)
    p4value: np.ndarray  # int16[2, 2**16]: packed four patterns -> cell value
    zobrist: np.ndarray  # uint64[3, MAX_PADDED]; row 0 holds the side-to-move key
    weights: np.ndarray  # int32[W_COUNT]: scalar weights (W_* slots), passed so kernels
    # never freeze tunable numbers into their compiled code


class State(NamedTuple):
    """A position and everything derived from it, updated incrementally."""

    cells: np.ndarray  # int8[N] padded board
    keys: np.ndarray  # int32[4, N] line keys
    p4: np.ndarray  # int32[2, N] four patterns (nibble per direction), per side
    cls: np.ndarray  # uint8[2, N] threat class of empty cells
    val: np.ndarray  # int32[2, N] value of empty cells
    counts: np.ndarray  # int32[2, N_CLASSES] empty cells per class
    near: np.ndarray  # int16[N] stones within NEAR_RADIUS (square)
    moves: np.ndarray  # int32[MAX_CELLS + 1] move stack
    hashes: np.ndarray  # uint64[MAX_CELLS + 1] hash after each ply (hashes[ply])
    info: np.ndarray  # int64[16] scalars, see I_* slots
    # undo stack: what make changed, restored by undo without any table look-up
    utop: np.ndarray  # int32[MAX_CELLS + 2]: first row of ply's entries in ucells
    ucells: np.ndarray  # int32[UNDO_ROWS, 6]: cell, p4 black, p4 white, classes, values
    ucounts: np.ndarray  # int32[MAX_CELLS + 1, 2 * N_CLASSES + 2]: counts and value sums


@njit(cache=True, nogil=True)
def classify_p4(rule: int, side: int, idx: int, pattern_value, class_bonus):
    """(class | CHECK_FLAG, value) of a cell whose four line patterns are packed in ``idx``."""
    n5 = nf4 = nb4 = nf3 = nforbid = 0
    value = 0
    for k in range(4):
        p = (idx >> (4 * k)) & 15
        if p >= P.N_PATTERNS:
            return C_NONE, 0
        value += pattern_value[p]
        if p == P.F5:
            n5 += 1
        elif p == P.F4:
            nf4 += 1
        elif p == P.B4:
            nb4 += 1
        elif p == P.F3:
            nf3 += 1
        elif p == P.FORBID:
            nforbid += 1
    fours = nf4 + nb4
    renju_black = rule == RENJU and side == BLACK
    if n5 > 0:
        cls = C_FIVE
    elif renju_black and (nforbid > 0 or fours >= 2):
        return C_FORBID, 0
    elif nf4 > 0 or fours >= 2:
        cls = C_FLEX4
    elif nb4 > 0 and nf3 > 0:
        cls = C_FOUR_THREE
    elif nb4 > 0:
        cls = C_FOUR
    elif nf3 >= 2:
        cls = C_THREE2
    elif nf3 > 0:
        cls = C_THREE
    else:
        cls = C_NONE
    value += class_bonus[cls]
    if renju_black and cls != C_FIVE and nf3 >= 2:
        cls |= CHECK_FLAG
    return cls, value


@njit(cache=True, nogil=True)
def build_p4_tables(rule: int, pattern_value, class_bonus, cls_out, val_out) -> None:
    """Fill the packed-pattern class and value tables (``[2, 2**16]``) of ``rule``."""
    for s in range(2):
        for idx in range(1 << 16):
            c, v = classify_p4(rule, s + 1, idx, pattern_value, class_bonus)
            cls_out[s, idx] = c
            val_out[s, idx] = v


def p4_tables(rule: int, pattern_value=None, class_bonus=None) -> tuple[np.ndarray, np.ndarray]:
    """The packed-pattern class and value tables of ``rule`` from the parameters (the
    defaults of :mod:`params` unless given)."""
    pv = np.asarray(params.PATTERN_VALUE if pattern_value is None else pattern_value, np.int32)
    cb = np.asarray(params.CLASS_BONUS if class_bonus is None else class_bonus, np.int32)
    cls = np.zeros((2, 1 << 16), dtype=np.uint8)
    val = np.zeros((2, 1 << 16), dtype=np.int32)
    build_p4_tables(rule, pv, cb, cls, val)
    if np.abs(val).max() > np.iinfo(np.int16).max:
        raise ValueError("pattern values too large: a cell's value must fit in 16 bits")
    return cls, val.astype(np.int16)


def make_tables(rule: int, overrides: dict | None = None) -> Tables:
    """All tables for ``rule``; ``overrides`` replaces parameters of :mod:`params` by name
    (``PATTERN_VALUE``, ``CLASS_BONUS``, ``ATTACK``, ``DEFENCE``), for tuning."""
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(params.TUNABLE)
    if unknown:
        raise KeyError(f"unknown engine parameters: {sorted(unknown)}")
    cls, val = p4_tables(rule, overrides.get("PATTERN_VALUE"), overrides.get("CLASS_BONUS"))
    zob = rules.ZOBRIST.copy()
    zob[0, 0] = np.uint64(0x9E3779B97F4A7C15)  # side-to-move key
    weights = np.zeros(W_COUNT, dtype=np.int32)
    weights[W_ATTACK] = overrides.get("ATTACK", params.ATTACK)
    weights[W_DEFENCE] = overrides.get("DEFENCE", params.DEFENCE)
    both = P.pattern_table(rule)
    packed = both[0] | (both[1] << 4)  # one look-up gives both sides' patterns
    return Tables(packed, cls, val, zob, weights)


def new_state(width: int, height: int, rule: int) -> State:
    """An empty position of the given size and rule (tables are passed separately)."""
    cells = rules.new_cells(width, height)
    n = cells.shape[0]
    info = np.zeros(16, dtype=np.int64)
    info[I_WIDTH] = width
    info[I_HEIGHT] = height
    info[I_STRIDE] = rules.padded_stride(width)
    info[I_RULE] = rule
    info[I_SIDE] = BLACK
    st = State(
        cells,
        np.zeros((4, n), dtype=np.int32),
        np.zeros((2, n), dtype=np.int32),
        np.zeros((2, n), dtype=np.uint8),
        np.zeros((2, n), dtype=np.int32),
        np.zeros((2, N_CLASSES), dtype=np.int32),
        np.zeros(n, dtype=np.int16),
        np.zeros(MAX_CELLS + 1, dtype=np.int32),
        np.zeros(MAX_CELLS + 1, dtype=np.uint64),
        info,
        np.zeros(MAX_CELLS + 2, dtype=np.int32),
        np.zeros((UNDO_ROWS, 6), dtype=np.int32),
        np.zeros((MAX_CELLS + 1, 2 * N_CLASSES + 2), dtype=np.int32),
    )
    return st


@njit(cache=True, nogil=True)
def rebuild(st, tb) -> None:
    """Recompute every derived array from ``st.cells`` and ``st.info`` (from scratch)."""
    stride = st.info[I_STRIDE]
    width = st.info[I_WIDTH]
    height = st.info[I_HEIGHT]
    n = st.cells.shape[0]
    st.keys[:, :] = 0
    st.p4[:, :] = 0
    st.cls[:, :] = 0
    st.val[:, :] = 0
    st.counts[:, :] = 0
    st.near[:] = 0
    st.info[I_VALSUM] = 0
    st.info[I_VALSUM + 1] = 0
    st.utop[:] = 0
    h = np.uint64(0)
    for p in range(n):
        c = st.cells[p]
        if c == WALL:
            continue
        if c == BLACK or c == WHITE:
            h ^= tb.zobrist[c, p]
            for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
                for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
                    st.near[p + dy * stride + dx] += 1
        for k in range(4):
            d = rules.direction(k, stride)
            key = 0
            for off in range(-5, 6):
                if off == 0:
                    continue
                q = p + off * d
                v = 3
                if 0 <= q < n:
                    v = st.cells[q]
                key |= v << (2 * P.key_slot(off))
            st.keys[k, p] = key
    for y in range(height):
        for x in range(width):
            p = (y + PAD) * stride + x + PAD
            if st.cells[p] == EMPTY:
                _refresh_cell(st, tb, p)
    if st.info[I_SIDE] == WHITE:
        h ^= tb.zobrist[0, 0]
    st.hashes[st.info[I_PLY]] = h


@njit(cache=True, nogil=True)
def _refresh_cell(st, tb, p: int) -> None:
    """Recompute the patterns, class and value of the empty cell ``p`` from its keys and add
    them to the counts and sums (the cell must not be counted already)."""
    for s in range(2):
        idx = 0
        for k in range(4):
            idx |= np.int32((tb.pattern[st.keys[k, p]] >> (4 * s)) & 15) << (4 * k)
        st.p4[s, p] = idx
        c = tb.p4class[s, idx]
        v = tb.p4value[s, idx]
        st.cls[s, p] = c
        st.val[s, p] = v
        st.counts[s, c & 7] += 1
        st.info[I_VALSUM + s] += v


@njit(cache=True, nogil=True, _nrt=False)
def _forget_cell(st, p: int) -> None:
    """Take the empty cell ``p`` out of the counts and sums and clear its entries (before it
    is occupied: occupied cells hold zeros)."""
    for s in range(2):
        st.counts[s, st.cls[s, p] & 7] -= 1
        st.info[I_VALSUM + s] -= st.val[s, p]
        st.p4[s, p] = 0
        st.cls[s, p] = 0
        st.val[s, p] = 0


@njit(cache=True, nogil=True, _nrt=False)
def _update_line_cell(st, tb, p: int, k: int, row: int) -> int:
    """Direction ``k``'s key of the empty cell ``p`` changed: update its patterns, classes and
    values, saving the old ones at ``row`` of the undo stack first if they change; return the
    next free row."""
    pat = np.int32(tb.pattern[st.keys[k, p]])
    shift = 4 * k
    mask = ~(15 << shift)
    idx0 = (st.p4[0, p] & mask) | ((pat & 15) << shift)
    idx1 = (st.p4[1, p] & mask) | ((pat >> 4) << shift)
    if idx0 == st.p4[0, p] and idx1 == st.p4[1, p]:
        return row
    _save_cell(st, row, p)
    for s in range(2):
        idx = idx0 if s == 0 else idx1
        st.p4[s, p] = idx
        c = tb.p4class[s, idx]
        v = np.int32(tb.p4value[s, idx])
        st.counts[s, st.cls[s, p] & 7] -= 1
        st.counts[s, c & 7] += 1
        st.info[I_VALSUM + s] += v - st.val[s, p]
        st.cls[s, p] = c
        st.val[s, p] = v
    return row + 1


@njit(cache=True, nogil=True, _nrt=False)
def _save_cell(st, row: int, p: int) -> None:
    """Push the patterns, classes and values of cell ``p`` on the undo stack at ``row``."""
    u = st.ucells
    u[row, 0] = p
    u[row, 1] = st.p4[0, p]
    u[row, 2] = st.p4[1, p]
    u[row, 3] = np.int32(st.cls[0, p]) | (np.int32(st.cls[1, p]) << 8)
    u[row, 4] = st.val[0, p]
    u[row, 5] = st.val[1, p]


@njit(cache=True, nogil=True, _nrt=False)
def make(st, tb, pos: int) -> None:
    """Play the side to move on the empty cell ``pos``."""
    side = st.info[I_SIDE]
    stride = st.info[I_STRIDE]
    ply = st.info[I_PLY]
    for s in range(2):
        for c in range(N_CLASSES):
            st.ucounts[ply, s * N_CLASSES + c] = st.counts[s, c]
        st.ucounts[ply, 2 * N_CLASSES + s] = st.info[I_VALSUM + s]
    row = st.utop[ply]
    _save_cell(st, row, pos)
    row += 1
    _forget_cell(st, pos)
    st.cells[pos] = side
    for k in range(4):
        d = rules.direction(k, stride)
        for sign in (1, -1):
            step = sign * d
            q = pos
            for j in range(1, 6):
                q += step
                c = st.cells[q]
                if c == WALL:
                    break
                st.keys[k, q] |= side << (2 * P.key_slot(-sign * j))
                if c == EMPTY:
                    row = _update_line_cell(st, tb, q, k, row)
    st.utop[ply + 1] = row
    for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
        for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
            st.near[pos + dy * stride + dx] += 1
    st.moves[ply] = pos
    st.hashes[ply + 1] = st.hashes[ply] ^ tb.zobrist[side, pos] ^ tb.zobrist[0, 0]
    st.info[I_PLY] = ply + 1
    st.info[I_SIDE] = 3 - side


@njit(cache=True, nogil=True, _nrt=False)
def undo(st, tb) -> int:
    """Take back the last move; return its cell.

    The line keys lose the stone's bits; every pattern, class, value, count and sum comes back
    from the undo stack that :func:`make` filled (no table look-ups)."""
    ply = st.info[I_PLY] - 1
    pos = st.moves[ply]
    side = st.cells[pos]
    stride = st.info[I_STRIDE]
    st.cells[pos] = EMPTY
    for k in range(4):
        d = rules.direction(k, stride)
        for sign in (1, -1):
            step = sign * d
            q = pos
            for j in range(1, 6):
                q += step
                if st.cells[q] == WALL:
                    break
                st.keys[k, q] &= ~(3 << (2 * P.key_slot(-sign * j)))
    for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
        for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
            st.near[pos + dy * stride + dx] -= 1
    u = st.ucells
    for row in range(st.utop[ply], st.utop[ply + 1]):
        p = u[row, 0]
        st.p4[0, p] = u[row, 1]
        st.p4[1, p] = u[row, 2]
        st.cls[0, p] = u[row, 3] & 255
        st.cls[1, p] = u[row, 3] >> 8
        st.val[0, p] = u[row, 4]
        st.val[1, p] = u[row, 5]
    for s in range(2):
        for c in range(N_CLASSES):
            st.counts[s, c] = st.ucounts[ply, s * N_CLASSES + c]
        st.info[I_VALSUM + s] = st.ucounts[ply, 2 * N_CLASSES + s]
    st.info[I_PLY] = ply
    st.info[I_SIDE] = side
    return pos


@njit(cache=True, nogil=True, _nrt=False)
def hash_of(st) -> np.uint64:
    """The current hash (stones and side to move)."""
    return st.hashes[st.info[I_PLY]]


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(st, tb) -> int:
    """Static evaluation for the side to move (centi-units)."""
    s = st.info[I_SIDE] - 1
    own = st.info[I_VALSUM + s]
    opp = st.info[I_VALSUM + 1 - s]
    return (own * tb.weights[W_ATTACK] - opp * tb.weights[W_DEFENCE]) // 64


def state_from_board(
    board, tables: Tables | None = None, side: int | None = None
) -> tuple[State, Tables]:
    """Build an engine state (and the rule's tables) from a :class:`plies.gomoku.Board`;
    ``side`` (1 black, 2 white) overrides the colour to move (a threat probe: "what if the
    opponent could move now")."""
    tb = tables if tables is not None else make_tables(board.rule_code)
    st = new_state(board.width, board.height, board.rule_code)
    st.cells[:] = board.cells
    st.info[I_PLY] = len(board.history)
    st.info[I_BASE_PLY] = len(board.history)
    st.info[I_SIDE] = board.to_move if side is None else side
    for i, m in enumerate(board.history):
        st.moves[i] = (m.y + PAD) * st.info[I_STRIDE] + m.x + PAD
    rebuild(st, tb)
    return st, tb


def state_from_stones(
    width: int,
    height: int,
    rule: int,
    black: list[tuple[int, int]],
    white: list[tuple[int, int]],
    side: int,
    tables: Tables | None = None,
) -> tuple[State, Tables]:
    """Build a state from stone lists (x, y top-origin) and the colour to move; the move
    history is unknown, so it cannot be taken back past this point."""
    tb = tables if tables is not None else make_tables(rule)
    st = new_state(width, height, rule)
    stride = int(st.info[I_STRIDE])
    for color, stones in ((BLACK, black), (WHITE, white)):
        for x, y in stones:
            st.cells[(y + PAD) * stride + x + PAD] = color
    st.info[I_PLY] = len(black) + len(white)
    st.info[I_BASE_PLY] = st.info[I_PLY]
    st.info[I_SIDE] = side
    rebuild(st, tb)
    return st, tb
