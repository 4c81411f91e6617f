"""Slow references for the tests: the earlier mailbox versions of the evaluation (one scan of
the 64 squares, mobility by walking rays square by square) and of the static exchange
evaluation (attackers found by walking rays), plain Python. The compiled versions (bitboards
kept by make/undo) must return the same values in every position."""

from __future__ import annotations

from plies.chess.engine import params as P
from plies.chess.engine.board import (
    BISHOP,
    FLAG_EP,
    I_CNT,
    I_EG,
    I_KSQ,
    I_MG,
    I_PHASE,
    I_SIDE,
    KING,
    KING_TO,
    KNIGHT,
    KNIGHT_TO,
    PAWN,
    PHASE_TOTAL,
    QUEEN,
    RAYS,
    ROOK,
)
from plies.chess.engine.evaluate import KING_NEAR
from plies.chess.engine.search import SEE_VALUE


def reference_evaluate(bd, st, w) -> int:
    """The value for the side to move (centipawns), square by square."""
    scratch = [0] * 96
    mg = st[I_MG]
    eg = st[I_EG]
    # one scan of the board: pawn files (counts [0:16], lowest rank [16:32], highest rank
    # [32:48], by colour * 8 + file), the pawn squares [48:64] and the other non-king pieces
    # [64:96], so the terms below visit only occupied squares
    for i in range(16):
        scratch[i] = 0
        scratch[16 + i] = 8
        scratch[32 + i] = -1
    npawns = 0
    npieces = 0
    for sq in range(64):
        p = bd[sq]
        if p == 0:
            continue
        t = p & 7
        if t == PAWN:
            i = (p >> 3) * 8 + (sq & 7)
            r = sq >> 3
            scratch[i] += 1
            if r < scratch[16 + i]:
                scratch[16 + i] = r
            if r > scratch[32 + i]:
                scratch[32 + i] = r
            if npawns < 16:
                scratch[48 + npawns] = sq
                npawns += 1
        elif t != KING and npieces < 32:
            scratch[64 + npieces] = sq
            npieces += 1
    threatened: set[int] = set()  # enemy pieces attacked by a pawn (counted once each)
    for j in range(npawns):
        sq = scratch[48 + j]
        c = bd[sq] >> 3
        sign = 1 if c == 0 else -1
        f = sq & 7
        r = sq >> 3
        own = c * 8
        opp = (1 - c) * 8
        if scratch[own + f] > 1:
            mg -= sign * w[P.W_DOUBLED_MG]
            eg -= sign * w[P.W_DOUBLED_EG]
        left = scratch[own + f - 1] if f > 0 else 0
        right = scratch[own + f + 1] if f < 7 else 0
        rel = r if c == 0 else 7 - r
        own_pawn = PAWN | (c << 3)
        if left == 0 and right == 0:
            mg -= sign * w[P.W_ISOLATED_MG]
            eg -= sign * w[P.W_ISOLATED_EG]
        else:
            back = r - 1 if c == 0 else r + 1  # own pawns there defend this one
            connected = False
            for ff in (f - 1, f + 1):
                if 0 <= ff < 8:
                    if bd[r * 8 + ff] == own_pawn or (
                        0 <= back < 8 and bd[back * 8 + ff] == own_pawn
                    ):
                        connected = True
            if connected:
                mg += sign * w[P.W_CONNECTED_MG + rel]
                eg += sign * w[P.W_CONNECTED_EG + rel]
        ahead = r + 1 if c == 0 else r - 1  # the squares this pawn attacks
        for ff in (f - 1, f + 1):
            if 0 <= ff < 8 and 0 <= ahead < 8:
                q = bd[ahead * 8 + ff]
                if q != 0 and (q >> 3) != c and (q & 7) not in (PAWN, KING):
                    threatened.add(ahead * 8 + ff)
        passed = True
        for ff in range(max(0, f - 1), min(7, f + 1) + 1):
            if c == 0:
                if scratch[32 + opp + ff] > r:
                    passed = False
            else:
                if scratch[16 + opp + ff] < r and scratch[opp + ff] > 0:
                    passed = False
        if passed:
            mg += sign * w[P.W_PASSED_MG + rel]
            eg += sign * w[P.W_PASSED_EG + rel]
            front = sq + 8 if c == 0 else sq - 8
            if 0 <= front < 64 and bd[front] == 0:
                eg += sign * w[P.W_PASSED_FREE_EG]
            if 0 <= front < 64 and rel >= 3:

                def dist(a: int, b: int) -> int:
                    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))

                near = dist(st[I_KSQ + 1 - c], front) * w[P.W_PASSED_KING_THEIRS]
                near -= dist(st[I_KSQ + c], front) * w[P.W_PASSED_KING_OWN]
                eg += sign * (rel - 2) * near
    for sq in threatened:
        sign = -1 if bd[sq] >> 3 == 0 else 1  # a black piece attacked counts for white
        mg += sign * w[P.W_THREAT_PAWN_MG]
        eg += sign * w[P.W_THREAT_PAWN_EG]
    pawn_attacks: list[set[int]] = [set(), set()]  # the squares each colour's pawns attack
    for j in range(npawns):
        sq = scratch[48 + j]
        pawn_attacks[bd[sq] >> 3] |= _attacks_of(bd, sq)
    if w[P.W_SPACE] != 0:
        mg += _space(bd, st, w, pawn_attacks)
    king_units_0 = 0  # attack units on the white king zone (by black)
    king_units_1 = 0
    king_att_0 = 0
    king_att_1 = 0
    wk = st[I_KSQ]
    bk = st[I_KSQ + 1]

    def counts(tgt: int, c: int) -> bool:  # a square the mobility of colour c counts
        q = bd[tgt]
        if w[P.W_MOB_AREA] == 0:
            return q == 0 or (q >> 3) != c
        own_blocker = q != 0 and (q >> 3) == c and (q & 7) in (PAWN, KING)
        return not own_blocker and tgt not in pawn_attacks[1 - c]

    for j in range(npieces):
        sq = scratch[64 + j]
        p = bd[sq]
        t = p & 7
        c = p >> 3
        sign = 1 if c == 0 else -1
        enemy_king = bk if c == 0 else wk
        mob = 0
        hits = 0
        if t == KNIGHT:
            for k in range(8):
                tgt = KNIGHT_TO[sq, k]
                if tgt < 0:
                    break
                if counts(tgt, c):
                    mob += 1
                hits += KING_NEAR[enemy_king, tgt]
        else:
            d0 = 4 if t == BISHOP else 0
            d1 = 4 if t == ROOK else 8
            for d in range(d0, d1):
                for k in range(7):
                    tgt = RAYS[sq, d, k]
                    if tgt < 0:
                        break
                    hits += KING_NEAR[enemy_king, tgt]
                    if counts(tgt, c):
                        mob += 1
                    if bd[tgt] != 0:
                        break
            if t == ROOK:
                f = sq & 7
                if scratch[c * 8 + f] == 0:
                    if scratch[(1 - c) * 8 + f] == 0:
                        mg += sign * w[P.W_ROOK_OPEN_MG]
                        eg += sign * w[P.W_ROOK_OPEN_EG]
                    else:
                        mg += sign * w[P.W_ROOK_HALF_MG]
                        eg += sign * w[P.W_ROOK_HALF_EG]
        m = mob - w[P.W_MOB_BASE + t]
        mg += sign * (m * w[P.W_MOB_MG + t] + w[P.W_MOB_DELTA_MG + (int(t) - KNIGHT) * 28 + mob])
        eg += sign * (m * w[P.W_MOB_EG + t] + w[P.W_MOB_DELTA_EG + (int(t) - KNIGHT) * 28 + mob])
        if hits > 0:
            if c == 0:
                king_units_1 += w[P.W_KING_UNITS + t]
                king_att_1 += 1
            else:
                king_units_0 += w[P.W_KING_UNITS + t]
                king_att_0 += 1
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
                if scratch[c * 8 + ff] == 0:
                    mg -= sign * w[P.W_OPEN_NEAR_KING]
            mg += sign * shield * w[P.W_SHIELD]
    threat_mg, threat_eg = _threat_terms(bd, st, w)
    mg += threat_mg
    eg += threat_eg
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


def _space(bd, st, w, pawn_attacks: list[set[int]]) -> int:
    """The space term (middle game, from white's view), square by square."""
    total = 0
    for c in range(2):
        own_pawn = PAWN | (c << 3)
        ranks = range(1, 4) if c == 0 else range(4, 7)
        step = 8 if c == 0 else -8
        count = 0
        for r in ranks:
            for f in range(2, 6):
                sq = r * 8 + f
                if bd[sq] == own_pawn or sq in pawn_attacks[1 - c]:
                    continue
                count += 1
                ahead = [sq + k * step for k in (1, 2, 3)]
                if any(0 <= a < 64 and bd[a] == own_pawn for a in ahead):
                    count += 1
        pieces = sum(st[I_CNT + (c << 3) + t] for t in (KNIGHT, BISHOP, ROOK, QUEEN))
        value = count * pieces * w[P.W_SPACE] // 16
        total += value if c == 0 else -value
    return total


def _attacks_of(bd, sq: int) -> set[int]:
    """The squares the piece on ``sq`` attacks, walking its moves square by square."""
    p = bd[sq]
    t = p & 7
    c = p >> 3
    out: set[int] = set()
    if t == PAWN:
        ahead = (sq >> 3) + (1 if c == 0 else -1)
        for ff in ((sq & 7) - 1, (sq & 7) + 1):
            if 0 <= ff < 8 and 0 <= ahead < 8:
                out.add(ahead * 8 + ff)
    elif t in (KNIGHT, KING):
        table = KNIGHT_TO if t == KNIGHT else KING_TO
        out.update(int(x) for x in table[sq] if x >= 0)
    else:
        directions = range(4, 8) if t == BISHOP else range(4) if t == ROOK else range(8)
        for d in directions:
            out.update(_ray(bd, sq, d))
    return out


def _ray(bd, sq: int, d: int) -> list[int]:
    """The squares from ``sq`` along direction ``d`` up to and including the first piece."""
    out = []
    for k in range(7):
        tgt = RAYS[sq, d, k]
        if tgt < 0:
            break
        out.append(int(tgt))
        if bd[tgt] != 0:
            break
    return out


def _threat_terms(bd, st, w) -> tuple[int, int]:
    """Threats by minor pieces and rooks, undefended pieces attacked, safe checks: (mg, eg)
    from white's view, from attack sets built square by square."""
    attacked = [set(), set()]  # by colour
    by_type = [{t: set() for t in (KNIGHT, BISHOP, ROOK, QUEEN)} for _ in range(2)]
    for sq in range(64):
        p = bd[sq]
        if p == 0:
            continue
        att = _attacks_of(bd, sq)
        attacked[p >> 3] |= att
        if (p & 7) in by_type[p >> 3]:
            by_type[p >> 3][p & 7] |= att
    mg = eg = 0
    for c in range(2):
        sign = 1 if c == 0 else -1
        them = 1 - c
        minors = by_type[c][KNIGHT] | by_type[c][BISHOP]
        for sq in range(64):
            p = bd[sq]
            if p == 0 or p >> 3 != them or p & 7 == KING:
                continue
            v = p & 7
            defended = sq in attacked[them]
            if sq in minors and (v != PAWN or not defended):
                mg += sign * w[P.W_THREAT_MINOR_MG + v]
                eg += sign * w[P.W_THREAT_MINOR_EG + v]
            if sq in by_type[c][ROOK] and (v == QUEEN or not defended):
                mg += sign * w[P.W_THREAT_ROOK_MG + v]
                eg += sign * w[P.W_THREAT_ROOK_EG + v]
            if v != PAWN and sq in attacked[c] and not defended:
                mg += sign * w[P.W_HANGING_MG]
                eg += sign * w[P.W_HANGING_EG]
        ek = st[I_KSQ + them]
        checks = {
            KNIGHT: {int(x) for x in KNIGHT_TO[ek] if x >= 0},
            BISHOP: {s for d in range(4, 8) for s in _ray(bd, ek, d)},
            ROOK: {s for d in range(4) for s in _ray(bd, ek, d)},
        }
        checks[QUEEN] = checks[BISHOP] | checks[ROOK]
        for t in (KNIGHT, BISHOP, ROOK, QUEEN):
            for s in checks[t] & by_type[c][t]:
                if (bd[s] == 0 or bd[s] >> 3 != c) and s not in attacked[them]:
                    mg += sign * w[P.W_SAFE_CHECK + t]
                    break
    return mg, eg


def _least_attacker(bd, sq: int, side: int) -> int:
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


def reference_see(bd, mv: int) -> int:
    """Static exchange evaluation of capture ``mv`` (centipawns), walking the rays."""
    buf = [0] * 64
    o = 0
    fr = mv & 63
    to = (mv >> 6) & 63
    promo = (mv >> 12) & 7
    flag = mv >> 16
    mover = int(bd[fr])
    side = mover >> 3
    nrem = 0
    if flag == FLAG_EP:
        capsq = to - 8 if side == 0 else to + 8
        buf[o + 32 + nrem] = capsq
        buf[o + 48 + nrem] = bd[capsq]
        nrem += 1
        bd[capsq] = 0
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
    side = 1 - side
    d = 0
    while d < 30:
        a = _least_attacker(bd, to, side)
        if a < 0:
            break
        d += 1
        buf[o + d] = on_square - buf[o + d - 1]
        piece = int(bd[a])
        on_square = SEE_VALUE[piece & 7]
        if nrem < 16:
            buf[o + 32 + nrem] = a
            buf[o + 48 + nrem] = piece
            nrem += 1
        bd[a] = 0
        side = 1 - side
    while d > 0:
        d -= 1
        buf[o + d] = -max(-buf[o + d], buf[o + d + 1])
    for i in range(nrem):
        bd[buf[o + 32 + i]] = buf[o + 48 + i]
    return buf[o + 0]
