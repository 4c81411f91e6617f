"""VCT: victory by continuous threats (fours and threes), a threat-space AND/OR search.

The attacker (side to move) may play fours and threes (moves that make an open three, a double
three, a four-three or a four); every attacker node first asks the VCF solver. After a four the
defender has one reply; after a three the defender may play any *defence*: a cell where the
attacker would make a four (this covers every way to stop an open three) or a four of its own
(a counter-attack the attacker must answer). The attacker wins a node if one threat leaves the
defender no defence that holds. Depth counts attacker moves and deepens iteratively; failed
nodes are remembered in a hash table with the depth they were searched to.

``vct_or`` is recursive and, per DESIGN.md, called only from Python (``Engine.vct``), never from
another cached kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.gomoku import rules
from plies.gomoku.engine import patterns as P
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine.state import (
    C_FIVE,
    C_FORBID,
    C_FOUR,
    C_THREE,
    I_PLY,
    I_SIDE,
    make,
    undo,
)
from plies.gomoku.rules import EMPTY

MAX_THREATS = 48
MAX_DEFENCES = 96

# ctl[] slots
K_NODES = 0
K_NODE_LIMIT = 1
K_VCF_NODES = 2
K_SEQ_LEN = 3  # length of the winning line found (attacker and best defences)
K_THREAT_DEPTH = 4  # attacker moves of the VCF that makes a move a threat
K_VCF_BUDGET = 5  # nodes of each VCF probe
K_COUNT = 8


@njit(cache=True, nogil=True)
def _threat_moves(st, att: int, out) -> int:
    """Attacker candidates, best first (count returned): moves that make a three or a four,
    and quiet moves that build on two or more lines (``B2`` or better), which may threaten a
    VCF (a "fukumi" move). Whether a candidate really threatens is decided at the defender's
    node, by the VCF the attacker would have after a pass."""
    a = att - 1
    cap = out.shape[0]
    scores = np.empty(cap, dtype=np.int64)
    n = 0
    for p in range(st.cells.shape[0]):
        if st.cells[p] != EMPTY or st.near[p] == 0:
            continue
        c = st.cls[a, p] & 7
        if c == C_FORBID or c == C_FIVE:
            continue
        if c < C_THREE:
            idx = st.p4[a, p]
            lines = 0
            for k in range(4):
                if (idx >> (4 * k)) & 15 >= P.B2:
                    lines += 1
            if lines < 2:
                continue
        if V.forbidden_for(st, att, p):
            continue
        score = c * 1000000 + st.val[a, p] + st.val[1 - a, p]
        if n == cap:
            if score <= scores[n - 1]:
                continue
            n -= 1
        i = n
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = score
        out[i] = p
        n += 1
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
    """The defender's candidate answers to the attacker's threat ``threat[:tlen]`` (a VCF the
    attacker would play after a pass): every cell of the VCF, the winning points at its end,
    the cells where the defender's forced replies would give it a four (counter-fours), the
    neighbourhood of a forbidden final point, and the defender's fours now. Count returned."""
    d = dfn - 1
    a = 1 - d
    stride = st.info[2]
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
        # the attacker's last move is on the board: its winning points are the end
        last = threat[tlen - 1]
        for k in range(4):
            dd = rules.direction(k, stride)
            for j in range(-5, 6):
                q = last + j * dd
                if st.cells[q] == EMPTY and (st.cls[a, q] & 7 == C_FIVE):
                    n = _mark(marks, out, n, q)
                    if V.forbidden_for(st, dfn, q):
                        # a forbidden point: a defender stone nearby may lift the ban
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
    # keep only empty cells the defender may play; clear the marks
    m = 0
    for i in range(n):
        p = out[i]
        marks[p] = 0
        if st.cells[p] == EMPTY and not V.forbidden_for(st, dfn, p):
            out[m] = p
            m += 1
    return m


@njit(cache=True, nogil=True)
def vct_search(
    st,
    tb,
    depth: int,
    ply: int,
    defender_node: int,
    ctl,
    tt_keys,
    tt_depth,
    line,
    vcf_keys,
    vcf_depth,
    vcf_seq,
    stop,
) -> bool:
    """Whether the attacker wins within ``depth`` more attacker moves.

    At an attacker node (``defender_node`` 0) the side to move is the attacker; at a
    defender node the defender is to move after an attacker move, which must threaten a VCF
    (found after a pass) or a five. On success ``line[ply:ctl[K_SEQ_LEN]]`` holds the winning
    line (the defender's longest resistance). One self-recursive kernel (not two mutually
    recursive ones) keeps numba's cache sound, and every recursive call passes arguments of
    exactly the entry types (int64 scalars), since a cast there breaks the cache too.
    """
    ctl[K_NODES] += 1
    if stop[0] != 0 or ctl[K_NODES] >= ctl[K_NODE_LIMIT]:
        return False
    counter = np.zeros(1, dtype=np.int64)
    if defender_node == 0:
        att = st.info[I_SIDE]
        a = att - 1
        if st.counts[a, C_FIVE] > 0:
            line[ply] = V.first_cell_of_class(st, a, C_FIVE)
            ctl[K_SEQ_LEN] = ply + 1
            return True
        n = V.vcf(
            st, tb, V.MAX_VCF_DEPTH, ctl[K_VCF_BUDGET], vcf_keys, vcf_depth, vcf_seq, stop, counter
        )
        ctl[K_VCF_NODES] += counter[0]
        if n > 0:
            for i in range(n):
                line[ply + i] = vcf_seq[i]
            ctl[K_SEQ_LEN] = ply + n
            return True
        if depth <= 0 or ply + 4 >= line.shape[0]:
            return False
        key = st.hashes[st.info[I_PLY]]
        slot = key & (tt_keys.shape[0] - 1)
        if tt_keys[slot] == key and tt_depth[slot] >= depth:
            return False
        moves = np.empty(MAX_THREATS, dtype=np.int64)
        if st.counts[1 - a, C_FIVE] > 0:
            # the defender's counter-four: the block is the only move, and it must threaten
            if st.counts[1 - a, C_FIVE] > 1:
                return False
            b = V.first_cell_of_class(st, 1 - a, C_FIVE)
            if V.forbidden_for(st, att, b):
                return False
            moves[0] = b
            nm = 1
        else:
            nm = _threat_moves(st, att, moves)
        for i in range(nm):
            m = moves[i]
            make(st, tb, m)
            line[ply] = m
            won = vct_search(
                st,
                tb,
                depth - 1,
                ply + 1,
                np.int64(1),
                ctl,
                tt_keys,
                tt_depth,
                line,
                vcf_keys,
                vcf_depth,
                vcf_seq,
                stop,
            )
            undo(st, tb)
            if won:
                return True
            if stop[0] != 0 or ctl[K_NODES] >= ctl[K_NODE_LIMIT]:
                return False
        tt_keys[slot] = key
        tt_depth[slot] = depth
        return False

    dfn = st.info[I_SIDE]
    d = dfn - 1
    a = 1 - d
    if st.counts[d, C_FIVE] > 0:
        return False  # the defender completes five
    fives = st.counts[a, C_FIVE]
    if fives > 0:
        b = V.first_cell_of_class(st, a, C_FIVE)
        if fives >= 2:
            line[ply] = b
            make(st, tb, b)
            line[ply + 1] = V.first_cell_of_class(st, a, C_FIVE)
            undo(st, tb)
            ctl[K_SEQ_LEN] = ply + 2
            return True
        if V.forbidden_for(st, dfn, b):
            ctl[K_SEQ_LEN] = ply
            return True
        make(st, tb, b)
        line[ply] = b
        won = vct_search(
            st,
            tb,
            depth,
            ply + 1,
            np.int64(0),
            ctl,
            tt_keys,
            tt_depth,
            line,
            vcf_keys,
            vcf_depth,
            vcf_seq,
            stop,
        )
        undo(st, tb)
        return won
    # what does the attacker threaten? its VCF if the defender passed
    threat = np.empty(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64)
    _null_flip(st, tb)
    tlen = V.vcf(
        st, tb, ctl[K_THREAT_DEPTH], ctl[K_VCF_BUDGET], vcf_keys, vcf_depth, threat, stop, counter
    )
    _null_flip(st, tb)
    ctl[K_VCF_NODES] += counter[0]
    if tlen <= 0:
        return False  # no threat: the defender has a free move
    n = V.vcf(
        st, tb, V.MAX_VCF_DEPTH, ctl[K_VCF_BUDGET], vcf_keys, vcf_depth, vcf_seq, stop, counter
    )
    ctl[K_VCF_NODES] += counter[0]
    if n > 0:
        return False  # the defender wins first
    defences = np.empty(st.cells.shape[0], dtype=np.int64)
    marks = np.zeros(st.cells.shape[0], dtype=np.int8)
    nd = _defences(st, tb, dfn, threat, tlen, defences, marks)
    if nd == 0:
        ctl[K_SEQ_LEN] = ply
        return True
    best_len = 0
    keep = np.empty(line.shape[0], dtype=np.int64)
    for i in range(nd):
        m = defences[i]
        make(st, tb, m)
        line[ply] = m
        won = vct_search(
            st,
            tb,
            depth,
            ply + 1,
            np.int64(0),
            ctl,
            tt_keys,
            tt_depth,
            line,
            vcf_keys,
            vcf_depth,
            vcf_seq,
            stop,
        )
        undo(st, tb)
        if not won:
            return False
        if ctl[K_SEQ_LEN] > best_len:
            # show the defender's longest resistance
            best_len = ctl[K_SEQ_LEN]
            for j in range(ply, best_len):
                keep[j] = line[j]
    for j in range(ply, best_len):
        line[j] = keep[j]
    ctl[K_SEQ_LEN] = best_len
    return True
