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
with late-move pruning, futility pruning and late-move reductions from a table. Quiescence:
stand pat, captures and queen promotions by MVV-LVA, losing captures (SEE < 0) and hopeless
ones (delta pruning) skipped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from plies.chess.engine import params as PR
from plies.chess.engine.board import (
    BISHOP,
    FLAG_CASTLE,
    FLAG_EP,
    H_MOVE,
    I_CNT,
    I_HALF,
    I_HASH,
    I_HPLY,
    I_KSQ,
    I_SIDE,
    KING,
    KING_TO,
    KNIGHT,
    KNIGHT_TO,
    MAX_MOVES,
    PAWN,
    QUEEN,
    RAYS,
    ROOK,
    attacked,
    generate,
    insufficient_material,
    is_repetition,
    leaves_check,
    make,
    make_null,
    undo,
    undo_null,
)
from plies.chess.engine.evaluate import SCRATCH, evaluate

MATE = 32000
MATE_BOUND = MATE - 1000  # scores beyond are mates in so many plies
INF = 32001
MAX_PLY = 120

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
)
F_TT, F_NULL, F_LMR, F_FUT, F_LMP, F_QS, F_QSP, F_CHECKEXT, F_ORDER, F_MDP = range(10)
F_QCHECKS = 10
F_COUNT = 11

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
K_COUNT = 12


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
    return k


class SearchContext(NamedTuple):
    """Per-thread search memory, plus the shared transposition table and stop flag."""

    tt_keys: np.ndarray  # int64[n]: key ^ data (lockless)
    tt_data: np.ndarray  # int64[n]: packed entry
    pst: np.ndarray  # int32[2, 16, 64]
    weights: np.ndarray  # int32[W_COUNT]
    knobs: np.ndarray  # int64[K_COUNT]
    scratch: np.ndarray  # int64[SCRATCH + 64]
    moves: np.ndarray  # int64[MAX_PLY, MAX_MOVES]
    scores: np.ndarray  # int64[MAX_PLY, MAX_MOVES]
    quiets: np.ndarray  # int64[MAX_PLY, MAX_MOVES] quiet moves tried (history malus)
    killers: np.ndarray  # int64[MAX_PLY, 2]
    history: np.ndarray  # int64[2, 64, 64]
    counter: np.ndarray  # int64[16, 64] reply to (piece, to) of the last move
    evals: np.ndarray  # int64[MAX_PLY] static evaluation per ply (improving)
    pv: np.ndarray  # int64[MAX_PLY, MAX_PLY]
    pvlen: np.ndarray  # int64[MAX_PLY]
    excluded: np.ndarray  # int64[MAX_MOVES] root moves to skip (MultiPV), -1 terminated
    stats: np.ndarray  # int64[S_COUNT]
    stop: np.ndarray  # int64[1] shared
    lmr: np.ndarray  # int64[64, MAX_MOVES]
    features: np.ndarray  # int64[F_COUNT]


def new_tt(megabytes: float) -> tuple[np.ndarray, np.ndarray]:
    """A table of about ``megabytes`` MB: 16-byte entries in clusters of 4."""
    entries = max(4, int(megabytes * 1024 * 1024) // 16) // 4 * 4
    return np.zeros(entries, dtype=np.int64), np.zeros(entries, dtype=np.int64)


def lmr_table(base: float = PR.LMR_BASE, divisor: float = PR.LMR_DIVISOR) -> np.ndarray:
    d = np.arange(64, dtype=np.float64)[:, None]
    m = np.arange(MAX_MOVES, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        table = base + np.log(d) * np.log(m) / divisor
    table[0, :] = 0
    table[:, 0] = 0
    return np.clip(table, 0, 63).astype(np.int64)


def new_context(tt, stop, pst, weights, knobs=None, lmr=None) -> SearchContext:
    stats = np.zeros(S_COUNT, dtype=np.int64)
    stats[S_NODE_LIMIT] = 1 << 62
    return SearchContext(
        tt[0],
        tt[1],
        pst,
        weights,
        search_knobs() if knobs is None else knobs,
        np.zeros(SCRATCH + 64, dtype=np.int64),
        np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY + 1, 2), dtype=np.int64),
        np.zeros((2, 64, 64), dtype=np.int64),
        np.zeros((16, 64), dtype=np.int64),
        np.zeros(MAX_PLY + 1, dtype=np.int64),
        np.zeros((MAX_PLY + 1, MAX_PLY + 1), dtype=np.int64),
        np.zeros(MAX_PLY + 1, dtype=np.int64),
        np.full(MAX_MOVES, -1, dtype=np.int64),
        stats,
        stop,
        lmr_table() if lmr is None else lmr,
        np.ones(F_COUNT, dtype=np.int64),
    )


# --- transposition table ----------------------------------------------------------------------


@njit(cache=True, nogil=True)
def score_to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True)
def score_from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True)
def tt_cluster(key: int, n: int) -> int:
    """First entry of the key's cluster (multiply-shift over the cluster count)."""
    return (((key >> 30) & 0xFFFFFFFF) * (n >> 2) >> 32) * 4


@njit(cache=True, nogil=True)
def tt_probe(ctx, key: int):
    """(found, move, score, depth, bound)."""
    base = tt_cluster(key, ctx.tt_keys.shape[0])
    for i in range(base, base + 4):
        data = ctx.tt_data[i]
        if data != 0 and (ctx.tt_keys[i] ^ data) == key:
            move = data & 0xFFFFF
            score = ((data >> 20) & 0xFFFF) - 32768
            depth = ((data >> 36) & 0xFF) - 1
            bound = (data >> 44) & 3
            return True, move, score, depth, bound
    return False, 0, 0, 0, 0


@njit(cache=True, nogil=True)
def tt_store(ctx, key: int, move: int, score: int, depth: int, bound: int) -> None:
    """Depth-age replacement: the same position, an empty slot, else the entry worth least
    (depth minus 8 per search of age)."""
    base = tt_cluster(key, ctx.tt_keys.shape[0])
    age = ctx.stats[S_AGE] & 0xFF
    victim = base
    worst = 1 << 30
    for i in range(base, base + 4):
        data = ctx.tt_data[i]
        if data == 0:
            victim = i
            break
        if (ctx.tt_keys[i] ^ data) == key:
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
    ctx.tt_data[victim] = data
    ctx.tt_keys[victim] = key ^ data


# --- static exchange evaluation ---------------------------------------------------------------


@njit(cache=True, nogil=True)
def least_attacker(bd, sq: int, side: int) -> int:
    """The square of ``side``'s least valuable piece attacking ``sq`` (-1 if none)."""
    f = sq & 7
    if side == 0:
        if f > 0 and sq >= 9 and bd[sq - 9] == PAWN:
            return sq - 9
        if f < 7 and sq >= 7 and bd[sq - 7] == PAWN:
            return sq - 7
    else:
        if f > 0 and sq <= 56 and bd[sq + 7] == (PAWN | 8):
            return sq + 7
        if f < 7 and sq <= 54 and bd[sq + 9] == (PAWN | 8):
            return sq + 9
    c = side << 3
    for k in range(8):
        t = KNIGHT_TO[sq, k]
        if t < 0:
            break
        if bd[t] == (KNIGHT | c):
            return t
    best = -1
    best_type = 99
    for d in range(8):
        for k in range(7):
            t = RAYS[sq, d, k]
            if t < 0:
                break
            p = bd[t]
            if p != 0:
                if (p >> 3) == side:
                    pt = p & 7
                    ok = pt == QUEEN or (pt == ROOK if d < 4 else pt == BISHOP)
                    if ok and pt < best_type:
                        best_type = pt
                        best = t
                break
    if best >= 0:
        return best
    for k in range(8):
        t = KING_TO[sq, k]
        if t < 0:
            break
        if bd[t] == (KING | c):
            return t
    return -1


@njit(cache=True, nogil=True)
def see(bd, mv: int, buf) -> int:
    """Static exchange evaluation of capture ``mv``: the material the mover wins (centipawns)
    when both sides keep recapturing on the target square with their least valuable piece
    and may stop at any time. ``buf`` is scratch (int64, at least 64)."""
    fr = mv & 63
    to = (mv >> 6) & 63
    promo = (mv >> 12) & 7
    flag = mv >> 16
    mover = np.int64(bd[fr])
    side = mover >> 3
    nrem = 0
    if flag == FLAG_EP:
        capsq = to - 8 if side == 0 else to + 8
        buf[32 + nrem] = capsq
        buf[48 + nrem] = bd[capsq]
        nrem += 1
        bd[capsq] = 0
        buf[0] = SEE_VALUE[PAWN]
    else:
        buf[0] = SEE_VALUE[bd[to] & 7]
    on_square = SEE_VALUE[mover & 7]
    if promo != 0:
        buf[0] += SEE_VALUE[promo] - SEE_VALUE[PAWN]
        on_square = SEE_VALUE[promo]
    buf[32 + nrem] = fr
    buf[48 + nrem] = mover
    nrem += 1
    bd[fr] = 0
    side = 1 - side
    d = 0
    while d < 30:
        a = least_attacker(bd, to, side)
        if a < 0:
            break
        d += 1
        buf[d] = on_square - buf[d - 1]
        piece = np.int64(bd[a])
        on_square = SEE_VALUE[piece & 7]
        if nrem < 16:
            buf[32 + nrem] = a
            buf[48 + nrem] = piece
            nrem += 1
        bd[a] = 0
        side = 1 - side
    while d > 0:
        d -= 1
        buf[d] = -max(-buf[d], buf[d + 1])
    for i in range(nrem):
        bd[buf[32 + i]] = buf[48 + i]
    return buf[0]


# --- move ordering ---------------------------------------------------------------------------

SCORE_TT = 1 << 40
SCORE_GOOD_CAPTURE = 1 << 36
SCORE_KILLER1 = 1 << 35
SCORE_KILLER2 = SCORE_KILLER1 - 1000
SCORE_COUNTER = SCORE_KILLER1 - 2000
SCORE_BAD_CAPTURE = -(1 << 36)


@njit(cache=True, nogil=True)
def score_moves(bd, st, ctx, ply: int, n: int, tt_move: int, quiet_node: bool) -> None:
    """Ordering scores: TT move, good captures (MVV-LVA; SEE checked only when the victim is
    worth less than the attacker), queen promotions, killers, history, bad captures last."""
    us = st[I_SIDE]
    for i in range(n):
        mv = ctx.moves[ply, i]
        fr = mv & 63
        to = (mv >> 6) & 63
        promo = (mv >> 12) & 7
        victim = bd[to] & 7
        if (mv >> 16) == FLAG_EP:
            victim = PAWN
        if mv == tt_move:
            ctx.scores[ply, i] = SCORE_TT
        elif victim != 0 or promo == QUEEN:
            attacker = bd[fr] & 7
            mvv = SEE_VALUE[victim] * 16 - attacker + SEE_VALUE[promo]
            if quiet_node and SEE_VALUE[victim] < SEE_VALUE[attacker] and promo == 0:
                if see(bd, mv, ctx.scratch[SCRATCH:]) < 0:
                    ctx.scores[ply, i] = SCORE_BAD_CAPTURE + mvv
                    continue
            ctx.scores[ply, i] = SCORE_GOOD_CAPTURE + mvv
        elif promo != 0:
            ctx.scores[ply, i] = SCORE_BAD_CAPTURE - 1000 + promo
        elif ctx.features[F_ORDER] == 0:
            ctx.scores[ply, i] = 0
        elif mv == ctx.killers[ply, 0]:
            ctx.scores[ply, i] = SCORE_KILLER1
        elif mv == ctx.killers[ply, 1]:
            ctx.scores[ply, i] = SCORE_KILLER2
        else:
            ctx.scores[ply, i] = ctx.history[us, fr, to]


@njit(cache=True, nogil=True)
def pick(ctx, ply: int, i: int, n: int) -> int:
    """Swap the best-scored of moves i..n-1 to i and return it."""
    best = i
    bs = ctx.scores[ply, i]
    for j in range(i + 1, n):
        if ctx.scores[ply, j] > bs:
            bs = ctx.scores[ply, j]
            best = j
    if best != i:
        m = ctx.moves[ply, i]
        ctx.moves[ply, i] = ctx.moves[ply, best]
        ctx.moves[ply, best] = m
        s = ctx.scores[ply, i]
        ctx.scores[ply, i] = bs
        ctx.scores[ply, best] = s
    return ctx.moves[ply, i]


@njit(cache=True, nogil=True)
def _history_update(ctx, us: int, mv: int, bonus: int) -> None:
    fr = mv & 63
    to = (mv >> 6) & 63
    h = ctx.history[us, fr, to]
    ctx.history[us, fr, to] = h + bonus - h * abs(bonus) // 16384


@njit(cache=True, nogil=True)
def non_pawn_material(st, side: int) -> int:
    b = I_CNT + (side << 3)
    return st[b + KNIGHT] + st[b + BISHOP] + 2 * st[b + ROOK] + 4 * st[b + QUEEN]


@njit(cache=True, nogil=True)
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


# --- the search --------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def pvs(bd, st, hist, ctx, alpha: int, beta: int, depth: int, ply: int) -> int:
    """Negamax PVS value of the position for the side to move, within (alpha, beta)."""
    stats = ctx.stats
    ctx.pvlen[ply] = 0
    if ctx.stop[0] != 0:
        return 0
    stats[S_NODES] += 1
    if stats[S_NODES] >= stats[S_NODE_LIMIT]:
        ctx.stop[0] = 1
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    feats = ctx.features
    us = st[I_SIDE]
    pv_node = beta - alpha > 1
    checked = attacked(bd, st[I_KSQ + us], 1 - us)
    if ply > 0:
        if st[I_HALF] >= 100 or is_repetition(st, hist) or insufficient_material(st):
            return 0
        if feats[F_MDP]:
            if alpha < -MATE + ply:
                alpha = -MATE + ply
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
        if ply >= MAX_PLY - 1:
            return evaluate(bd, st, ctx.weights, ctx.scratch)
    # in check inside quiescence (after a quiet check or a checking capture): all evasions,
    # answered by quiescence without checks (depth -1), so check sequences cannot chain
    qs_evasion = checked and depth < 0
    if checked and feats[F_CHECKEXT] and not qs_evasion:
        depth += 1

    # --- quiescence ------------------------------------------------------------------------
    if depth <= 0 and not checked:
        stand = evaluate(bd, st, ctx.weights, ctx.scratch)
        if feats[F_QS] == 0 or stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        n = generate(bd, st, ctx.moves, ply, False)
        for i in range(n):
            mv = ctx.moves[ply, i]
            victim = bd[(mv >> 6) & 63] & 7
            if (mv >> 16) == FLAG_EP:
                victim = PAWN
            ctx.scores[ply, i] = SEE_VALUE[victim] * 16 - (bd[mv & 63] & 7)
            ctx.scores[ply, i] += SEE_VALUE[(mv >> 12) & 7]
        for i in range(n):
            mv = pick(ctx, ply, i, n)
            promo = (mv >> 12) & 7
            if feats[F_QSP]:
                victim = bd[(mv >> 6) & 63] & 7
                if (mv >> 16) == FLAG_EP:
                    victim = PAWN
                gain = SEE_VALUE[victim] + (SEE_VALUE[promo] - 100 if promo else 0)
                if stand + gain + ctx.knobs[K_DELTA] <= alpha:
                    continue  # delta pruning
                if SEE_VALUE[victim] < SEE_VALUE[bd[mv & 63] & 7] and promo == 0:
                    if see(bd, mv, ctx.scratch[SCRATCH:]) < 0:
                        continue
            make(bd, st, hist, ctx.pst, mv)
            if leaves_check(bd, st):
                undo(bd, st, hist)
                continue
            score = -pvs(bd, st, hist, ctx, -beta, -alpha, np.int64(-1), ply + 1)
            undo(bd, st, hist)
            if ctx.stop[0] != 0:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        return best
        if depth == 0 and feats[F_QCHECKS] and st[I_HPLY] > 0 and hist[st[I_HPLY] - 1, H_MOVE] == 0:
            # first quiescence ply of a null-move search: quiet moves that give check (SEE >= 0),
            # so that the threat the null move is testing for, a quiet mate, is seen: the null
            # move then fails low and the node is searched instead of cut off (WAC.001)
            ek = st[I_KSQ + 1 - us]
            n = generate(bd, st, ctx.moves, ply, True)
            for i in range(n):
                mv = ctx.moves[ply, i]
                if bd[(mv >> 6) & 63] != 0 or ((mv >> 12) & 7) != 0:
                    continue  # captures and promotions were searched above
                flag = mv >> 16
                if flag == FLAG_EP or flag == FLAG_CASTLE or not may_give_check(bd, mv, ek):
                    continue
                if see(bd, mv, ctx.scratch[SCRATCH:]) < 0:
                    continue
                make(bd, st, hist, ctx.pst, mv)
                if leaves_check(bd, st) or not attacked(bd, ek, us):
                    undo(bd, st, hist)
                    continue
                score = -pvs(bd, st, hist, ctx, -beta, -alpha, np.int64(-1), ply + 1)
                undo(bd, st, hist)
                if ctx.stop[0] != 0:
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
    key = st[I_HASH]
    tt_move = 0
    if feats[F_TT]:
        found, tmove, tscore, tdepth, tbound = tt_probe(ctx, key)
        if found:
            tt_move = tmove
            tscore = score_from_tt(tscore, ply)
            if not pv_node and tdepth >= depth and ply > 0:
                if tbound == BOUND_EXACT:
                    return tscore
                if tbound == BOUND_LOWER and tscore >= beta:
                    return tscore
                if tbound == BOUND_UPPER and tscore <= alpha:
                    return tscore

    if checked:
        static = -INF
    else:
        static = evaluate(bd, st, ctx.weights, ctx.scratch)
    ctx.evals[ply] = static
    improving = (not checked) and ply >= 2 and static > ctx.evals[ply - 2]
    h = st[I_HPLY]
    last_move = hist[h - 1, H_MOVE] if h > 0 else -1

    if not pv_node and not checked and ply > 0:
        # reverse futility pruning
        if (
            feats[F_FUT]
            and depth <= ctx.knobs[K_RFP_DEPTH]
            and abs(beta) < MATE_BOUND
            and static - ctx.knobs[K_RFP_MARGIN] * (depth - (1 if improving else 0)) >= beta
        ):
            return static
        # null move
        if (
            feats[F_NULL]
            and depth >= ctx.knobs[K_NULL_MIN_DEPTH]
            and static >= beta
            and last_move != 0
            and ply >= stats[S_NMP_MIN_PLY]
            and non_pawn_material(st, us) > 0
            and abs(beta) < MATE_BOUND
        ):
            r = 3 + depth // 4 + min(3, (static - beta) // 200)
            make_null(st, hist)
            # at least depth 0: the first quiescence ply, where the quiet checks are
            null_depth = max(np.int64(0), depth - 1 - r)
            score = -pvs(bd, st, hist, ctx, -beta, -beta + 1, null_depth, ply + 1)
            undo_null(st, hist)
            if ctx.stop[0] != 0:
                return 0
            if score >= beta:
                if score >= MATE_BOUND:
                    score = beta
                zugzwang_prone = non_pawn_material(st, us) <= 2
                if not zugzwang_prone and depth < ctx.knobs[K_NULL_VERIFY_DEPTH]:
                    return score
                # verification: the same reduced search without null moves below this ply
                saved = stats[S_NMP_MIN_PLY]
                stats[S_NMP_MIN_PLY] = ply + 3 * (depth - r) // 4 + 1
                v = pvs(bd, st, hist, ctx, beta - 1, beta, depth - r, ply)
                stats[S_NMP_MIN_PLY] = saved
                if ctx.stop[0] != 0:
                    return 0
                if v >= beta:
                    return score

    # internal iterative reduction: no TT move at a deep node
    if feats[F_TT] and tt_move == 0 and depth >= 5 and ply > 0:
        depth -= 1

    n = generate(bd, st, ctx.moves, ply, True)
    score_moves(bd, st, ctx, ply, n, tt_move, True)
    counter_move = 0
    if last_move > 0 and feats[F_ORDER]:
        lto = (last_move >> 6) & 63
        counter_move = ctx.counter[bd[lto], lto]
        if counter_move != 0:
            for i in range(n):
                if ctx.moves[ply, i] == counter_move and ctx.scores[ply, i] < SCORE_COUNTER:
                    if ctx.scores[ply, i] > SCORE_BAD_CAPTURE // 2:
                        ctx.scores[ply, i] = SCORE_COUNTER
    if ply == 0:
        # root: drop excluded moves (MultiPV lines already found)
        k = 0
        for i in range(n):
            mv = ctx.moves[0, i]
            skip = False
            for j in range(MAX_MOVES):
                e = ctx.excluded[j]
                if e < 0:
                    break
                if e == mv:
                    skip = True
                    break
            if not skip:
                ctx.moves[0, k] = mv
                ctx.scores[0, k] = ctx.scores[0, i]
                k += 1
        n = k

    best = -INF
    best_move = 0
    legal = 0
    nquiet = 0
    old_alpha = alpha
    fut_base = static + ctx.knobs[K_FUT_MARGIN] + ctx.knobs[K_FUT_PER_PLY] * depth
    lmp_limit = 3 + depth * depth
    if not improving:
        lmp_limit = lmp_limit // 2 + 1
    for i in range(n):
        mv = pick(ctx, ply, i, n)
        fr = mv & 63
        to = (mv >> 6) & 63
        promo = (mv >> 12) & 7
        capture = bd[to] != 0 or (mv >> 16) == FLAG_EP
        quiet = not capture and promo == 0
        make(bd, st, hist, ctx.pst, mv)
        if leaves_check(bd, st):
            undo(bd, st, hist)
            continue
        legal += 1
        if ply == 0:
            stats[S_ROOT_MOVES] = legal
        # only the pruning and reduction of quiet moves after the first look at it
        gives_check = quiet and not checked and legal > 1 and attacked(bd, st[I_KSQ + 1 - us], us)
        if (
            quiet
            and ply > 0
            and not pv_node
            and not checked
            and not gives_check
            and legal > 1
            and best > -MATE_BOUND
        ):
            if feats[F_LMP] and depth <= ctx.knobs[K_LMP_DEPTH] and legal > lmp_limit:
                undo(bd, st, hist)
                continue
            if feats[F_FUT] and depth <= ctx.knobs[K_FUT_DEPTH] and fut_base <= alpha:
                undo(bd, st, hist)
                continue
        new_depth = depth - 1
        if qs_evasion:
            new_depth = np.int64(-1)
        if legal == 1:
            score = -pvs(bd, st, hist, ctx, -beta, -alpha, new_depth, ply + 1)
        else:
            r = 0
            if feats[F_LMR] and depth >= 3 and quiet and not checked:
                r = ctx.lmr[min(depth, 63), min(legal, MAX_MOVES - 1)]
                if pv_node:
                    r -= 1
                if not improving:
                    r += 1
                if gives_check:
                    r -= 1
                if mv == ctx.killers[ply, 0] or mv == ctx.killers[ply, 1]:
                    r -= 1
                hv = ctx.history[us, fr, to]
                r -= hv // 6000
                if r > new_depth - 1:
                    r = new_depth - 1
                if r < 0:
                    r = 0
            score = -pvs(bd, st, hist, ctx, -alpha - 1, -alpha, new_depth - r, ply + 1)
            if score > alpha and r > 0:
                score = -pvs(bd, st, hist, ctx, -alpha - 1, -alpha, new_depth, ply + 1)
            if score > alpha and score < beta:
                score = -pvs(bd, st, hist, ctx, -beta, -alpha, new_depth, ply + 1)
        undo(bd, st, hist)
        if ctx.stop[0] != 0:
            return 0
        if quiet and nquiet < MAX_MOVES:
            ctx.quiets[ply, nquiet] = mv
            nquiet += 1
        if score > best:
            best = score
            if score > alpha:
                best_move = mv
                alpha = score
                ctx.pv[ply, 0] = mv
                cl = ctx.pvlen[ply + 1]
                for j in range(cl):
                    ctx.pv[ply, j + 1] = ctx.pv[ply + 1, j]
                ctx.pvlen[ply] = cl + 1
                if ply == 0:
                    stats[S_ROOT_BEST] = mv
                    stats[S_ROOT_SCORE] = score
                if score >= beta:
                    break
        if ply == 0:
            stats[S_ROOT_DONE] += 1
            if best_move == 0 and stats[S_ROOT_BEST] == 0:
                stats[S_ROOT_BEST] = mv
                stats[S_ROOT_SCORE] = score

    if legal == 0:
        return -MATE + ply if checked else 0

    if best_move != 0 and best >= beta and feats[F_ORDER]:
        capture = bd[(best_move >> 6) & 63] != 0 or (best_move >> 16) == FLAG_EP
        if not capture and ((best_move >> 12) & 7) == 0:
            if ctx.killers[ply, 0] != best_move:
                ctx.killers[ply, 1] = ctx.killers[ply, 0]
                ctx.killers[ply, 0] = best_move
            bonus = min(depth * depth * 8, 1600)
            _history_update(ctx, us, best_move, bonus)
            for j in range(nquiet):
                q = ctx.quiets[ply, j]
                if q != best_move:
                    _history_update(ctx, us, q, -bonus)
            if last_move > 0:
                lto = (last_move >> 6) & 63
                ctx.counter[bd[lto], lto] = best_move

    if feats[F_TT]:
        if best >= beta:
            bound = BOUND_LOWER
        elif best > old_alpha:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        tt_store(ctx, key, best_move, score_to_tt(best, ply), 0 if qs_evasion else depth, bound)
    return best
