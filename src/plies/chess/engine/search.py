"""Principal variation search for chess (compiled).

``pvs`` is the one recursive kernel and, per DESIGN.md, is only ever called from Python (a
cached kernel that calls a recursive cached kernel crashes when loaded from the cache); every
argument that changes through the recursion is an int64. The quiescence search is the same
function at ``depth <= 0`` (so there is no second recursive kernel), and the root is
``ply == 0``; iterative deepening, aspiration windows, MultiPV, time and threads live in
Python (``plies.chess.engine.api``).

Per node: stop flag and node limit, draw by repetition / fifty moves / bare material, mate
distance pruning, check extension, transposition-table cut-offs, static evaluation, reverse
futility pruning, null-move pruning (verified by a reduced search without null moves in
pawn-only or near-pawn-only positions and at high depth: zugzwang), then the moves in order
(TT move, good captures by MVV-LVA after SEE, killers, counter-move, history, bad captures)
with late-move pruning, futility pruning, SEE pruning (quiet moves and captures that lose
material beyond a depth-scaled margin) and late-move reductions from a table. Quiescence:
stand pat, captures and queen promotions by MVV-LVA, losing captures (SEE < 0) and hopeless
ones (delta pruning) skipped. With Syzygy tables loaded (``tb``, from ``syzygy_tables``),
nodes just after a capture or pawn move with few enough pieces take the tables' exact WDL
value (``syzygy_kernel.probe_wdl``) as a score or a bound.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from plies.chess.engine import params as PR
from plies.chess.engine.board import (
    BISHOP,
    DIAGONALS_BB,
    FLAG_CASTLE,
    FLAG_EP,
    H_CAPT,
    H_MOVE,
    I_BB,
    I_BB_OK,
    I_CASTLE,
    I_CNT,
    I_EP,
    I_HALF,
    I_HASH,
    I_HPLY,
    I_KSQ,
    I_SIDE,
    KING,
    KING_BB,
    KNIGHT,
    KNIGHT_BB,
    LINES_BB,
    MAX_MOVES,
    PAWN,
    PAWN_FROM,
    QUEEN,
    RAY_BB,
    RAY_UP,
    ROOK,
    ST_SIZE,
    generate,
    gives_check,
    in_check_fast,
    insufficient_material,
    is_repetition,
    leaves_check,
    lsb,
    make,
    make_null,
    msb,
    pin_ok,
    popcount,
    quiet_gives_check,
    set_bitboards,
    undo,
    undo_null,
)
from plies.chess.engine.evaluate import SCRATCH, evaluate
from plies.chess.syzygy_kernel import SCRATCH_SIZE as TB_SCRATCH
from plies.chess.syzygy_kernel import TB_FAIL, TB_MAXPC_BYTE, has_legal_move, probe_wdl

MATE = 32000
MATE_BOUND = MATE - 1000  # scores beyond are mates in so many plies
INF = 32001
MAX_PLY = 120
# a Syzygy win found in the search: TB_WIN - ply (quicker progress first), below the mates;
# scores beyond TB_BOUND are distances from the root (the TT stores them relative to the node)
TB_WIN = 20000
TB_BOUND = TB_WIN - 1000

BOUND_UPPER = 1
BOUND_LOWER = 2
BOUND_EXACT = 3

SEE_VALUE = np.array([0, 100, 320, 330, 500, 950, 20000, 0], dtype=np.int64)

# stats[] slots
S_NODES = 0
S_SELDEPTH = 1
S_NODE_LIMIT = 2
S_AGE = 3
S_ROOT_BEST = 4
S_ROOT_SCORE = 5
S_ROOT_DONE = 6
S_ROOT_MOVES = 7
S_NMP_MIN_PLY = 8  # null move disabled below this ply (verification search)
S_ROOT_DEPTH = 9  # the depth of the current iteration (limits singular extensions)
S_TBHITS = 10  # Syzygy WDL probes that gave a value
S_COUNT = 16

# features[] switches (1 on), for tests of exactness and for measuring each feature's effect
FEATURE_NAMES = (
    "tt",
    "null_move",
    "lmr",
    "futility",  # futility and reverse futility
    "lmp",
    "qsearch",  # off: the static evaluation at depth 0
    "qsearch_pruning",  # SEE and delta pruning in quiescence
    "check_extension",
    "ordering",  # killers, counter-move, history
    "mate_distance",
    "qsearch_checks",  # quiet checks at the first quiescence ply after a null move
    "tablebases",  # Syzygy WDL probes inside the search (when tables are loaded)
    "see_pruning",  # moves losing material by SEE skipped near the leaves (SEE_PRUNE_*)
)
F_TT, F_NULL, F_LMR, F_FUT, F_LMP, F_QS, F_QSP, F_CHECKEXT, F_ORDER, F_MDP = range(10)
F_QCHECKS = 10
F_TB = 11
F_SEEP = 12
F_COUNT = 13

# search tunables travel in an array (params.py holds their defaults)
K_RFP_MARGIN = 0
K_RFP_DEPTH = 1
K_FUT_MARGIN = 2
K_FUT_PER_PLY = 3
K_FUT_DEPTH = 4
K_LMP_DEPTH = 5
K_DELTA = 6
K_NULL_MIN_DEPTH = 7
K_NULL_VERIFY_DEPTH = 8
K_HIST_DEPTH = 9
K_HIST_MARGIN = 10
K_SE_DEPTH = 11
K_SE_MARGIN = 12
K_TB_DEPTH = 13
K_CORR_HIST = 14
K_CONT_HIST = 15
K_LMR_HIST_DIV = 16
K_SEE_DEPTH = 17
K_SEE_QUIET = 18
K_SEE_CAPTURE = 19
K_CAPT_HIST = 20
K_PROBCUT_DEPTH = 21
K_PROBCUT_MARGIN = 22
K_TT_EVAL = 23
K_RAZOR_DEPTH = 24
K_RAZOR_MARGIN = 25
K_COUNT = 26


def search_knobs(overrides: dict | None = None) -> np.ndarray:
    o = overrides or {}
    k = np.zeros(K_COUNT, dtype=np.int64)
    k[K_RFP_MARGIN] = o.get("RFP_MARGIN", PR.RFP_MARGIN)
    k[K_RFP_DEPTH] = o.get("RFP_DEPTH", PR.RFP_DEPTH)
    k[K_FUT_MARGIN] = o.get("FUTILITY_MARGIN", PR.FUTILITY_MARGIN)
    k[K_FUT_PER_PLY] = o.get("FUTILITY_PER_PLY", PR.FUTILITY_PER_PLY)
    k[K_FUT_DEPTH] = o.get("FUTILITY_DEPTH", PR.FUTILITY_DEPTH)
    k[K_LMP_DEPTH] = o.get("LMP_DEPTH", PR.LMP_DEPTH)
    k[K_DELTA] = o.get("DELTA_MARGIN", PR.DELTA_MARGIN)
    k[K_NULL_MIN_DEPTH] = o.get("NULL_MIN_DEPTH", PR.NULL_MIN_DEPTH)
    k[K_NULL_VERIFY_DEPTH] = o.get("NULL_VERIFY_DEPTH", PR.NULL_VERIFY_DEPTH)
    k[K_HIST_DEPTH] = o.get("HISTORY_PRUNE_DEPTH", PR.HISTORY_PRUNE_DEPTH)
    k[K_HIST_MARGIN] = o.get("HISTORY_PRUNE_MARGIN", PR.HISTORY_PRUNE_MARGIN)
    k[K_SE_DEPTH] = o.get("SINGULAR_DEPTH", PR.SINGULAR_DEPTH)
    k[K_SE_MARGIN] = o.get("SINGULAR_MARGIN", PR.SINGULAR_MARGIN)
    k[K_TB_DEPTH] = o.get("SYZYGY_PROBE_DEPTH", PR.SYZYGY_PROBE_DEPTH)
    k[K_CORR_HIST] = o.get("CORR_HIST", PR.CORR_HIST)
    k[K_CONT_HIST] = o.get("CONT_HIST", PR.CONT_HIST)
    k[K_LMR_HIST_DIV] = max(1, o.get("LMR_HISTORY_DIV", PR.LMR_HISTORY_DIV))
    k[K_SEE_DEPTH] = o.get("SEE_PRUNE_DEPTH", PR.SEE_PRUNE_DEPTH)
    k[K_SEE_QUIET] = o.get("SEE_PRUNE_QUIET", PR.SEE_PRUNE_QUIET)
    k[K_SEE_CAPTURE] = o.get("SEE_PRUNE_CAPTURE", PR.SEE_PRUNE_CAPTURE)
    k[K_CAPT_HIST] = o.get("CAPT_HIST", PR.CAPT_HIST)
    k[K_PROBCUT_DEPTH] = o.get("PROBCUT_DEPTH", PR.PROBCUT_DEPTH)
    k[K_PROBCUT_MARGIN] = o.get("PROBCUT_MARGIN", PR.PROBCUT_MARGIN)
    k[K_TT_EVAL] = o.get("TT_EVAL", PR.TT_EVAL)
    k[K_RAZOR_DEPTH] = o.get("RAZOR_DEPTH", PR.RAZOR_DEPTH)
    k[K_RAZOR_MARGIN] = o.get("RAZOR_MARGIN", PR.RAZOR_MARGIN)
    return k


# Per-thread search memory is one flat int64 array (``mem``) and the transposition table one
# int64 array: numba reference-counts every array a compiled function receives (an atomic
# increment and decrement per array and call), so the recursive kernel takes a few arrays,
# not a tuple of twenty. Offsets into ``mem``:
M_SCRATCH = 0  # evaluate's scratch [0:SCRATCH], SEE's [SCRATCH:SCRATCH + 64]
M_SEE = SCRATCH
M_MOVES = SCRATCH + 64  # [MAX_PLY + 1, MAX_MOVES]
M_SCORES = M_MOVES + (MAX_PLY + 1) * MAX_MOVES
M_QUIETS = M_SCORES + (MAX_PLY + 1) * MAX_MOVES  # quiet moves tried (history malus)
M_KILLERS = M_QUIETS + (MAX_PLY + 1) * MAX_MOVES  # [MAX_PLY + 1, 2]
M_HISTORY = M_KILLERS + (MAX_PLY + 1) * 2  # [2, 64, 64]
M_COUNTER = M_HISTORY + 2 * 64 * 64  # [16, 64] reply to (piece, to) of the last move
M_EVALS = M_COUNTER + 16 * 64  # [MAX_PLY + 1] static evaluation per ply (improving)
M_PV = M_EVALS + MAX_PLY + 1  # [MAX_PLY + 1, MAX_PLY + 1]
M_PVLEN = M_PV + (MAX_PLY + 1) * (MAX_PLY + 1)  # [MAX_PLY + 1]
M_EXCLUDED = M_PVLEN + MAX_PLY + 1  # [MAX_MOVES] root moves to skip (MultiPV), -1 terminated
M_STATS = M_EXCLUDED + MAX_MOVES  # [S_COUNT]
M_LMR = M_STATS + S_COUNT  # [64, MAX_MOVES]
M_FEATURES = M_LMR + 64 * MAX_MOVES  # [F_COUNT]
M_KNOBS = M_FEATURES + 16  # [K_COUNT]
M_SEXCL = M_KNOBS + 32  # [MAX_PLY + 1] the move a singular-extension search at a ply skips
M_TB = M_SEXCL + MAX_PLY + 1  # the Syzygy capture search's scratch (syzygy_kernel)
M_CORR = M_TB + TB_SCRATCH + 8  # [2, CORR_SIZE] correction history by side and pawn hash
CORR_SIZE = 16384
CORR_GRAIN = 256  # entries are centipawns times this
CORR_LIMIT = 128 * CORR_GRAIN
# continuation history: slot ply + 2 of M_CKEY holds the key (piece code * 64 + target
# square, < 1024) of the move made at ``ply`` (slots 0 and 1: the game's last two moves, set
# at the root; -1: none or a null move); M_CONT the tables [an earlier move's key, this
# move's key]
M_CKEY = M_CORR + 2 * 16384  # [MAX_PLY + 3]
M_CONT = M_CKEY + MAX_PLY + 3  # [1024, 1024]
# capture history: [the capturer's piece code * 64 + target square, the victim's type]; the
# captures tried at each ply (their malus after a cut-off)
M_CAPTHIST = M_CONT + 1024 * 1024  # [1024, 8]
M_CAPTS = M_CAPTHIST + 1024 * 8  # [MAX_PLY + 1, MAX_MOVES]
M_SIZE = M_CAPTS + (MAX_PLY + 1) * MAX_MOVES
CAPT_HIST_DIV = 8  # a capture's ordering score adds its history / this


class SearchContext(NamedTuple):
    """Per-thread search memory (``mem`` and named views into it), plus the shared
    transposition table, stop flag and Syzygy WDL tables (``syzygy_tables``; empty arrays
    when none are loaded)."""

    tt: np.ndarray  # int64[2 * entries]: key ^ data, data (lockless), clusters of 4 entries
    stop: np.ndarray  # int64[1] shared
    pst: np.ndarray  # int32[2, 16, 64]
    weights: np.ndarray  # int32[W_COUNT]
    mem: np.ndarray  # int64[M_SIZE]; the rest are views into it
    scratch: np.ndarray
    moves: np.ndarray
    killers: np.ndarray
    history: np.ndarray
    pv: np.ndarray
    pvlen: np.ndarray
    excluded: np.ndarray
    stats: np.ndarray
    lmr: np.ndarray
    features: np.ndarray
    knobs: np.ndarray
    tb: np.ndarray  # uint8: the WDL tables' index (int64) and files (syzygy_tables)


def new_tt(megabytes: float) -> np.ndarray:
    """A table of about ``megabytes`` MB: 16-byte entries (two int64) in clusters of 4, each
    cluster one 64-byte cache line."""
    entries = max(4, int(megabytes * 1024 * 1024) // 16) // 4 * 4
    raw = np.empty(2 * entries + 8, dtype=np.int64)
    raw.fill(0)  # every page written now, not faulted in by the first search's probes
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip : skip + 2 * entries]


def lmr_table(base: float = PR.LMR_BASE, divisor: float = PR.LMR_DIVISOR) -> np.ndarray:
    d = np.arange(64, dtype=np.float64)[:, None]
    m = np.arange(MAX_MOVES, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        table = base + np.log(d) * np.log(m) / divisor
    table[0, :] = 0
    table[:, 0] = 0
    return np.clip(table, 0, 63).astype(np.int64)


def new_context(tt, stop, pst, weights, knobs=None, lmr=None, tables=None) -> SearchContext:
    """A thread's search memory over the shared ``tt``, ``stop`` and ``tables``
    (``syzygy_tables.SyzygyTables``; None: no tables)."""
    from plies.chess.syzygy_tables import empty_tables

    if tables is None:
        tables = empty_tables()
    mem = np.zeros(M_SIZE, dtype=np.int64)

    def view(off, *shape):
        return mem[off : off + int(np.prod(shape))].reshape(shape)

    ctx = SearchContext(
        tt,
        stop,
        pst,
        weights,
        mem,
        view(M_SCRATCH, SCRATCH + 64),
        view(M_MOVES, MAX_PLY + 1, MAX_MOVES),
        view(M_KILLERS, MAX_PLY + 1, 2),
        view(M_HISTORY, 2, 64, 64),
        view(M_PV, MAX_PLY + 1, MAX_PLY + 1),
        view(M_PVLEN, MAX_PLY + 1),
        view(M_EXCLUDED, MAX_MOVES),
        view(M_STATS, S_COUNT),
        view(M_LMR, 64, MAX_MOVES),
        view(M_FEATURES, F_COUNT),
        view(M_KNOBS, K_COUNT),
        tables.blob,
    )
    ctx.stats[S_NODE_LIMIT] = 1 << 62
    ctx.excluded[:] = -1
    ctx.features[:] = 1
    ctx.knobs[:] = search_knobs() if knobs is None else knobs
    ctx.lmr[:] = lmr_table() if lmr is None else lmr
    return ctx


def pvs(bd, st, hist, ctx: SearchContext, alpha: int, beta: int, depth: int, ply: int) -> int:
    """The search from Python: ``pvs_kernel`` over the context's arrays."""
    return pvs_kernel(bd, st, hist, ctx.tt, ctx.pst, ctx.weights, ctx.mem, ctx.stop,
                      ctx.tb, alpha, beta, depth, ply)  # fmt: skip


# --- transposition table ----------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def score_to_tt(score: int, ply: int) -> int:
    if score > TB_BOUND:
        return score + ply
    if score < -TB_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True, inline="always")
def score_from_tt(score: int, ply: int) -> int:
    if score > TB_BOUND:
        return score - ply
    if score < -TB_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True, inline="always")
def tt_cluster(key: int, n: int) -> int:
    """First entry of the key's cluster among ``n`` entries (multiply-shift over the cluster
    count)."""
    return (((key >> 30) & 0xFFFFFFFF) * (n >> 2) >> 32) * 4


@njit(cache=True, nogil=True, inline="always")
def tt_probe(tt, key: int):
    """(found, move, score, depth, bound)."""
    base = tt_cluster(key, tt.shape[0] >> 1)
    for i in range(base, base + 4):
        data = tt[2 * i + 1]
        if data != 0 and (tt[2 * i] ^ data) == key:
            move = data & 0xFFFFF
            score = ((data >> 20) & 0xFFFF) - 32768
            depth = ((data >> 36) & 0xFF) - 1
            bound = (data >> 44) & 3
            return True, move, score, depth, bound
    return False, 0, 0, 0, 0


@njit(cache=True, nogil=True, inline="always")
def tt_store(tt, age: int, key: int, move: int, score: int, depth: int, bound: int) -> None:
    """Depth-age replacement: the same position, an empty slot, else the entry worth least
    (depth minus 8 per search of age)."""
    base = tt_cluster(key, tt.shape[0] >> 1)
    age = age & 0xFF
    victim = base
    worst = 1 << 30
    for i in range(base, base + 4):
        data = tt[2 * i + 1]
        if data == 0:
            victim = i
            break
        if (tt[2 * i] ^ data) == key:
            if move == 0:
                move = data & 0xFFFFF
            old_depth = ((data >> 36) & 0xFF) - 1
            if bound != BOUND_EXACT and depth < old_depth - 3 and ((data >> 46) & 0xFF) == age:
                return
            victim = i
            break
        old_depth = ((data >> 36) & 0xFF) - 1
        stale = (age - ((data >> 46) & 0xFF)) & 0xFF
        worth = old_depth - 8 * stale
        if worth < worst:
            worst = worth
            victim = i
    d = max(-1, min(depth, 250))
    data = (
        (move & 0xFFFFF)
        | ((score + 32768) & 0xFFFF) << 20
        | ((d + 1) & 0xFF) << 36
        | (bound & 3) << 44
        | age << 46
    )
    tt[2 * victim + 1] = data
    tt[2 * victim] = key ^ data


# --- static exchange evaluation ---------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def least_attacker(bd, st, occ: int, sq: int, side: int) -> int:
    """The square of ``side``'s least valuable piece attacking ``sq`` (-1 if none) among the
    pieces on ``occ`` (the squares still occupied in the exchange; the bitboards of ``st``
    may still hold pieces that left). Among sliders of one type, the first by direction."""
    c = side << 3
    x = PAWN_FROM[side, sq] & st[I_BB + c + PAWN] & occ
    if x != 0:
        return lsb(x)
    x = KNIGHT_BB[sq] & st[I_BB + c + KNIGHT] & occ
    if x != 0:
        return lsb(x)
    queens = st[I_BB + c + QUEEN]
    lines = (st[I_BB + c + ROOK] | queens) & LINES_BB[sq]
    diagonals = (st[I_BB + c + BISHOP] | queens) & DIAGONALS_BB[sq]
    if (lines | diagonals) & occ != 0:
        best = -1
        best_type = 99
        for d in range(8):
            blockers = RAY_BB[d, sq] & occ
            if blockers != 0:
                t = lsb(blockers) if RAY_UP[d] else msb(blockers)
                p = bd[t]
                if (p >> 3) == side:
                    pt = p & 7
                    ok = pt == QUEEN or (pt == ROOK if d < 4 else pt == BISHOP)
                    if ok and pt < best_type:
                        best_type = pt
                        best = t
        if best >= 0:
            return best
    x = KING_BB[sq] & st[I_BB + c + KING] & occ
    if x != 0:
        return lsb(x)
    return -1


@njit(cache=True, nogil=True, inline="always")
def see_at(bd, st, mv: int, buf, o: int) -> int:
    """:func:`see_occ` with the occupancy from the bitboards of ``st``."""
    return see_occ(bd, st, st[I_BB] | st[I_BB + 8], mv, buf, o)


@njit(cache=True, nogil=True, _nrt=False)
def see_occ(bd, st, occ: int, mv: int, buf, o: int) -> int:
    """Static exchange evaluation of capture ``mv``: the material the mover wins (centipawns)
    when both sides keep recapturing on the target square with their least valuable piece
    and may stop at any time. ``st``: piece bitboards, ``occ``: the occupied squares;
    ``buf[o : o + 64]`` is scratch."""
    fr = mv & 63
    to = (mv >> 6) & 63
    promo = (mv >> 12) & 7
    flag = mv >> 16
    mover = np.int64(bd[fr])
    side = mover >> 3
    nrem = 0
    if flag == FLAG_EP:
        capsq = to - 8 if side == 0 else to + 8
        buf[o + 32 + nrem] = capsq
        buf[o + 48 + nrem] = bd[capsq]
        nrem += 1
        bd[capsq] = 0
        occ &= ~(np.int64(1) << capsq)
        buf[o + 0] = SEE_VALUE[PAWN]
    else:
        buf[o + 0] = SEE_VALUE[bd[to] & 7]
    on_square = SEE_VALUE[mover & 7]
    if promo != 0:
        buf[o + 0] += SEE_VALUE[promo] - SEE_VALUE[PAWN]
        on_square = SEE_VALUE[promo]
    buf[o + 32 + nrem] = fr
    buf[o + 48 + nrem] = mover
    nrem += 1
    bd[fr] = 0
    occ &= ~(np.int64(1) << fr)
    side = 1 - side
    d = 0
    while d < 30:
        a = least_attacker(bd, st, occ, to, side)
        if a < 0:
            break
        d += 1
        buf[o + d] = on_square - buf[o + d - 1]
        piece = np.int64(bd[a])
        on_square = SEE_VALUE[piece & 7]
        if nrem < 16:
            buf[o + 32 + nrem] = a
            buf[o + 48 + nrem] = piece
            nrem += 1
        bd[a] = 0
        occ &= ~(np.int64(1) << a)
        side = 1 - side
    while d > 0:
        d -= 1
        buf[o + d] = -max(-buf[o + d], buf[o + d + 1])
    for i in range(nrem):
        bd[buf[o + 32 + i]] = buf[o + 48 + i]
    return buf[o + 0]


@njit(cache=True, nogil=True)
def see(bd, mv: int, buf) -> int:
    """``see_occ`` with the scratch ``buf[0:64]`` (int64), the bitboards made from ``bd``."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    set_bitboards(bd, st)
    return see_occ(bd, st, st[I_BB] | st[I_BB + 8], mv, buf, 0)


# --- move ordering ---------------------------------------------------------------------------

SCORE_TT = 1 << 40
SCORE_GOOD_CAPTURE = 1 << 36
SCORE_KILLER1 = 1 << 35
SCORE_KILLER2 = SCORE_KILLER1 - 1000
SCORE_COUNTER = SCORE_KILLER1 - 2000
SCORE_BAD_CAPTURE = -(1 << 36)


@njit(cache=True, nogil=True, inline="always")
def score_moves(bd, st, mem, ply: int, n: int, tt_move: int, quiet_node: bool, c1: int,
                c2: int) -> None:  # fmt: skip
    """Ordering scores: TT move, good captures (MVV-LVA, plus the capture history when
    ``CAPT_HIST`` is on; SEE checked only when the victim is worth less than the attacker),
    queen promotions, killers, history (plus the continuation
    histories at offsets ``c1`` and ``c2`` of ``mem``, each -1 for none), bad captures last."""
    us = st[I_SIDE]
    mb = M_MOVES + ply * MAX_MOVES
    sb = M_SCORES + ply * MAX_MOVES
    order = mem[M_FEATURES + F_ORDER] != 0
    k0 = mem[M_KILLERS + 2 * ply]
    k1 = mem[M_KILLERS + 2 * ply + 1]
    hb = M_HISTORY + us * 4096
    capt_hist = mem[M_KNOBS + K_CAPT_HIST] != 0 and order
    for i in range(n):
        mv = mem[mb + i]
        fr = mv & 63
        to = (mv >> 6) & 63
        promo = (mv >> 12) & 7
        victim = bd[to] & 7
        if (mv >> 16) == FLAG_EP:
            victim = PAWN
        elif (mv >> 16) == FLAG_CASTLE:
            victim = 0  # Chess960: the king's target may hold its own rook
        if mv == tt_move:
            mem[sb + i] = SCORE_TT
        elif victim != 0 or promo == QUEEN:
            attacker = bd[fr] & 7
            mvv = SEE_VALUE[victim] * 16 - attacker + SEE_VALUE[promo]
            if capt_hist:
                mvv += mem[M_CAPTHIST + (bd[fr] * 64 + to) * 8 + victim] // CAPT_HIST_DIV
            if quiet_node and SEE_VALUE[victim] < SEE_VALUE[attacker] and promo == 0:
                if see_at(bd, st, mv, mem, M_SEE) < 0:
                    mem[sb + i] = SCORE_BAD_CAPTURE + mvv
                    continue
            mem[sb + i] = SCORE_GOOD_CAPTURE + mvv
        elif promo != 0:
            mem[sb + i] = SCORE_BAD_CAPTURE - 1000 + promo
        elif not order:
            mem[sb + i] = 0
        elif mv == k0:
            mem[sb + i] = SCORE_KILLER1
        elif mv == k1:
            mem[sb + i] = SCORE_KILLER2
        else:
            v = mem[hb + fr * 64 + to]
            key = bd[fr] * 64 + to
            if c1 >= 0:
                v += mem[c1 + key]
            if c2 >= 0:
                v += mem[c2 + key]
            mem[sb + i] = v


@njit(cache=True, nogil=True, inline="always")
def pick(mem, ply: int, i: int, n: int) -> int:
    """Swap the best-scored of moves i..n-1 to i and return it."""
    mb = M_MOVES + ply * MAX_MOVES
    sb = M_SCORES + ply * MAX_MOVES
    best = i
    bs = mem[sb + i]
    for j in range(i + 1, n):
        if mem[sb + j] > bs:
            bs = mem[sb + j]
            best = j
    if best != i:
        m = mem[mb + i]
        mem[mb + i] = mem[mb + best]
        mem[mb + best] = m
        mem[sb + best] = mem[sb + i]
        mem[sb + i] = bs
    return mem[mb + i]


@njit(cache=True, nogil=True, inline="always")
def capture_list(bd, st, mem, ply: int) -> int:
    """Generate this ply's captures and promotions and score them by MVV-LVA (plus the
    promotion's value) for :func:`pick`; returns their number."""
    mb = M_MOVES + ply * MAX_MOVES
    sb = M_SCORES + ply * MAX_MOVES
    n = generate(bd, st, mem, mb, False)
    for i in range(n):
        mv = mem[mb + i]
        victim = bd[(mv >> 6) & 63] & 7
        if (mv >> 16) == FLAG_EP:
            victim = PAWN
        mem[sb + i] = SEE_VALUE[victim] * 16 - (bd[mv & 63] & 7) + SEE_VALUE[(mv >> 12) & 7]
    return n


@njit(cache=True, nogil=True, inline="always")
def make_if_legal(bd, st, hist, pst, mem, mv: int, ply: int, ksq: int, us: int) -> bool:
    """Make ``mv`` (out of check: a pin test first, make-and-test for king and en-passant
    moves) and record its continuation key; False, with nothing made, when it is illegal."""
    fr = mv & 63
    special = (bd[fr] & 7) == KING or (mv >> 16) == FLAG_EP
    if not special and not pin_ok(bd, fr, (mv >> 6) & 63, ksq, us):
        return False
    mem[M_CKEY + ply + 2] = bd[fr] * 64 + ((mv >> 6) & 63)
    make(bd, st, hist, pst, mv)
    if special and leaves_check(bd, st):
        undo(bd, st, hist)
        return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _gravity(mem, j: int, bonus: int) -> None:
    """A history entry moved by ``bonus``, bounded to +-16384 (the larger, the less it
    moves)."""
    h = mem[j]
    mem[j] = h + bonus - h * abs(bonus) // 16384


@njit(cache=True, nogil=True, inline="always")
def _history_update(mem, us: int, mv: int, bonus: int, key: int, c1: int, c2: int) -> None:
    """The butterfly history of ``mv`` and its continuation histories (``key``: the move's
    piece * 64 + target; ``c1``, ``c2``: the tables' offsets, -1 for none)."""
    _gravity(mem, M_HISTORY + us * 4096 + (mv & 63) * 64 + ((mv >> 6) & 63), bonus)
    if c1 >= 0:
        _gravity(mem, c1 + key, bonus)
    if c2 >= 0:
        _gravity(mem, c2 + key, bonus)


@njit(cache=True, nogil=True, inline="always")
def capture_key(bd, mv: int) -> int:
    """The capture history's entry of capture ``mv`` (the capturer's piece code and target
    square, the victim's type; en passant takes a pawn)."""
    to = (mv >> 6) & 63
    victim = PAWN if (mv >> 16) == FLAG_EP else bd[to] & 7
    return M_CAPTHIST + (bd[mv & 63] * 64 + to) * 8 + victim


@njit(cache=True, nogil=True, inline="always")
def non_pawn_material(st, side: int) -> int:
    b = I_CNT + (side << 3)
    return st[b + KNIGHT] + st[b + BISHOP] + 2 * st[b + ROOK] + 4 * st[b + QUEEN]


@njit(cache=True, nogil=True, inline="always")
def may_give_check(bd, mv: int, ek: int) -> bool:
    """Cheap filter: the moved piece lands on a square from which it could attack ``ek`` (a
    line or a knight / pawn pattern; the line is checked for blockers after the move), or it
    leaves a line through the enemy king (a discovered check)."""
    fr = mv & 63
    to = (mv >> 6) & 63
    t = bd[fr] & 7
    df = abs((to & 7) - (ek & 7))
    dr = abs((to >> 3) - (ek >> 3))
    if t == KNIGHT:
        if (df == 1 and dr == 2) or (df == 2 and dr == 1):
            return True
    elif t == PAWN:
        if df == 1 and ((ek >> 3) - (to >> 3)) == (1 if (bd[fr] >> 3) == 0 else -1):
            return True
    elif t != KING:
        line = df == 0 or dr == 0
        diag = df == dr
        if (line and t != BISHOP) or (diag and t != ROOK):
            return True
    ff = abs((fr & 7) - (ek & 7))
    fr_r = abs((fr >> 3) - (ek >> 3))
    return ff == 0 or fr_r == 0 or ff == fr_r


# --- correction history --------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def corr_index(st, us: int) -> int:
    """The correction-history entry of the side to move and the pawn structure."""
    wp = st[I_BB + PAWN]
    bp = st[I_BB + 8 + PAWN]
    h = wp * np.int64(-7046029254386353131) ^ bp * np.int64(-4417276706812531889)
    return M_CORR + us * CORR_SIZE + ((h >> 40) & (CORR_SIZE - 1))


@njit(cache=True, nogil=True, inline="always")
def corrected(mem, st, us: int, raw: int) -> int:
    """``raw`` plus the correction history's mean error for this pawn structure."""
    return raw + mem[corr_index(st, us)] // CORR_GRAIN


# --- the search --------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def pvs_kernel(bd, st, hist, tt, pst, w, mem, stop, tb, alpha: int, beta: int,
               depth: int, ply: int) -> int:  # fmt: skip
    """Negamax PVS value of the position for the side to move, within (alpha, beta)."""
    if st[I_BB_OK] == 0:
        set_bitboards(bd, st)
    mem[M_PVLEN + ply] = 0
    if stop[0] != 0:
        return 0
    nodes = mem[M_STATS + S_NODES] + 1
    mem[M_STATS + S_NODES] = nodes
    if nodes >= mem[M_STATS + S_NODE_LIMIT]:
        stop[0] = 1
    if ply > mem[M_STATS + S_SELDEPTH]:
        mem[M_STATS + S_SELDEPTH] = ply
    us = st[I_SIDE]
    pv_node = beta - alpha > 1
    checked = in_check_fast(bd, st, hist)
    ksq = st[I_KSQ + us]
    if ply > 0:
        if st[I_HALF] >= 100 or is_repetition(st, hist) or insufficient_material(st):
            return 0
        if mem[M_FEATURES + F_MDP]:
            if alpha < -MATE + ply:
                alpha = -MATE + ply
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
        if ply >= MAX_PLY - 1:
            return evaluate(bd, st, w, mem)
    # in check inside quiescence (after a quiet check or a checking capture): all evasions,
    # answered by quiescence without checks (depth -1), so check sequences cannot chain
    qs_evasion = checked and depth < 0
    if checked and mem[M_FEATURES + F_CHECKEXT] and not qs_evasion:
        depth += 1

    # --- quiescence ------------------------------------------------------------------------
    if depth <= 0 and not checked:
        stand = evaluate(bd, st, w, mem)
        if mem[M_KNOBS + K_CORR_HIST] != 0:
            stand = corrected(mem, st, us, stand)
        if mem[M_FEATURES + F_QS] == 0 or stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        mb = M_MOVES + ply * MAX_MOVES
        # stage 0: captures and queen promotions by MVV-LVA; stage 1, at the first quiescence
        # ply of a null-move search only: quiet moves that give check (SEE >= 0), so that the
        # threat the null move is testing for, a quiet mate, is seen: the null move then fails
        # low and the node is searched instead of cut off (WAC.001)
        for stage in range(2):
            if stage == 0:
                n = capture_list(bd, st, mem, ply)
            else:
                if (
                    depth != 0
                    or mem[M_FEATURES + F_QCHECKS] == 0
                    or st[I_HPLY] == 0
                    or hist[st[I_HPLY] - 1, H_MOVE] != 0
                ):
                    break
                n = generate(bd, st, mem, mb, True)
            ek = st[I_KSQ + 1 - us]
            for i in range(n):
                if stage == 0:
                    mv = pick(mem, ply, i, n)
                    if mem[M_FEATURES + F_QSP]:
                        promo = (mv >> 12) & 7
                        victim = bd[(mv >> 6) & 63] & 7
                        if (mv >> 16) == FLAG_EP:
                            victim = PAWN
                        gain = SEE_VALUE[victim] + (SEE_VALUE[promo] - 100 if promo else 0)
                        if stand + gain + mem[M_KNOBS + K_DELTA] <= alpha:
                            continue  # delta pruning
                        if SEE_VALUE[victim] < SEE_VALUE[bd[mv & 63] & 7] and promo == 0:
                            if see_at(bd, st, mv, mem, M_SEE) < 0:
                                continue
                else:
                    mv = mem[mb + i]
                    if bd[(mv >> 6) & 63] != 0 or ((mv >> 12) & 7) != 0:
                        continue  # captures and promotions were searched in stage 0
                    flag = mv >> 16
                    if flag == FLAG_EP or flag == FLAG_CASTLE or not may_give_check(bd, mv, ek):
                        continue
                    if see_at(bd, st, mv, mem, M_SEE) < 0:
                        continue
                # the shared tail: legality, the move searched by quiescence, the bounds
                if not make_if_legal(bd, st, hist, pst, mem, mv, ply, ksq, us):
                    continue
                if stage == 1 and not gives_check(bd, st, mv):
                    undo(bd, st, hist)
                    continue
                score = -pvs_kernel(
                    bd,
                    st,
                    hist,
                    tt,
                    pst,
                    w,
                    mem,
                    stop,
                    tb,
                    -beta,
                    -alpha,
                    np.int64(-1),
                    ply + 1,
                )
                undo(bd, st, hist)
                if stop[0] != 0:
                    return 0
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            return best
        return best

    if depth < 1:
        depth = np.int64(1)
    if ply == 0:
        mem[M_STATS + S_ROOT_DEPTH] = depth
        # the continuation keys of the game's last move (the one before it: none)
        mem[M_CKEY + 0] = -1
        mem[M_CKEY + 1] = -1
        if st[I_HPLY] > 0:
            lm = hist[st[I_HPLY] - 1, H_MOVE]
            if lm > 0 and bd[(lm >> 6) & 63] != 0:
                mem[M_CKEY + 1] = bd[(lm >> 6) & 63] * 64 + ((lm >> 6) & 63)
    # a singular-extension search of this node: the same node without the move ``excl``
    excl = mem[M_SEXCL + ply]
    key = st[I_HASH]
    tt_move = 0
    found = False
    tscore = 0
    tdepth = 0
    tbound = 0
    if mem[M_FEATURES + F_TT]:
        found, tmove, tscore, tdepth, tbound = tt_probe(tt, key)
        if found:
            tt_move = tmove
            tscore = score_from_tt(tscore, ply)
            if not pv_node and tdepth >= depth and ply > 0 and excl == 0:
                if tbound == BOUND_EXACT:
                    return tscore
                if tbound == BOUND_LOWER and tscore >= beta:
                    return tscore
                if tbound == BOUND_UPPER and tscore <= alpha:
                    return tscore

    # Syzygy WDL (exact: the probe resolves captures) just after a capture or pawn move, as
    # Stockfish does; no castling rights and no en-passant square (not in the tables). A win
    # is TB_WIN - ply, a lower bound (a mate may be better); cursed wins and blessed losses
    # are draws (the 50-move rule). With no tables loaded only the first test runs.
    tb_floor = -INF
    tb_cap = INF
    if (
        tb[TB_MAXPC_BYTE] != 0
        and st[I_HALF] == 0
        and ply > 0
        and excl == 0
        and st[I_CASTLE] == 0
        and st[I_EP] < 0
        and depth >= mem[M_KNOBS + K_TB_DEPTH]
        and mem[M_FEATURES + F_TB] != 0
        and popcount(st[I_BB] | st[I_BB + 8]) <= tb[TB_MAXPC_BYTE]
    ):
        v = probe_wdl(tb, bd, st, hist, pst, mem, M_TB)
        if v == -2 and checked and not has_legal_move(bd, st, hist, pst, mem, M_TB):
            return -MATE + ply  # a table loss in check may be mate: scored as the mate
        if v != TB_FAIL:
            mem[M_STATS + S_TBHITS] += 1
            if v == 2:
                tbs = TB_WIN - ply
                tbb = BOUND_LOWER
            elif v == -2:
                tbs = -TB_WIN + ply
                tbb = BOUND_UPPER
            else:
                tbs = 0
                tbb = BOUND_EXACT
            if (
                tbb == BOUND_EXACT
                or (tbb == BOUND_LOWER and tbs >= beta)
                or (tbb == BOUND_UPPER and tbs <= alpha)
            ):
                if mem[M_FEATURES + F_TT]:
                    tt_store(tt, mem[M_STATS + S_AGE], key, 0, score_to_tt(tbs, ply),
                             min(depth + 6, MAX_PLY - 1), tbb)  # fmt: skip
                return tbs
            # a PV node searches on, within the table's bound
            if tbb == BOUND_LOWER:
                tb_floor = tbs
            else:
                tb_cap = tbs

    corr_on = mem[M_KNOBS + K_CORR_HIST] != 0
    raw = 0
    if checked:
        static = -INF
    else:
        raw = evaluate(bd, st, w, mem)
        static = corrected(mem, st, us, raw) if corr_on else raw
    mem[M_EVALS + ply] = static
    improving = (not checked) and ply >= 2 and static > mem[M_EVALS + ply - 2]
    # the value the pruning below compares: the static value, or (TT_EVAL) the table's score
    # where its bound says the static value is too low or too high ("improving" and the
    # correction history keep the static value)
    prune_eval = static
    if (
        mem[M_KNOBS + K_TT_EVAL] != 0
        and found
        and not checked
        and excl == 0
        and abs(tscore) < TB_WIN - 1000
    ):
        if ((tbound & BOUND_LOWER) != 0 and tscore > static) or (
            (tbound & BOUND_UPPER) != 0 and tscore < static
        ):
            prune_eval = tscore
    h = st[I_HPLY]
    last_move = hist[h - 1, H_MOVE] if h > 0 else -1

    if not pv_node and not checked and ply > 0 and excl == 0:
        # reverse futility pruning
        if (
            mem[M_FEATURES + F_FUT]
            and depth <= mem[M_KNOBS + K_RFP_DEPTH]
            and abs(beta) < MATE_BOUND
            and prune_eval - mem[M_KNOBS + K_RFP_MARGIN] * (depth - (1 if improving else 0)) >= beta
        ):
            return prune_eval
        # razoring: far below alpha near the leaves, quiescence decides; its fail-low is
        # trusted unless it is a mate or table score. Not just after a capture: a side down
        # a piece it has just given up may be mating (a sacrifice that quiescence cannot see)
        if (
            depth <= mem[M_KNOBS + K_RAZOR_DEPTH]
            and abs(alpha) < TB_WIN - 1000
            and (h == 0 or hist[h - 1, H_CAPT] == 0)
            and prune_eval + mem[M_KNOBS + K_RAZOR_MARGIN] * depth < alpha
        ):
            v = pvs_kernel(
                bd, st, hist, tt, pst, w, mem, stop, tb, alpha, alpha + 1, np.int64(0), ply
            )
            if stop[0] != 0:
                return 0
            if v <= alpha and abs(v) < TB_WIN - 1000:
                return v
        # null move
        if (
            mem[M_FEATURES + F_NULL]
            and depth >= mem[M_KNOBS + K_NULL_MIN_DEPTH]
            and prune_eval >= beta
            and last_move != 0
            and ply >= mem[M_STATS + S_NMP_MIN_PLY]
            and non_pawn_material(st, us) > 0
            and abs(beta) < MATE_BOUND
        ):
            r = 3 + depth // 4 + min(3, (prune_eval - beta) // 200)
            mem[M_CKEY + ply + 2] = -1
            make_null(st, hist)
            # at least depth 0: the first quiescence ply, where the quiet checks are
            null_depth = max(np.int64(0), depth - 1 - r)
            score = -pvs_kernel(
                bd, st, hist, tt, pst, w, mem, stop, tb, -beta, -beta + 1, null_depth, ply + 1
            )
            undo_null(st, hist)
            if stop[0] != 0:
                return 0
            if score >= beta:
                if score >= MATE_BOUND:
                    score = beta
                zugzwang_prone = non_pawn_material(st, us) <= 2
                if not zugzwang_prone and depth < mem[M_KNOBS + K_NULL_VERIFY_DEPTH]:
                    return score
                # verification: the same reduced search without null moves below this ply
                saved = mem[M_STATS + S_NMP_MIN_PLY]
                mem[M_STATS + S_NMP_MIN_PLY] = ply + 3 * (depth - r) // 4 + 1
                v = pvs_kernel(
                    bd, st, hist, tt, pst, w, mem, stop, tb, beta - 1, beta, depth - r, ply
                )
                mem[M_STATS + S_NMP_MIN_PLY] = saved
                if stop[0] != 0:
                    return 0
                if v >= beta:
                    return score

    # ProbCut: a capture that holds a beta raised by a margin in a shallower search (after
    # quiescence agrees) makes this node very likely to fail high at full depth: cut it. The
    # table can say it will not (a score below the raised beta from nearly this depth).
    pc_depth = mem[M_KNOBS + K_PROBCUT_DEPTH]
    rbeta = beta + mem[M_KNOBS + K_PROBCUT_MARGIN]
    if (
        pc_depth > 0
        and depth >= pc_depth
        and not pv_node
        and not checked
        and ply > 0
        and excl == 0
        and abs(beta) < MATE_BOUND
        and rbeta < MATE_BOUND
        and not (found and tdepth >= depth - 3 and tscore < rbeta)
    ):
        n = capture_list(bd, st, mem, ply)
        for i in range(n):
            mv = pick(mem, ply, i, n)
            if (mv >> 12) & 7 != 0 and (mv >> 12) & 7 != QUEEN:
                continue  # under-promotions
            if see_at(bd, st, mv, mem, M_SEE) < rbeta - prune_eval:
                continue
            if not make_if_legal(bd, st, hist, pst, mem, mv, ply, ksq, us):
                continue
            v = -pvs_kernel(bd, st, hist, tt, pst, w, mem, stop, tb, -rbeta, -rbeta + 1,
                            np.int64(0), ply + 1)  # fmt: skip
            if v >= rbeta and depth - 4 > 0:
                v = -pvs_kernel(bd, st, hist, tt, pst, w, mem, stop, tb, -rbeta, -rbeta + 1,
                                depth - 4, ply + 1)  # fmt: skip
            undo(bd, st, hist)
            if stop[0] != 0:
                return 0
            if v >= rbeta:
                if mem[M_FEATURES + F_TT]:
                    tt_store(tt, mem[M_STATS + S_AGE], key, mv, score_to_tt(v, ply),
                             depth - 3, BOUND_LOWER)  # fmt: skip
                return v

    # singular extension: the TT move (a lower bound from nearly this depth) is extended
    # when every other move fails low against a margin below its score in a search of half
    # the depth; when even that search fails high above beta, the node is cut (multi-cut).
    # It runs before this node's moves are generated (it uses this ply's move list too).
    singular = False
    if (
        found
        and tt_move != 0
        and excl == 0
        and ply > 0
        and mem[M_KNOBS + K_SE_DEPTH] > 0
        and depth >= mem[M_KNOBS + K_SE_DEPTH]
        and (tbound & BOUND_LOWER) != 0
        and tdepth >= depth - 3
        and abs(tscore) < MATE_BOUND
        and ply < 2 * mem[M_STATS + S_ROOT_DEPTH]
    ):
        sbeta = tscore - mem[M_KNOBS + K_SE_MARGIN] * depth
        mem[M_SEXCL + ply] = tt_move
        v = pvs_kernel(bd, st, hist, tt, pst, w, mem, stop, tb, sbeta - 1, sbeta,
                       (depth - 1) // 2, ply)  # fmt: skip
        mem[M_SEXCL + ply] = 0
        mem[M_EVALS + ply] = static
        if stop[0] != 0:
            return 0
        if v < sbeta:
            singular = True
        elif sbeta >= beta and not pv_node:
            return sbeta

    # internal iterative reduction: no TT move at a deep node
    if mem[M_FEATURES + F_TT] and tt_move == 0 and depth >= 5 and ply > 0:
        depth -= 1

    # the continuation histories after the previous move and the one before it
    c1 = -1
    c2 = -1
    if mem[M_KNOBS + K_CONT_HIST] != 0 and mem[M_FEATURES + F_ORDER] != 0:
        if mem[M_CKEY + ply + 1] >= 0:
            c1 = M_CONT + mem[M_CKEY + ply + 1] * 1024
        if mem[M_CKEY + ply] >= 0:
            c2 = M_CONT + mem[M_CKEY + ply] * 1024
    n = generate(bd, st, mem, M_MOVES + ply * MAX_MOVES, True)
    score_moves(bd, st, mem, ply, n, tt_move, True, c1, c2)
    counter_move = 0
    if last_move > 0 and mem[M_FEATURES + F_ORDER]:
        lto = (last_move >> 6) & 63
        counter_move = mem[M_COUNTER + bd[lto] * 64 + lto]
        if counter_move != 0:
            for i in range(n):
                if (
                    mem[M_MOVES + ply * MAX_MOVES + i] == counter_move
                    and mem[M_SCORES + ply * MAX_MOVES + i] < SCORE_COUNTER
                ):
                    if mem[M_SCORES + ply * MAX_MOVES + i] > SCORE_BAD_CAPTURE // 2:
                        mem[M_SCORES + ply * MAX_MOVES + i] = SCORE_COUNTER
    if excl != 0:
        # a singular-extension search: this node without the move ``excl``
        k = 0
        for i in range(n):
            mv = mem[M_MOVES + ply * MAX_MOVES + i]
            if mv != excl:
                mem[M_MOVES + ply * MAX_MOVES + k] = mv
                mem[M_SCORES + ply * MAX_MOVES + k] = mem[M_SCORES + ply * MAX_MOVES + i]
                k += 1
        n = k
    if ply == 0:
        # root: drop excluded moves (MultiPV lines already found)
        k = 0
        for i in range(n):
            mv = mem[M_MOVES + 0 * MAX_MOVES + i]
            skip = False
            for j in range(MAX_MOVES):
                e = mem[M_EXCLUDED + j]
                if e < 0:
                    break
                if e == mv:
                    skip = True
                    break
            if not skip:
                mem[M_MOVES + 0 * MAX_MOVES + k] = mv
                mem[M_SCORES + 0 * MAX_MOVES + k] = mem[M_SCORES + 0 * MAX_MOVES + i]
                k += 1
        n = k

    best = tb_floor
    best_move = 0
    legal = 0
    nquiet = 0
    ncapt = 0
    old_alpha = alpha
    if tb_floor > alpha:
        alpha = tb_floor  # only moves better than the table's win count
    fut_base = prune_eval + mem[M_KNOBS + K_FUT_MARGIN] + mem[M_KNOBS + K_FUT_PER_PLY] * depth
    lmp_limit = 3 + depth * depth
    if not improving:
        lmp_limit = lmp_limit // 2 + 1
    for i in range(n):
        mv = pick(mem, ply, i, n)
        fr = mv & 63
        to = (mv >> 6) & 63
        promo = (mv >> 12) & 7
        flag = mv >> 16
        capture = (bd[to] != 0 and flag != FLAG_CASTLE) or flag == FLAG_EP
        quiet = not capture and promo == 0
        # legality: pins for ordinary moves (before make), make + leaves_check for king
        # moves, en passant and check evasions
        special = checked or (bd[fr] & 7) == KING or flag == FLAG_EP
        if not special and not pin_ok(bd, fr, to, ksq, us):
            continue
        # quiet moves that cannot give check (the cheap pre-move filter) are pruned unmade
        may_prune = ply > 0 and not pv_node and not checked and legal >= 1 and best > -MATE_BOUND
        prunable = quiet and may_prune
        if prunable and not special and not quiet_gives_check(bd, mv, st[I_KSQ + 1 - us]):
            if (
                mem[M_FEATURES + F_LMP]
                and depth <= mem[M_KNOBS + K_LMP_DEPTH]
                and legal + 1 > lmp_limit
            ):
                legal += 1
                continue
            if (
                mem[M_FEATURES + F_FUT]
                and depth <= mem[M_KNOBS + K_FUT_DEPTH]
                and fut_base <= alpha
            ):
                legal += 1
                continue
            if (
                depth <= mem[M_KNOBS + K_HIST_DEPTH]
                and mem[M_HISTORY + us * 4096 + fr * 64 + to]
                < -mem[M_KNOBS + K_HIST_MARGIN] * depth
                and mv != mem[M_KILLERS + 2 * ply + 0]
                and mv != mem[M_KILLERS + 2 * ply + 1]
            ):
                legal += 1
                continue
            # a quiet move that loses more material than its depth allows
            if (
                mem[M_FEATURES + F_SEEP]
                and depth <= mem[M_KNOBS + K_SEE_DEPTH]
                and see_at(bd, st, mv, mem, M_SEE) < -mem[M_KNOBS + K_SEE_QUIET] * depth * depth
            ):
                legal += 1
                continue
        # a capture that loses more material than its depth allows (SEE; a victim worth at
        # least the capturer cannot lose material)
        if (
            mem[M_FEATURES + F_SEEP]
            and capture
            and may_prune
            and not special
            and promo == 0
            and depth <= mem[M_KNOBS + K_SEE_DEPTH]
            and SEE_VALUE[bd[to] & 7] < SEE_VALUE[bd[fr] & 7]
            and see_at(bd, st, mv, mem, M_SEE) < -mem[M_KNOBS + K_SEE_CAPTURE] * depth
        ):
            legal += 1
            continue
        mkey = bd[fr] * 64 + to
        make(bd, st, hist, pst, mv)
        if special and leaves_check(bd, st):
            undo(bd, st, hist)
            continue
        mem[M_CKEY + ply + 2] = mkey
        legal += 1
        if ply == 0:
            mem[M_STATS + S_ROOT_MOVES] = legal
        # only the pruning and reduction of quiet moves after the first look at it
        checks = quiet and not checked and legal > 1 and gives_check(bd, st, mv)
        if prunable and not checks:
            if (
                mem[M_FEATURES + F_LMP]
                and depth <= mem[M_KNOBS + K_LMP_DEPTH]
                and legal > lmp_limit
            ):
                undo(bd, st, hist)
                continue
            if (
                mem[M_FEATURES + F_FUT]
                and depth <= mem[M_KNOBS + K_FUT_DEPTH]
                and fut_base <= alpha
            ):
                undo(bd, st, hist)
                continue
        new_depth = depth - 1
        if qs_evasion:
            new_depth = np.int64(-1)
        elif singular and mv == tt_move:
            new_depth = depth
        if legal == 1:
            score = -pvs_kernel(
                bd, st, hist, tt, pst, w, mem, stop, tb, -beta, -alpha, new_depth, ply + 1
            )
        else:
            r = 0
            if mem[M_FEATURES + F_LMR] and depth >= 3 and quiet and not checked:
                r = mem[M_LMR + min(depth, 63) * MAX_MOVES + min(legal, MAX_MOVES - 1)]
                if pv_node:
                    r -= 1
                if not improving:
                    r += 1
                if checks:
                    r -= 1
                if mv == mem[M_KILLERS + 2 * ply + 0] or mv == mem[M_KILLERS + 2 * ply + 1]:
                    r -= 1
                hv = mem[M_HISTORY + us * 4096 + fr * 64 + to]
                if c1 >= 0:
                    hv += mem[c1 + mkey]
                if c2 >= 0:
                    hv += mem[c2 + mkey]
                r -= hv // mem[M_KNOBS + K_LMR_HIST_DIV]
                if r > new_depth - 1:
                    r = new_depth - 1
                if r < 0:
                    r = 0
            score = -pvs_kernel(
                bd,
                st,
                hist,
                tt,
                pst,
                w,
                mem,
                stop,
                tb,
                -alpha - 1,
                -alpha,
                new_depth - r,
                ply + 1,
            )
            if score > alpha and r > 0:
                score = -pvs_kernel(
                    bd,
                    st,
                    hist,
                    tt,
                    pst,
                    w,
                    mem,
                    stop,
                    tb,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                )
            if score > alpha and score < beta:
                score = -pvs_kernel(
                    bd, st, hist, tt, pst, w, mem, stop, tb, -beta, -alpha, new_depth, ply + 1
                )
        undo(bd, st, hist)
        if stop[0] != 0:
            return 0
        if quiet and nquiet < MAX_MOVES:
            mem[M_QUIETS + ply * MAX_MOVES + nquiet] = mv
            nquiet += 1
        elif capture and ncapt < MAX_MOVES:
            mem[M_CAPTS + ply * MAX_MOVES + ncapt] = mv
            ncapt += 1
        if score > best:
            best = score
            if score > alpha:
                best_move = mv
                alpha = score
                mem[M_PV + ply * (MAX_PLY + 1)] = mv
                cl = mem[M_PVLEN + ply + 1]
                for j in range(cl):
                    mem[M_PV + ply * (MAX_PLY + 1) + j + 1] = mem[
                        M_PV + (ply + 1) * (MAX_PLY + 1) + j
                    ]
                mem[M_PVLEN + ply] = cl + 1
                if ply == 0:
                    mem[M_STATS + S_ROOT_BEST] = mv
                    mem[M_STATS + S_ROOT_SCORE] = score
                if score >= beta:
                    break
        if ply == 0:
            mem[M_STATS + S_ROOT_DONE] += 1
            if best_move == 0 and mem[M_STATS + S_ROOT_BEST] == 0:
                mem[M_STATS + S_ROOT_BEST] = mv
                mem[M_STATS + S_ROOT_SCORE] = score

    if legal == 0:
        if excl != 0:
            return alpha  # the excluded move is the only one: singular
        return -MATE + ply if checked else 0
    if best > tb_cap:
        best = tb_cap

    if best_move != 0 and best >= beta and mem[M_FEATURES + F_ORDER]:
        bflag = best_move >> 16
        capture = (bd[(best_move >> 6) & 63] != 0 and bflag != FLAG_CASTLE) or bflag == FLAG_EP
        if mem[M_KNOBS + K_CAPT_HIST] != 0:
            # capture history: the cut-off capture up, the captures tried before it down (all
            # of them after a quiet cut-off)
            bonus = min(depth * depth * 8, 1600)
            for j in range(ncapt):
                q = mem[M_CAPTS + ply * MAX_MOVES + j]
                _gravity(mem, capture_key(bd, q), bonus if q == best_move else -bonus)
        if not capture and ((best_move >> 12) & 7) == 0:
            if mem[M_KILLERS + 2 * ply + 0] != best_move:
                mem[M_KILLERS + 2 * ply + 1] = mem[M_KILLERS + 2 * ply + 0]
                mem[M_KILLERS + 2 * ply + 0] = best_move
            bonus = min(depth * depth * 8, 1600)
            bkey = bd[best_move & 63] * 64 + ((best_move >> 6) & 63)
            _history_update(mem, us, best_move, bonus, bkey, c1, c2)
            for j in range(nquiet):
                q = mem[M_QUIETS + ply * MAX_MOVES + j]
                if q != best_move:
                    qkey = bd[q & 63] * 64 + ((q >> 6) & 63)
                    _history_update(mem, us, q, -bonus, qkey, c1, c2)
            if last_move > 0:
                lto = (last_move >> 6) & 63
                mem[M_COUNTER + bd[lto] * 64 + lto] = best_move

    if mem[M_FEATURES + F_TT] and excl == 0:
        if best >= beta:
            bound = BOUND_LOWER
        elif best > old_alpha:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        # correction history: the search's error of the static evaluation (not in check, the
        # best move quiet, the bound on the side that says something, no mate or table score)
        if corr_on and not checked and not qs_evasion and abs(best) < TB_BOUND:
            bflag = best_move >> 16
            quiet_best = best_move == 0 or (
                (bd[(best_move >> 6) & 63] == 0 or bflag == FLAG_CASTLE)
                and ((best_move >> 12) & 7) == 0
                and bflag != FLAG_EP
            )
            if (
                quiet_best
                and not (bound == BOUND_LOWER and best <= static)
                and not (bound == BOUND_UPPER and best >= static)
            ):
                j = corr_index(st, us)
                weight = min(depth + 1, 16)
                v = (mem[j] * (256 - weight) + (best - raw) * CORR_GRAIN * weight) // 256
                mem[j] = max(-CORR_LIMIT, min(CORR_LIMIT, v))
        tt_store(
            tt,
            mem[M_STATS + S_AGE],
            key,
            best_move,
            score_to_tt(best, ply),
            0 if qs_evasion else depth,
            bound,
        )
    return best
