"""VCF: victory by continuous fours, a depth-first search with an explicit stack.

The attacker (the side to move) plays only fours; each four leaves the defender exactly one
reply, the winning point, unless it leaves two (an open four or a double four: won) or the
defender cannot take it (Renju: a forbidden point for black). Counter-fours are respected: when
the defender's block makes a four of its own, the attacker must block it with a move that is
itself a four, or the line fails; a defender's block that makes five refutes the four.

Failed positions are remembered in a hash table (``vcf_tt``) that survives between calls: a slot
holds the position's key with the remaining depth searched (plus one) in the low bits, which
the slot number already gives, so a probe reads one word. Success returns at once with the
full sequence.

The moves are played with the state's inlined make/undo without the ``near`` counts (never read
here), and the search has one make site per side and one undo site: each call would pass the
state and tables as about 140 machine words.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.gomoku import rules
from plies.gomoku.engine.state import (
    C_FIVE,
    C_FLEX4,
    C_FORBID,
    C_FOUR,
    C_FOUR_THREE,
    CHECK_FLAG,
    I_BASE_PLY,
    I_PLY,
    I_SIDE,
    I_STRIDE,
    load8,
    make,
    make_inline,
    prefetch,
    undo,
    undo_inline,
)
from plies.gomoku.rules import BLACK, CARO, CARO5, EMPTY, RENJU

# byte-wise constants for testing eight threat classes at once (C_FOUR..C_FLEX4 = 3..5)
LOW3 = np.uint64(0x0707070707070707)
ADD5 = np.uint64(0x0505050505050505)  # x + 5 reaches 8 when x >= 3
ADD2 = np.uint64(0x0202020202020202)  # x + 2 stays below 8 when x <= 5
BIT3 = np.uint64(0x0808080808080808)

MAX_VCF_DEPTH = 128  # attacker moves
MAX_FOURS = 64
VCF_TT_BITS = 18


def new_vcf_tt(bits: int = VCF_TT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """An empty VCF table: ``(slots uint64[2**bits], unused int16[1])``; the depths live in
    the slots' low bits (the second array is kept for the call signature of :func:`vcf`)."""
    return np.zeros(1 << bits, dtype=np.uint64), np.full(1, -1, dtype=np.int16)


@njit(cache=True, nogil=True, _nrt=True)
def is_forbidden(cells, stride: int, pos: int) -> bool:
    """The rules' exact Renju check (it allocates, so it is compiled with NRT even when called
    from a kernel without it)."""
    return rules.is_forbidden(cells, stride, pos)


@njit(cache=True, nogil=True, _nrt=False)
def forbidden_for(st, side: int, pos: int) -> bool:
    """Whether ``side`` may not play the empty cell ``pos`` (Renju black only)."""
    if side != BLACK or st.info[3] != RENJU:
        return False
    c = st.cls[0, pos]
    if c & 7 == C_FORBID:
        return True
    if c & CHECK_FLAG:
        return is_forbidden(st.cells, st.info[I_STRIDE], pos)
    return False


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def find_fives(st, s: int, around: int, out) -> int:
    """Empty cells on the four lines within four steps of ``around`` where side index ``s``
    makes five; written to ``out``, count returned."""
    stride = st.info[I_STRIDE]
    n = 0
    for k in range(4):
        d = rules.direction(k, stride)
        for j in range(-4, 5):
            q = around + j * d
            uq = np.uint64(q)  # unsigned: no negative-index wraparound code
            if j != 0 and st.cells[uq] == EMPTY and st.cls[s, uq] & 7 == C_FIVE:
                dup = False
                for i in range(n):
                    if out[i] == q:
                        dup = True
                if not dup and n < out.shape[0]:
                    out[n] = q
                    n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def first_cell_of_class(st, s: int, cls: int) -> int:
    """Some empty cell where side index ``s`` has threat class ``cls``, or -1."""
    for p in range(st.cells.shape[0]):
        if st.cells[p] == EMPTY and st.cls[s, p] & 7 == cls:
            return p
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def only_five_cell(st, s: int, around: int) -> int:
    """The empty cell where side index ``s`` makes five, when it has exactly one: looked for
    first on the four lines within four steps of ``around`` (the move that made the four; -1
    if unknown), then anywhere (-1 if none)."""
    if around >= 0:
        d0 = st.info[I_STRIDE]
        for k in range(4):
            d = rules.direction(k, d0)
            for j in range(-4, 5):
                q = around + j * d
                uq = np.uint64(q)
                if j != 0 and st.cells[uq] == EMPTY and st.cls[s, uq] & 7 == C_FIVE:
                    return q
    return first_cell_of_class(st, s, C_FIVE)


@njit(cache=True, nogil=True, _nrt=False)
def five_stops(st, tb, s: int, out) -> int:
    """Under Caro, the cells where the side to move's stone leaves side index ``s`` (the other
    side, with two or more cells that make five) no five at all: blocking one end of a four
    can cap the other five at both ends. Writes the first ``len(out)`` to ``out`` and returns
    how many there are; always 0 under the other rules."""
    rule = st.info[3]
    if rule != CARO and rule != CARO5:
        return 0
    n = 0
    for p in range(st.cells.shape[0]):
        if st.cells[p] != EMPTY or st.cls[s, p] & 7 != C_FIVE:
            continue
        make(st, tb, p)
        stopped = st.counts[s, C_FIVE] == 0
        undo(st, tb)
        if stopped:
            if n < out.shape[0]:
                out[n] = p
            n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def insert_sorted(out, scores, n: int, cap: int, p: int, score: int) -> int:
    """Insert ``p`` into ``out[:n]`` kept sorted by ``scores`` (best first, ties in arrival
    order), at most ``cap`` entries; the new count is returned."""
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


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def gen_fours(st, tb, att: int, out, scores, only_flex: bool) -> int:
    """The attacker's four moves into ``out``, flex fours first, then by class and value
    (``scores``: scratch as long as ``out``); with ``only_flex``, the flex fours alone (open
    fours and double fours, which win at once).

    If the defender threatens five, the only candidate is the block, when it is a four. Returns
    the count (0 when the attacker has no way on).
    """
    a = att - 1
    dfn = 1 - a
    if st.counts[dfn, C_FIVE] > 0:
        if st.counts[dfn, C_FIVE] > 1:
            # Caro: the cells where one block stops every five
            stops = min(five_stops(st, tb, dfn, out), out.shape[0])
        else:
            ply = st.info[I_PLY]  # the four came with the last move (if the state knows it)
            out[0] = only_five_cell(st, dfn, st.moves[ply - 1] if ply > st.info[I_BASE_PLY] else -1)
            stops = 1
        n = 0
        for i in range(stops):
            b = out[i]
            c = st.cls[a, b] & 7
            if c >= C_FOUR and c != C_FORBID and not forbidden_for(st, att, b):
                out[n] = b
                n += 1
        return n
    # the class counts say how many cells to find: stop scanning when all are seen
    left = st.counts[a, C_FLEX4]
    if not only_flex:
        left += st.counts[a, C_FOUR] + st.counts[a, C_FOUR_THREE]
    if left == 0:
        return 0
    cap = out.shape[0]
    n = 0
    cls_a = st.cls[a]
    ncells = st.cells.shape[0]
    start = 0
    while start < ncells and left > 0:
        end = ncells
        if start + 8 <= ncells:
            # eight classes at a time: is any of them (class & 7) in 3..5 (a four)? Occupied
            # cells hold class 0.
            x = load8(cls_a, start) & LOW3
            if (x + ADD5) & ~(x + ADD2) & BIT3 == 0:
                start += 8
                continue
            end = start + 8
        for p in range(start, end):
            if left == 0:
                break
            c = cls_a[p] & 7
            if c < C_FOUR or c > C_FLEX4 or st.cells[p] != EMPTY:
                continue
            if only_flex and c != C_FLEX4:
                continue
            left -= 1
            if forbidden_for(st, att, p):
                continue
            n = insert_sorted(out, scores, n, cap, p, c * 1000000 + st.val[a, p])
        start = end
    return n


def scratch_words(max_depth: int = MAX_VCF_DEPTH) -> int:
    """Length of the int64 scratch array :func:`vcf_search` needs for ``max_depth``."""
    levels = min(max_depth, MAX_VCF_DEPTH) + 1
    return levels * (MAX_FOURS + 4) + MAX_FOURS + 8


@njit(cache=True, nogil=True, _nrt=True)
def vcf(st, tb, max_depth: int, max_nodes: int, tt_keys, tt_depth, seq, stop, counter) -> int:
    """Search a VCF for the side to move. Returns the length of the winning sequence written to
    ``seq`` (attacker and defender moves alternating, ending with the five), or 0 if none was
    found within ``max_depth`` attacker moves and ``max_nodes`` moves; -1 if stopped.

    ``tt_keys`` is the table of :func:`new_vcf_tt` (``tt_depth`` is not used). ``stop[0] != 0``
    aborts the search; the moves tried are added to ``counter[0]``. The state is restored on
    return.
    """
    levels = min(max_depth, MAX_VCF_DEPTH) + 1
    scratch = np.empty(levels * (MAX_FOURS + 4) + MAX_FOURS + 8, dtype=np.int64)
    return vcf_search(st, tb, max_depth, max_nodes, tt_keys, seq, stop, counter, scratch)


@njit(cache=True, nogil=True, _nrt=False)
def vcf_search(st, tb, max_depth: int, max_nodes: int, tt_keys, seq, stop, counter, scratch):
    """:func:`vcf` with its working arrays in ``scratch`` (int64, at least
    :func:`scratch_words` long): allocates nothing, for the search's horizon probes."""
    att = st.info[I_SIDE]
    a = att - 1
    dfn_side = 3 - att
    if st.counts[a, C_FIVE] > 0:
        seq[0] = first_cell_of_class(st, a, C_FIVE)
        return 1
    depth_cap = min(max_depth, MAX_VCF_DEPTH)
    levels = depth_cap + 1
    # scratch: candidates per level, their scores, four per-level counters, the fives
    cand = scratch[: levels * MAX_FOURS]
    at = levels * MAX_FOURS
    scores = scratch[at : at + MAX_FOURS]
    at += MAX_FOURS
    ncand = scratch[at : at + levels]
    ci = scratch[at + levels : at + 2 * levels]
    att_move = scratch[at + 2 * levels : at + 3 * levels]
    def_move = scratch[at + 3 * levels : at + 4 * levels]
    at += 4 * levels
    fives = scratch[at : at + 8]
    low = np.uint64(tt_keys.shape[0] - 1)  # slot number; the depth + 1 in a slot
    high = ~low
    root_key = st.hashes[st.info[I_PLY]]
    root_slot = np.int64(root_key & low)
    root_entry = tt_keys[root_slot]
    if (root_entry ^ root_key) & high == 0 and np.int64(root_entry & low) - 1 >= depth_cap:
        return 0  # already searched to this depth without a win
    nodes = 0
    level = 0
    # at the last level only a four that wins at once can help: an open or double four, or
    # (Renju, black defending) a four whose block is forbidden, which needs every four tried
    flex_last = not (st.info[3] == RENJU and dfn_side == BLACK)
    ncand[0] = gen_fours(st, tb, att, cand[:MAX_FOURS], scores, flex_last and depth_cap == 1)
    ci[0] = 0
    result = 0
    pops = 0  # moves to take back before going on (the only undo site)
    done = False
    while True:
        while pops > 0:
            undo_inline(st, False)
            pops -= 1
        if done:
            break
        if stop[0] != 0 or nodes >= max_nodes:
            result = -1 if stop[0] != 0 else 0
            pops = 2 * level
            done = True
            continue
        if ci[level] < ncand[level]:
            mv = cand[level * MAX_FOURS + ci[level]]
            ci[level] += 1
            make_inline(st, tb, mv, False)
            nodes += 1
            nf = find_fives(st, a, mv, fives)
            if nf == 0:
                pops = 1
                continue
            if nf >= 2:
                # Caro: one block may stop both fives; with a choice of such blocks the four
                # no longer forces one reply, so it is not used
                stops = five_stops(st, tb, a, fives)
                if stops >= 2:
                    pops = 1
                    continue
                if stops == 1:
                    nf = 1
            if nf >= 2 or forbidden_for(st, dfn_side, fives[0]):
                # the defender cannot stop every five: the sequence ends with this four, or
                # with a block and the five when there are two winning points
                length = 0
                for i in range(level):
                    seq[length] = att_move[i]
                    seq[length + 1] = def_move[i]
                    length += 2
                seq[length] = mv
                length += 1
                if nf >= 2:
                    # a block the defender may play, then a five that survives it (Caro: the
                    # block may cap another five; Renju: when black may block none, the
                    # sequence ends with the four)
                    b0 = -1
                    for t in range(nf):
                        if not forbidden_for(st, dfn_side, fives[t]):
                            b0 = fives[t]
                            break
                    if b0 >= 0:
                        make(st, tb, b0)
                        b1 = -1
                        for t in range(nf):
                            if fives[t] != b0 and st.cls[a, fives[t]] & 7 == C_FIVE:
                                b1 = fives[t]
                                break
                        undo(st, tb)
                        if b1 >= 0:
                            seq[length] = b0
                            seq[length + 1] = b1
                            length += 2
                result = length
                pops = 1 + 2 * level
                done = True
                continue
            b = fives[0]
            if st.cls[1 - a, b] & 7 == C_FIVE:
                pops = 1  # the block makes five for the defender
                continue
            if level + 1 >= depth_cap:
                pops = 1  # no four may follow the block
                continue
            # the failure table is probed after the block: start loading its slot now
            h = st.hashes[st.info[I_PLY]] ^ tb.zobrist[dfn_side, b] ^ tb.zobrist[0, 0]
            prefetch(tt_keys, np.int64(h & low))
            make_inline(st, tb, b, False)
            att_move[level] = mv
            def_move[level] = b
            h = st.hashes[st.info[I_PLY]]
            entry = tt_keys[np.int64(h & low)]
            remaining = depth_cap - level - 1
            if (entry ^ h) & high == 0 and np.int64(entry & low) - 1 >= remaining:
                pops = 2
                continue
            level += 1
            if st.counts[a, C_FIVE] > 0:
                length = 0
                for i in range(level):
                    seq[length] = att_move[i]
                    seq[length + 1] = def_move[i]
                    length += 2
                seq[length] = first_cell_of_class(st, a, C_FIVE)
                result = length + 1
                pops = 2 * level
                done = True
                continue
            ncand[level] = gen_fours(
                st,
                tb,
                att,
                cand[level * MAX_FOURS : (level + 1) * MAX_FOURS],
                scores,
                flex_last and level + 1 == depth_cap,
            )
            ci[level] = 0
            continue
        # every four of this level failed
        if level == 0:
            tt_keys[root_slot] = (root_key & high) | np.uint64(depth_cap + 1)
            result = 0
            done = True
            continue
        h = st.hashes[st.info[I_PLY]]
        tt_keys[np.int64(h & low)] = (h & high) | np.uint64(depth_cap - level + 1)
        pops = 2
        level -= 1
    counter[0] += nodes
    return result
