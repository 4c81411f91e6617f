"""The compiled chess board: mailbox representation, move generation, make/undo (compiled).

Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (python-chess's numbering). The board is an
``int8[64]``: 0 empty, else ``type | colour << 3`` with types PAWN=1 .. KING=6 and colour 0 for
white, 1 for black. Everything else of the position is in ``st`` (``int64[ST_SIZE]``, slots
``I_*``): side to move, castling rights (bits 1 K, 2 Q, 4 k, 8 q), en-passant square (only set
when a pawn of the side to move stands next to the double-pushed pawn, so the Zobrist key
matches the position's real identity), half-move clock, the history index, king squares, the
Zobrist key, the incremental material + piece-square sums (white's view, middle game and end
game) and game phase, the count of every piece, and bitboards (int64, bit = square) of every
piece code and of each side, set from the board on first use (``I_BB_OK``) and then kept by
make/undo. ``hist`` (``int64[MAX_HIST, H_COLS]``) holds what undo needs, one row per move
made, and the key of every earlier position (repetition detection).

Moves are ints: ``from | to << 6 | promotion type << 12 | flag << 16`` with flags 1 en passant,
2 castling, 3 double pawn push. Generation is pseudo-legal; ``make`` then ``leaves_check`` (the
mover's king attacked) rejects illegal moves. A castling move is encoded as the king's move to
its target (g or c file, which gives the wing; it may equal the king's square in Chess960); the
castling rooks' squares (``I_CROOK``) and the rights each square clears when a piece leaves or
enters it (``I_CMASK``) are in ``st``, set by ``Position`` for standard chess and Chess960
alike.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

WHITE = 0
BLACK = 1
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6

FLAG_EP = 1
FLAG_CASTLE = 2
FLAG_DOUBLE = 3

# st slots
I_SIDE = 0
I_CASTLE = 1
I_EP = 2
I_HALF = 3
I_HPLY = 4
I_KSQ = 5  # 5 white king, 6 black king
I_HASH = 7
I_MG = 8
I_EG = 9
I_PHASE = 10
I_FULL = 11
I_BB_OK = 12  # 1 once the bitboards below match the board (``set_bitboards``)
I_CNT = 16  # 16 slots: count of piece code p at I_CNT + p
I_BB = 32  # 16 slots: bitboard (int64, bit = square) of piece code p at I_BB + p; the
# (otherwise unused) codes 0 and 8 hold all white and all black pieces
I_CROOK = 48  # 4 slots: the rook square of castling right bit 1 << i at I_CROOK + i
I_CMASK = 52  # 64 slots: the castling rights kept when a move leaves or enters square sq
ST_SIZE = 116

# hist columns
H_MOVE = 0
H_CAPT = 1
H_CASTLE = 2
H_EP = 3
H_HALF = 4
H_HASH = 5
H_MG = 6
H_EG = 7
H_PHASE = 8
H_COLS = 9
MAX_HIST = 1024

MAX_MOVES = 256
PHASE_TOTAL = 24
PHASE_WEIGHT = np.array([0, 0, 1, 1, 2, 4, 0, 0], dtype=np.int64)


def _build_tables():
    knight = np.full((64, 9), -1, dtype=np.int64)
    king = np.full((64, 9), -1, dtype=np.int64)
    rays = np.full((64, 8, 8), -1, dtype=np.int64)
    # rook directions N S E W, then bishop directions NE NW SE SW
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)]
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        k = 0
        for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                knight[sq, k] = (r + dr) * 8 + f + df
                k += 1
        k = 0
        for df, dr in dirs:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                king[sq, k] = (r + dr) * 8 + f + df
                k += 1
        for d, (df, dr) in enumerate(dirs):
            x, y, k = f + df, r + dr, 0
            while 0 <= x < 8 and 0 <= y < 8:
                rays[sq, d, k] = y * 8 + x
                x, y, k = x + df, y + dr, k + 1
    rng = np.random.default_rng(20240609)
    zp = rng.integers(1, 1 << 62, size=(16, 64), dtype=np.int64)
    zp[0, :] = 0
    zp[7, :] = 0
    zp[8, :] = 0
    zp[15, :] = 0
    zc = rng.integers(1, 1 << 62, size=16, dtype=np.int64)
    zc[0] = 0
    ze = rng.integers(1, 1 << 62, size=8, dtype=np.int64)
    zs = rng.integers(1, 1 << 62, size=1, dtype=np.int64)
    return knight, king, rays, zp, zc, ze, zs


KNIGHT_TO, KING_TO, RAYS, Z_PIECE, Z_CASTLE, Z_EP, Z_SIDE = _build_tables()


def _build_direction() -> np.ndarray:
    """direction[a, b]: the index d of the ray ``RAYS[a, d]`` that holds b, else -1."""
    direction = np.full((64, 64), -1, dtype=np.int64)
    for sq in range(64):
        for d in range(8):
            for k in range(7):
                t = RAYS[sq, d, k]
                if t < 0:
                    break
                direction[sq, t] = d
    return direction


DIRECTION = _build_direction()


def bits_of(squares) -> np.int64:
    """The int64 bitboard of ``squares`` (bit 63 is the sign bit)."""
    v = 0
    for sq in squares:
        v |= 1 << int(sq)
    return np.array([v], dtype=np.uint64).view(np.int64)[0]


# RAY_BB[d, sq]: the squares of RAYS[sq, d]; RAY_UP[d]: the ray runs towards higher squares
# (its nearest piece is the lowest set bit of ray & occupied, else the highest)
RAY_BB = np.array(
    [[bits_of(t for t in RAYS[sq, d] if t >= 0) for sq in range(64)] for d in range(8)]
)
RAY_UP = np.array([1, 0, 1, 0, 1, 1, 0, 0], dtype=np.int64)
KNIGHT_BB = np.array([bits_of(t for t in KNIGHT_TO[sq] if t >= 0) for sq in range(64)])
KING_BB = np.array([bits_of(t for t in KING_TO[sq] if t >= 0) for sq in range(64)])
# PAWN_FROM[c, sq]: the squares from which a pawn of colour c attacks sq
PAWN_FROM = np.array(
    [
        [
            bits_of(
                t
                for t, ok in (
                    ((sq - 9, (sq & 7) > 0), (sq - 7, (sq & 7) < 7))
                    if c == 0
                    else ((sq + 7, (sq & 7) > 0), (sq + 9, (sq & 7) < 7))
                )
                if ok and 0 <= t < 64
            )
            for sq in range(64)
        ]
        for c in range(2)
    ]
)
LINES_BB = np.array([RAY_BB[0:4, sq].sum() for sq in range(64)], dtype=np.int64)  # disjoint
DIAGONALS_BB = np.array([RAY_BB[4:8, sq].sum() for sq in range(64)], dtype=np.int64)


# --- bitboards: int64 sets of squares (bit sq), kept in ``st`` by make/undo ---------------------


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (one instruction)."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def lsb(typingctx, x):
    """Index of the lowest set bit of a non-zero int64."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@intrinsic
def msb(typingctx, x):
    """Index of the highest set bit of a non-zero int64."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return types.int64(types.int64), codegen


@njit(cache=True, nogil=True, _nrt=False)
def set_bitboards(bd, st) -> None:
    """The bitboards of ``st`` from the board (``st[I_BB_OK]`` 0 means they are not set yet:
    ``Position`` leaves them zero, and the evaluation calls this on first use)."""
    for p in range(16):
        st[I_BB + p] = 0
    for sq in range(64):
        p = bd[sq]
        if p != 0:
            st[I_BB + p] |= np.int64(1) << sq
            st[I_BB + (p & 8)] |= np.int64(1) << sq
    st[I_BB_OK] = 1


@njit(cache=True, nogil=True, inline="always")
def encode(fr: int, to: int, promo: int, flag: int) -> int:
    return fr | (to << 6) | (promo << 12) | (flag << 16)


@njit(cache=True, nogil=True, _nrt=False)
def attacked(bd, st, sq: int, by: int) -> bool:
    """Whether side ``by`` attacks square ``sq`` (from the bitboards of ``st``)."""
    c = by << 3
    if PAWN_FROM[by, sq] & st[I_BB + c + PAWN] != 0:
        return True
    if KNIGHT_BB[sq] & st[I_BB + c + KNIGHT] != 0 or KING_BB[sq] & st[I_BB + c + KING] != 0:
        return True
    occ = st[I_BB] | st[I_BB + 8]
    lines = st[I_BB + c + ROOK] | st[I_BB + c + QUEEN]
    if lines & LINES_BB[sq] != 0:
        for d in range(4):
            blockers = RAY_BB[d, sq] & occ
            if blockers != 0:
                b = lsb(blockers) if RAY_UP[d] else msb(blockers)
                if (lines >> b) & 1:
                    return True
    diagonals = st[I_BB + c + BISHOP] | st[I_BB + c + QUEEN]
    if diagonals & DIAGONALS_BB[sq] != 0:
        for d in range(4, 8):
            blockers = RAY_BB[d, sq] & occ
            if blockers != 0:
                b = lsb(blockers) if RAY_UP[d] else msb(blockers)
                if (diagonals >> b) & 1:
                    return True
    return False


@njit(cache=True, nogil=True, inline="always")
def first_piece(bd, sq: int, d: int) -> int:
    """The first occupied square from ``sq`` along ray ``d`` (-1 if none)."""
    for k in range(7):
        t = RAYS[sq, d, k]
        if t < 0:
            return -1
        if bd[t] != 0:
            return t
    return -1


@njit(cache=True, nogil=True, inline="always")
def slides(pt: int, d: int) -> bool:
    """Piece type ``pt`` moves along rays of direction ``d`` (0-3 lines, 4-7 diagonals)."""
    return pt == QUEEN or (pt == ROOK if d < 4 else pt == BISHOP)


@njit(cache=True, nogil=True, inline="always")
def gives_check(bd, st, mv: int) -> bool:
    """After ``make(mv)``: whether the side to move is in check (exact). Only the moved
    piece (a direct check) and the line it left (a discovered check) are examined; castling
    and en passant take the full test."""
    us = st[I_SIDE]
    k = st[I_KSQ + us]
    flag = mv >> 16
    if flag == FLAG_EP or flag == FLAG_CASTLE:
        if st[I_BB_OK] == 0:
            set_bitboards(bd, st)
        return attacked(bd, st, k, 1 - us)
    fr = mv & 63
    to = (mv >> 6) & 63
    t = bd[to] & 7
    if t == KNIGHT:
        df = abs((to & 7) - (k & 7))
        dr = abs((to >> 3) - (k >> 3))
        if (df == 1 and dr == 2) or (df == 2 and dr == 1):
            return True
    elif t == PAWN:
        ahead = 1 if us == BLACK else -1  # the mover's pawn attacks one rank ahead of it
        if abs((to & 7) - (k & 7)) == 1 and (k >> 3) - (to >> 3) == ahead:
            return True
    elif t != KING:
        d = DIRECTION[to, k]
        if d >= 0 and slides(t, d) and first_piece(bd, to, d) == k:
            return True
    d = DIRECTION[k, fr]
    if d >= 0:
        s = first_piece(bd, k, d)
        if s >= 0:
            p = bd[s]
            if (p >> 3) != us and slides(p & 7, d):
                return True
    return False


@njit(cache=True, nogil=True, inline="always")
def quiet_gives_check(bd, mv: int, ek: int) -> bool:
    """Before making ``mv`` (a quiet move, not castling): whether it checks the king on
    ``ek`` (exact): directly, or by uncovering a line of the mover's slider."""
    fr = mv & 63
    to = (mv >> 6) & 63
    p = bd[fr]
    t = p & 7
    if t == KNIGHT:
        df = abs((to & 7) - (ek & 7))
        dr = abs((to >> 3) - (ek >> 3))
        if (df == 1 and dr == 2) or (df == 2 and dr == 1):
            return True
    elif t == PAWN:
        ahead = 1 if (p >> 3) == WHITE else -1
        if abs((to & 7) - (ek & 7)) == 1 and (ek >> 3) - (to >> 3) == ahead:
            return True
    elif t != KING:
        d = DIRECTION[to, ek]
        if d >= 0 and slides(t, d):
            for k in range(7):
                sq = RAYS[to, d, k]
                if sq == ek:
                    return True
                if bd[sq] != 0 and sq != fr:
                    break
    d = DIRECTION[ek, fr]
    if d < 0 or DIRECTION[ek, to] == d:
        return False
    passed = False
    for k in range(7):
        sq = RAYS[ek, d, k]
        if sq < 0:
            return False
        if sq == fr:
            passed = True
            continue
        q = bd[sq]
        if q != 0:
            return passed and (q >> 3) == (p >> 3) and slides(q & 7, d)
    return False


@njit(cache=True, nogil=True, inline="always")
def in_check_fast(bd, st, hist) -> bool:
    """Whether the side to move is in check, from the last move when there is one (a null
    move never leaves the opponent in check)."""
    h = st[I_HPLY]
    if h == 0:
        if st[I_BB_OK] == 0:
            set_bitboards(bd, st)
        us = st[I_SIDE]
        return attacked(bd, st, st[I_KSQ + us], 1 - us)
    mv = hist[h - 1, H_MOVE]
    if mv == 0:
        return False
    return gives_check(bd, st, mv)


@njit(cache=True, nogil=True, inline="always")
def pin_ok(bd, fr: int, to: int, k: int, us: int) -> bool:
    """For a move fr -> to by a non-king piece of side ``us`` (king on ``k``, not in check,
    not en passant): False when the piece is pinned to its king and leaves the pin line."""
    d = DIRECTION[k, fr]
    if d < 0 or first_piece(bd, k, d) != fr:
        return True
    s = first_piece(bd, fr, d)
    if s < 0:
        return True
    p = bd[s]
    if (p >> 3) == us or not slides(p & 7, d):
        return True
    return DIRECTION[k, to] == d


@njit(cache=True, nogil=True, _nrt=False)
def in_check(bd, st) -> bool:
    us = st[I_SIDE]
    if st[I_BB_OK] == 0:
        set_bitboards(bd, st)
    return attacked(bd, st, st[I_KSQ + us], 1 - us)


@njit(cache=True, nogil=True, inline="always")
def leaves_check(bd, st) -> bool:
    """After ``make``: whether the side that just moved left its king attacked (illegal)."""
    them = st[I_SIDE]
    return attacked(bd, st, st[I_KSQ + 1 - them], them)


@njit(cache=True, nogil=True, inline="always")
def _castling(bd, st, out, at: int, us: int, rights: int, occ: int) -> int:
    """Castling moves of side ``us`` (its rights ``rights``: 1 king side, 2 queen side) into
    ``out[at:]``, kingside first: every square between the king or the rook and its target
    empty but for those two, the king's square and the squares it passes not attacked (its
    target is left to ``leaves_check``, which sees the rook on its new square)."""
    them = 1 - us
    k = st[I_KSQ + us]
    rank = 56 * us
    n = 0
    for wing in range(2):
        if rights & (1 << wing) == 0:
            continue
        r = st[I_CROOK + 2 * us + wing]
        if bd[r] != (ROOK | (us << 3)):
            continue
        kt = rank + (6 if wing == 0 else 2)
        rt = rank + (5 if wing == 0 else 3)
        lo = min(min(k, kt), min(r, rt)) - rank
        hi = max(max(k, kt), max(r, rt)) - rank
        span = (((np.int64(2) << hi) - 1) ^ ((np.int64(1) << lo) - 1)) << rank
        if occ & span & ~((np.int64(1) << k) | (np.int64(1) << r)) != 0:
            continue
        if attacked(bd, st, k, them):
            return n
        step = 1 if kt > k else -1
        ok = True
        for s in range(k + step, kt, step):
            if attacked(bd, st, s, them):
                ok = False
                break
        if ok:
            out[at + n] = encode(k, kt, 0, FLAG_CASTLE)
            n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def generate(bd, st, out, base: int, quiets: bool) -> int:
    """Pseudo-legal moves into the flat ``out[base:]``; with ``quiets`` False only captures and
    queen promotions (the quiescence search). Returns the count."""
    us = st[I_SIDE]
    them = 1 - us
    ep = st[I_EP]
    n = 0
    if us == WHITE:
        fwd = 8
        start_rank = 1
        promo_rank = 6
    else:
        fwd = -8
        start_rank = 6
        promo_rank = 1
    if st[I_BB_OK] == 0:
        set_bitboards(bd, st)
    own = st[I_BB + (us << 3)]
    opp = st[I_BB + (them << 3)]
    occ = own | opp
    x = own
    while x != 0:  # the side's pieces by increasing square
        sq = lsb(x)
        x &= x - 1
        t = bd[sq] & 7
        if t == PAWN:
            r = sq >> 3
            f = sq & 7
            to = sq + fwd
            if r == promo_rank:
                if bd[to] == 0:
                    out[base + n] = encode(sq, to, QUEEN, 0)
                    n += 1
                    if quiets:
                        for pr in range(KNIGHT, QUEEN):
                            out[base + n] = encode(sq, to, pr, 0)
                            n += 1
                for df in (-1, 1):
                    if 0 <= f + df < 8:
                        c = bd[to + df]
                        if c != 0 and (c >> 3) == them:
                            out[base + n] = encode(sq, to + df, QUEEN, 0)
                            n += 1
                            if quiets:
                                for pr in range(KNIGHT, QUEEN):
                                    out[base + n] = encode(sq, to + df, pr, 0)
                                    n += 1
            else:
                if quiets and bd[to] == 0:
                    out[base + n] = encode(sq, to, 0, 0)
                    n += 1
                    if r == start_rank and bd[to + fwd] == 0:
                        out[base + n] = encode(sq, to + fwd, 0, FLAG_DOUBLE)
                        n += 1
                for df in (-1, 1):
                    if 0 <= f + df < 8:
                        tgt = to + df
                        c = bd[tgt]
                        if c != 0 and (c >> 3) == them:
                            out[base + n] = encode(sq, tgt, 0, 0)
                            n += 1
                        elif tgt == ep:
                            out[base + n] = encode(sq, tgt, 0, FLAG_EP)
                            n += 1
        elif t == KNIGHT or t == KING:
            for k in range(8):
                tgt = KNIGHT_TO[sq, k] if t == KNIGHT else KING_TO[sq, k]
                if tgt < 0:
                    break
                c = bd[tgt]
                if c == 0:
                    if quiets:
                        out[base + n] = encode(sq, tgt, 0, 0)
                        n += 1
                elif (c >> 3) == them:
                    out[base + n] = encode(sq, tgt, 0, 0)
                    n += 1
        else:
            # each ray: the empty squares nearest first, then the first piece if an enemy one
            d0 = 4 if t == BISHOP else 0
            d1 = 4 if t == ROOK else 8
            for d in range(d0, d1):
                ray = RAY_BB[d, sq]
                blockers = ray & occ
                up = RAY_UP[d] != 0
                if blockers != 0:
                    ray ^= RAY_BB[d, lsb(blockers) if up else msb(blockers)]
                if quiets:
                    q = ray & ~occ
                    while q != 0:
                        if up:
                            tgt = lsb(q)
                            q &= q - 1
                        else:
                            tgt = msb(q)
                            q ^= np.int64(1) << tgt
                        out[base + n] = encode(sq, tgt, 0, 0)
                        n += 1
                hit = ray & opp
                if hit != 0:
                    out[base + n] = encode(sq, lsb(hit), 0, 0)
                    n += 1
    if quiets:
        rights = (st[I_CASTLE] >> (2 * us)) & 3
        if rights != 0:
            n += _castling(bd, st, out, base + n, us, rights, occ)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _ep_possible(bd, to: int, pawn: int) -> bool:
    """A pawn ``pawn`` stands beside square ``to`` (so the double push left a real e.p.)."""
    f = to & 7
    return (f > 0 and bd[to - 1] == pawn) or (f < 7 and bd[to + 1] == pawn)


@njit(cache=True, nogil=True, _nrt=False)
def make(bd, st, hist, pst, mv: int) -> None:
    """Play ``mv`` (pseudo-legal), updating the key, eval sums, counts and history."""
    h = st[I_HPLY]
    hist[h, H_MOVE] = mv
    hist[h, H_CASTLE] = st[I_CASTLE]
    hist[h, H_EP] = st[I_EP]
    hist[h, H_HALF] = st[I_HALF]
    hist[h, H_HASH] = st[I_HASH]
    hist[h, H_MG] = st[I_MG]
    hist[h, H_EG] = st[I_EG]
    hist[h, H_PHASE] = st[I_PHASE]
    st[I_HPLY] = h + 1
    fr = mv & 63
    to = (mv >> 6) & 63
    promo = (mv >> 12) & 7
    flag = mv >> 16
    us = st[I_SIDE]
    p = np.int64(bd[fr])
    key = st[I_HASH] ^ Z_SIDE[0]
    mg = st[I_MG]
    eg = st[I_EG]
    if st[I_EP] >= 0:
        key ^= Z_EP[st[I_EP] & 7]
    st[I_EP] = -1
    t = p & 7
    if flag == FLAG_CASTLE:
        # king and rook leave, then land (Chess960: they may swap or land on each other's squares)
        captured = np.int64(0)
        rf = st[I_CROOK + 2 * us + (0 if (to & 7) == 6 else 1)]
        rt = to - 1 if (to & 7) == 6 else to + 1
        rook = np.int64(bd[rf])
        bd[fr] = 0
        bd[rf] = 0
        bd[to] = p
        bd[rt] = rook
        st[I_KSQ + us] = to
        st[I_BB + p] ^= (np.int64(1) << fr) ^ (np.int64(1) << to)
        st[I_BB + rook] ^= (np.int64(1) << rf) ^ (np.int64(1) << rt)
        st[I_BB + (us << 3)] ^= (
            (np.int64(1) << fr) ^ (np.int64(1) << to) ^ (np.int64(1) << rf) ^ (np.int64(1) << rt)
        )
        key ^= Z_PIECE[p, fr] ^ Z_PIECE[p, to] ^ Z_PIECE[rook, rf] ^ Z_PIECE[rook, rt]
        mg += pst[0, p, to] - pst[0, p, fr] + pst[0, rook, rt] - pst[0, rook, rf]
        eg += pst[1, p, to] - pst[1, p, fr] + pst[1, rook, rt] - pst[1, rook, rf]
        hist[h, H_CAPT] = 0
    else:
        captured = np.int64(bd[to])
        if flag == FLAG_EP:
            capsq = to - 8 if us == WHITE else to + 8
            captured = np.int64(bd[capsq])
            bd[capsq] = 0
            st[I_BB + captured] ^= np.int64(1) << capsq
            st[I_BB + (captured & 8)] ^= np.int64(1) << capsq
            key ^= Z_PIECE[captured, capsq]
            mg -= pst[0, captured, capsq]
            eg -= pst[1, captured, capsq]
            st[I_CNT + captured] -= 1
        elif captured != 0:
            st[I_BB + captured] ^= np.int64(1) << to
            st[I_BB + (captured & 8)] ^= np.int64(1) << to
            key ^= Z_PIECE[captured, to]
            mg -= pst[0, captured, to]
            eg -= pst[1, captured, to]
            st[I_CNT + captured] -= 1
            st[I_PHASE] -= PHASE_WEIGHT[captured & 7]
        hist[h, H_CAPT] = captured
        bd[fr] = 0
        key ^= Z_PIECE[p, fr]
        mg -= pst[0, p, fr]
        eg -= pst[1, p, fr]
        placed = p
        if promo != 0:
            placed = promo | (us << 3)
            st[I_CNT + p] -= 1
            st[I_CNT + placed] += 1
            st[I_PHASE] += PHASE_WEIGHT[promo]
        bd[to] = placed
        st[I_BB + p] ^= np.int64(1) << fr
        st[I_BB + placed] ^= np.int64(1) << to
        st[I_BB + (us << 3)] ^= (np.int64(1) << fr) | (np.int64(1) << to)
        key ^= Z_PIECE[placed, to]
        mg += pst[0, placed, to]
        eg += pst[1, placed, to]
        if t == KING:
            st[I_KSQ + us] = to
    old = st[I_CASTLE]
    new = old & st[I_CMASK + fr] & st[I_CMASK + to]
    if new != old:
        key ^= Z_CASTLE[old] ^ Z_CASTLE[new]
        st[I_CASTLE] = new
    if flag == FLAG_DOUBLE and _ep_possible(bd, to, PAWN | ((1 - us) << 3)):
        e = (fr + to) >> 1
        st[I_EP] = e
        key ^= Z_EP[e & 7]
    if t == PAWN or captured != 0:
        st[I_HALF] = 0
    else:
        st[I_HALF] += 1
    if us == BLACK:
        st[I_FULL] += 1
    st[I_SIDE] = 1 - us
    st[I_HASH] = key
    st[I_MG] = mg
    st[I_EG] = eg


@njit(cache=True, nogil=True, _nrt=False)
def undo(bd, st, hist) -> None:
    """Take back the last ``make``."""
    h = st[I_HPLY] - 1
    st[I_HPLY] = h
    mv = hist[h, H_MOVE]
    captured = hist[h, H_CAPT]
    st[I_CASTLE] = hist[h, H_CASTLE]
    st[I_EP] = hist[h, H_EP]
    st[I_HALF] = hist[h, H_HALF]
    st[I_HASH] = hist[h, H_HASH]
    st[I_MG] = hist[h, H_MG]
    st[I_EG] = hist[h, H_EG]
    st[I_PHASE] = hist[h, H_PHASE]
    us = 1 - st[I_SIDE]
    st[I_SIDE] = us
    if us == BLACK:
        st[I_FULL] -= 1
    fr = mv & 63
    to = (mv >> 6) & 63
    promo = (mv >> 12) & 7
    flag = mv >> 16
    if flag == FLAG_CASTLE:
        rf = st[I_CROOK + 2 * us + (0 if (to & 7) == 6 else 1)]
        rt = to - 1 if (to & 7) == 6 else to + 1
        king = np.int64(bd[to])
        rook = np.int64(bd[rt])
        bd[to] = 0
        bd[rt] = 0
        bd[fr] = king
        bd[rf] = rook
        st[I_KSQ + us] = fr
        st[I_BB + king] ^= (np.int64(1) << fr) ^ (np.int64(1) << to)
        st[I_BB + rook] ^= (np.int64(1) << rf) ^ (np.int64(1) << rt)
        st[I_BB + (us << 3)] ^= (
            (np.int64(1) << fr) ^ (np.int64(1) << to) ^ (np.int64(1) << rf) ^ (np.int64(1) << rt)
        )
        return
    placed = np.int64(bd[to])
    p = placed
    if promo != 0:
        p = PAWN | (us << 3)
        st[I_CNT + placed] -= 1
        st[I_CNT + p] += 1
    bd[fr] = p
    st[I_BB + placed] ^= np.int64(1) << to
    st[I_BB + p] ^= np.int64(1) << fr
    st[I_BB + (us << 3)] ^= (np.int64(1) << fr) | (np.int64(1) << to)
    if flag == FLAG_EP:
        bd[to] = 0
        capsq = to - 8 if us == WHITE else to + 8
        bd[capsq] = captured
        st[I_CNT + captured] += 1
        st[I_BB + captured] ^= np.int64(1) << capsq
        st[I_BB + (captured & 8)] ^= np.int64(1) << capsq
    else:
        bd[to] = captured
        if captured != 0:
            st[I_CNT + captured] += 1
            st[I_BB + captured] ^= np.int64(1) << to
            st[I_BB + (captured & 8)] ^= np.int64(1) << to
    if (p & 7) == KING:
        st[I_KSQ + us] = fr


@njit(cache=True, nogil=True, _nrt=False)
def make_null(st, hist) -> None:
    """Pass (null-move pruning): only the side, the e.p. square and the key change."""
    h = st[I_HPLY]
    hist[h, H_MOVE] = 0
    hist[h, H_CAPT] = 0
    hist[h, H_CASTLE] = st[I_CASTLE]
    hist[h, H_EP] = st[I_EP]
    hist[h, H_HALF] = st[I_HALF]
    hist[h, H_HASH] = st[I_HASH]
    hist[h, H_MG] = st[I_MG]
    hist[h, H_EG] = st[I_EG]
    hist[h, H_PHASE] = st[I_PHASE]
    st[I_HPLY] = h + 1
    key = st[I_HASH] ^ Z_SIDE[0]
    if st[I_EP] >= 0:
        key ^= Z_EP[st[I_EP] & 7]
        st[I_EP] = -1
    st[I_HALF] += 1
    st[I_SIDE] = 1 - st[I_SIDE]
    st[I_HASH] = key


@njit(cache=True, nogil=True, _nrt=False)
def undo_null(st, hist) -> None:
    h = st[I_HPLY] - 1
    st[I_HPLY] = h
    st[I_EP] = hist[h, H_EP]
    st[I_HALF] = hist[h, H_HALF]
    st[I_HASH] = hist[h, H_HASH]
    st[I_SIDE] = 1 - st[I_SIDE]


@njit(cache=True, nogil=True)
def compute_hash(bd, st) -> int:
    """The Zobrist key from scratch (tests compare it with the incremental one)."""
    key = 0
    for sq in range(64):
        if bd[sq] != 0:
            key ^= Z_PIECE[bd[sq], sq]
    key ^= Z_CASTLE[st[I_CASTLE]]
    if st[I_EP] >= 0:
        key ^= Z_EP[st[I_EP] & 7]
    if st[I_SIDE] == BLACK:
        key ^= Z_SIDE[0]
    return key


@njit(cache=True, nogil=True)
def compute_psq(bd, pst):
    """(middle game, end game, phase) sums from scratch."""
    mg = 0
    eg = 0
    phase = 0
    for sq in range(64):
        p = bd[sq]
        if p != 0:
            mg += pst[0, p, sq]
            eg += pst[1, p, sq]
            phase += PHASE_WEIGHT[p & 7]
    return mg, eg, phase


@njit(cache=True, nogil=True, _nrt=False)
def is_repetition(st, hist) -> bool:
    """The current position occurred before since the last irreversible move."""
    h = st[I_HPLY]
    key = st[I_HASH]
    lo = max(0, h - st[I_HALF])
    i = h - 4
    while i >= lo:
        if hist[i, H_HASH] == key:
            return True
        i -= 2
    return False


@njit(cache=True, nogil=True, _nrt=False)
def insufficient_material(st) -> bool:
    """Bare kings, or a lone minor piece (dead draws the search scores as 0)."""
    for c in range(2):
        b = c << 3
        if st[I_CNT + b + PAWN] or st[I_CNT + b + ROOK] or st[I_CNT + b + QUEEN]:
            return False
    minors = 0
    for c in range(2):
        b = c << 3
        minors += st[I_CNT + b + KNIGHT] + st[I_CNT + b + BISHOP]
    return minors <= 1


@njit(cache=True, nogil=True)
def legal_moves(bd, st, hist, pst, out, row: int) -> int:
    """Legal moves into ``out[row, :]`` (generation, then pins or make / check / undo)."""
    flat = out.reshape(out.size)
    base = row * out.shape[1]
    n = generate(bd, st, flat, base, True)
    us = st[I_SIDE]
    ksq = st[I_KSQ + us]
    checked = in_check_fast(bd, st, hist)
    k = 0
    for i in range(n):
        mv = flat[base + i]
        fr = mv & 63
        if not (checked or (bd[fr] & 7) == KING or (mv >> 16) == FLAG_EP):
            if pin_ok(bd, fr, (mv >> 6) & 63, ksq, us):
                flat[base + k] = mv
                k += 1
            continue
        make(bd, st, hist, pst, mv)
        if not leaves_check(bd, st):
            flat[base + k] = mv
            k += 1
        undo(bd, st, hist)
    return k


@njit(cache=True, nogil=True)
def perft(bd, st, hist, pst, out, depth: int, ply: int) -> int:
    """Leaf count at ``depth`` (self-recursive; called from Python only), over
    :func:`legal_moves` (the search's legality: pins, or make + ``leaves_check`` for king
    moves, en passant and check evasions)."""
    n = legal_moves(bd, st, hist, pst, out, ply)
    if depth <= 1:
        return n
    total = 0
    for i in range(n):
        mv = out[ply, i]
        make(bd, st, hist, pst, mv)
        total += perft(bd, st, hist, pst, out, depth - 1, ply + 1)
        undo(bd, st, hist)
    return total
