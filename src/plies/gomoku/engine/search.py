"""Principal variation search for the Gomoku family (compiled).

``pvs`` is the one recursive kernel. Per DESIGN.md it is only ever called from Python (a cached
kernel that calls a recursive cached kernel crashes when loaded from the cache), so the root is
part of ``pvs`` itself (``ply == 0``) and the iterative-deepening loop lives in Python
(``plies.gomoku.engine.driver``).

Per node: immediate wins and forced blocks are decided from the threat-class counts; an
opponent four leaves one move (searched without using depth: a forced-move extension); an
opponent open three (or any cell where it would make a flex four) limits the moves to the
defences and our own fours; at the horizon a VCF probe replaces the static evaluation when it
finds a win. The move picker scores moves by transposition-table move, threat class (own attack
and blocking value), killers, counter-move and history. Late quiet moves are reduced (LMR from a
table) and, near the horizon, pruned by move count.

Reference counting: numba increments and decrements (atomically) the count of every array a
compiled function receives or takes out of a tuple; with ``st``, ``tb`` and ``ctx`` (36 arrays)
passed to every call, that was about 45% of the search's samples in ``perf``. The search
kernels are therefore compiled without numba's runtime (``_nrt=False``): they only borrow
arrays their caller owns and allocate nothing. Arrays unboxed by a kernel without the runtime
carry no reference count, so the kernels below it that do allocate (``vcf.vcf``, the Renju
check) and say ``_nrt=True`` explicitly skip the counting of those arrays too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from plies.gomoku.engine import combos
from plies.gomoku.engine import params as PR
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine.state import (
    C_FIVE,
    C_FLEX4,
    C_FORBID,
    C_FOUR,
    C_FOUR_THREE,
    C_THREE,
    C_THREE2,
    CHECK_FLAG,
    I_PLY,
    I_SIDE,
    MAX_CELLS,
    evaluate,
    make_inline,
    prefetch,
    undo_inline,
)
from plies.gomoku.rules import BLACK, EMPTY, RENJU

WIN = 30000
WIN_BOUND = WIN - 1000  # scores beyond this are wins (mate in so many plies)
INF = 32000
MAX_PLY = 128
MAX_MOVES = MAX_CELLS

VCF_SEQ = 2 * V.MAX_VCF_DEPTH + 4  # the longest VCF sequence (then the VCF scratch in vcf_seq)

BOUND_UPPER = 1
BOUND_LOWER = 2
BOUND_EXACT = 3

# stats[] slots
S_NODES = 0
S_SELDEPTH = 1
S_VCF_NODES = 2
S_NODE_LIMIT = 3
S_AGE = 4
S_ROOT_BEST = 5
S_ROOT_SCORE = 6
S_ROOT_DONE = 7  # root moves fully searched in the current iteration
S_VCF_LIMIT = 8
S_VCF_DEPTH = 9
S_ROOT_MOVES = 10  # candidate moves at the root (1: a forced reply)
S_QTHREE_PLIES = 11  # how far below the horizon open threes are answered
S_TACTICAL_OWN = 12  # own threat class from which a move is tactical (params.TACTICAL_OWN)
S_TACTICAL_OPP = 13  # opponent threat class taken from which a move is tactical
S_LMP_DEPTH = 14  # move-count pruning up to this remaining depth
S_ORDER = 15  # 1: quiet moves are ordered by the learned table ctx.order (0: hand-written)
S_POLICY_REDUCE = 16  # a quiet move this far below the node's best static order: one ply more
S_POLICY_KEEP = 17  # ... at most this far below it (or above it): one ply less (0: both off)
S_SE_DEPTH = 18  # singular extensions from this remaining depth (0: off)
S_SE_MARGIN = 19  # ... the table move is singular if the others fall this much per ply below it
S_FAIL_HIGH = 20  # cut nodes this far per ply above beta search quiet moves a ply shallower
S_TT_EVAL = 21  # 1: the pruning decisions use refined_eval (the table's score where it bounds)
S_RAZOR_MARGIN = 22  # razoring: static evaluation this far below alpha per ply of depth
S_RAZOR_DEPTH = 23  # ... up to this depth
S_RFP_DEPTH = 24  # reverse futility up to this depth
S_CUT_LMR = 25  # at an expected cut node, quiet moves other than the killers are reduced this more
S_CUT = 26  # S_CUT + ply: 1 when the node at that ply is expected to cut
S_SKIP = S_CUT + MAX_PLY  # S_SKIP + ply: 1 + the move a singular test skips at that ply (0: none)
S_LMP_EXP = S_SKIP + MAX_PLY  # move-count limit 3 + depth ** (this / 100) (0: 2 + d(d+2)/2)
S_RFP_MARGIN = S_LMP_EXP + 1  # reverse futility: static value this far per ply above beta
S_LMR_HIST = S_RFP_MARGIN + 1  # late-move reductions less (more) by the move's history / this
S_USELESS_DEFENCE = S_LMR_HIST + 1  # plies less for a far four that does not stop an open three
S_LMR_DEEPER = S_USELESS_DEFENCE + 1  # a reduced move this far above alpha: re-searched deeper
S_TT_DEEP_FORCED = S_LMR_DEEPER + 1  # 1: entries 2+ plies below the horizon trusted at any depth
S_FUT_DEPTH = S_TT_DEEP_FORCED + 1  # move futility pruning up to this remaining depth
S_FUT_MARGIN = S_FUT_DEPTH + 1  # ... of a quiet move whose static value + 100 + this a ply < alpha
S_QFOUR_PLIES = S_FUT_MARGIN + 1  # horizon nodes this far down try their plain fours (0: off)
S_QFOUR_MOVES = S_QFOUR_PLIES + 1  # ... at most this many, best ordered first
S_COUNT = S_QFOUR_MOVES + 1

# the stats[] slots that hold a search number of params.py, and its name
STAT_PARAMS = (
    (S_VCF_LIMIT, "VCF_LEAF_NODES"),
    (S_VCF_DEPTH, "VCF_LEAF_DEPTH"),
    (S_QTHREE_PLIES, "QTHREE_PLIES"),
    (S_TACTICAL_OWN, "TACTICAL_OWN"),
    (S_TACTICAL_OPP, "TACTICAL_OPP"),
    (S_LMP_DEPTH, "LMP_DEPTH"),
    (S_LMP_EXP, "LMP_EXP"),
    (S_POLICY_REDUCE, "POLICY_REDUCE_GAP"),
    (S_POLICY_KEEP, "POLICY_KEEP_GAP"),
    (S_SE_DEPTH, "SE_DEPTH"),
    (S_SE_MARGIN, "SE_MARGIN"),
    (S_FAIL_HIGH, "FAIL_HIGH_MARGIN"),
    (S_TT_EVAL, "TT_EVAL"),
    (S_RAZOR_MARGIN, "RAZOR_MARGIN"),
    (S_RAZOR_DEPTH, "RAZOR_DEPTH"),
    (S_RFP_DEPTH, "RFP_DEPTH"),
    (S_RFP_MARGIN, "RFP_MARGIN"),
    (S_CUT_LMR, "CUT_LMR"),
    (S_LMR_HIST, "LMR_HIST_DIV"),
    (S_USELESS_DEFENCE, "USELESS_DEFENCE_R"),
    (S_LMR_DEEPER, "LMR_DEEPER_MARGIN"),
    (S_TT_DEEP_FORCED, "TT_DEEP_FORCED"),
    (S_FUT_DEPTH, "FUTILITY_DEPTH"),
    (S_FUT_MARGIN, "FUTILITY_MARGIN"),
    (S_QFOUR_PLIES, "QFOUR_PLIES"),
    (S_QFOUR_MOVES, "QFOUR_MOVES"),
)

# features[] switches (1 on, 0 off) for testing exactness and measuring effect
F_TT = 0
F_LMR = 1
F_LMP = 2
F_VCF_LEAF = 3
F_THREAT_FILTER = 4
F_FUTILITY = 5  # futility and reverse futility pruning
F_NULL = 6  # null-move pruning
F_QTHREE = 7  # at the horizon, answer an opponent open three instead of evaluating
F_CONTHIST = 8  # continuation history: order quiet moves by their record after the last move
F_RAZOR = 9  # razoring: a hopeless quiet node near the horizon drops to the horizon search
F_IIR = 10  # internal iterative reduction: a node without a table move is searched shallower
F_ROOT_THREATS = 11  # root moves that make an open three are reduced by half as much
F_RAZOR_THREATS = 12  # no razoring when the side to move has a double-three or four-three cell
F_COUNT = 13
FEATURE_NAMES = (
    "tt",
    "lmr",
    "lmp",
    "vcf_leaf",
    "threat_filter",
    "futility",
    "null_move",
    "three_qsearch",
    "continuation_history",
    "razoring",
    "iir",
    "root_threats",
    "razor_threats",
)
# features on by default: null-move pruning measured weaker in self-play (docs/engine.md)
DEFAULT_FEATURES = tuple(name != "null_move" for name in FEATURE_NAMES)


class SearchContext(NamedTuple):
    """Per-thread search memory, plus the shared transposition table and stop flag."""

    tt: np.ndarray  # uint64[2n]: per entry key ^ data (lockless), then the packed data
    history: np.ndarray  # int32[2, N]
    killers: np.ndarray  # int32[MAX_PLY, 2]
    counter: np.ndarray  # int32[2, N] reply to the opponent's last move
    conthist: np.ndarray  # int16[2, N, N] quiet-move history after the opponent's last move
    moves: np.ndarray  # int32[MAX_PLY, MAX_MOVES]
    scores: np.ndarray  # int32[MAX_PLY, MAX_MOVES]
    pv: np.ndarray  # int32[MAX_PLY, MAX_PLY]
    pvlen: np.ndarray  # int32[MAX_PLY]
    excluded: np.ndarray  # int32[MAX_MOVES] root moves to skip (MultiPV); -1 terminated
    vcf_keys: np.ndarray
    vcf_depth: np.ndarray
    vcf_seq: np.ndarray  # int64[VCF_SEQ + vcf.scratch_words()]: a VCF, then the solver's scratch
    stats: np.ndarray  # int64[S_COUNT]
    stop: np.ndarray  # int64[1] shared: non-zero aborts every thread
    lmr: np.ndarray  # int8[64, MAX_MOVES] reductions
    features: np.ndarray  # int8[F_COUNT]
    order: np.ndarray  # int32[2, 2, N_COMBOS] learned order: [colour, own/opponent, combination]
    combo: np.ndarray  # int16[2**16] packed four patterns -> combination number


def new_tt(megabytes: float, prefault: bool = True) -> np.ndarray:
    """A transposition table of about ``megabytes`` MB: 16 bytes an entry (key ^ data, then
    data, side by side), buckets of 4 entries aligned to 64 bytes, so a probe reads one cache
    line. ``prefault``: write every page now (else the first search faults them in)."""
    entries = max(4, int(megabytes * 1024 * 1024) // 16)
    n = entries // 4 * 4
    if prefault:
        buf = np.empty(2 * n + 8, dtype=np.uint64)
        # written now, not left to the lazily zeroed pages of np.zeros: the first search would
        # otherwise take a page fault at each new page it probes (64 MB: 16,384 faults, about
        # 0.2 s of a fresh process's first move; docs/engine.md)
        buf.fill(0)
    else:
        buf = np.zeros(2 * n + 8, dtype=np.uint64)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip : skip + 2 * n]


def lmr_table(base: float = PR.LMR_BASE, divisor: float = PR.LMR_DIVISOR) -> np.ndarray:
    """Late-move reductions by depth and move number: ``base + ln(depth) * ln(move) / divisor``
    (defaults from :mod:`params`: LMR_BASE, LMR_DIVISOR)."""
    d = np.arange(64, dtype=np.float64)[:, None]
    m = np.arange(MAX_MOVES, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        table = base + np.log(d) * np.log(m) / divisor
    table[0, :] = 0
    table[:, 0] = 0
    return np.clip(table, 0, 127).astype(np.int8)


def new_context(cells: int, tt: np.ndarray, stop: np.ndarray) -> SearchContext:
    """Search memory for one thread over a board array of ``cells`` entries."""
    vk, vd = V.new_vcf_tt()
    features = np.ones(F_COUNT, dtype=np.int8)
    stats = np.zeros(S_COUNT, dtype=np.int64)
    stats[S_NODE_LIMIT] = 1 << 62
    for slot, name in STAT_PARAMS:
        stats[slot] = getattr(PR, name)
    return SearchContext(
        tt,
        np.zeros((2, cells), dtype=np.int32),
        np.full((MAX_PLY, 2), -1, dtype=np.int32),
        np.full((2, cells), -1, dtype=np.int32),
        np.zeros((2, cells, cells), dtype=np.int16),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_PLY, MAX_PLY), dtype=np.int32),
        np.zeros(MAX_PLY, dtype=np.int32),
        np.full(MAX_MOVES, -1, dtype=np.int32),
        vk,
        vd,
        np.zeros(VCF_SEQ + V.scratch_words(), dtype=np.int64),
        stats,
        stop,
        lmr_table(PR.LMR_BASE, PR.LMR_DIVISOR),
        features,
        np.zeros((2, 2, combos.N_COMBOS), dtype=np.int32),
        combos.combo_of_index().copy(),
    )


# --- transposition table --------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def score_to_tt(score: int, ply: int) -> int:
    """Wins are stored relative to the node, not the root."""
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True, _nrt=False)
def score_from_tt(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True, _nrt=False)
def _pack(move: int, score: int, depth: int, bound: int, age: int) -> np.uint64:
    return np.uint64(
        (move & 0xFFFF)
        | ((score + 32768) & 0xFFFF) << 16
        | ((depth + 1) & 0xFF) << 32
        | (bound & 3) << 40
        | (age & 0xFF) << 42
    )


@njit(cache=True, nogil=True, _nrt=False)
def tt_bucket(key: np.uint64, n: int) -> int:
    """First entry of ``key``'s bucket in a table of ``n`` entries (any multiple of 4): the
    key's high 32 bits scaled to the bucket count (multiply-shift), so a table may use its
    whole memory budget, not only a power of two."""
    scaled = (key >> np.uint64(32)) * np.uint64(n >> 2)
    return np.int64(scaled >> np.uint64(32)) * 4


@njit(cache=True, nogil=True, _nrt=False)
def tt_prefetch(tt, key: np.uint64) -> None:
    """Start loading ``key``'s bucket (a child's, before the recursive call reaches its probe:
    the table is far larger than the caches)."""
    prefetch(tt, tt_bucket(key, tt.shape[0] >> 1) * 2)


@njit(cache=True, nogil=True, _nrt=False)
def tt_probe(ctx, key: np.uint64):
    """(found, move, score, depth, bound) for ``key``."""
    tt = ctx.tt
    base = tt_bucket(key, tt.shape[0] >> 1) * 2
    for i in range(base, base + 8, 2):
        ui = np.uint64(i)  # unsigned: no negative-index wraparound code
        data = tt[ui + np.uint64(1)]
        if tt[ui] ^ data == key and data != 0:
            d = int(data)
            move = d & 0xFFFF
            if move == 0xFFFF:
                move = -1
            score = ((d >> 16) & 0xFFFF) - 32768
            depth = ((d >> 32) & 0xFF) - 1
            bound = (d >> 40) & 3
            return True, move, score, depth, bound
    return False, -1, 0, 0, 0


@njit(cache=True, nogil=True, _nrt=False)
def tt_store(ctx, key: np.uint64, move: int, score: int, depth: int, bound: int) -> None:
    """Store with depth-age replacement: the same position, else the shallowest or oldest."""
    tt = ctx.tt
    base = tt_bucket(key, tt.shape[0] >> 1) * 2
    age = ctx.stats[S_AGE] & 0xFF
    victim = base
    worst = 1 << 30
    for i in range(base, base + 8, 2):
        data = tt[i + 1]
        if data == 0:
            victim = i
            break
        if tt[i] ^ data == key:
            d = int(data)
            old_depth = ((d >> 32) & 0xFF) - 1
            if move < 0:
                move = d & 0xFFFF
                if move == 0xFFFF:
                    move = -1
            if bound != BOUND_EXACT and depth < old_depth - 2 and ((d >> 42) & 0xFF) == age:
                return
            victim = i
            break
        d = int(data)
        old_depth = ((d >> 32) & 0xFF) - 1
        old_age = (d >> 42) & 0xFF
        stale = (age - old_age) & 0xFF
        worth = old_depth - 8 * stale
        if worth < worst:
            worst = worth
            victim = i
    if depth < -1:
        # two or more plies below the horizon (forced replies and open-three answers): stored
        # as depth 256 + depth, which every later probe trusts (TT_DEEP_FORCED 1), or as -1.
        # Until session 30 the first came from the depth byte wrapping around; storing them
        # as -1 instead measured weaker at 20,000 nodes (-20.3 +- 44.1 Elo over 240 games)
        depth = depth + 256 if ctx.stats[S_TT_DEEP_FORCED] != 0 else -1
    data = _pack(move if move >= 0 else 0xFFFF, score, depth, bound, age)
    tt[victim + 1] = data
    tt[victim] = key ^ data


# --- move generation --------------------------------------------------------------------------


# move-ordering weights by threat class (none, three, double three, four, four-three, flex four,
# five, forbidden): making the threat ourselves, and taking the cell from the opponent
OWN_CLASS_SCORE = np.array([0, 3000, 16000, 6000, 40000, 60000, 0, 0], dtype=np.int64)
BLOCK_CLASS_SCORE = np.array([0, 1200, 9000, 1500, 14000, 20000, 0, 0], dtype=np.int64)


@njit(cache=True, nogil=True, _nrt=False)
def real_threat_exists(st, s: int, cls: int) -> bool:
    """Whether side index ``s`` has an empty cell of class ``cls`` it may actually play."""
    side = s + 1
    if st.counts[s, cls] == 0:
        return False
    if side != BLACK or st.info[3] != RENJU:
        return True  # only Renju black has moves it may not play
    for p in range(st.cells.shape[0]):
        if st.cells[p] == EMPTY and st.cls[s, p] & 7 == cls and not V.forbidden_for(st, side, p):
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def static_order(st, ctx, p: int, s: int, own: int, opp: int) -> int:
    """The static part of cell ``p``'s ordering score for side ``s`` (0 black, 1 white), whose
    own and opponent threat classes there are ``own`` and ``opp``: the learned table's
    ``U[own combination] + V[opponent combination]`` when one is loaded, else the cell values
    plus the hand-written class bonuses."""
    o = 1 - s
    if ctx.stats[S_ORDER] != 0:
        both = np.int64(st.p4[p])
        return np.int64(ctx.order[s, 0, ctx.combo[(both >> (16 * s)) & 0xFFFF]]) + np.int64(
            ctx.order[o, 1, ctx.combo[(both >> (16 * o)) & 0xFFFF]]
        )
    return np.int64(st.val[s, p] + st.val[o, p] + OWN_CLASS_SCORE[own] + BLOCK_CLASS_SCORE[opp])


@njit(cache=True, nogil=True, _nrt=False)
def generate(
    st, ctx, ply: int, tt_move: int, defend: bool, prev: int, start: int = 0, skip: int = -1
) -> int:
    """Fill ``ctx.moves[ply]`` and ``ctx.scores[ply]`` from index ``start`` with the candidate
    moves (all but ``skip``) and their ordering scores (unsorted: see :func:`pick_next`);
    return the total count.

    Candidates are the empty cells within two cells of a stone (the centre on an empty board).
    With ``defend`` (the opponent has an open three), only our fours and the cells where the
    opponent would make a four or better (the defences) are kept.
    """
    s = st.info[I_SIDE] - 1
    o = 1 - s
    side = s + 1
    mv = ctx.moves[ply]
    sc = ctx.scores[ply]
    n = start
    ncells = st.cells.shape[0]
    if st.info[I_PLY] == 0:
        stride = st.info[2]
        mv[0] = (st.info[1] // 2 + 5) * stride + st.info[0] // 2 + 5
        sc[0] = 0
        return 1
    k0 = ctx.killers[ply, 0]
    k1 = ctx.killers[ply, 1]
    cm = ctx.counter[s, prev] if prev >= 0 else -1
    renju_black = side == BLACK and st.info[3] == RENJU
    cells = st.cells
    near = st.near
    cls_s = st.cls[s]
    cls_o = st.cls[o]
    hist = ctx.history[s]
    use_cont = prev >= 0 and ctx.features[F_CONTHIST] != 0
    cont = ctx.conthist[s, prev if prev >= 0 else 0]
    stride = st.info[2]
    for p in range(ncells):
        if near[p] == 0 or cells[p] != EMPTY or p == skip:
            continue
        own_raw = cls_s[p]
        own = own_raw & 7
        opp = cls_o[p] & 7
        if renju_black:
            if own == C_FORBID:
                continue
            if own_raw & CHECK_FLAG and V.is_forbidden(cells, stride, p):
                continue
        if defend and own < C_FOUR and (opp < C_FOUR or opp == C_FORBID):
            continue
        score = static_order(st, ctx, p, s, own, opp)
        score += hist[p] >> 6
        if use_cont:
            score += np.int32(cont[p]) >> 4
        if p == tt_move:
            score += 1 << 24
        elif p == k0:
            score += 2500
        elif p == k1:
            score += 2000
        elif p == cm:
            score += 1500
        sc[n] = score
        mv[n] = p
        n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _tt_move_playable(st, p: int, defend: bool) -> bool:
    """Whether the table's move ``p`` is a candidate here (what :func:`generate` would keep)."""
    if p < 0 or p >= st.cells.shape[0] or st.cells[p] != EMPTY or st.near[p] == 0:
        return False
    s = st.info[I_SIDE] - 1
    own = st.cls[s, p] & 7
    opp = st.cls[1 - s, p] & 7
    if own == C_FORBID or (own != C_FIVE and V.forbidden_for(st, s + 1, p)):
        return False
    return not (defend and own < C_FOUR and (opp < C_FOUR or opp == C_FORBID))


@njit(cache=True, nogil=True, _nrt=False)
def chebyshev(a: int, b: int, stride: int) -> int:
    """The king-move distance between cells ``a`` and ``b`` of a board array of row ``stride``."""
    dx = abs(a % stride - b % stride)
    dy = abs(a // stride - b // stride)
    return dx if dx > dy else dy


@njit(cache=True, nogil=True, _nrt=False)
def move_count_limit(depth: int, exponent: int) -> int:
    """How many moves a non-PV node at ``depth`` tries before move-count pruning: 2 + d(d+2)/2,
    or 3 + d ** (exponent / 100) when ``exponent`` > 0 (params.LMP_EXP)."""
    if exponent <= 0:
        return 2 + depth * (depth + 2) // 2
    return 3 + np.int64(float(depth) ** (exponent / 100.0))


@njit(cache=True, nogil=True, _nrt=False)
def refined_eval(static_eval: int, tt_score: int, tt_bound: int) -> int:
    """The value the pruning decisions use: the table's score where its bound says the truth
    lies beyond the static value in the score's direction (a lower bound above it, an upper
    bound below it), else the static value. Win scores are left to the win logic."""
    if abs(tt_score) >= WIN_BOUND:
        return static_eval
    if tt_score > static_eval and (tt_bound & BOUND_LOWER) != 0:
        return tt_score
    if tt_score < static_eval and (tt_bound & BOUND_UPPER) != 0:
        return tt_score
    return static_eval


@njit(cache=True, nogil=True, _nrt=False)
def pick_next(ctx, ply: int, i: int, n: int) -> None:
    """Move the best-scored of moves ``i..n-1`` to position ``i`` (lazy selection sort: most
    nodes cut off after a move or two, so sorting everything would be wasted)."""
    mv = ctx.moves[ply]
    sc = ctx.scores[ply]
    best = i
    for j in range(i + 1, n):
        if sc[j] > sc[best]:
            best = j
    if best != i:
        t = sc[i]
        sc[i] = sc[best]
        sc[best] = t
        t = mv[i]
        mv[i] = mv[best]
        mv[best] = t


@njit(cache=True, nogil=True, _nrt=False)
def _update_quiet_stats(st, ctx, ply: int, best: int, depth: int, prev: int, tried: int) -> None:
    s = st.info[I_SIDE] - 1
    bonus = min(depth * depth * 16, 4000)
    h = ctx.history[s, best]
    ctx.history[s, best] = h + bonus - h * bonus // 32768
    mv = ctx.moves[ply]
    for i in range(tried):
        p = mv[i]
        if p != best:
            h = ctx.history[s, p]
            ctx.history[s, p] = h - bonus - h * bonus // 32768
    if ctx.killers[ply, 0] != best:
        ctx.killers[ply, 1] = ctx.killers[ply, 0]
        ctx.killers[ply, 0] = best
    if prev >= 0:
        ctx.counter[s, prev] = best
        if ctx.features[F_CONTHIST]:
            # the same bounded update on the table of replies to ``prev`` (int16 range)
            cont = ctx.conthist[s, prev]
            cb = bonus * 4 if bonus * 4 < 8000 else 8000
            c = np.int32(cont[best])
            cont[best] = c + cb - c * cb // 32000
            for i in range(tried):
                p = mv[i]
                if p != best:
                    c = np.int32(cont[p])
                    cont[p] = c - cb - c * cb // 32000


# --- the search -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def pvs(st, tb, ctx, alpha: int, beta: int, depth: int, ply: int, prev: int) -> int:
    """Negamax principal variation search; returns the score for the side to move.

    At ``ply == 0`` the root's best move and score go to ``ctx.stats`` and the PV to
    ``ctx.pv[0]``; root moves listed in ``ctx.excluded`` are skipped (MultiPV).
    """
    ctx.stats[S_NODES] += 1
    ctx.pvlen[ply] = 0
    if ply > ctx.stats[S_SELDEPTH]:
        ctx.stats[S_SELDEPTH] = ply
    if ctx.stats[S_NODES] >= ctx.stats[S_NODE_LIMIT]:
        ctx.stop[0] = 1
    if ctx.stop[0] != 0 and ply > 0:
        return 0
    s = st.info[I_SIDE] - 1
    o = 1 - s
    side = s + 1
    pv_node = beta - alpha > 1
    # an expected cut node (a null-window child its parent expects to fail high)
    cut_node = not pv_node and ctx.stats[S_CUT + ply] != 0
    features = ctx.features

    # an own five wins now
    if st.counts[s, C_FIVE] > 0:
        if ply == 0:
            p = V.first_cell_of_class(st, s, C_FIVE)
            ctx.pv[0, 0] = p
            ctx.pvlen[0] = 1
            ctx.stats[S_ROOT_BEST] = p
            ctx.stats[S_ROOT_SCORE] = WIN - 1
            ctx.stats[S_ROOT_DONE] = 1
        return WIN - ply - 1
    if st.info[I_PLY] >= st.info[0] * st.info[1]:
        return 0
    if ply >= MAX_PLY - 2:
        return evaluate(st, tb)
    # mate distance pruning
    if ply > 0:
        lo = -WIN + ply
        hi = WIN - ply - 1
        if alpha < lo:
            alpha = lo
        if beta > hi:
            beta = hi
        if alpha >= beta:
            return alpha

    forced = -1
    nfive = st.counts[o, C_FIVE]
    if nfive > 0:
        if nfive == 1:
            forced = V.only_five_cell(st, o, prev)  # made by the opponent's last move
        else:
            # Caro: one block may stop both fives (one such cell: forced; several: searched
            # as a normal node)
            stops = V.five_stops(st, tb, o, ctx.moves[ply])
            if stops == 1:
                forced = ctx.moves[ply, 0]
            elif stops == 0:
                if ply > 0:
                    return -(WIN - ply - 2)
                forced = V.first_cell_of_class(st, o, C_FIVE)
        if forced >= 0 and V.forbidden_for(st, side, forced):
            if ply > 0:
                return -(WIN - ply - 2)
            forced = -1  # the root must still name a move it may play: every move loses
    elif st.counts[s, C_FLEX4] > 0 and ply > 0 and real_threat_exists(st, s, C_FLEX4):
        return WIN - ply - 3

    if forced < 0 and depth <= 0:
        # horizon: a VCF for the side to move, else the static evaluation; an opponent open
        # three is answered instead (below)
        answer_three = (
            features[F_QTHREE] != 0
            and depth > -ctx.stats[S_QTHREE_PLIES]
            and st.counts[o, C_FLEX4] > 0
            and real_threat_exists(st, o, C_FLEX4)
        )
        leaf_eval = evaluate(st, tb)
        if not answer_three and leaf_eval >= beta:
            return leaf_eval  # a VCF could only raise the value: the cut-off stands anyway
        if features[F_VCF_LEAF] and (
            st.counts[s, C_FOUR] + st.counts[s, C_FOUR_THREE] + st.counts[s, C_FLEX4] > 0
        ):
            before = ctx.stats[S_VCF_NODES]
            n = V.vcf_search(
                st,
                tb,
                ctx.stats[S_VCF_DEPTH],
                ctx.stats[S_VCF_LIMIT],
                ctx.vcf_keys,
                ctx.vcf_seq[:VCF_SEQ],
                ctx.stop,
                ctx.stats[S_VCF_NODES:],
                ctx.vcf_seq[VCF_SEQ:],
            )
            ctx.stats[S_NODES] += ctx.stats[S_VCF_NODES] - before
            if n > 0:
                return WIN - ply - n
        if not answer_three:
            if (
                ctx.stats[S_QFOUR_PLIES] > 0
                and depth > -ctx.stats[S_QFOUR_PLIES]
                and st.counts[s, C_FOUR] > 0
            ):
                # four quiescence (QFOUR_PLIES, off): no VCF, but a four keeps the move after
                # its forced block; the VCF solver's generator (free scratch now) gives the
                # fours best first, and the first few are tried against the static value
                best = leaf_eval
                if best > alpha:
                    alpha = best
                found = ctx.vcf_seq[VCF_SEQ : VCF_SEQ + V.MAX_FOURS]
                qn = V.gen_fours(st, tb, side, found, ctx.vcf_seq[VCF_SEQ + V.MAX_FOURS :], False)
                qn = min(qn, ctx.stats[S_QFOUR_MOVES])
                qmoves = ctx.moves[ply]
                for i in range(qn):
                    qmoves[i] = found[i]  # the children's VCF probes reuse the scratch
                child_depth = depth - 1
                for i in range(qn):
                    mv = np.int64(qmoves[i])
                    make_inline(st, tb, mv, True)
                    score = -pvs(st, tb, ctx, -beta, -alpha, child_depth, ply + 1, mv)
                    undo_inline(st, True)
                    if ctx.stop[0] != 0:
                        return 0
                    if score > best:
                        best = score
                        if score > alpha:
                            alpha = score
                            if score >= beta:
                                break
                return best
            return leaf_eval
        # the opponent has an open three: the static value would count it as if it could not
        # be answered; search the defences instead (below the horizon, a few plies at most)

    key = st.hashes[st.info[I_PLY]]
    tt_found = False
    tt_move = -1
    tt_score = 0
    tt_depth = -1
    tt_bound = BOUND_UPPER
    # the move a singular test at this node skips (-1: this is no such test)
    skip_move = ctx.stats[S_SKIP + ply] - 1
    if features[F_TT]:
        found, tmove, tscore, tdepth, tbound = tt_probe(ctx, key)
        if found:
            tt_found = True
            tt_move = tmove
            tt_score = score_from_tt(tscore, ply)
            tt_depth = tdepth
            tt_bound = tbound
            if ply > 0 and not pv_node and tdepth >= depth and skip_move < 0:
                tscore = tt_score
                if tbound == BOUND_EXACT:
                    return tscore
                if tbound == BOUND_LOWER and tscore >= beta:
                    return tscore
                if tbound == BOUND_UPPER and tscore <= alpha:
                    return tscore

    # the opponent's strongest threat: cells where it would make a flex four, a four-three or
    # a double three (a quiet position for pruning has none of them)
    opp_threats = st.counts[o, C_FLEX4] + st.counts[o, C_FOUR_THREE] + st.counts[o, C_THREE2]
    static_eval = evaluate(st, tb)
    if ctx.stats[S_TT_EVAL] != 0 and tt_found and skip_move < 0:
        static_eval = refined_eval(static_eval, tt_score, tt_bound)
    quiet_node = forced < 0 and ply > 0 and not pv_node and opp_threats == 0 and skip_move < 0
    if (
        quiet_node
        and features[F_FUTILITY]
        and depth <= ctx.stats[S_RFP_DEPTH]
        and abs(beta) < WIN_BOUND
    ):
        # reverse futility: far above beta with nothing to fear
        if static_eval - ctx.stats[S_RFP_MARGIN] * depth >= beta:
            return static_eval
    if (
        quiet_node
        and features[F_RAZOR]
        and depth <= ctx.stats[S_RAZOR_DEPTH]
        and abs(alpha) < WIN_BOUND
        and static_eval + ctx.stats[S_RAZOR_MARGIN] * depth < alpha
        and not (
            features[F_RAZOR_THREATS] and st.counts[s, C_THREE2] + st.counts[s, C_FOUR_THREE] > 0
        )
    ):
        # razoring: far below alpha with no threat to answer; if the horizon search (VCF and
        # open-three answers) confirms it, trust it. Not with an own double three or
        # four-three to make: a win the horizon's VCF probe cannot see, whatever the static
        # value says
        razor = pvs(st, tb, ctx, alpha, alpha + 1, np.int64(0), ply, prev)
        if razor <= alpha:
            return razor
    if (
        quiet_node
        and features[F_NULL]
        and depth >= 4
        and static_eval >= beta
        and prev >= 0
        and abs(beta) < WIN_BOUND
    ):
        # null move: in Gomoku an extra stone never hurts its owner (bar overlines and Renju
        # forbidden points), so if passing already holds beta the best move does too
        reduction = 3 + depth // 4
        key0 = st.hashes[st.info[I_PLY]]
        st.hashes[st.info[I_PLY]] = key0 ^ tb.zobrist[0, 0]
        st.info[I_SIDE] = 3 - side
        null_depth = depth - 1 - reduction
        ctx.stats[S_CUT + ply + 1] = 0 if cut_node else 1
        null_score = -pvs(st, tb, ctx, -beta, -beta + 1, null_depth, ply + 1, np.int64(-1))
        st.info[I_SIDE] = side
        st.hashes[st.info[I_PLY]] = key0
        if ctx.stop[0] != 0:
            return 0
        if null_score >= beta:
            return beta if null_score > WIN_BOUND else null_score

    if features[F_IIR] and forced < 0 and tt_move < 0 and depth >= 4 and ply > 0:
        # no table move: the ordering is a guess, so spend less on this node (if it matters,
        # the next iteration finds it with a table move)
        depth -= 1

    # singular extension: when the table's move holds well and every other move, searched to
    # half the depth, falls clearly below it, the table's move is searched one ply deeper;
    # when even the others hold beta, the node is cut (multi-cut)
    ext_move = -1
    se_depth = ctx.stats[S_SE_DEPTH]
    if (
        se_depth > 0
        and ply > 0
        and ply < MAX_PLY - 8
        and skip_move < 0
        and forced < 0
        and depth >= se_depth
        and tt_move >= 0
        and tt_bound != BOUND_UPPER
        and tt_depth >= depth - 3
        and abs(tt_score) < WIN_BOUND
    ):
        sbeta = tt_score - ctx.stats[S_SE_MARGIN] * depth
        ctx.stats[S_SKIP + ply] = tt_move + 1
        value = pvs(st, tb, ctx, sbeta - 1, sbeta, (depth - 1) // 2, ply, prev)
        ctx.stats[S_SKIP + ply] = 0
        ctx.pvlen[ply] = 0  # the test's own line is no line of this node
        if ctx.stop[0] != 0:
            return 0
        if value < sbeta:
            ext_move = tt_move
        elif sbeta >= beta:
            return sbeta

    defend = False
    generated = True
    if forced >= 0:
        ctx.moves[ply, 0] = forced
        n = 1
        new_depth_base = depth  # forced reply: no depth used
    else:
        if features[F_THREAT_FILTER] and st.counts[o, C_FLEX4] > 0:
            defend = real_threat_exists(st, o, C_FLEX4)
        new_depth_base = depth - 1
        if ply > 0 and skip_move < 0 and _tt_move_playable(st, tt_move, defend):
            # try the table's move before generating anything: it often cuts at once
            ctx.moves[ply, 0] = tt_move
            ctx.scores[ply, 0] = 1 << 24
            n = 1
            generated = False
        else:
            n = generate(st, ctx, ply, tt_move, defend, prev, np.int64(0), np.int64(-1))
    if ply == 0:
        ctx.stats[S_ROOT_MOVES] = n
    if n == 0:
        # no defence: the opponent's threat goes through
        return -(WIN - ply - 4)

    # fail-high reduction (FAIL_HIGH_MARGIN, off): an expected cut node whose static value is
    # far above beta will most likely cut; its moves that make no four go a ply shallower
    fail_high = (
        ctx.stats[S_FAIL_HIGH] > 0
        and forced < 0
        and cut_node
        and skip_move < 0
        and abs(beta) < WIN_BOUND
        and static_eval >= beta + ctx.stats[S_FAIL_HIGH] * depth
    )
    lmp_limit = move_count_limit(depth, ctx.stats[S_LMP_EXP])
    best = -INF
    best_move = -1
    old_alpha = alpha
    tried = 0
    excluded = ctx.excluded
    # reductions by the static order: a quiet move far below the best static order of the
    # moves tried so far is reduced one ply more, one close to it (or above it) one ply less
    policy_reduce = ctx.stats[S_POLICY_REDUCE]
    policy_keep = ctx.stats[S_POLICY_KEEP]
    top_order = -INF
    i = -1
    while True:
        i += 1
        if i >= n:
            if generated:
                break
            n = generate(st, ctx, ply, tt_move, defend, prev, n, tt_move)
            generated = True
            if i >= n:
                break
        pick_next(ctx, ply, i, n)
        # every argument of the recursive call must keep the entry types exactly (int64):
        # a cast in a recursive call crashes numba's cache (numba issue 6713)
        mv = np.int64(ctx.moves[ply, i])
        if ply == 0:
            skip = False
            for j in range(excluded.shape[0]):
                if excluded[j] < 0:
                    break
                if excluded[j] == mv:
                    skip = True
                    break
            if skip:
                continue
        elif mv == skip_move:
            continue
        own = st.cls[s, mv] & 7
        opp = st.cls[o, mv] & 7
        tactical = (
            forced >= 0
            or own >= ctx.stats[S_TACTICAL_OWN]
            or (opp >= ctx.stats[S_TACTICAL_OPP] and opp != C_FORBID)
        )
        new_depth = new_depth_base
        if mv == ext_move:
            new_depth += 1
        elif fail_high and own < C_FOUR and new_depth > 1:
            new_depth -= 1
        elif (
            defend
            and new_depth > 1
            and ctx.stats[S_USELESS_DEFENCE] > 0
            and (opp < C_FOUR or opp == C_FORBID)
            and prev >= 0
            and chebyshev(mv, prev, st.info[2]) > 4
        ):
            # the opponent has an open three and this four, far from its last move, does not
            # stop it: most likely a delay, not a defence (Rapfi's useless-defence reduction)
            new_depth -= min(ctx.stats[S_USELESS_DEFENCE], new_depth - 1)
        order_gap = 0
        if policy_reduce > 0 and depth >= 3:
            order = static_order(st, ctx, mv, s, own, opp)
            order_gap = top_order - order if tried > 0 else 0
            if order > top_order:
                top_order = order
        if ply > 0 and not pv_node and not tactical and best > -WIN_BOUND and tried > 0:
            # move-count pruning near the horizon: the ordering has put the moves that matter
            # first
            if features[F_LMP] and depth <= ctx.stats[S_LMP_DEPTH] and tried >= lmp_limit:
                break
            # futility: a quiet move cannot lift a hopeless static score to alpha
            if (
                features[F_FUTILITY]
                and depth <= ctx.stats[S_FUT_DEPTH]
                and opp_threats == 0
                and static_eval + 100 + ctx.stats[S_FUT_MARGIN] * depth <= alpha
            ):
                continue
        make_inline(st, tb, mv, True)  # inlined: a call would copy ~140 words of state
        if new_depth_base > 0 and features[F_TT]:
            tt_prefetch(ctx.tt, st.hashes[st.info[I_PLY]])
        if tried == 0:
            ctx.stats[S_CUT + ply + 1] = 0 if pv_node or cut_node else 1
            score = -pvs(st, tb, ctx, -beta, -alpha, new_depth, ply + 1, mv)
        else:
            r = 0
            if features[F_LMR] and depth >= 3 and not tactical:
                r = np.int64(ctx.lmr[min(depth, 63), min(tried, MAX_MOVES - 1)])
                if pv_node and r > 0:
                    r -= 1
                if policy_reduce > 0:
                    if order_gap >= policy_reduce:
                        r += 1
                    elif order_gap <= policy_keep and r > 0:
                        r -= 1
                if cut_node and mv != ctx.killers[ply, 0] and mv != ctx.killers[ply, 1]:
                    r += ctx.stats[S_CUT_LMR]
                if ctx.stats[S_LMR_HIST] > 0:
                    # a move that has often cut (history and, after ``prev``, continuation
                    # history) is reduced less, one that has often failed more
                    stat = np.int64(ctx.history[s, mv])
                    if prev >= 0 and features[F_CONTHIST]:
                        stat += np.int64(ctx.conthist[s, prev, mv])
                    if stat >= 0:
                        r -= stat // ctx.stats[S_LMR_HIST]
                    else:
                        r += (-stat) // ctx.stats[S_LMR_HIST]
                if ply == 0 and own >= C_THREE and own != C_FORBID and features[F_ROOT_THREATS]:
                    # a root move making an open three may start a win that only a search
                    # to nearly full depth sees (docs/engine.md "Root threats")
                    r //= 2
                if r > new_depth - 1:
                    r = new_depth - 1
                if r < 0:
                    r = 0
            ctx.stats[S_CUT + ply + 1] = 1 if r > 0 or not cut_node else 0
            score = -pvs(st, tb, ctx, -alpha - 1, -alpha, new_depth - r, ply + 1, mv)
            if score > alpha and r > 0:
                ctx.stats[S_CUT + ply + 1] = 0 if cut_node else 1
                deeper = ctx.stats[S_LMR_DEEPER]
                if deeper > 0 and score > alpha + deeper and score < WIN_BOUND:
                    # the reduced search beat alpha by a margin: the move is likely better
                    # than the ordering thought, so its re-search goes a ply deeper
                    new_depth += 1
                score = -pvs(st, tb, ctx, -alpha - 1, -alpha, new_depth, ply + 1, mv)
            if score > alpha and score < beta:
                score = -pvs(st, tb, ctx, -beta, -alpha, new_depth, ply + 1, mv)
        undo_inline(st, True)
        tried += 1
        if ctx.stop[0] != 0:  # the score of an interrupted search is meaningless
            break
        if score > best:
            best = score
            best_move = mv
            if score > alpha:
                alpha = score
                # update the principal variation
                ctx.pv[ply, 0] = mv
                ln = ctx.pvlen[ply + 1]
                for j in range(ln):
                    ctx.pv[ply, j + 1] = ctx.pv[ply + 1, j]
                ctx.pvlen[ply] = ln + 1
                if ply == 0:
                    ctx.stats[S_ROOT_BEST] = mv
                    ctx.stats[S_ROOT_SCORE] = score
                if score >= beta:
                    if not tactical:
                        _update_quiet_stats(st, ctx, ply, mv, depth, prev, tried - 1)
                    break
        if ply == 0:
            ctx.stats[S_ROOT_DONE] = tried
    if best_move < 0:
        return alpha
    if features[F_TT] and ctx.stop[0] == 0 and skip_move < 0:
        bound = BOUND_EXACT
        if best >= beta:
            bound = BOUND_LOWER
        elif best <= old_alpha:
            bound = BOUND_UPPER
        tt_store(ctx, key, best_move, score_to_tt(best, ply), depth, bound)
    return best


__all__ = [
    "BOUND_EXACT",
    "INF",
    "MAX_PLY",
    "SearchContext",
    "WIN",
    "WIN_BOUND",
    "generate",
    "new_context",
    "new_tt",
    "pvs",
    "tt_probe",
    "tt_store",
]
