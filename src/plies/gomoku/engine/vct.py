"""VCT: victory by continuous threats (fours, threes and VCF threats), proved by df-pn.

The tree is an AND/OR tree over threats. At an *attacker* node (OR) the side to move wins at
once with a five or a VCF; otherwise it may play a four, a three, or a quiet move with a high
*potential* (``K_MIN_POT_*``; it may threaten a VCF: a "fukumi" move) that, except for Renju
black, makes a new four-cell (``K_QUIET_WIN_*``: a window with two own stones through it). When
the defender would have a VCF of its own after an attacker pass, the attacker's moves are
narrowed to its fours and the cells that defend against that VCF. At a *defender* node (AND),
after a four the defender has one reply (or none: two fives, or a Renju-forbidden block); after
any other move the node asks which VCF the attacker would have if the defender passed (the
*threat*: none means the move threatened nothing, and the attacker fails), and whether the
defender has a VCF itself (then the attacker fails too). The defender's candidate replies are
then the cells of the shortest threat VCF, its winning points, the cells where the defender's
forced replies would become fours (counter-fours), the defender's fours now and, under Renju,
the cells within two line steps of a black four next to threes or of a winning point forbidden
to black after which the threat, replayed, no longer wins (``_forbidden_region``). Any other
defender move leaves the threat VCF intact, so the defences are complete and a proof is a real
win; every pruning of the attacker's moves only makes the solver miss wins, never claim false
ones.

A defender node is expanded lazily (``K_DEFER``): the defender's fours that defend nothing
else (the four cells outside the threat's defences) take no part in its numbers until every
other defence is proven. A disproof never needs them unless they are the only refutation, and
then they wake before the node can be proven, so the results are the same as with every child
at once; only the order of the work changes (the fours delay a win, they rarely stop it, and
most of the tree is lines that fail).

At an attacker node below the root, the moves on a line within three steps of the last two
moves (the attacker's previous threat and the defender's answer) come first and the others
start at four times their proof number (``K_NEAR_LAST``, ``K_FAR_FACTOR``): a winning line
mostly builds on what was just played. Only the order changes, never the verdict.

The tree is searched by depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon
threshold trick (Pawlewicz and Lew 2007), a transposition table of proof and disproof numbers
keyed by the Zobrist hash, initial proof numbers from a one-ply look-ahead (a three or quiet
move starts at twice the defences it leaves; fours, searched after them, at the sibling count)
and an explicit stack, so no kernel is recursive (DESIGN.md: a cached kernel calling a
recursive cached kernel crashes when loaded from numba's cache). Expansions of the nodes on the
current path are kept on the stack; re-expansions of nodes visited again are served by a small
expansion cache. The depth limit counts the attacker's moves in the tree (the final VCF is
free), and since every move adds a stone it is a function of the position, so table entries
never depend on the path.

``solve`` (Python) runs the kernel and extracts a winning line from the table: the attacker's
quickest proven move, the defender's longest proven resistance, ending with the five.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from plies.gomoku import rules
from plies.gomoku.engine import patterns as P
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine.state import (
    C_FIVE,
    C_FLEX4,
    C_FORBID,
    C_FOUR,
    C_FOUR_THREE,
    C_THREE,
    CHECK_FLAG,
    I_PLY,
    I_SIDE,
    I_STRIDE,
    make,
    undo,
)
from plies.gomoku.rules import EMPTY

INF = 1 << 28  # proof / disproof number of a solved node
MAX_TREE_DEPTH = 60  # attacker moves in the tree (the final VCF comes on top)
MAX_LEVELS = 2 * MAX_TREE_DEPTH + 4
MAX_CHILDREN = 128  # more defences than this: the node is given up (conservative)
MAX_THREATS = 64  # attacker candidates kept per node, best first
TT_BITS = 20
EXP_BITS = 16  # expansion cache slots (children lists of nodes visited before)

# ctl[] slots: limits and parameters (set by ``new_context``), then counters
K_NODES = 0  # df-pn node visits and look-ahead expansions
K_NODE_LIMIT = 1
K_VCF_NODES = 2  # moves made by the VCF probes
K_PLY_LIMIT = 3  # absolute ply from which the attacker may not move in the tree any more
K_THREAT_DEPTH = 4  # most attacker fours of the VCF that makes a move a threat
K_VCF_BUDGET = 5  # nodes of each VCF probe
K_TERM_LEN = 6  # scratch: line length of a terminal node
K_EXPANSIONS = 7  # nodes expanded (move generation and VCF probes run)
K_EXP_HITS = 8  # expansions served by the expansion cache
K_EPS_NUM = 9  # 1+epsilon trick: child threshold = second best * (1 + num / 64), +1 at least
K_ROOT_PN = 10  # the root's proof and disproof numbers when the search returned
K_ROOT_DN = 11
K_KILLERS = 12  # non-zero: try first the move that proved / refuted a sibling's child
K_PCT_FOUR = 13  # initial proof number of a four, a three, a quiet move: percent of the
K_PCT_THREE = 14  # number of siblings (forcing moves look easier, so they go first)
K_PCT_QUIET = 15
K_DEF_DEPTH = 16  # most fours of the defender's VCF probes (its win now, its threat)
K_ATT_DEPTH = 17  # most fours of the attacker's VCF probe at its own nodes
K_MAX_MOVES = 18  # attacker candidates kept per node, best first
K_EXTRA_THREATS = 19  # further threats whose defences narrow the defender's moves
K_EXTRA_DEPTH = 20  # most fours of those threats
K_NARROWED = 21  # counter: defences removed by the further threats
K_MIN_POT_BLACK = 22  # least potential of a quiet attacker candidate (Renju black, others)
K_MIN_POT_WHITE = 23
K_QUIET_WIN_BLACK = 24  # least own stones already in one open window through a quiet
K_QUIET_WIN_WHITE = 25  # candidate (2: the move makes a new four-cell on that line), unless
K_POT_BYPASS_BLACK = 26  # its potential reaches these (Renju black, others)
K_POT_BYPASS_WHITE = 27
K_LOOKAHEAD = 28  # non-zero: a three starts from its defences times this (one-ply look-ahead)
K_DEFER = 29  # non-zero: a defender's fours that defend nothing else wait until the other
# defences are proven (a lazily expanded AND node)
K_NREAL = 30  # scratch: children of the last expansion before the deferred fours (defender
# node) or before the moves away from the last two (attacker node)
K_NEAR_LAST = 31  # attacker moves within this many line steps of the last two moves go first;
K_FAR_FACTOR = 32  # the others start at this times their proof number (0: off)
K_COUNT = 33

# ctx.work_i layout: candidate scores, the VCF probe counter, threat centres, narrowing blocks,
# cells seen by _forbidden_region
W_SCORES = 0
W_COUNTER = MAX_CHILDREN
W_CENTRES = MAX_CHILDREN + 8
W_BLOCKS = W_CENTRES + 2 * V.MAX_VCF_DEPTH + 16
W_SEEN = W_BLOCKS + 8

# expansion results
EXP_WIN = -1  # the attacker wins here (proof number 0)
EXP_LOSS = -2  # the attacker cannot win here (disproof number 0)

# tt_val[] columns
T_PN = 0
T_DN = 1
T_LEN = 2  # proven: plies of the winning line from this node (attacker's quickest, defender's
# longest resistance)
T_WORK = 3  # node visits spent below this node (replacement priority)
T_BEST = 4  # the child chosen last (proving move of a proven attacker node, refutation of a
# disproven defender node), -1 if none
T_COLS = 5


class VctContext(NamedTuple):
    """Everything one VCT search needs besides the position: limits and counters, the
    transposition table, the explicit stack, the expansion cache and the VCF memory."""

    ctl: np.ndarray  # int64[K_COUNT]
    tt_keys: np.ndarray  # uint64[2**TT_BITS]
    tt_val: np.ndarray  # int32[2**TT_BITS, T_COLS] (T_* columns)
    ch: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN] children of the nodes on the path
    cpn: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    cdn: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    clen: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    nch: np.ndarray  # int64[MAX_LEVELS]
    nact: np.ndarray  # int64[MAX_LEVELS] children taking part (the rest deferred)
    thpn: np.ndarray  # int64[MAX_LEVELS] thresholds
    thdn: np.ndarray  # int64[MAX_LEVELS]
    sel: np.ndarray  # int64[MAX_LEVELS] child being searched
    work: np.ndarray  # int64[MAX_LEVELS] node count on entry
    killer: np.ndarray  # int64[MAX_LEVELS] move that last proved / refuted at this level
    counter: np.ndarray  # int64[2, cells] by node kind and the move that led there: the move
    # that last proved (attacker) or refuted (defender) such a node
    exp_keys: np.ndarray  # uint64[2**EXP_BITS]
    exp_data: np.ndarray  # int16[2**EXP_BITS, MAX_CHILDREN + 1]: count, children
    vcf_keys: np.ndarray
    vcf_depth: np.ndarray
    vcf_seq: np.ndarray  # int64[2 * MAX_VCF_DEPTH + 4]
    threat: np.ndarray  # int64[2 * MAX_VCF_DEPTH + 4]
    buf: np.ndarray  # int64[cells]
    marks: np.ndarray  # int8[cells]
    threat2: np.ndarray  # int64[2 * MAX_VCF_DEPTH + 4]
    buf2: np.ndarray  # int64[cells]
    marks2: np.ndarray  # int8[cells]
    pot: np.ndarray  # uint8[2, 2**20]: line key -> potential of the centre cell, per side
    pwin: np.ndarray  # uint8[2, 2**20]: line key -> most own stones in one open window through it
    stop: np.ndarray  # int64[1]: non-zero aborts
    scratch: np.ndarray  # int64[V.scratch_words()]: the VCF probes' working arrays
    work_i: np.ndarray  # int64[W_SEEN + cells]: scratch of the expansion (W_* layout)
    seen: np.ndarray  # int8[cells]: cells looked at by ``_forbidden_region`` (kept clear)
    far: np.ndarray  # int8[cells]: the attacker's moves away from the last two (kept clear)


def new_context(
    cells: int,
    rule: int,
    stop: np.ndarray | None = None,
    tt_bits: int = TT_BITS,
    exp_bits: int = EXP_BITS,
) -> VctContext:
    """A fresh context for boards of ``cells`` padded cells (default limits: no node limit,
    the whole depth)."""
    ctl = np.zeros(K_COUNT, dtype=np.int64)
    ctl[K_NODE_LIMIT] = 1 << 62
    ctl[K_PLY_LIMIT] = 1 << 30
    ctl[K_THREAT_DEPTH] = 3
    ctl[K_VCF_BUDGET] = 20000
    ctl[K_EPS_NUM] = 16
    ctl[K_KILLERS] = 1
    ctl[K_PCT_FOUR] = 100
    ctl[K_LOOKAHEAD] = 2
    ctl[K_DEFER] = 1
    ctl[K_NEAR_LAST] = 3
    ctl[K_FAR_FACTOR] = 4
    ctl[K_PCT_THREE] = 50
    ctl[K_PCT_QUIET] = 100
    ctl[K_DEF_DEPTH] = V.MAX_VCF_DEPTH
    ctl[K_ATT_DEPTH] = V.MAX_VCF_DEPTH
    ctl[K_MAX_MOVES] = MAX_THREATS
    ctl[K_EXTRA_THREATS] = 2
    ctl[K_EXTRA_DEPTH] = 4
    ctl[K_MIN_POT_BLACK] = 8 if rule == rules.RENJU else 3
    ctl[K_MIN_POT_WHITE] = 3
    # quintet set: for white 2 halves bench_vct_white's nodes; for Renju black, 2 (bypass
    # 10, which the fukumi problem needs) saves only 13% on bench_vct_black and costs
    # test_vct_black 7 times its nodes, so it is off there
    ctl[K_QUIET_WIN_BLACK] = 0 if rule == rules.RENJU else 2
    ctl[K_QUIET_WIN_WHITE] = 2
    ctl[K_POT_BYPASS_BLACK] = 255
    ctl[K_POT_BYPASS_WHITE] = 255
    vk, vd = V.new_vcf_tt()
    lv = MAX_LEVELS
    return VctContext(
        ctl,
        np.zeros(1 << tt_bits, dtype=np.uint64),
        np.zeros((1 << tt_bits, T_COLS), dtype=np.int32),
        np.zeros((lv, MAX_CHILDREN), dtype=np.int64),
        np.zeros((lv, MAX_CHILDREN), dtype=np.int64),
        np.zeros((lv, MAX_CHILDREN), dtype=np.int64),
        np.zeros((lv, MAX_CHILDREN), dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.zeros(lv, dtype=np.int64),
        np.full(lv, -1, dtype=np.int64),
        np.full((2, cells), -1, dtype=np.int64),
        np.zeros(1 << exp_bits, dtype=np.uint64),
        np.zeros((1 << exp_bits, MAX_CHILDREN + 1), dtype=np.int16),
        vk,
        vd,
        np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64),
        np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
        np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
        potential_table(rule),
        window_table(rule),
        stop if stop is not None else np.zeros(1, dtype=np.int64),
        np.zeros(V.scratch_words(), dtype=np.int64),
        np.zeros(W_SEEN + cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
        np.zeros(cells, dtype=np.int8),
    )


@njit(cache=True, nogil=True)
def _build_potentials(rule: int, out, most) -> None:
    """``out[s, key]``: the *potential* of the centre of a line key for side index ``s``: the
    sum, over the five-cell windows through the centre that hold no opponent stone and no wall
    and one or more own stones, of the own stones there after a move on the centre (windows
    whose five would be an overline are skipped where overlines do not win). A cell with a
    high potential builds on several crowded windows."""
    cell = np.zeros(11, dtype=np.int64)
    for s in range(2):
        side = s + 1
        strict = (rule == rules.RENJU and side == rules.BLACK) or rule == rules.STANDARD
        for key in range(1 << P.KEY_BITS):
            for off in range(-5, 6):
                if off == 0:
                    cell[5] = 0
                else:
                    cell[off + 5] = (key >> (2 * P.key_slot(off))) & 3
            total = 0
            best = 0
            for start in range(-4, 1):
                cnt = 0
                ok = True
                for off in range(start, start + 5):
                    v = cell[off + 5]
                    if v == 3 or (v != 0 and v != side):
                        ok = False
                        break
                    if v == side:
                        cnt += 1
                if not ok or cnt < 1:
                    continue
                if strict and (cell[start + 4] == side or cell[start + 10] == side):
                    continue
                total += cnt + 1
                best = max(best, cnt)
            out[s, key] = min(total, 255)
            most[s, key] = best


_POTENTIALS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _tables(rule: int) -> tuple[np.ndarray, np.ndarray]:
    tables = _POTENTIALS.get(rule)
    if tables is None:
        tables = (
            np.zeros((2, 1 << P.KEY_BITS), dtype=np.uint8),
            np.zeros((2, 1 << P.KEY_BITS), dtype=np.uint8),
        )
        _build_potentials(rule, tables[0], tables[1])
        _POTENTIALS[rule] = tables
    return tables


def forget_potentials(keep: int) -> None:
    """Drop the potential tables built for rules other than ``keep`` (4 MB each; the brain
    builds every rule's in its warm-up and keeps its game's)."""
    for rule in [r for r in _POTENTIALS if r != keep]:
        del _POTENTIALS[rule]


def potential_table(rule: int) -> np.ndarray:
    """The potential table of ``rule`` (built once per process)."""
    return _tables(rule)[0]


def window_table(rule: int) -> np.ndarray:
    """Per line key and side, the most own stones already in one open five-cell window
    through the centre (the windows counted by the potential)."""
    return _tables(rule)[1]


# --- move generation ------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _threat_moves(st, ctx, att: int, out, restrict: bool) -> int:
    """Attacker candidates, best first (count returned): moves that make a three or a four,
    and quiet moves with a high potential (see ``_build_potentials``), which may threaten a
    VCF (a "fukumi" move). With ``restrict``, only fours and cells marked in ``ctx.marks``.
    Whether a candidate really threatens is decided at the defender's node, by the VCF the
    attacker would have after a pass."""
    a = att - 1
    cap = min(out.shape[0], ctx.ctl[K_MAX_MOVES])
    scores = ctx.work_i[W_SCORES : W_SCORES + cap]
    pmin = ctx.ctl[K_MIN_POT_BLACK] if att == rules.BLACK else ctx.ctl[K_MIN_POT_WHITE]
    black = att == rules.BLACK
    qwin = ctx.ctl[K_QUIET_WIN_BLACK] if black else ctx.ctl[K_QUIET_WIN_WHITE]
    bypass = ctx.ctl[K_POT_BYPASS_BLACK] if black else ctx.ctl[K_POT_BYPASS_WHITE]
    n = 0
    for p in range(st.cells.shape[0]):
        if st.cells[p] != EMPTY or st.near[p] == 0:
            continue
        c = st.cls[a, p] & 7
        if c == C_FORBID or c == C_FIVE:
            continue
        if restrict and ctx.marks[p] == 0 and c < C_FOUR:
            continue
        pot = 0
        win = 0
        for k in range(4):
            pot += ctx.pot[a, st.keys[k, p]]
            win = max(win, np.int64(ctx.pwin[a, st.keys[k, p]]))
        if c < C_THREE and (pot < pmin or (win < qwin and pot < bypass)):
            continue
        if V.forbidden_for(st, att, p):
            continue
        score = c * 1000000 + pot * 10000 + st.val[a, p] + st.val[1 - a, p] // 2
        n = V.insert_sorted(out, scores, n, cap, p, score)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _near(stride: int, p: int, q: int, dist: int) -> bool:
    """Whether cells ``p`` and ``q`` share a line and lie at most ``dist`` steps apart."""
    dx = p % stride - q % stride
    dy = p // stride - q // stride
    return (dx == 0 or dy == 0 or dx == dy or dx == -dy) and max(abs(dx), abs(dy)) <= dist


@njit(cache=True, nogil=True, _nrt=False)
def _near_first(st, ctx, out, n: int) -> None:
    """Order the attacker's candidates ``out[:n]`` (best first) so that those near the last
    two moves (``K_NEAR_LAST``) come first, each group in its old order; their count goes to
    ``ctl[K_NREAL]`` when both groups are non-empty. A winning line mostly builds on what the
    attacker just played or where the defender just blocked."""
    dist = ctx.ctl[K_NEAR_LAST]
    ply = st.info[I_PLY]
    if dist <= 0 or ctx.ctl[K_FAR_FACTOR] <= 0 or ply - 2 < st.info[8]:
        return
    stride = st.info[I_STRIDE]
    last_att = st.moves[ply - 2]
    last_def = st.moves[ply - 1]
    far = ctx.work_i[W_SCORES : W_SCORES + n]
    k = 0
    nf = 0
    for i in range(n):
        p = out[i]
        if _near(stride, p, last_att, dist) or _near(stride, p, last_def, dist):
            out[k] = p
            k += 1
        else:
            far[nf] = p
            nf += 1
    for i in range(nf):
        out[k + i] = far[i]
    if k > 0 and nf > 0:
        ctx.ctl[K_NREAL] = k


@njit(cache=True, nogil=True, _nrt=False)
def _null_flip(st, tb) -> None:
    """Pass: the other side moves next (the hash follows)."""
    ply = st.info[I_PLY]
    st.hashes[ply] ^= tb.zobrist[0, 0]
    st.info[I_SIDE] = 3 - st.info[I_SIDE]


@njit(cache=True, nogil=True, _nrt=False)
def _five_cell(st, s: int) -> int:
    """A cell where side index ``s`` makes five (-1 if none), looked for first on the lines of
    the last two moves (where a new four appears), then everywhere."""
    stride = st.info[I_STRIDE]
    ply = st.info[I_PLY]
    for back in range(1, 3):
        if ply - back < st.info[8]:
            break
        m = st.moves[ply - back]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-4, 5):
                q = m + j * dd
                if j != 0 and st.cells[q] == EMPTY and st.cls[s, q] & 7 == C_FIVE:
                    return q
    return V.first_cell_of_class(st, s, C_FIVE)


@njit(cache=True, nogil=True, _nrt=False)
def _has_four(st, s: int) -> bool:
    """Whether side index ``s`` has a cell that makes a four or better (a VCF needs one)."""
    return (
        st.counts[s, C_FOUR]
        + st.counts[s, C_FOUR_THREE]
        + st.counts[s, C_FLEX4]
        + st.counts[s, C_FIVE]
        > 0
    )


@njit(cache=True, nogil=True, _nrt=False)
def _mark(marks, out, n: int, p: int) -> int:
    if marks[p] == 0:
        marks[p] = 1
        out[n] = p
        n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _try_defence(st, tb, dfn: int, q: int, threat, tlen: int, out, marks, n: int, work, seen, ns):
    """A cell near the threat ``threat[:tlen]``, looked at once (``seen``, listed in
    ``work[W_SEEN:]``): if ``dfn`` (to move) may play it and the threat no longer wins after
    it, it is added to the defences ``out[:n]``. Returns the new ``(n, ns)``."""
    if q < 0 or q >= st.cells.shape[0] or st.cells[q] != EMPTY:
        return n, ns
    if seen[q] != 0 or marks[q] != 0:
        return n, ns
    seen[q] = 1
    work[W_SEEN + ns] = q
    ns += 1
    if V.forbidden_for(st, dfn, q):
        return n, ns
    make(st, tb, q)
    holds = _is_vcf(st, tb, threat, tlen)
    undo(st, tb)
    if not holds:
        n = _mark(marks, out, n, q)
    return n, ns


@njit(cache=True, nogil=True, _nrt=False)
def _forbidden_region(
    st, tb, dfn: int, threat, tlen: int, centres, nc: int, out, marks, n, work, seen
):
    """Renju: whether a black move is forbidden depends, through the recursive definition of
    a real three, on stones up to two line steps away. Around each of ``centres[:nc]`` (black
    fours of the threat that sit next to threes, and winning points forbidden to a black
    defender), every empty cell within two line steps of five cells is tried: ``dfn`` plays
    it and, unless ``threat[:tlen]`` still wins, it is added to the defences ``out[:n]``.
    Returns the new count; ``seen`` (cells looked at, listed in ``work[W_SEEN:]``) is left
    clear."""
    stride = st.info[I_STRIDE]
    ns = 0
    for c in range(nc):
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-5, 6):
                r = centres[c] + j * dd
                if st.cells[r] == rules.WALL:
                    continue
                for k2 in range(4):
                    d2 = rules.direction(k2, stride)
                    for j2 in range(-5, 6):
                        n, ns = _try_defence(
                            st, tb, dfn, r + j2 * d2, threat, tlen, out, marks, n, work, seen, ns
                        )
    for i in range(ns):
        seen[work[W_SEEN + i]] = 0
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _caro_caps(st, tb, threat, tlen: int, out, marks, n: int, work, seen) -> int:
    """Caro: a five blocked at both ends by the opponent does not win, so a stone of the side
    to move just beyond the end of a five the threat ``threat[:tlen]`` would make can stop it
    from afar. Every empty cell on the lines within five steps of the threat's attacker moves
    is tried: the side to move plays it and, unless the threat still wins, it is added to the
    defences ``out[:n]``. Returns the new count; ``seen`` (cells looked at, listed in
    ``work[W_SEEN:]``) is left clear."""
    stride = st.info[I_STRIDE]
    dfn = st.info[I_SIDE]
    ns = 0
    for i in range(0, tlen, 2):
        c = threat[i]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-5, 6):
                n, ns = _try_defence(
                    st, tb, dfn, c + j * dd, threat, tlen, out, marks, n, work, seen, ns
                )
    for i in range(ns):
        seen[work[W_SEEN + i]] = 0
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _defences(st, tb, dfn: int, threat, tlen: int, out, marks, work, seen) -> int:
    """The answers of ``dfn`` (the side to move) to the opponent's threat ``threat[:tlen]`` (a
    VCF the opponent would play after a pass): every cell of the VCF, the winning points at its
    end, the cells where ``dfn`` would have a four right after one of its forced replies
    (counter-fours, looked for at the time of each reply), the neighbourhood of a winning
    point forbidden to ``dfn``, and ``dfn``'s fours now. Any other move leaves the VCF
    intact. Cells ``dfn`` may not play are dropped. Written to ``out`` (count returned);
    ``marks`` is left with exactly the returned cells set, for the caller to clear."""
    d = dfn - 1
    a = 1 - d
    stride = st.info[I_STRIDE]
    n = np.int64(0)
    for i in range(tlen):
        n = _mark(marks, out, n, threat[i])
    renju = st.info[3] == rules.RENJU
    centres = work[W_CENTRES : W_CENTRES + tlen + 8]
    nc = np.int64(0)
    # replay the threat after a pass to find the counter-four cells and the end points
    _null_flip(st, tb)
    played = 0
    for i in range(tlen):
        p = threat[i]
        if st.cells[p] != EMPTY:
            break
        if renju and i % 2 == 0 and a == 0 and st.cls[a, p] & CHECK_FLAG:
            centres[nc] = p  # black's four next to threes: a white stone may make it forbidden
            nc += 1
        make(st, tb, p)
        played += 1
        if i % 2 == 1:
            for k in range(4):
                dd = rules.direction(k, stride)
                for j in range(-4, 5):
                    q = p + j * dd
                    if st.cells[q] == EMPTY and (st.cls[d, q] & 7) >= C_FOUR:
                        n = _mark(marks, out, n, q)
    if played == tlen and tlen % 2 == 1:
        # the opponent's last move is on the board: its winning points are the end
        last = threat[tlen - 1]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-5, 6):
                q = last + j * dd
                if st.cells[q] == EMPTY and (st.cls[a, q] & 7 == C_FIVE):
                    n = _mark(marks, out, n, q)
                    if V.forbidden_for(st, dfn, q) and nc < centres.shape[0]:
                        centres[nc] = q  # a forbidden point: a stone of dfn may lift the ban
                        nc += 1
    for _ in range(played):
        undo(st, tb)
    _null_flip(st, tb)
    if st.counts[d, C_FOUR] + st.counts[d, C_FOUR_THREE] + st.counts[d, C_FLEX4] > 0:
        for p in range(st.cells.shape[0]):
            if st.cells[p] == EMPTY and (st.cls[d, p] & 7) >= C_FOUR and marks[p] == 0:
                marks[p] = 2  # a four that defends nothing else (see K_DEFER)
                out[n] = p
                n += 1
    if nc > 0:
        n = _forbidden_region(st, tb, dfn, threat, tlen, centres, nc, out, marks, n, work, seen)
    if st.info[3] == rules.CARO or st.info[3] == rules.CARO5:
        n = _caro_caps(st, tb, threat, tlen, out, marks, n, work, seen)
    # keep only empty cells dfn may play
    m = 0
    for i in range(n):
        p = out[i]
        if st.cells[p] == EMPTY and not V.forbidden_for(st, dfn, p):
            out[m] = p
            m += 1
        else:
            marks[p] = 0
    return m


@njit(cache=True, nogil=True, _nrt=False)
def _is_vcf(st, tb, seq, n: int) -> bool:
    """Whether ``seq[:n]`` is a VCF of the side to move here: every attacker move legal and a
    four (or the five), every reply the block, the defender's fours answered, and an end the
    defender cannot stop. The state is restored."""
    att = st.info[I_SIDE]
    a = att - 1
    d = 1 - a
    dfn = 3 - att
    rule = st.info[3]
    made = 0
    ok = False
    for i in range(n):
        p = seq[i]
        if st.cells[p] != EMPTY:
            break
        if i % 2 == 0:
            if V.forbidden_for(st, att, p):
                break
            if st.cls[a, p] & 7 == C_FIVE:
                ok = i == n - 1
                break
            d_fives = st.counts[d, C_FIVE]
            if d_fives == 1 and st.cls[d, p] & 7 != C_FIVE:
                break  # the defender's four was not answered
            make(st, tb, p)
            made += 1
            if d_fives > 1 and st.counts[d, C_FIVE] > 0:
                break  # the defender's fives were not all stopped (Caro: one block may do)
            fives = st.counts[a, C_FIVE]
            if fives == 0:
                break
            if fives >= 2 and i < n - 1 and (rule == rules.CARO or rule == rules.CARO5):
                # Caro: one block may leave the other five capped at both ends; with a choice
                # of such blocks the four does not force, with one it must be the reply
                stops = V.five_stops(st, tb, a, seq[:0])
                if stops >= 2:
                    break
                if stops == 1:
                    q = seq[i + 1]
                    if st.cells[q] != EMPTY:
                        break
                    make(st, tb, q)
                    stopped = st.counts[a, C_FIVE] == 0
                    undo(st, tb)
                    if not stopped:
                        break
            if i == n - 1:
                if fives >= 2:
                    ok = V.five_stops(st, tb, a, seq[:0]) == 0
                else:
                    ok = V.forbidden_for(st, dfn, _five_cell(st, a))
                break
        else:
            if st.cls[a, p] & 7 != C_FIVE or st.cls[d, p] & 7 == C_FIVE:
                break
            make(st, tb, p)
            made += 1
    for _ in range(made):
        undo(st, tb)
    return ok


@njit(cache=True, nogil=True, _nrt=False)
def _narrow(st, tb, ctx, dfn: int, nd: int, first, flen: int) -> int:
    """Intersect the defences ``ctx.buf[:nd]`` (marked in ``ctx.marks``) of ``dfn`` (to move)
    against the threat ``first[:flen]`` with those against other threats: VCFs the opponent
    would have after a pass even with ``dfn`` stones on the first cells of the threats found
    so far (each checked without those stones). A move outside any one threat's defences
    loses to that threat. Returns the new count (``ctx.marks`` follows)."""
    extra = ctx.ctl[K_EXTRA_THREATS]
    if extra <= 0 or nd <= 1:
        return nd
    depth = ctx.ctl[K_EXTRA_DEPTH]
    blocks = ctx.work_i[W_BLOCKS : W_BLOCKS + 8]
    nb = 0
    blocks[0] = first[0]
    nb = 1
    for _ in range(min(extra, 7)):
        # the opponent to move, with dfn stones on the blocks (passes in between)
        placed = 0
        for i in range(nb):
            if st.cells[blocks[i]] != EMPTY:
                break
            if i > 0:
                _null_flip(st, tb)
            make(st, tb, blocks[i])
            placed += 1
        m = 0
        if placed == nb:
            m = _vcf_probe(st, tb, ctx, depth, ctx.threat2)
        for i in range(placed - 1, -1, -1):
            undo(st, tb)
            if i > 0:
                _null_flip(st, tb)
        if m <= 0:
            break
        _null_flip(st, tb)
        valid = _is_vcf(st, tb, ctx.threat2, m)
        _null_flip(st, tb)
        if not valid:
            break
        n2 = _defences(st, tb, dfn, ctx.threat2, m, ctx.buf2, ctx.marks2, ctx.work_i, ctx.seen)
        k = 0
        for i in range(nd):
            p = ctx.buf[i]
            if ctx.marks2[p] != 0:
                ctx.buf[k] = p
                k += 1
            else:
                ctx.marks[p] = 0
        for i in range(n2):
            ctx.marks2[ctx.buf2[i]] = 0
        ctx.ctl[K_NARROWED] += nd - k
        nd = k
        if nd <= 1:
            break
        blocks[nb] = ctx.threat2[0]
        nb += 1
    return nd


@njit(cache=True, nogil=True, _nrt=False)
def _vcf_probe(st, tb, ctx, max_depth: int, seq) -> int:
    """The side to move's VCF within ``max_depth`` attacker moves and the probe budget, into
    ``seq`` (length returned, 0 if none found)."""
    if not _has_four(st, st.info[I_SIDE] - 1):
        return 0
    counter = ctx.work_i[W_COUNTER : W_COUNTER + 1]
    counter[0] = 0
    n = V.vcf_search(
        st,
        tb,
        max_depth,
        ctx.ctl[K_VCF_BUDGET],
        ctx.vcf_keys,
        seq,
        ctx.stop,
        counter,
        ctx.scratch,
    )
    ctx.ctl[K_VCF_NODES] += counter[0]
    return max(n, 0)


@njit(cache=True, nogil=True, _nrt=False)
def _threat(st, tb, ctx) -> int:
    """The attacker's shortest VCF (within the threat depth) if the defender, to move, passed:
    into ``ctx.threat``, length returned (0: the last move threatened nothing)."""
    _null_flip(st, tb)
    n = _vcf_probe(st, tb, ctx, ctx.ctl[K_THREAT_DEPTH], ctx.threat)
    if n > 3:
        # a shorter threat has fewer cells, so fewer defences: deepen up to its length
        for depth in range(1, (n - 1) // 2):
            m = _vcf_probe(st, tb, ctx, depth, ctx.vcf_seq)
            if m > 0:
                for i in range(m):
                    ctx.threat[i] = ctx.vcf_seq[i]
                n = m
                break
    _null_flip(st, tb)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _expand(st, tb, ctx, kind: int, level: int) -> int:
    """Generate the children of the current node (``kind`` 0: attacker to move, 1: defender)
    into ``ctx.ch[level]``; returns their count, or ``EXP_WIN`` / ``EXP_LOSS`` for a decided
    node (with the line length of a win in ``ctl[K_TERM_LEN]``). ``ctl[K_NREAL]``: the
    children before the deferred ones (-1: none deferred)."""
    ctx.ctl[K_NREAL] = -1
    side = st.info[I_SIDE]
    s = side - 1
    o = 1 - s
    out = ctx.ch[level]
    if kind == 0:
        if st.counts[s, C_FIVE] > 0:
            ctx.ctl[K_TERM_LEN] = 1
            return EXP_WIN
        n = _vcf_probe(st, tb, ctx, ctx.ctl[K_ATT_DEPTH], ctx.vcf_seq)
        if n > 0:
            ctx.ctl[K_TERM_LEN] = n
            return EXP_WIN
        if st.info[I_PLY] >= ctx.ctl[K_PLY_LIMIT]:
            return EXP_LOSS
        if st.counts[o, C_FIVE] > 0:
            # the defender's four: the block is the only move (it must threaten in turn)
            if st.counts[o, C_FIVE] > 1:
                # Caro: one block may stop both fives (the first such cell will do)
                if V.five_stops(st, tb, o, out[:1]) == 0:
                    return EXP_LOSS
                b = out[0]
            else:
                b = _five_cell(st, o)
            if V.forbidden_for(st, side, b):
                return EXP_LOSS
            out[0] = b
            return 1
        # does the defender threaten a VCF of its own? then only fours and defences
        _null_flip(st, tb)
        tn = _vcf_probe(st, tb, ctx, ctx.ctl[K_DEF_DEPTH], ctx.threat)
        _null_flip(st, tb)
        restrict = False
        nd = 0
        if tn > 0:
            restrict = True
            nd = _defences(st, tb, side, ctx.threat, tn, ctx.buf, ctx.marks, ctx.work_i, ctx.seen)
        nm = _threat_moves(st, ctx, side, out, restrict)
        for i in range(nd):
            ctx.marks[ctx.buf[i]] = 0
        if nm == 0:
            return EXP_LOSS
        _near_first(st, ctx, out, nm)
        return nm
    # defender to move, after an attacker move
    if st.counts[s, C_FIVE] > 0:
        return EXP_LOSS  # the defender completes five
    fives = st.counts[o, C_FIVE]
    if fives >= 2:
        # Caro: one block may stop both fives; every such block is a defence
        n = V.five_stops(st, tb, o, out)
        if n == 0:
            ctx.ctl[K_TERM_LEN] = 2
            return EXP_WIN
        if n > out.shape[0]:
            return EXP_LOSS  # more than we can hold: give up (never claim an unproved win)
        return n
    if fives == 1:
        b = _five_cell(st, o)
        if V.forbidden_for(st, side, b):
            ctx.ctl[K_TERM_LEN] = 0
            return EXP_WIN
        out[0] = b
        return 1
    tlen = _threat(st, tb, ctx)
    if tlen <= 0:
        return EXP_LOSS  # no threat: the defender has a free move
    if _vcf_probe(st, tb, ctx, ctx.ctl[K_DEF_DEPTH], ctx.vcf_seq) > 0:
        return EXP_LOSS  # the defender wins first
    nd = _defences(st, tb, side, ctx.threat, tlen, ctx.buf, ctx.marks, ctx.work_i, ctx.seen)
    nd = _narrow(st, tb, ctx, side, nd, ctx.threat, tlen)
    if nd == 0:
        ctx.ctl[K_TERM_LEN] = tlen + 1
        return EXP_WIN
    if nd > out.shape[0]:
        for i in range(nd):
            ctx.marks[ctx.buf[i]] = 0
        return EXP_LOSS  # too many to hold: give up (never claim an unproved win)
    # order: where the attacker is strongest first; with K_DEFER, the fours that defend
    # nothing else after all the others
    scores = ctx.work_i[W_SCORES : W_SCORES + nd]
    n = 0
    real = 0
    defer = ctx.ctl[K_DEFER] != 0
    for i in range(nd):
        p = ctx.buf[i]
        score = (st.cls[o, p] & 7) * 1000000 + st.val[o, p] + st.val[s, p]
        if defer and ctx.marks[p] == 2:
            score -= 100000000
        else:
            real += 1
        n = V.insert_sorted(out, scores, n, nd, p, score)
    for i in range(nd):
        ctx.marks[ctx.buf[i]] = 0
    if real > 0:
        ctx.ctl[K_NREAL] = real
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _expand_cached(st, tb, ctx, kind: int, level: int) -> int:
    """``_expand`` through the expansion cache (keyed by the position's hash)."""
    key = st.hashes[st.info[I_PLY]]
    slot = key & (ctx.exp_keys.shape[0] - 1)
    row = ctx.exp_data[slot]
    if ctx.exp_keys[slot] == key and row[0] != 0:
        ctx.ctl[K_EXP_HITS] += 1
        n = np.int64(row[0])
        ctx.ctl[K_NREAL] = -1
        if n > 0:
            ctx.ctl[K_NREAL] = n // 129 - 1
            n = n % 129
            for i in range(n):
                ctx.ch[level, i] = row[1 + i]
        return n
    ctx.ctl[K_EXPANSIONS] += 1
    n = _expand(st, tb, ctx, kind, level)

    if n > 0 and ctx.stop[0] == 0:  # (a stop may have cut a probe short: not kept)
        ctx.exp_keys[slot] = key
        row[0] = n + 129 * (ctx.ctl[K_NREAL] + 1)
        for i in range(n):
            row[1 + i] = ctx.ch[level, i]
    return n


# --- transposition table --------------------------------------------------------------------


def forget_disproofs(ctx: VctContext) -> None:
    """Empty the table's disproved entries (kept proofs stay): a disproof may come from the
    last run's depth limit, node limit or probe budget, which a later run does not share."""
    gone = ctx.tt_val[:, T_DN] == 0
    gone &= ctx.tt_keys != 0
    ctx.tt_keys[gone] = 0
    ctx.tt_val[gone] = 0


@njit(cache=True, nogil=True, _nrt=False)
def tt_find(ctx, key) -> int:
    """The slot holding ``key`` (buckets of two), or -1."""
    slot = (key & (ctx.tt_keys.shape[0] - 1)) & ~np.uint64(1)
    i = np.int64(slot)
    if ctx.tt_keys[i] == key:
        return i
    if ctx.tt_keys[i + 1] == key:
        return i + 1
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def _tt_store(ctx, key, pn: int, dn: int, length: int, best: int, work: int) -> None:
    i = np.int64((key & (ctx.tt_keys.shape[0] - 1)) & ~np.uint64(1))
    if ctx.tt_keys[i] == key:
        j = i
    elif ctx.tt_keys[i + 1] == key:
        j = i + 1
    elif ctx.tt_keys[i] == 0:  # an empty slot first (its zeroed values would read as solved)
        j = i
    elif ctx.tt_keys[i + 1] == 0:
        j = i + 1
    else:
        # replace the entry with less work behind it (solved entries count as much work)
        w0 = ctx.tt_val[i, T_WORK]
        w1 = ctx.tt_val[i + 1, T_WORK]
        if ctx.tt_val[i, T_PN] == 0 or ctx.tt_val[i, T_DN] == 0:
            w0 += 1 << 20
        if ctx.tt_val[i + 1, T_PN] == 0 or ctx.tt_val[i + 1, T_DN] == 0:
            w1 += 1 << 20
        j = i if w0 <= w1 else i + 1
    ctx.tt_keys[j] = key
    ctx.tt_val[j, T_PN] = pn
    ctx.tt_val[j, T_DN] = dn
    ctx.tt_val[j, T_LEN] = length
    ctx.tt_val[j, T_WORK] = min(work, 1 << 30)
    ctx.tt_val[j, T_BEST] = best


@njit(cache=True, nogil=True, _nrt=False)
def _child_key(st, tb, p: int):
    side = st.info[I_SIDE]
    return st.hashes[st.info[I_PLY]] ^ tb.zobrist[side, p] ^ tb.zobrist[0, 0]


# --- df-pn ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _init_child(st, ctx, kind: int, level: int, i: int, n: int) -> None:
    """First proof and disproof numbers of child ``i`` of ``n`` not in the table: the sibling
    count on the side that has to refute (narrow nodes look easier, so forcing lines go
    first), scaled down for the attacker's fours and threes, which leave few replies."""
    p = ctx.ch[level, i]
    ctx.clen[level, i] = 0
    if kind == 1:
        ctx.cpn[level, i] = 1
        ctx.cdn[level, i] = n
        return
    ctx.cdn[level, i] = 1
    c = st.cls[st.info[I_SIDE] - 1, p] & 7
    if c >= C_FOUR and c <= C_FLEX4:
        pct = ctx.ctl[K_PCT_FOUR]
    elif c >= C_THREE:
        pct = ctx.ctl[K_PCT_THREE]
    else:
        pct = ctx.ctl[K_PCT_QUIET]
    ctx.cpn[level, i] = max(1, (n * pct) // 100)


@njit(cache=True, nogil=True, _nrt=False)
def dfpn(st, tb, ctx, root_kind: int) -> int:
    """Prove (1) or disprove (0) the current node (``root_kind`` 0: the attacker is to move,
    1: the defender is to move after an attacker move); -1 when the node or time limit ran
    out first. The table in ``ctx`` keeps what was learned; the state is restored."""
    ctl = ctx.ctl
    eps = ctl[K_EPS_NUM]
    look = ctl[K_LOOKAHEAD]
    use_killers = ctl[K_KILLERS] != 0
    # int64 values, not literal constants, for the arguments of the kernels called below
    # (docs/engine.md, "One specialisation per kernel")
    level = np.int64(0)
    ZERO, ONE, NO_MOVE, BIG = np.int64(0), np.int64(1), np.int64(-1), np.int64(INF)
    ctx.thpn[0] = INF
    ctx.thdn[0] = INF
    ctx.killer[:] = -1
    ctx.counter[:, :] = -1
    ret_pn = np.int64(1)
    ret_dn = np.int64(1)
    ret_len = np.int64(0)
    ret_best = np.int64(-1)
    phase = 0  # 0 enter a node, 1 work on a node, 2 return from a node
    aborted = False
    while True:
        kind = (root_kind + level) & 1
        if phase == 0:
            ctl[K_NODES] += 1
            if ctx.stop[0] != 0 or ctl[K_NODES] >= ctl[K_NODE_LIMIT]:
                aborted = True
                break
            ctx.work[level] = ctl[K_NODES]
            key = st.hashes[st.info[I_PLY]]
            slot = tt_find(ctx, key)
            if slot >= 0:
                pn = np.int64(ctx.tt_val[slot, T_PN])
                dn = np.int64(ctx.tt_val[slot, T_DN])
                if pn >= ctx.thpn[level] or dn >= ctx.thdn[level]:
                    ret_pn = pn
                    ret_dn = dn
                    ret_len = np.int64(ctx.tt_val[slot, T_LEN])
                    ret_best = np.int64(ctx.tt_val[slot, T_BEST])
                    phase = 2
                    continue
            n = _expand_cached(st, tb, ctx, kind, level)
            if ctx.stop[0] != 0:
                # a probe cut short by the stop may have missed a VCF (of the defender: a
                # false win): nothing from this expansion is kept
                aborted = True
                break
            if n < 0:
                ret_best = np.int64(-1)
                if n == EXP_WIN:
                    ret_pn = np.int64(0)
                    ret_dn = np.int64(INF)
                    ret_len = ctl[K_TERM_LEN]
                    if kind == 0 and ret_len > 1:
                        ret_best = ctx.vcf_seq[0]
                else:
                    ret_pn = np.int64(INF)
                    ret_dn = np.int64(0)
                    ret_len = np.int64(0)
                _tt_store(ctx, key, ret_pn, ret_dn, ret_len, ret_best, ONE)
                phase = 2
                continue
            ctx.nch[level] = n
            ctx.nact[level] = n
            far_from = n  # attacker node: the moves from here on start as harder
            if ctl[K_NREAL] >= 0:
                if kind == 1:
                    ctx.nact[level] = ctl[K_NREAL]
                else:
                    far_from = ctl[K_NREAL]
            far_factor = ctl[K_FAR_FACTOR]
            for i in range(far_from, n):
                ctx.far[ctx.ch[level, i]] = 1  # (the favourites below reorder the list)
            killer = ctx.killer[level] if use_killers else -1
            reply = -1
            if use_killers and st.info[I_PLY] > st.info[8]:
                reply = ctx.counter[kind, st.moves[st.info[I_PLY] - 1]]
            # what proved or refuted a sibling's child, then what answered the last move
            # elsewhere, go first
            for favourite in (killer, reply):
                if favourite < 0:
                    continue
                for i in range(1, n):
                    p = ctx.ch[level, i]
                    if p == favourite:
                        for j in range(i, 0, -1):
                            ctx.ch[level, j] = ctx.ch[level, j - 1]
                        ctx.ch[level, 0] = p
                        break
            for i in range(n):
                p = ctx.ch[level, i]
                cs = tt_find(ctx, _child_key(st, tb, p))
                if cs >= 0:
                    ctx.cpn[level, i] = ctx.tt_val[cs, T_PN]
                    ctx.cdn[level, i] = ctx.tt_val[cs, T_DN]
                    ctx.clen[level, i] = ctx.tt_val[cs, T_LEN]
                elif (
                    kind == 0
                    and look > 0
                    and level + 1 < MAX_LEVELS
                    and (st.cls[st.info[I_SIDE] - 1, p] & 7) < C_FOUR
                ):
                    # a three or quiet move: look one ply ahead (the expansion is cached) and
                    # start from its number of defences
                    ctx.clen[level, i] = 0
                    ctx.cdn[level, i] = 1
                    ctl[K_NODES] += 1  # counted as a visit, so node limits still bound the work
                    make(st, tb, p)
                    m = _expand_cached(st, tb, ctx, ONE, level + 1)
                    if ctx.stop[0] != 0:
                        undo(st, tb)
                        aborted = True  # as above: the look-ahead is not kept either
                        break
                    if m == EXP_WIN:
                        ctx.cpn[level, i] = 0
                        ctx.cdn[level, i] = INF
                        ctx.clen[level, i] = ctl[K_TERM_LEN]
                        ckey = st.hashes[st.info[I_PLY]]
                        _tt_store(ctx, ckey, ZERO, BIG, ctl[K_TERM_LEN], NO_MOVE, ONE)
                    elif m == EXP_LOSS:
                        ctx.cpn[level, i] = INF
                        ctx.cdn[level, i] = 0
                        ckey = st.hashes[st.info[I_PLY]]
                        _tt_store(ctx, ckey, BIG, ZERO, ZERO, NO_MOVE, ONE)
                    else:
                        ctx.cpn[level, i] = m * look
                        if ctx.far[p] != 0:
                            ctx.cpn[level, i] *= far_factor
                    undo(st, tb)
                else:
                    _init_child(st, ctx, kind, level, i, n)
                    if ctx.far[p] != 0:
                        ctx.cpn[level, i] *= far_factor
                    if p == killer or p == reply:
                        if kind == 0:
                            ctx.cpn[level, i] = 1
                        else:
                            ctx.cdn[level, i] = 1
            if far_from < n:
                for i in range(n):  # (in the new order)
                    ctx.far[ctx.ch[level, i]] = 0
            if aborted:
                break
            phase = 1
            continue
        if phase == 1:
            n = ctx.nact[level]
            deferred = ctx.nch[level] - n
            # this node's numbers from its children's, and the two best children
            best = 0
            second = np.int64(INF)
            if kind == 0:
                pn = np.int64(INF)
                dn = np.int64(0)
                length = np.int64(INF)
                for i in range(n):
                    c = ctx.cpn[level, i]
                    if c < pn:
                        second = pn
                        pn = c
                        best = i
                    elif c < second:
                        second = c
                    dn = min(dn + ctx.cdn[level, i], INF - 1)
                    if c == 0 and ctx.clen[level, i] < length:
                        length = ctx.clen[level, i]
                        best = i
            else:
                dn = np.int64(INF)
                pn = np.int64(0)
                length = np.int64(0)
                for i in range(n):
                    c = ctx.cdn[level, i]
                    if c < dn:
                        second = dn
                        dn = c
                        best = i
                    elif c < second:
                        second = c
                    pn = min(pn + ctx.cpn[level, i], INF - 1)
                    length = max(length, ctx.clen[level, i])
                if deferred > 0:
                    if pn == 0:
                        ctx.nact[level] = ctx.nch[level]  # the rest are proven: wake the fours
                        continue
                    pn = min(pn + deferred, INF - 1)
            if pn == 0:
                dn = np.int64(INF)
            elif dn == 0:
                pn = np.int64(INF)
            if pn >= ctx.thpn[level] or dn >= ctx.thdn[level]:
                ret_pn = pn
                ret_dn = dn
                ret_len = length + 1 if pn == 0 else np.int64(0)
                ret_best = ctx.ch[level, best]
                key = st.hashes[st.info[I_PLY]]
                _tt_store(
                    ctx, key, ret_pn, ret_dn, ret_len, ret_best, ctl[K_NODES] - ctx.work[level]
                )
                phase = 2
                continue
            # the child's thresholds (1+epsilon trick on the second best)
            grow = max(second + 1, second + (second * eps) // 64)
            if kind == 0:
                tpn = min(ctx.thpn[level], grow)
                if ctx.thdn[level] >= INF:
                    tdn = np.int64(INF)
                else:
                    tdn = min(ctx.thdn[level] - dn + ctx.cdn[level, best], INF)
            else:
                tdn = min(ctx.thdn[level], grow)
                if ctx.thpn[level] >= INF:
                    tpn = np.int64(INF)
                else:
                    tpn = min(ctx.thpn[level] - pn + ctx.cpn[level, best], INF)
            ctx.sel[level] = best
            make(st, tb, ctx.ch[level, best])
            level += 1
            ctx.thpn[level] = tpn
            ctx.thdn[level] = tdn
            phase = 0
            continue
        # phase 2: hand the result to the parent
        if level == 0:
            break
        undo(st, tb)
        level -= 1
        i = ctx.sel[level]
        ctx.cpn[level, i] = ret_pn
        ctx.cdn[level, i] = ret_dn
        ctx.clen[level, i] = ret_len
        # a proof (of an attacker node) or a refutation (of a defender node) below: its move
        # is tried first at the siblings' children
        if ret_best >= 0 and ((kind == 0 and ret_pn == 0) or (kind == 1 and ret_dn == 0)):
            ctx.killer[level + 1] = ret_best
            ctx.counter[kind, ctx.ch[level, i]] = ret_best
        phase = 1
    while level > 0:
        undo(st, tb)
        level -= 1
    ctl[K_ROOT_PN] = ret_pn
    ctl[K_ROOT_DN] = ret_dn
    if aborted:
        return -1
    if ret_pn == 0:
        return 1
    if ret_dn == 0:
        return 0
    return -1


# --- helpers for the line extraction (called from Python) -----------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def expand_node(st, tb, ctx, kind: int) -> int:
    """``_expand`` of the current node into ``ctx.ch[0]`` (uncached; for line extraction)."""
    return _expand(st, tb, ctx, kind, np.int64(0))


@njit(cache=True, nogil=True, _nrt=False)
def tt_forget(ctx, key) -> None:
    """Drop ``key``'s entry from the table."""
    slot = tt_find(ctx, key)
    if slot >= 0:
        ctx.tt_keys[slot] = 0
        ctx.tt_val[slot, :] = 0


@njit(cache=True, nogil=True, _nrt=False)
def child_entries(st, tb, ctx, n: int, out) -> None:
    """``out[i] = (pn, dn, len)`` of child ``ctx.ch[0, i]`` from the table (``pn = -1``: not
    in the table)."""
    for i in range(n):
        slot = tt_find(ctx, _child_key(st, tb, ctx.ch[0, i]))
        if slot >= 0:
            out[i, 0] = ctx.tt_val[slot, T_PN]
            out[i, 1] = ctx.tt_val[slot, T_DN]
            out[i, 2] = ctx.tt_val[slot, T_LEN]
        else:
            out[i, 0] = -1
            out[i, 1] = -1
            out[i, 2] = 0


@njit(cache=True, nogil=True)
def vcf_line(st, tb, ctx) -> int:
    """The side to move's VCF into ``ctx.vcf_seq`` (length, 0 if none), with a generous
    budget (for line extraction)."""
    counter = np.zeros(1, dtype=np.int64)
    n = V.vcf(
        st,
        tb,
        V.MAX_VCF_DEPTH,
        max(ctx.ctl[K_VCF_BUDGET], 1000000),
        ctx.vcf_keys,
        ctx.vcf_depth,
        ctx.vcf_seq,
        ctx.stop,
        counter,
    )
    return max(n, 0)


@njit(cache=True, nogil=True)
def free_move(st, tb, ctx) -> int:
    """A legal move for the side to move after which the opponent still has a VCF (used when
    no defence of a threat is playable), or -1."""
    side = st.info[I_SIDE]
    best = -1
    for pass_ in range(2):
        for p in range(st.cells.shape[0]):
            if st.cells[p] != EMPTY or (pass_ == 0 and st.near[p] != 0):
                continue
            if V.forbidden_for(st, side, p) or (st.cls[side - 1, p] & 7) >= C_FOUR:
                continue
            make(st, tb, p)
            n = vcf_line(st, tb, ctx)
            undo(st, tb)
            if n > 0:
                best = p
                break
        if best >= 0:
            break
    return best


# --- Python driver --------------------------------------------------------------------------


def solve(
    st,
    tb,
    ctx: VctContext,
    max_depth: int = MAX_TREE_DEPTH,
    info: dict | None = None,
) -> list[int] | None:
    """A VCT for the side to move of ``st`` as padded cells (attacker and defender moves
    alternating, the defender's longest resistance, ending with the five or with a four the
    defender may not block), or None when none was proved within the limits in ``ctx.ctl`` and
    the stop flag. The state is restored.

    When the attacker's last threat leaves the defender no playable defence, the line goes on
    with a *free* defender move (any legal cell, :func:`free_move`: a placeholder, often far
    from the fight) and the VCF that follows; ``info["free"]`` (when ``info`` is given) is then
    that move's index in the line, else None."""
    ctl = ctx.ctl
    ctl[K_PLY_LIMIT] = int(st.info[I_PLY]) + 2 * min(max_depth, MAX_TREE_DEPTH)
    if info is not None:
        info["free"] = None
    if dfpn(st, tb, ctx, 0) != 1:
        return None
    return _extract(st, tb, ctx, info)


def _extract(st, tb, ctx: VctContext, info: dict | None = None) -> list[int] | None:
    """Walk the proof in the table from the current (proven) attacker node (``info["free"]``:
    the index of a free defender move in the line, see :func:`solve`)."""
    line: list[int] = []
    made = 0
    entries = np.zeros((MAX_CHILDREN, 3), dtype=np.int64)
    kind = 0
    try:
        for _ in range(4 * MAX_LEVELS):
            if kind == 0:
                side = int(st.info[I_SIDE])
                if st.counts[side - 1, C_FIVE] > 0:
                    line.append(int(V.first_cell_of_class(st, side - 1, C_FIVE)))
                    return line
                n = vcf_line(st, tb, ctx)
                if n > 0:
                    line.extend(int(p) for p in ctx.vcf_seq[:n])
                    return line
            n = int(expand_node(st, tb, ctx, kind))
            if n == EXP_WIN:
                tail, free = _terminal_line(st, tb, ctx)
                if free and info is not None:
                    info["free"] = len(line)
                return line + tail
            if n == EXP_LOSS or n == 0:
                return None
            pick = _pick_child(st, tb, ctx, kind, n, entries)
            if pick < 0:
                return None
            move = int(ctx.ch[0, pick])
            make(st, tb, move)
            made += 1
            line.append(move)
            kind = 1 - kind
        return None
    finally:
        for _ in range(made):
            undo(st, tb)


def _pick_child(st, tb, ctx: VctContext, kind: int, n: int, entries: np.ndarray) -> int:
    """The attacker's proven child with the shortest line, or the defender's child with the
    longest (every child of a proven defender node is proven; a child whose entry was
    overwritten is proved again)."""
    moves = [int(p) for p in ctx.ch[0, :n]]
    for _attempt in range(2):
        child_entries(st, tb, ctx, n, entries)
        if kind == 0:
            proven = [i for i in range(n) if entries[i, 0] == 0]
            if proven:
                return min(proven, key=lambda i: entries[i, 2])
            # the proof was overwritten: prove this node again
            tt_forget(ctx, st.hashes[st.info[I_PLY]])
            if dfpn(st, tb, ctx, 0) != 1:
                return -1
            n2 = int(expand_node(st, tb, ctx, 0))
            if n2 != n or [int(p) for p in ctx.ch[0, :n]] != moves:
                return -1
        else:
            missing = [i for i in range(n) if entries[i, 0] != 0]
            if not missing:
                return max(range(n), key=lambda i: entries[i, 2])
            for i in missing:
                make(st, tb, moves[i])
                ok = dfpn(st, tb, ctx, 0)
                undo(st, tb)
                if ok != 1:
                    return -1
            n2 = int(expand_node(st, tb, ctx, 1))
            if n2 != n or [int(p) for p in ctx.ch[0, :n]] != moves:
                return -1
    return -1


def _terminal_line(st, tb, ctx: VctContext) -> tuple[list[int], bool]:
    """The end of the line at a defender node decided without search, and whether it starts
    with a free defender move (no playable defence: any cell, then the threat's VCF)."""
    side = int(st.info[I_SIDE])
    o = 2 - side
    if st.counts[o, C_FIVE] >= 2:
        # block one five where the defender may play (none: the line ends with the four)
        blocks = [
            p
            for p in range(st.cells.shape[0])
            if st.cells[p] == EMPTY
            and st.cls[o, p] & 7 == C_FIVE
            and not V.forbidden_for(st, side, p)
        ]
        if not blocks:
            return [], False
        b = blocks[0]
        make(st, tb, b)
        five = int(V.first_cell_of_class(st, o, C_FIVE))
        undo(st, tb)
        return [b, five], False
    if st.counts[o, C_FIVE] == 1:
        return [], False  # the only block is forbidden to the defender
    # no playable defence: any move, then the threat's VCF
    p = int(free_move(st, tb, ctx))
    if p < 0:
        return [], False
    make(st, tb, p)
    try:
        n = vcf_line(st, tb, ctx)
        return [p] + [int(q) for q in ctx.vcf_seq[:n]], True
    finally:
        undo(st, tb)
