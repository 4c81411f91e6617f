"""VCT: victory by continuous threats (fours, threes and VCF threats), proved by df-pn.

The tree is an AND/OR tree over threats. At an *attacker* node (OR) the side to move wins at
once with a five or a VCF; otherwise it may play a four, a three, or a quiet move that builds on
two or more lines (which may threaten a VCF: a "fukumi" move). When the defender would have a
VCF of its own after an attacker pass, the attacker's moves are narrowed to its fours and the
cells that defend against that VCF. At a *defender* node (AND), after a four the defender has
one reply (or none: two fives, or a Renju-forbidden block); after any other move the node asks
which VCF the attacker would have if the defender passed (the *threat*: none means the move
threatened nothing, and the attacker fails), and whether the defender has a VCF itself (then the
attacker fails too). The defender's candidate replies are then the cells of the shortest threat
VCF, its winning points, the cells where the defender's forced replies would become fours
(counter-fours), the defender's fours now and, under Renju, the neighbourhood of a winning
point forbidden to black. Any other defender move leaves the threat VCF intact, so the
defences are complete and a proof is a real win; every pruning of the attacker's moves only
makes the solver miss wins, never claim false ones.

The tree is searched by depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon
threshold trick (Pawlewicz and Lew 2007), a transposition table of proof and disproof numbers
keyed by the Zobrist hash, heuristic initial proof numbers (a four has one reply, a quiet move
many) and an explicit stack, so no kernel is recursive (DESIGN.md: a cached kernel calling a
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
    C_THREE,
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

# ctl[] slots
K_NODES = 0  # df-pn node visits
K_NODE_LIMIT = 1
K_VCF_NODES = 2
K_PLY_LIMIT = 3  # absolute ply from which the attacker may not move in the tree any more
K_THREAT_DEPTH = 4  # most attacker moves of the VCF that makes a move a threat
K_VCF_BUDGET = 5  # nodes of each VCF probe
K_TERM_LEN = 6  # scratch: line length of a terminal node
K_EXPANSIONS = 7  # nodes expanded (move generation and VCF probes run)
K_EXP_HITS = 8  # expansions served by the expansion cache
K_EPS_NUM = 9  # 1+epsilon trick: child threshold = second best * (1 + num / 64), +1 at least
K_COUNT = 16

# expansion results
EXP_WIN = -1  # the attacker wins here (proof number 0)
EXP_LOSS = -2  # the attacker cannot win here (disproof number 0)

# tt_val[] columns
T_PN = 0
T_DN = 1
T_LEN = 2  # proven: plies of the winning line from this node (attacker's quickest, defender's
# longest resistance)
T_WORK = 3  # node visits spent below this node (replacement priority)


class VctContext(NamedTuple):
    """Everything one VCT search needs besides the position: limits and counters, the
    transposition table, the explicit stack, the expansion cache and the VCF memory."""

    ctl: np.ndarray  # int64[K_COUNT]
    tt_keys: np.ndarray  # uint64[2**TT_BITS]
    tt_val: np.ndarray  # int32[2**TT_BITS, 4] (T_* columns)
    ch: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN] children of the nodes on the path
    cpn: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    cdn: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    clen: np.ndarray  # int64[MAX_LEVELS, MAX_CHILDREN]
    nch: np.ndarray  # int64[MAX_LEVELS]
    thpn: np.ndarray  # int64[MAX_LEVELS] thresholds
    thdn: np.ndarray  # int64[MAX_LEVELS]
    sel: np.ndarray  # int64[MAX_LEVELS] child being searched
    work: np.ndarray  # int64[MAX_LEVELS] node count on entry
    exp_keys: np.ndarray  # uint64[2**EXP_BITS]
    exp_data: np.ndarray  # int16[2**EXP_BITS, MAX_CHILDREN + 1]: count (or EXP_*), children
    vcf_keys: np.ndarray
    vcf_depth: np.ndarray
    vcf_seq: np.ndarray  # int64[2 * MAX_VCF_DEPTH + 4]
    threat: np.ndarray  # int64[2 * MAX_VCF_DEPTH + 4]
    buf: np.ndarray  # int64[cells]
    marks: np.ndarray  # int8[cells]
    stop: np.ndarray  # int64[1]: non-zero aborts


def new_context(
    cells: int,
    stop: np.ndarray | None = None,
    tt_bits: int = TT_BITS,
    exp_bits: int = EXP_BITS,
) -> VctContext:
    """A fresh context for boards of ``cells`` padded cells (default limits: no node limit,
    the whole depth, VCF probes of 20000 nodes)."""
    ctl = np.zeros(K_COUNT, dtype=np.int64)
    ctl[K_NODE_LIMIT] = 1 << 62
    ctl[K_PLY_LIMIT] = 1 << 30
    ctl[K_THREAT_DEPTH] = V.MAX_VCF_DEPTH
    ctl[K_VCF_BUDGET] = 20000
    ctl[K_EPS_NUM] = 16
    vk, vd = V.new_vcf_tt()
    return VctContext(
        ctl,
        np.zeros(1 << tt_bits, dtype=np.uint64),
        np.zeros((1 << tt_bits, 4), dtype=np.int32),
        np.zeros((MAX_LEVELS, MAX_CHILDREN), dtype=np.int64),
        np.zeros((MAX_LEVELS, MAX_CHILDREN), dtype=np.int64),
        np.zeros((MAX_LEVELS, MAX_CHILDREN), dtype=np.int64),
        np.zeros((MAX_LEVELS, MAX_CHILDREN), dtype=np.int64),
        np.zeros(MAX_LEVELS, dtype=np.int64),
        np.zeros(MAX_LEVELS, dtype=np.int64),
        np.zeros(MAX_LEVELS, dtype=np.int64),
        np.zeros(MAX_LEVELS, dtype=np.int64),
        np.zeros(MAX_LEVELS, dtype=np.int64),
        np.zeros(1 << exp_bits, dtype=np.uint64),
        np.zeros((1 << exp_bits, MAX_CHILDREN + 1), dtype=np.int16),
        vk,
        vd,
        np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64),
        np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
        stop if stop is not None else np.zeros(1, dtype=np.int64),
    )


# --- move generation ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _insert_sorted(out, scores, n: int, cap: int, p: int, score: int) -> int:
    """Insert ``p`` into ``out[:n]`` kept sorted by ``scores`` (best first), at most ``cap``
    entries; the new count is returned."""
    if n == cap:
        if score <= scores[n - 1]:
            return n
        n -= 1
    i = n
    while i > 0 and scores[i - 1] < score:
        scores[i] = scores[i - 1]
        out[i] = out[i - 1]
        i -= 1
    scores[i] = score
    out[i] = p
    return n + 1


@njit(cache=True, nogil=True)
def _threat_moves(st, att: int, out, marks, restrict: bool) -> int:
    """Attacker candidates, best first (count returned): moves that make a three or a four,
    and quiet moves that build on two or more lines (``B2`` or better), which may threaten a
    VCF (a "fukumi" move). With ``restrict``, only fours and cells marked in ``marks``.
    Whether a candidate really threatens is decided at the defender's node, by the VCF the
    attacker would have after a pass."""
    a = att - 1
    cap = min(out.shape[0], MAX_THREATS)
    scores = np.empty(cap, dtype=np.int64)
    n = 0
    for p in range(st.cells.shape[0]):
        if st.cells[p] != EMPTY or st.near[p] == 0:
            continue
        c = st.cls[a, p] & 7
        if c == C_FORBID or c == C_FIVE:
            continue
        if restrict and marks[p] == 0 and c < C_FOUR:
            continue
        lines = 0
        idx = st.p4[a, p]
        for k in range(4):
            if (idx >> (4 * k)) & 15 >= P.B2:
                lines += 1
        if c < C_THREE and lines < 2:
            continue
        if V.forbidden_for(st, att, p):
            continue
        score = c * 1000000 + lines * 100000 + st.val[a, p] + st.val[1 - a, p] // 2
        n = _insert_sorted(out, scores, n, cap, p, score)
    return n


@njit(cache=True, nogil=True)
def _null_flip(st, tb) -> None:
    """Pass: the other side moves next (the hash follows)."""
    ply = st.info[I_PLY]
    st.hashes[ply] ^= tb.zobrist[0, 0]
    st.info[I_SIDE] = 3 - st.info[I_SIDE]


@njit(cache=True, nogil=True)
def _mark(marks, out, n: int, p: int) -> int:
    if marks[p] == 0:
        marks[p] = 1
        out[n] = p
        n += 1
    return n


@njit(cache=True, nogil=True)
def _defences(st, tb, dfn: int, threat, tlen: int, out, marks) -> int:
    """The answers of ``dfn`` (the side to move) to the opponent's threat ``threat[:tlen]`` (a
    VCF the opponent would play after a pass): every cell of the VCF, the winning points at its
    end, the cells where the forced replies would give ``dfn`` a four (counter-fours), the
    neighbourhood of a winning point forbidden to ``dfn``, and ``dfn``'s fours now. Cells
    ``dfn`` may not play are dropped. Written to ``out`` (count returned); ``marks`` is left
    with exactly the returned cells set, for the caller to clear."""
    d = dfn - 1
    a = 1 - d
    stride = st.info[I_STRIDE]
    n = 0
    for i in range(tlen):
        n = _mark(marks, out, n, threat[i])
    # replay the threat after a pass to find the end points and counter-four cells
    _null_flip(st, tb)
    played = 0
    for i in range(tlen):
        p = threat[i]
        if st.cells[p] != EMPTY:
            break
        make(st, tb, p)
        played += 1
    if played == tlen and tlen % 2 == 1:
        # the opponent's last move is on the board: its winning points are the end
        last = threat[tlen - 1]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-5, 6):
                q = last + j * dd
                if st.cells[q] == EMPTY and (st.cls[a, q] & 7 == C_FIVE):
                    n = _mark(marks, out, n, q)
                    if V.forbidden_for(st, dfn, q):
                        # a forbidden point: a stone of dfn nearby may lift the ban
                        for k2 in range(4):
                            d2 = rules.direction(k2, stride)
                            for j2 in range(-5, 6):
                                r = q + j2 * d2
                                if st.cells[r] == EMPTY:
                                    n = _mark(marks, out, n, r)
    for i in range(1, played, 2):
        r = threat[i]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-4, 5):
                q = r + j * dd
                if st.cells[q] == EMPTY and (st.cls[d, q] & 7) >= C_FOUR:
                    n = _mark(marks, out, n, q)
    for _ in range(played):
        undo(st, tb)
    _null_flip(st, tb)
    for p in range(st.cells.shape[0]):
        if st.cells[p] == EMPTY and (st.cls[d, p] & 7) >= C_FOUR:
            n = _mark(marks, out, n, p)
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


@njit(cache=True, nogil=True)
def _vcf_probe(st, tb, ctx, max_depth: int, seq) -> int:
    """The side to move's VCF within ``max_depth`` attacker moves and the node budget, into
    ``seq`` (length returned, 0 if none found)."""
    counter = np.zeros(1, dtype=np.int64)
    n = V.vcf(
        st,
        tb,
        max_depth,
        ctx.ctl[K_VCF_BUDGET],
        ctx.vcf_keys,
        ctx.vcf_depth,
        seq,
        ctx.stop,
        counter,
    )
    ctx.ctl[K_VCF_NODES] += counter[0]
    return max(n, 0)


@njit(cache=True, nogil=True)
def _threat(st, tb, ctx) -> int:
    """The attacker's shortest VCF (within the threat depth) if the defender, to move, passed:
    into ``ctx.threat``, length returned (0: the last move threatened nothing)."""
    _null_flip(st, tb)
    cap = ctx.ctl[K_THREAT_DEPTH]
    n = _vcf_probe(st, tb, ctx, cap, ctx.threat)
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


@njit(cache=True, nogil=True)
def _expand(st, tb, ctx, kind: int, level: int) -> int:
    """Generate the children of the current node (``kind`` 0: attacker to move, 1: defender)
    into ``ctx.ch[level]``; returns their count, or ``EXP_WIN`` / ``EXP_LOSS`` for a decided
    node (with the line length of a win in ``ctl[K_TERM_LEN]``)."""
    side = st.info[I_SIDE]
    s = side - 1
    o = 1 - s
    out = ctx.ch[level]
    if kind == 0:
        if st.counts[s, C_FIVE] > 0:
            ctx.ctl[K_TERM_LEN] = 1
            return EXP_WIN
        n = _vcf_probe(st, tb, ctx, V.MAX_VCF_DEPTH, ctx.vcf_seq)
        if n > 0:
            ctx.ctl[K_TERM_LEN] = n
            return EXP_WIN
        if st.counts[o, C_FIVE] > 1 or st.info[I_PLY] >= ctx.ctl[K_PLY_LIMIT]:
            return EXP_LOSS
        if st.counts[o, C_FIVE] == 1:
            # the defender's four: the block is the only move (it must threaten in turn)
            b = V.first_cell_of_class(st, o, C_FIVE)
            if V.forbidden_for(st, side, b):
                return EXP_LOSS
            out[0] = b
            return 1
        # does the defender threaten a VCF of its own? then only fours and defences
        _null_flip(st, tb)
        tn = _vcf_probe(st, tb, ctx, V.MAX_VCF_DEPTH, ctx.threat)
        _null_flip(st, tb)
        restrict = False
        nd = 0
        if tn > 0:
            restrict = True
            nd = _defences(st, tb, side, ctx.threat, tn, ctx.buf, ctx.marks)
        nm = _threat_moves(st, side, out, ctx.marks, restrict)
        for i in range(nd):
            ctx.marks[ctx.buf[i]] = 0
        if nm == 0:
            return EXP_LOSS
        return nm
    # defender to move, after an attacker move
    if st.counts[s, C_FIVE] > 0:
        return EXP_LOSS  # the defender completes five
    fives = st.counts[o, C_FIVE]
    if fives >= 2:
        ctx.ctl[K_TERM_LEN] = 2
        return EXP_WIN
    if fives == 1:
        b = V.first_cell_of_class(st, o, C_FIVE)
        if V.forbidden_for(st, side, b):
            ctx.ctl[K_TERM_LEN] = 0
            return EXP_WIN
        out[0] = b
        return 1
    tlen = _threat(st, tb, ctx)
    if tlen <= 0:
        return EXP_LOSS  # no threat: the defender has a free move
    if _vcf_probe(st, tb, ctx, V.MAX_VCF_DEPTH, ctx.vcf_seq) > 0:
        return EXP_LOSS  # the defender wins first
    nd = _defences(st, tb, side, ctx.threat, tlen, ctx.buf, ctx.marks)
    for i in range(nd):
        ctx.marks[ctx.buf[i]] = 0
    if nd == 0:
        ctx.ctl[K_TERM_LEN] = tlen + 1
        return EXP_WIN
    if nd > out.shape[0]:
        return EXP_LOSS  # too many to hold: give up (never claim an unproved win)
    # order: where the attacker is strongest first
    scores = np.empty(nd, dtype=np.int64)
    n = 0
    for i in range(nd):
        p = ctx.buf[i]
        score = (st.cls[o, p] & 7) * 1000000 + st.val[o, p] + st.val[s, p]
        n = _insert_sorted(out, scores, n, nd, p, score)
    return n


@njit(cache=True, nogil=True)
def _expand_cached(st, tb, ctx, kind: int, level: int) -> int:
    """``_expand`` through the expansion cache (keyed by the position's hash)."""
    key = st.hashes[st.info[I_PLY]]
    slot = key & (ctx.exp_keys.shape[0] - 1)
    row = ctx.exp_data[slot]
    if ctx.exp_keys[slot] == key and row[0] != 0:
        ctx.ctl[K_EXP_HITS] += 1
        n = np.int64(row[0])
        if n > 0:
            for i in range(n):
                ctx.ch[level, i] = row[1 + i]
        return n
    ctx.ctl[K_EXPANSIONS] += 1
    n = _expand(st, tb, ctx, kind, level)
    if n > 0:
        ctx.exp_keys[slot] = key
        row[0] = n
        for i in range(n):
            row[1 + i] = ctx.ch[level, i]
    return n


# --- transposition table --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def tt_find(ctx, key) -> int:
    """The slot holding ``key`` (buckets of two), or -1."""
    slot = (key & (ctx.tt_keys.shape[0] - 1)) & ~np.uint64(1)
    i = np.int64(slot)
    if ctx.tt_keys[i] == key:
        return i
    if ctx.tt_keys[i + 1] == key:
        return i + 1
    return -1


@njit(cache=True, nogil=True)
def _tt_store(ctx, key, pn: int, dn: int, length: int, work: int) -> None:
    i = np.int64((key & (ctx.tt_keys.shape[0] - 1)) & ~np.uint64(1))
    if ctx.tt_keys[i] == key:
        j = i
    elif ctx.tt_keys[i + 1] == key:
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


@njit(cache=True, nogil=True)
def _child_key(st, tb, p: int):
    side = st.info[I_SIDE]
    return st.hashes[st.info[I_PLY]] ^ tb.zobrist[side, p] ^ tb.zobrist[0, 0]


@njit(cache=True, nogil=True)
def _initial_pn(st, kind: int, p: int) -> int:
    """Heuristic proof number of the child reached by ``p``: after an attacker's four the
    defender has one reply; after a three a few; after a quiet move more."""
    if kind == 1:
        return 1
    c = st.cls[st.info[I_SIDE] - 1, p] & 7
    if c >= C_FOUR and c <= C_FLEX4:
        return 1
    if c >= C_THREE:
        return 2
    return 4


# --- df-pn ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def dfpn(st, tb, ctx, root_kind: int) -> int:
    """Prove (1) or disprove (0) the current node (``root_kind`` 0: the attacker is to move,
    1: the defender is to move after an attacker move); -1 when the node or time limit ran
    out first. The table in ``ctx`` keeps what was learned; the state is restored."""
    ctl = ctx.ctl
    eps = ctl[K_EPS_NUM]
    level = 0
    ctx.thpn[0] = INF
    ctx.thdn[0] = INF
    ret_pn = np.int64(1)
    ret_dn = np.int64(1)
    ret_len = np.int64(0)
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
                    phase = 2
                    continue
            n = _expand_cached(st, tb, ctx, kind, level)
            if n < 0:
                if n == EXP_WIN:
                    ret_pn = np.int64(0)
                    ret_dn = np.int64(INF)
                    ret_len = ctl[K_TERM_LEN]
                else:
                    ret_pn = np.int64(INF)
                    ret_dn = np.int64(0)
                    ret_len = np.int64(0)
                _tt_store(ctx, key, ret_pn, ret_dn, ret_len, 1)
                phase = 2
                continue
            ctx.nch[level] = n
            for i in range(n):
                p = ctx.ch[level, i]
                cs = tt_find(ctx, _child_key(st, tb, p))
                if cs >= 0:
                    ctx.cpn[level, i] = ctx.tt_val[cs, T_PN]
                    ctx.cdn[level, i] = ctx.tt_val[cs, T_DN]
                    ctx.clen[level, i] = ctx.tt_val[cs, T_LEN]
                else:
                    ctx.cpn[level, i] = _initial_pn(st, kind, p)
                    ctx.cdn[level, i] = 1
                    ctx.clen[level, i] = 0
            phase = 1
            continue
        if phase == 1:
            n = ctx.nch[level]
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
                    dn = min(dn + ctx.cdn[level, i], INF)
                    if c == 0 and ctx.clen[level, i] < length:
                        length = ctx.clen[level, i]
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
                    pn = min(pn + ctx.cpn[level, i], INF)
                    length = max(length, ctx.clen[level, i])
            if pn == 0:
                dn = np.int64(INF)
            if dn == 0:
                pn = np.int64(INF)
            if pn >= ctx.thpn[level] or dn >= ctx.thdn[level]:
                ret_pn = pn
                ret_dn = dn
                ret_len = length + 1 if pn == 0 else np.int64(0)
                key = st.hashes[st.info[I_PLY]]
                _tt_store(ctx, key, ret_pn, ret_dn, ret_len, ctl[K_NODES] - ctx.work[level])
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
        phase = 1
    while level > 0:
        undo(st, tb)
        level -= 1
    if aborted:
        return -1
    if ret_pn == 0:
        return 1
    if ret_dn == 0:
        return 0
    return -1


# --- helpers for the line extraction (called from Python) -----------------------------------


@njit(cache=True, nogil=True)
def expand_node(st, tb, ctx, kind: int) -> int:
    """``_expand`` of the current node into ``ctx.ch[0]`` (uncached; for line extraction)."""
    return _expand(st, tb, ctx, kind, 0)


@njit(cache=True, nogil=True)
def tt_forget(ctx, key) -> None:
    """Drop ``key``'s entry from the table."""
    slot = tt_find(ctx, key)
    if slot >= 0:
        ctx.tt_keys[slot] = 0
        ctx.tt_val[slot, :] = 0


@njit(cache=True, nogil=True)
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
) -> list[int] | None:
    """A VCT for the side to move of ``st`` as padded cells (attacker and defender moves
    alternating, the defender's longest resistance, ending with the five or with a four the
    defender may not block), or None when none was proved within the limits in ``ctx.ctl`` and
    the stop flag. The state is restored."""
    ctl = ctx.ctl
    ctl[K_PLY_LIMIT] = int(st.info[I_PLY]) + 2 * min(max_depth, MAX_TREE_DEPTH)
    if dfpn(st, tb, ctx, 0) != 1:
        return None
    return _extract(st, tb, ctx)


def _extract(st, tb, ctx: VctContext) -> list[int] | None:
    """Walk the proof in the table from the current (proven) attacker node."""
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
                return line + _terminal_line(st, tb, ctx)
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


def _terminal_line(st, tb, ctx: VctContext) -> list[int]:
    """The end of the line at a defender node decided without search."""
    side = int(st.info[I_SIDE])
    o = 2 - side
    if st.counts[o, C_FIVE] >= 2:
        b = int(V.first_cell_of_class(st, o, C_FIVE))
        make(st, tb, b)
        five = int(V.first_cell_of_class(st, o, C_FIVE))
        undo(st, tb)
        return [b, five]
    if st.counts[o, C_FIVE] == 1:
        return []  # the only block is forbidden to the defender
    # no playable defence: any move, then the threat's VCF
    p = int(free_move(st, tb, ctx))
    if p < 0:
        return []
    make(st, tb, p)
    try:
        n = vcf_line(st, tb, ctx)
        return [p] + [int(q) for q in ctx.vcf_seq[:n]]
    finally:
        undo(st, tb)
