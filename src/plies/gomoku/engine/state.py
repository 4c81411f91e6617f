"""The engine's position: incremental line keys, patterns, threat classes and cell values.

The board layout is the rules kernels' padded array (see ``plies.gomoku.rules``), so every
rules kernel (winner, Renju forbidden check) runs on the engine's board directly.

For every cell and direction the state keeps the 20-bit line key of its ten neighbours; for
every empty cell and side, the four line patterns packed into a 16-bit index (a nibble a
direction; ``p4`` holds black's in its low and white's in its high 16 bits), and from it,
through one small table, the cell's *threat class* and *value* (the hand-written value, which
orders moves), and through a second one its *evaluation value* (the learned table of
:mod:`combos`, or the same hand-written value).
Playing or taking back a stone touches only the cells within five steps on its four lines.
Counts of empty cells per class and side, and the sums of evaluation values per side, are kept
too, so "does the opponent have a four?" and the evaluation cost nothing. Move ordering keeps
the hand-written values even under a learned evaluation: the order of quiet moves decides what
late-move pruning cuts, and it proved far more sensitive to small value changes than the
evaluation itself (docs/engine.md).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from plies.gomoku import rules
from plies.gomoku.engine import params
from plies.gomoku.engine import pattern_net as PN
from plies.gomoku.engine import patterns as P
from plies.gomoku.engine import threat_eval as TE
from plies.gomoku.engine.combos import FAR_COMBO, N_COMBOS
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
I_VALSUM = 5  # 5: black, 6: white (ordering values; kept for tests and tools)
I_SIDE = 7  # colour to move
I_BASE_PLY = 8  # number of stones the state started with (undo stops there)
I_EVALSUM = 9  # 9: black, 10: white: the sums of evaluation values
I_NET = 11  # 1 when the sums of the pattern network are kept (set by rebuild from the tables)
# 12: black, 13: white: how many more far cells (combos.FAR_COMBO) the empty board has than an
# empty board of params.NET_SIZE; rebuild takes their embeddings out of the network's sums
I_FAR_EXTRA = 12
I_ACC = 16  # 16..: the pattern network's sums, black's PN.H then white's (when I_NET is 1)

# ucounts[] columns: counts per side and class, then the value sums, then the evaluation sums,
# then the pattern network's sums (black's H, then white's)
U_VALSUM = 2 * N_CLASSES
U_EVALSUM = U_VALSUM + 2
U_ACC = U_EVALSUM + 2
U_COLUMNS = U_ACC + 2 * PN.H

# weights[] slots
W_ATTACK = 0
W_DEFENCE = 1
W_NET = 2  # 1 when the pattern network is on (pattern_net.py)
W_NET_SIZE = 3  # params.NET_SIZE: the board size the network's far-cell count is referred to
W_BLACK_33 = 4  # params.RENJU_33_FORBIDDEN under Renju, else 0
W_COUNT = 5


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to load ``arr[idx]`` into the cache (LLVM's prefetch; no effect on results)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i32 = ir.IntType(32)
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read, keep in all cache levels, data
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def load8(typingctx, arr, idx):
    """The eight bytes ``arr[idx:idx + 8]`` of a uint8 array as one uint64 (native order; the
    caller keeps ``idx + 8`` within the array)."""
    sig = types.uint64(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        word = builder.bitcast(ptr, ir.IntType(64).as_pointer())
        return builder.load(word, align=1)

    return sig, codegen


class Tables(NamedTuple):
    """The read-only tables of one rule."""

    pattern: np.ndarray  # uint8[2**20]: line key -> black's pattern | white's pattern << 4
    p4cv: np.ndarray  # int32[2, 2**16]: packed four patterns -> class (| CHECK_FLAG) | value << 8
    p4ev: np.ndarray  # int32[2, 2**16]: packed four patterns -> evaluation value
    zobrist: np.ndarray  # uint64[3, MAX_PADDED]; row 0 holds the side-to-move key
    weights: np.ndarray  # int32[W_COUNT]: scalar weights (W_* slots), passed so kernels
    # never freeze tunable numbers into their compiled code
    threat: np.ndarray  # int16[2, threat_eval.MASKS]: the threat term by colour to move and mask
    net: np.ndarray  # int32[PN.ENGINE_SIZE]: the pattern network (pattern_net.engine_array)


class State(NamedTuple):
    """A position and everything derived from it, updated incrementally."""

    cells: np.ndarray  # int8[N] padded board
    keys: np.ndarray  # int32[4, N] line keys
    p4: np.ndarray  # uint32[N] four patterns (nibble per direction), black | white << 16
    cls: np.ndarray  # uint8[2, N] threat class of empty cells
    val: np.ndarray  # int32[2, N] value of empty cells
    counts: np.ndarray  # int32[2, N_CLASSES] empty cells per class
    near: np.ndarray  # int16[N] stones within NEAR_RADIUS (square)
    moves: np.ndarray  # int32[MAX_CELLS + 1] move stack
    hashes: np.ndarray  # uint64[MAX_CELLS + 1] hash after each ply (hashes[ply])
    info: np.ndarray  # int64[16] scalars, see I_* slots
    # undo stack: what make changed, restored by undo without any table look-up
    utop: np.ndarray  # int32[MAX_CELLS + 2]: first row of ply's entries in ucells
    ucells: np.ndarray  # int32[UNDO_ROWS, 4]: cell, p4, classes, values (int16 each)
    ucounts: np.ndarray  # int32[MAX_CELLS + 1, U_COLUMNS]: counts and value sums


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


def rule_weights(rule: int, pattern_value=None, class_bonus=None) -> tuple[np.ndarray, np.ndarray]:
    """The pattern values and class bonuses (int32 arrays) of the hand-written evaluation: the
    ones given, else the rule's in :mod:`params`."""
    if pattern_value is None:
        pattern_value = params.rule_value("PATTERN_VALUE", rule)
    if class_bonus is None:
        class_bonus = params.rule_value("CLASS_BONUS", rule)
    return np.asarray(pattern_value, np.int32), np.asarray(class_bonus, np.int32)


def p4_tables(rule: int, pattern_value=None, class_bonus=None) -> tuple[np.ndarray, np.ndarray]:
    """The packed-pattern class and value tables of ``rule`` from the parameters (the rule's
    values in :mod:`params` unless given)."""
    pv, cb = rule_weights(rule, pattern_value, class_bonus)
    cls = np.zeros((2, 1 << 16), dtype=np.uint8)
    val = np.zeros((2, 1 << 16), dtype=np.int32)
    build_p4_tables(rule, pv, cb, cls, val)
    if np.abs(val).max() > np.iinfo(np.int16).max:
        raise ValueError("pattern values too large: a cell's value must fit in 16 bits")
    return cls, val.astype(np.int16)


def combo_values(rule: int, overrides: dict) -> np.ndarray | None:
    """The learned combination table the evaluation uses (None: the hand-written one).

    ``overrides["COMBO_VALUE"]`` (an array ``[2, N_COMBOS]``) wins; else ``EVAL``: ``"learned"``
    (the default: the table shipped for the rule, if there is one), ``"classic"`` (the
    hand-written evaluation) or the path of a ``.npy`` table."""
    from plies.gomoku.engine import combos

    if overrides.get("COMBO_VALUE") is not None:
        values = np.asarray(overrides["COMBO_VALUE"], dtype=np.float64)
        if values.shape != (2, combos.N_COMBOS):
            raise ValueError(f"COMBO_VALUE must have shape (2, {combos.N_COMBOS})")
        return np.clip(np.rint(values), -32000, 32000).astype(np.int16)
    choice = str(overrides.get("EVAL", params.EVAL))
    if choice == "classic":
        return None
    if choice == "learned":
        return combos.shipped_values(rule)
    return combos.load_values(choice)


def make_tables(rule: int, overrides: dict | None = None) -> Tables:
    """All tables for ``rule``; ``overrides`` replaces parameters of :mod:`params` by name
    (``PATTERN_VALUE``, ``CLASS_BONUS``, ``ATTACK``, ``DEFENCE``, ``EVAL``, ``COMBO_VALUE``,
    ``THREAT``, ``NET``), for tuning."""
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(params.TUNABLE)
    if unknown:
        raise KeyError(f"unknown engine parameters: {sorted(unknown)}")
    cls, val = p4_tables(rule, overrides.get("PATTERN_VALUE"), overrides.get("CLASS_BONUS"))
    cv = cls.astype(np.int32) | (val.astype(np.int32) << 8)  # one look-up: class and value
    ev = val.astype(np.int32)
    name = "RENJU_33_FORBIDDEN"
    black_33 = overrides.get(name, params.rule_value(name, rule))
    params.check_number(name, black_33)
    black_33 = int(black_33)
    black_33 *= int(rule == RENJU)
    if black_33:  # black cannot play its double-three cells: they are worth nothing to it
        ev[0, (cls[0] & CHECK_FLAG) != 0] = 0
    learned = combo_values(rule, overrides)
    if learned is not None:
        from plies.gomoku.engine import combos

        index = combos.combo_of_index()
        valid = index >= 0
        ev = np.zeros_like(ev)
        for s in range(2):
            ev[s, valid] = np.asarray(learned[s], dtype=np.int32)[index[valid]]
    zob = rules.ZOBRIST.copy()
    zob[0, 0] = np.uint64(0x9E3779B97F4A7C15)  # side-to-move key
    weights = np.zeros(W_COUNT, dtype=np.int32)
    weights[W_ATTACK] = overrides.get("ATTACK", params.rule_value("ATTACK", rule))
    weights[W_DEFENCE] = overrides.get("DEFENCE", params.rule_value("DEFENCE", rule))
    both = P.pattern_table(rule)
    packed = both[0] | (both[1] << 4)  # one look-up gives both sides' patterns
    threat = TE.threat_table(rule, str(overrides.get("THREAT", params.rule_value("THREAT", rule))))
    net_choice = overrides.get("NET", params.rule_value("NET", rule))
    net, net_on = PN.net_tables(
        rule, net_choice if isinstance(net_choice, PN.Net) else str(net_choice)
    )
    weights[W_NET] = int(net_on)
    net_size = overrides.get("NET_SIZE", params.rule_value("NET_SIZE", rule))
    params.check_number("NET_SIZE", net_size)
    weights[W_NET_SIZE] = int(net_size)
    weights[W_BLACK_33] = black_33
    return Tables(packed, cv, ev, zob, weights, threat, PN.engine_array(net))


def new_state(width: int, height: int, rule: int) -> State:
    """An empty position of the given size and rule (tables are passed separately)."""
    cells = rules.new_cells(width, height)
    n = cells.shape[0]
    info = np.zeros(I_ACC + 2 * PN.H, dtype=np.int64)
    info[I_WIDTH] = width
    info[I_HEIGHT] = height
    info[I_STRIDE] = rules.padded_stride(width)
    info[I_RULE] = rule
    info[I_SIDE] = BLACK
    st = State(
        cells,
        np.zeros((4, n), dtype=np.int32),
        np.zeros(n, dtype=np.uint32),
        np.zeros((2, n), dtype=np.uint8),
        np.zeros((2, n), dtype=np.int32),
        np.zeros((2, N_CLASSES), dtype=np.int32),
        np.zeros(n, dtype=np.int16),
        np.zeros(MAX_CELLS + 1, dtype=np.int32),
        np.zeros(MAX_CELLS + 1, dtype=np.uint64),
        info,
        np.zeros(MAX_CELLS + 2, dtype=np.int32),
        np.zeros((UNDO_ROWS, 4), dtype=np.int32),
        np.zeros((MAX_CELLS + 1, U_COLUMNS), dtype=np.int32),
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
    st.p4[:] = 0
    st.cls[:, :] = 0
    st.val[:, :] = 0
    st.counts[:, :] = 0
    st.near[:] = 0
    st.info[I_VALSUM] = 0
    st.info[I_VALSUM + 1] = 0
    st.info[I_EVALSUM] = 0
    st.info[I_EVALSUM + 1] = 0
    st.info[I_ACC : I_ACC + 2 * PN.H] = 0
    st.info[I_NET] = tb.weights[W_NET]
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
    if st.info[I_NET]:  # the far cells the board has beyond the reference size's, taken out
        for s in range(2):
            e = PN.O_EMB + (s * N_COMBOS + FAR_COMBO) * PN.H
            for j in range(PN.H):
                st.info[I_ACC + s * PN.H + j] -= st.info[I_FAR_EXTRA + s] * tb.net[e + j]
    if st.info[I_SIDE] == WHITE:
        h ^= tb.zobrist[0, 0]
    st.hashes[st.info[I_PLY]] = h


@njit(cache=True, nogil=True)
def _refresh_cell(st, tb, p: int) -> None:
    """Recompute the patterns, class and value of the empty cell ``p`` from its keys and add
    them to the counts and sums (the cell must not be counted already)."""
    both = 0
    for s in range(2):
        idx = 0
        for k in range(4):
            idx |= np.int64((tb.pattern[st.keys[k, p]] >> (4 * s)) & 15) << (4 * k)
        both |= idx << (16 * s)
        cv = np.int64(tb.p4cv[s, idx])
        c = cv & 255
        v = cv >> 8
        st.cls[s, p] = c
        st.val[s, p] = v
        st.counts[s, c & 7] += 1
        st.info[I_VALSUM + s] += v
        st.info[I_EVALSUM + s] += tb.p4ev[s, idx]
        if st.info[I_NET]:
            e = PN.O_EMB + (s * N_COMBOS + tb.net[idx]) * PN.H
            for h in range(PN.H):
                st.info[I_ACC + s * PN.H + h] += tb.net[e + h]
    st.p4[p] = both


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def make_inline(st, tb, pos: int, with_near: bool) -> None:
    """:func:`make`, inlined into the caller at numba IR level (a call passes the state and
    tables as about 140 machine words); ``with_near`` False leaves the ``near`` counts and the
    pattern network's sums alone (threat probes, which never read them: take such a move back
    with ``with_near`` False)."""
    side = st.info[I_SIDE]
    stride = st.info[I_STRIDE]
    ply = st.info[I_PLY]
    cells = st.cells
    keys = st.keys
    p4 = st.p4
    cls = st.cls
    val = st.val
    counts = st.counts
    pattern = tb.pattern
    cvt = tb.p4cv
    evt = tb.p4ev
    u = st.ucells
    for s in range(2):
        for c in range(N_CLASSES):
            st.ucounts[ply, s * N_CLASSES + c] = counts[s, c]
        st.ucounts[ply, U_VALSUM + s] = st.info[I_VALSUM + s]
        st.ucounts[ply, U_EVALSUM + s] = st.info[I_EVALSUM + s]
    # the pattern network's sums: not in threat probes (``with_near`` False), which never
    # evaluate; their undo leaves the sums alone as well
    net = with_near and st.info[I_NET] != 0
    nt = tb.net
    info = st.info
    if net:
        for h in range(2 * PN.H):
            st.ucounts[ply, U_ACC + h] = info[I_ACC + h]
    # the played cell leaves the empty cells: save it, take it out of the counts and sums
    row = st.utop[ply]
    oc0 = np.int64(cls[0, pos])
    oc1 = np.int64(cls[1, pos])
    ov0 = np.int64(val[0, pos])
    ov1 = np.int64(val[1, pos])
    u[row, 0] = pos
    u[row, 1] = p4[pos]
    u[row, 2] = oc0 | (oc1 << 8)
    u[row, 3] = (ov0 & 0xFFFF) | (ov1 << 16)
    row += 1
    counts[0, oc0 & 7] -= 1
    counts[1, oc1 & 7] -= 1
    dv0 = -ov0  # changes of the value sums, written once at the end
    dv1 = -ov1
    old_here = np.int64(p4[pos])
    de0 = -np.int64(evt[0, old_here & 0xFFFF])  # and of the evaluation sums
    de1 = -np.int64(evt[1, np.uint64(old_here >> 16)])
    if net:
        e0 = PN.O_EMB + nt[old_here & 0xFFFF] * PN.H
        e1 = PN.O_EMB + (N_COMBOS + nt[np.uint64(old_here >> 16)]) * PN.H
        for h in range(PN.H):
            info[I_ACC + h] -= nt[e0 + h]
            info[I_ACC + PN.H + h] -= nt[e1 + h]
    p4[pos] = 0
    cls[0, pos] = 0
    cls[1, pos] = 0
    val[0, pos] = 0
    val[1, pos] = 0
    cells[pos] = side
    for k in range(4):
        d = rules.direction(k, stride)
        shift = 4 * k
        keep = ~(0xF000F << shift)
        for sign in (1, -1):
            step = sign * d
            q = pos
            for j in range(1, 6):
                q += step
                # unsigned indices: numba adds no negative-index wraparound code
                uq = np.uint64(q)
                c = cells[uq]
                if c == WALL:
                    break
                key = keys[k, uq] | (side << (2 * P.key_slot(-sign * j)))
                keys[k, uq] = key
                if c != EMPTY:
                    continue
                pat = np.int64(pattern[np.uint64(key)])
                old = np.int64(p4[uq])
                new = (old & keep) | (((pat & 15) | ((pat >> 4) << 16)) << shift)
                if new == old:
                    continue
                # save the cell's old state on the undo stack, then update what changed
                oc0 = np.int64(cls[0, uq])
                oc1 = np.int64(cls[1, uq])
                ov0 = np.int64(val[0, uq])
                ov1 = np.int64(val[1, uq])
                urow = np.uint64(row)
                u[urow, 0] = q
                u[urow, 1] = old
                u[urow, 2] = oc0 | (oc1 << 8)
                u[urow, 3] = (ov0 & 0xFFFF) | (ov1 << 16)
                row += 1
                p4[uq] = new
                diff = new ^ old
                if diff & 0xFFFF:
                    x = np.int64(cvt[0, new & 0xFFFF])
                    nc = x & 255
                    if nc != oc0:
                        counts[0, oc0 & 7] -= 1
                        counts[0, nc & 7] += 1
                        cls[0, uq] = nc
                    nv = x >> 8
                    dv0 += nv - ov0
                    val[0, uq] = nv
                    de0 += np.int64(evt[0, new & 0xFFFF]) - np.int64(evt[0, old & 0xFFFF])
                    if net:
                        cn = nt[new & 0xFFFF]
                        co = nt[old & 0xFFFF]
                        if cn != co:
                            en = PN.O_EMB + cn * PN.H
                            eo = PN.O_EMB + co * PN.H
                            for h in range(PN.H):
                                info[I_ACC + h] += nt[en + h] - nt[eo + h]
                if diff >> 16:
                    x = np.int64(cvt[1, np.uint64(new >> 16)])
                    nc = x & 255
                    if nc != oc1:
                        counts[1, oc1 & 7] -= 1
                        counts[1, nc & 7] += 1
                        cls[1, uq] = nc
                    nv = x >> 8
                    dv1 += nv - ov1
                    val[1, uq] = nv
                    de1 += np.int64(evt[1, np.uint64(new >> 16)]) - np.int64(
                        evt[1, np.uint64(old >> 16)]
                    )
                    if net:
                        cn = nt[np.uint64(new >> 16)]
                        co = nt[np.uint64(old >> 16)]
                        if cn != co:
                            en = PN.O_EMB + (N_COMBOS + cn) * PN.H
                            eo = PN.O_EMB + (N_COMBOS + co) * PN.H
                            for h in range(PN.H):
                                info[I_ACC + PN.H + h] += nt[en + h] - nt[eo + h]
    st.utop[ply + 1] = row
    st.info[I_VALSUM] += dv0
    st.info[I_VALSUM + 1] += dv1
    st.info[I_EVALSUM] += de0
    st.info[I_EVALSUM + 1] += de1
    if with_near:
        for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
            for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
                st.near[pos + dy * stride + dx] += 1
    st.moves[ply] = pos
    st.hashes[ply + 1] = st.hashes[ply] ^ tb.zobrist[side, pos] ^ tb.zobrist[0, 0]
    st.info[I_PLY] = ply + 1
    st.info[I_SIDE] = 3 - side


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def undo_inline(st, with_near: bool) -> int:
    """:func:`undo`, inlined into the caller; ``with_near`` as given to :func:`make_inline`."""
    ply = st.info[I_PLY] - 1
    pos = st.moves[ply]
    cells = st.cells
    keys = st.keys
    side = cells[pos]
    stride = st.info[I_STRIDE]
    cells[pos] = EMPTY
    for k in range(4):
        d = rules.direction(k, stride)
        for sign in (1, -1):
            step = sign * d
            q = pos
            for j in range(1, 6):
                q += step
                uq = np.uint64(q)
                if cells[uq] == WALL:
                    break
                keys[k, uq] &= ~(3 << (2 * P.key_slot(-sign * j)))
    if with_near:
        for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
            for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1):
                st.near[pos + dy * stride + dx] -= 1
    u = st.ucells
    p4 = st.p4
    cls = st.cls
    val = st.val
    for row in range(st.utop[ply], st.utop[ply + 1]):
        urow = np.uint64(row)
        # a name of its own: ``q`` above is an int64, and a numba.pycc build (the lean brain's,
        # plies.gomoku.aot) unifies the two into a float64 index
        uc = np.uint64(u[urow, 0])
        p4[uc] = u[urow, 1]
        c = u[urow, 2]
        cls[0, uc] = c & 255
        cls[1, uc] = c >> 8
        v = u[urow, 3]
        val[0, uc] = np.int16(v & 0xFFFF)
        val[1, uc] = v >> 16
    for s in range(2):
        for c in range(N_CLASSES):
            st.counts[s, c] = st.ucounts[ply, s * N_CLASSES + c]
        st.info[I_VALSUM + s] = st.ucounts[ply, U_VALSUM + s]
        st.info[I_EVALSUM + s] = st.ucounts[ply, U_EVALSUM + s]
    if with_near and st.info[I_NET]:
        for h in range(2 * PN.H):
            st.info[I_ACC + h] = st.ucounts[ply, U_ACC + h]
    st.info[I_PLY] = ply
    st.info[I_SIDE] = side
    return pos


@njit(cache=True, nogil=True, _nrt=False)
def make(st, tb, pos: int) -> None:
    """Play the side to move on the empty cell ``pos``.

    Only the cells within five steps on the four lines change; what they held before is pushed
    on the undo stack, so :func:`undo` needs no table look-up."""
    make_inline(st, tb, pos, True)


@njit(cache=True, nogil=True, _nrt=False)
def undo(st, tb) -> int:
    """Take back the last move (played with :func:`make`); return its cell."""
    return undo_inline(st, True)


@njit(cache=True, nogil=True, _nrt=False)
def hash_of(st) -> np.uint64:
    """The current hash (stones and side to move)."""
    return st.hashes[st.info[I_PLY]]


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(st, tb) -> int:
    """Static evaluation for the side to move (centi-units): the cell-value sums and the
    threat term (:mod:`threat_eval`)."""
    s = st.info[I_SIDE] - 1
    own = st.info[I_EVALSUM + s]
    opp = st.info[I_EVALSUM + 1 - s]
    cells = (own * tb.weights[W_ATTACK] - opp * tb.weights[W_DEFENCE]) // 64
    value = cells + tb.threat[s, TE.mask_of(st.counts, s, tb.weights[W_BLACK_33])]
    if st.info[I_NET]:
        value += PN.net_output(st.info, I_ACC, s, tb.net)
    return value


@cache
def empty_far_cells(width: int, height: int, rule: int) -> tuple[int, int]:
    """How many cells of an empty ``width`` x ``height`` board offer black and white the far
    combination (:data:`combos.FAR_COMBO`: nothing on any of the four lines)."""
    st = new_state(width, height, rule)
    rebuild(st, make_tables(rule, {"EVAL": "classic", "THREAT": "off", "NET": "off"}))
    combo = PN.combo_index()
    empty = np.flatnonzero(st.cells == EMPTY)
    packed = st.p4[empty].astype(np.int64)
    black = int(np.count_nonzero(combo[packed & 0xFFFF] == FAR_COMBO))
    white = int(np.count_nonzero(combo[packed >> 16] == FAR_COMBO))
    return black, white


def set_far_extra(st, tb) -> None:
    """Fill ``info[I_FAR_EXTRA]``: the far cells the state's empty board has beyond an empty
    board of the tables' reference size (``params.NET_SIZE``; none when it is 0), which
    :func:`rebuild` takes out of the pattern network's sums."""
    ref = int(tb.weights[W_NET_SIZE])
    width, height, rule = (int(st.info[i]) for i in (I_WIDTH, I_HEIGHT, I_RULE))
    if ref <= 0 or (width, height) == (ref, ref):
        st.info[I_FAR_EXTRA : I_FAR_EXTRA + 2] = 0
        return
    own = empty_far_cells(width, height, rule)
    base = empty_far_cells(ref, ref, rule)
    st.info[I_FAR_EXTRA : I_FAR_EXTRA + 2] = (own[0] - base[0], own[1] - base[1])


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
    set_far_extra(st, tb)
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
    set_far_extra(st, tb)
    rebuild(st, tb)
    return st, tb
