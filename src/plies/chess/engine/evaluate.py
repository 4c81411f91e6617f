"""The static evaluation (compiled): tapered material and piece-square sums (kept incrementally
by ``board.make``), plus mobility, pawn structure (doubled, isolated, connected, passed with
king distances), pieces attacked by pawns, threats by minor pieces and rooks, undefended
pieces attacked, king safety (attackers on the king's zone, safe checks, shelter), space,
bishop pair, rooks on open files and a tempo bonus, computed at the node from the bitboards of
``st``. Weights come from ``params.eval_arrays``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.chess.engine import params as P
from plies.chess.engine.board import (
    BISHOP,
    I_BB,
    I_BB_OK,
    I_CNT,
    I_EG,
    I_KSQ,
    I_MG,
    I_PHASE,
    I_SIDE,
    KING,
    KING_BB,
    KNIGHT,
    KNIGHT_BB,
    PAWN,
    PHASE_TOTAL,
    QUEEN,
    RAY_BB,
    RAY_UP,
    ROOK,
    bits_of,
    lsb,
    msb,
    popcount,
    set_bitboards,
)

SCRATCH = 96  # int64 slots of the search memory reserved for the evaluation ([0:8] used)


def _king_near() -> np.ndarray:
    """near[k, s] = 1 when square s is in the zone of a king on k (the king's square and its
    neighbours)."""
    near = np.zeros((64, 64), dtype=np.int8)
    for k in range(64):
        for s in range(64):
            if abs((k & 7) - (s & 7)) <= 1 and abs((k >> 3) - (s >> 3)) <= 1:
                near[k, s] = 1
    return near


KING_NEAR = _king_near()


def _bitboard_tables():
    files = np.array([bits_of(range(f, 64, 8)) for f in range(8)], dtype=np.int64)
    adjacent = np.array(
        [(files[f - 1] if f > 0 else 0) | (files[f + 1] if f < 7 else 0) for f in range(8)],
        dtype=np.int64,
    )
    # passed[c, sq]: enemy pawns there stop a pawn of colour c on sq (files f-1..f+1, ahead)
    passed = np.zeros((2, 64), dtype=np.int64)
    zone = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        near = range(max(0, f - 1), min(7, f + 1) + 1)
        passed[0, sq] = bits_of(rr * 8 + ff for ff in near for rr in range(r + 1, 8))
        passed[1, sq] = bits_of(rr * 8 + ff for ff in near for rr in range(0, r))
        zone[sq] = bits_of(s for s in range(64) if KING_NEAR[sq, s])
    return files, adjacent, passed, zone


FILE_BB, ADJACENT_BB, PASSED_BB, ZONE_BB = _bitboard_tables()
# SPACE_BB[c]: files c-f on relative ranks 2-4 of colour c (the space term's squares)
SPACE_BB = np.array(
    [
        bits_of(r * 8 + f for f in range(2, 6) for r in range(1, 4)),
        bits_of(r * 8 + f for f in range(2, 6) for r in range(4, 7)),
    ],
    dtype=np.int64,
)


def _pawn_tables():
    """pawn_att[c, sq]: the squares a pawn of colour c on sq attacks; beside[sq]: the squares
    left and right of sq on its rank; dist[a, b]: the king (Chebyshev) distance."""
    pawn_att = np.zeros((2, 64), dtype=np.int64)
    beside = np.zeros(64, dtype=np.int64)
    dist = np.zeros((64, 64), dtype=np.int64)
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        for c, dr in ((0, 1), (1, -1)):
            pawn_att[c, sq] = bits_of(
                (r + dr) * 8 + ff for ff in (f - 1, f + 1) if 0 <= ff < 8 and 0 <= r + dr < 8
            )
        beside[sq] = bits_of(r * 8 + ff for ff in (f - 1, f + 1) if 0 <= ff < 8)
        for b in range(64):
            dist[sq, b] = max(abs(f - (b & 7)), abs(r - (b >> 3)))
    return pawn_att, beside, dist


PAWN_ATT_BB, BESIDE_BB, KING_DIST = _pawn_tables()


@njit(cache=True, nogil=True, inline="always")
def slider_attacks(sq: int, occ: int, d0: int, d1: int) -> int:
    """The squares a slider on ``sq`` attacks along directions ``d0 .. d1 - 1`` of
    ``RAY_BB`` (0-3 the lines, 4-7 the diagonals), each ray cut at its first blocker."""
    att = np.int64(0)
    for d in range(d0, d1):
        ray = RAY_BB[d, sq]
        blockers = ray & occ
        if blockers != 0:
            b = lsb(blockers) if RAY_UP[d] else msb(blockers)
            ray ^= RAY_BB[d, b]
        att |= ray
    return att


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(bd, st, w, scratch) -> int:
    """The position's value for the side to move, in centipawns. ``scratch`` (int64, at least
    8 of its ``SCRATCH`` slots; unchecked) receives the squares attacked by each side's
    knights, bishops, rooks and queens at ``colour * 4 + type - KNIGHT``."""
    if st[I_BB_OK] == 0:
        set_bitboards(bd, st)
    mg = st[I_MG]
    eg = st[I_EG]
    wp = st[I_BB + PAWN]
    bp = st[I_BB + (PAWN | 8)]
    occ_w = st[I_BB]
    occ_b = st[I_BB + 8]
    occ = occ_w | occ_b
    # pawn structure: doubled, isolated, connected, passed (by rank, with a free path and
    # the kings' distances in the end game); the squares each side's pawns attack
    pawn_att_w = np.int64(0)
    pawn_att_b = np.int64(0)
    for c in range(2):
        own = wp if c == 0 else bp
        opp = bp if c == 0 else wp
        sign = 1 if c == 0 else -1
        x = own
        while x != 0:
            sq = lsb(x)
            x &= x - 1
            f = sq & 7
            r = sq >> 3
            rel = r if c == 0 else 7 - r
            if c == 0:
                pawn_att_w |= PAWN_ATT_BB[0, sq]
            else:
                pawn_att_b |= PAWN_ATT_BB[1, sq]
            on_file = own & FILE_BB[f]
            if on_file & (on_file - 1) != 0:
                mg -= sign * w[P.W_DOUBLED_MG]
                eg -= sign * w[P.W_DOUBLED_EG]
            if own & ADJACENT_BB[f] == 0:
                mg -= sign * w[P.W_ISOLATED_MG]
                eg -= sign * w[P.W_ISOLATED_EG]
            elif own & (PAWN_ATT_BB[1 - c, sq] | BESIDE_BB[sq]) != 0:
                mg += sign * w[P.W_CONNECTED_MG + rel]
                eg += sign * w[P.W_CONNECTED_EG + rel]
            if opp & PASSED_BB[c, sq] == 0:
                mg += sign * w[P.W_PASSED_MG + rel]
                eg += sign * w[P.W_PASSED_EG + rel]
                front = sq + 8 if c == 0 else sq - 8
                if 0 <= front < 64:
                    if bd[front] == 0:
                        eg += sign * w[P.W_PASSED_FREE_EG]
                    if rel >= 3:
                        near = KING_DIST[st[I_KSQ + 1 - c], front] * w[P.W_PASSED_KING_THEIRS]
                        near -= KING_DIST[st[I_KSQ + c], front] * w[P.W_PASSED_KING_OWN]
                        eg += sign * (rel - 2) * near
    # space: safe squares in the centre behind the own pawns, weighted by the own pieces
    if w[P.W_SPACE] != 0:
        for c in range(2):
            own = wp if c == 0 else bp
            safe = SPACE_BB[c] & ~own & ~(pawn_att_b if c == 0 else pawn_att_w)
            if c == 0:
                behind = (own >> 8) | (own >> 16) | (own >> 24)
            else:
                behind = (own << 8) | (own << 16) | (own << 24)
            pieces = 0
            for t in range(KNIGHT, KING):
                pieces += st[I_CNT + (c << 3) + t]
            space = (popcount(safe) + popcount(safe & behind)) * pieces * w[P.W_SPACE] // 16
            mg += space if c == 0 else -space
    # pieces attacked by pawns
    pieces_w = occ_w & ~wp & ~st[I_BB + KING]
    pieces_b = occ_b & ~bp & ~st[I_BB + (KING | 8)]
    threats = popcount(pawn_att_w & pieces_b) - popcount(pawn_att_b & pieces_w)
    mg += threats * w[P.W_THREAT_PAWN_MG]
    eg += threats * w[P.W_THREAT_PAWN_EG]
    # pieces: mobility (attacked squares not holding an own piece), attacks on the enemy
    # king's zone, rooks on open and half-open files
    king_units_0 = 0  # attack units on the white king zone (by black)
    king_units_1 = 0
    king_att_0 = 0
    king_att_1 = 0
    for i in range(8):
        scratch[i] = 0
    for c in range(2):
        sign = 1 if c == 0 else -1
        own_occ = occ_w if c == 0 else occ_b
        own_pawns = wp if c == 0 else bp
        opp_pawns = bp if c == 0 else wp
        zone = ZONE_BB[st[I_KSQ + 1 - c]]
        area = ~own_occ
        if w[P.W_MOB_AREA] != 0:
            their_pawn_att = pawn_att_b if c == 0 else pawn_att_w
            area = ~(own_pawns | st[I_BB + (c << 3) + KING] | their_pawn_att)
        for t in range(KNIGHT, KING):
            x = st[I_BB + (c << 3) + t]
            while x != 0:
                sq = lsb(x)
                x &= x - 1
                if t == KNIGHT:
                    att = KNIGHT_BB[sq]
                else:
                    att = slider_attacks(sq, occ, 4 if t == BISHOP else 0, 4 if t == ROOK else 8)
                    if t == ROOK:
                        fm = FILE_BB[sq & 7]
                        if own_pawns & fm == 0:
                            if opp_pawns & fm == 0:
                                mg += sign * w[P.W_ROOK_OPEN_MG]
                                eg += sign * w[P.W_ROOK_OPEN_EG]
                            else:
                                mg += sign * w[P.W_ROOK_HALF_MG]
                                eg += sign * w[P.W_ROOK_HALF_EG]
                scratch[(c << 2) + t - KNIGHT] |= att
                count = popcount(att & area)
                m = count - w[P.W_MOB_BASE + t]
                j = (t - KNIGHT) * 28 + count
                mg += sign * (m * w[P.W_MOB_MG + t] + w[P.W_MOB_DELTA_MG + j])
                eg += sign * (m * w[P.W_MOB_EG + t] + w[P.W_MOB_DELTA_EG + j])
                if att & zone != 0:
                    if c == 0:
                        king_units_1 += w[P.W_KING_UNITS + t]
                        king_att_1 += 1
                    else:
                        king_units_0 += w[P.W_KING_UNITS + t]
                        king_att_0 += 1
    # threats by minor pieces and rooks (by the victim's type), undefended pieces attacked,
    # safe checks (middle game)
    att_w = pawn_att_w | KING_BB[st[I_KSQ]] | scratch[0] | scratch[1] | scratch[2] | scratch[3]
    att_b = pawn_att_b | KING_BB[st[I_KSQ + 1]] | scratch[4] | scratch[5] | scratch[6] | scratch[7]
    for c in range(2):
        sign = 1 if c == 0 else -1
        them = 1 - c
        ours = att_w if c == 0 else att_b
        theirs = att_b if c == 0 else att_w
        their_occ = occ_b if c == 0 else occ_w
        their_pawns = bp if c == 0 else wp
        their_king = st[I_BB + (them << 3) + KING]
        their_pieces = their_occ & ~their_pawns & ~their_king
        minors = scratch[c << 2] | scratch[(c << 2) + 1]
        rooks = scratch[(c << 2) + 2]
        x = minors & (their_pieces | (their_pawns & ~theirs))
        while x != 0:
            v = bd[lsb(x)] & 7
            x &= x - 1
            mg += sign * w[P.W_THREAT_MINOR_MG + v]
            eg += sign * w[P.W_THREAT_MINOR_EG + v]
        x = rooks & (st[I_BB + (them << 3) + QUEEN] | (their_occ & ~their_king & ~theirs))
        while x != 0:
            v = bd[lsb(x)] & 7
            x &= x - 1
            mg += sign * w[P.W_THREAT_ROOK_MG + v]
            eg += sign * w[P.W_THREAT_ROOK_EG + v]
        hanging = popcount(their_pieces & ours & ~theirs)
        mg += sign * hanging * w[P.W_HANGING_MG]
        eg += sign * hanging * w[P.W_HANGING_EG]
        ek = st[I_KSQ + them]
        safe = ~theirs & ~(occ_w if c == 0 else occ_b)
        diagonals = slider_attacks(ek, occ, 4, 8)
        lines = slider_attacks(ek, occ, 0, 4)
        if scratch[c << 2] & KNIGHT_BB[ek] & safe != 0:
            mg += sign * w[P.W_SAFE_CHECK + KNIGHT]
        if scratch[(c << 2) + 1] & diagonals & safe != 0:
            mg += sign * w[P.W_SAFE_CHECK + BISHOP]
        if rooks & lines & safe != 0:
            mg += sign * w[P.W_SAFE_CHECK + ROOK]
        if scratch[(c << 2) + 3] & (diagonals | lines) & safe != 0:
            mg += sign * w[P.W_SAFE_CHECK + QUEEN]
    # king safety (middle game): attackers on the zone, pawn shield, open files
    for c in range(2):
        sign = 1 if c == 0 else -1
        units = king_units_0 if c == 0 else king_units_1
        attackers = king_att_0 if c == 0 else king_att_1
        if st[I_CNT + ((1 - c) << 3) + QUEEN] == 0:
            units = units // 2
        if attackers >= 2:
            pen = w[P.W_KING_SCALE] * units * units // 4
            if pen > w[P.W_KING_CAP]:
                pen = w[P.W_KING_CAP]
            mg -= sign * pen
        k = st[I_KSQ + c]
        kf = k & 7
        kr = k >> 3
        rel = kr if c == 0 else 7 - kr
        if rel <= 1:
            step = 8 if c == 0 else -8
            shield = 0
            for ff in range(max(0, kf - 1), min(7, kf + 1) + 1):
                s1 = k - kf + ff + step
                own_pawn = PAWN | (c << 3)
                near = 0 <= s1 < 64 and bd[s1] == own_pawn
                if near or (0 <= s1 + step < 64 and bd[s1 + step] == own_pawn):
                    shield += 1
                if (wp if c == 0 else bp) & FILE_BB[ff] == 0:
                    mg -= sign * w[P.W_OPEN_NEAR_KING]
            mg += sign * shield * w[P.W_SHIELD]
    if st[I_CNT + BISHOP] >= 2:
        mg += w[P.W_BISHOP_PAIR_MG]
        eg += w[P.W_BISHOP_PAIR_EG]
    if st[I_CNT + (BISHOP | 8)] >= 2:
        mg -= w[P.W_BISHOP_PAIR_MG]
        eg -= w[P.W_BISHOP_PAIR_EG]
    phase = st[I_PHASE]
    if phase > PHASE_TOTAL:
        phase = PHASE_TOTAL
    score = (mg * phase + eg * (PHASE_TOTAL - phase)) // PHASE_TOTAL
    # a side without pawns that is at most a minor piece ahead rarely wins
    white_weak = score > 0 and st[I_CNT + PAWN] == 0 and eg < 400
    if white_weak or (score < 0 and st[I_CNT + (PAWN | 8)] == 0 and eg > -400):
        score //= 4
    if st[I_SIDE] == 1:
        score = -score
    return score + w[P.W_TEMPO]
