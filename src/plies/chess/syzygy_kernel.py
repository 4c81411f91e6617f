"""Syzygy WDL probing inside the compiled search (compiled).

The tables loaded by :mod:`plies.chess.syzygy_tables` travel as one ``uint8`` array ``tb``
(one array more for the search kernel to pass down its recursion): first the index, ``int64``
values read through ``tbi = tb.view(np.int64)`` (a header, the material keys sorted for a
binary search, one record per table with its piece orders, normalisation, factors and the
decompression parameters of each sub-table, then the symbol lengths and Huffman base values),
then every ``.rtbw`` file, read as bytes (``tbd``, the same array; offsets are from its start).
With no tables, ``tb`` is the bare header with ``tbi[H_MAXPC]`` (the byte
``tb[TB_MAXPC_BYTE]``) 0, so the kernels have the same types either way.

* :func:`probe_table` reads the table's value for the position as it stands: exact only when
  the side to move has no capture (a table may hold any value up to the best capture's where a
  capture is best: it compresses better).
* :func:`probe_wdl` is exact: an alpha-beta search over the captures (non-recursive, with an
  explicit stack in a scratch array) with the table value as the stand-pat, as the tables'
  author prescribes. Positions with an en-passant square or castling rights are not in the
  tables; the callers do not probe them.

Values are from the side to move's view: 2 win, 1 win spoiled by the 50-move rule (cursed),
0 draw, -1 loss saved by the 50-move rule (blessed), -2 loss; ``TB_FAIL`` when a table needed
is not loaded.

The index of a position follows the Syzygy format: the pieces of the table's order on their
squares (colours swapped and the board turned over when the material is the table's reversed),
mirrored so that the leading piece (a king for pawnless tables, the leading pawn for the others)
stands in a canonical part of the board, then binomial indices of groups of equal pieces;
the value is found in a block of a canonical Huffman code whose symbols expand by a pair tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.chess.engine.board import (
    FLAG_CASTLE,
    FLAG_EP,
    I_BB,
    I_BB_OK,
    I_CNT,
    I_SIDE,
    MAX_MOVES,
    generate,
    leaves_check,
    lsb,
    make,
    popcount,
    set_bitboards,
    undo,
)

TB_FAIL = 99  # no value: a table needed is missing
MAX_TB_PIECES = 7
SIGN = np.int64(-(1 << 63))  # xor with it turns an unsigned comparison into a signed one

# --- tbi layout ----------------------------------------------------------------------------------
H_NTAB = 0  # tables
H_MAXPC = 1  # the most pieces of a loaded table (0: none loaded)
H_NKEYS = 2
H_KEYS = 3  # offset of the (key, table) pairs, sorted by key
H_RECS = 4  # offset of the table records
HEADER = 8
TB_MAXPC_BYTE = 8 * H_MAXPC  # the low byte of tbi[H_MAXPC] (little-endian)

R_NUM = 0  # pieces
R_LEAD = 1  # leading pawns (0 for a pawnless table)
R_OTHER = 2  # pawns of the other colour
R_ENC = 3  # pawnless index type: 0 (three or more unique pieces) or 2 (only the kings)
R_SYM = 4  # symmetric material (KRvKR): one side to move stored, colours set by the mover
R_KEY = 5  # material key of the table's "white"
R_LEADPC = 6  # piece code of the leading pawns in the table's colours
R_SUB = 8
SUB_COUNT = 8  # sub-table (file f, side b) at R_SUB + (2 f + b) * SUB
U_OK = 0
U_PIECES = 1  # 7
U_NORM = 8  # 7
U_FACTOR = 15  # 7
U_IDXBITS = 22
U_BLOCKSIZE = 23
U_MINLEN = 24
U_INDEX = 25  # byte offsets into tbd
U_SIZES = 26
U_DATA = 27
U_SYMIDX = 28  # first symbol of each code length: u16 at U_SYMIDX + 2 * length
U_SYMPAT = 29
U_SYMLEN = 30  # offsets into tbi
U_BASE = 31
SUB = 32
REC = R_SUB + SUB_COUNT * SUB

# scratch of the capture search: per level alpha, beta, count, next, then the moves
LEVELS = 8
LV_SIZE = 4 + MAX_MOVES
SCRATCH_SIZE = LEVELS * LV_SIZE


def material_key(counts) -> int:
    """The key of a material: ``counts[c][t]`` pieces of colour c (0 white) and type t
    (1 pawn .. 5 queen), 4 bits each, white in the low 20 bits."""
    key = 0
    for c in range(2):
        for t in range(1, 6):
            key |= int(counts[c][t]) << (4 * (t - 1) + 20 * c)
    return key


def mirror_key(key: int) -> int:
    return ((key & 0xFFFFF) << 20) | (key >> 20)


# --- the format's square tables, derived from their definitions ---------------------------------


def _binomials() -> np.ndarray:
    b = np.zeros((65, 8), dtype=np.int64)
    for n in range(65):
        for k in range(8):
            if k <= n:
                v = 1
                for i in range(k):
                    v = v * (n - i) // (i + 1)
                b[n, k] = v
    return b


BINOM = _binomials()


def _canonical(sq: int) -> int:
    """The square in the a1-d1-d4 triangle that ``sq`` maps to by the board's symmetries."""
    f, r = sq & 7, sq >> 3
    if f > 3:
        f = 7 - f
    if r > 3:
        r = 7 - r
    if r > f:
        f, r = r, f
    return r * 8 + f


# the triangle's squares: off the diagonal b1 c1 d1 c2 d2 d3, then on it a1 b2 c3 d4
TRIANGLE_ORDER = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27]
TRIANGLE = np.array([TRIANGLE_ORDER.index(_canonical(sq)) for sq in range(64)], dtype=np.int64)


def _lower() -> np.ndarray:
    """Squares below the a1-h8 diagonal numbered 0..27 by rank then file, the diagonal
    28..35; squares above take their reflection's number."""
    out = np.zeros(64, dtype=np.int64)
    k = 0
    for r in range(8):
        for f in range(r + 1, 8):
            out[r * 8 + f] = k
            out[f * 8 + r] = k
            k += 1
    for r in range(8):
        out[r * 8 + r] = 28 + r
    return out


LOWER = _lower()
# DIAG: a1-h8 diagonal 0..7 by rank, h1-a8 diagonal 8..15 by rank, else 0
DIAG = np.zeros(64, dtype=np.int64)
for _r in range(8):
    DIAG[_r * 8 + _r] = _r
    DIAG[_r * 8 + 7 - _r] = 8 + _r


def _king_pairs() -> np.ndarray:
    """KK_IDX[t, sq]: the index of the king pair (first king on triangle square number t,
    second on sq), -1 for impossible pairs; 462 pairs. A first king off the diagonal takes
    every square not next to it; one on the diagonal takes the squares below it first, and
    the squares of the diagonal after all other pairs."""
    idx = np.full((10, 64), -1, dtype=np.int64)
    n = 0

    def apart(a: int, b: int) -> bool:
        return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) > 1

    for t in range(10):
        k = TRIANGLE_ORDER[t]
        for sq in range(64):
            if apart(k, sq) and (t < 6 or (sq & 7) > (sq >> 3)):
                idx[t, sq] = n
                n += 1
    for t in range(6, 10):
        k = TRIANGLE_ORDER[t]
        for sq in range(0, 64, 9):
            if apart(k, sq):
                idx[t, sq] = n
                n += 1
    assert n == 462
    return idx


KK_IDX = _king_pairs()
KK_COUNT = 462
# pieces index of the first three unique pieces (enc 0): off-diagonal leader, diagonal leader
# with the second off it, both on it with the third off, all three on it
ENC0_COUNT = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6

FILE_FOLD = np.array([0, 1, 2, 3, 3, 2, 1, 0], dtype=np.int64)


def _flap() -> np.ndarray:
    """A pawn square's number among the 24 of files a-d (ranks 2-7), by file then rank."""
    out = np.zeros(64, dtype=np.int64)
    for sq in range(8, 56):
        out[sq] = FILE_FOLD[sq & 7] * 6 + (sq >> 3) - 1
    return out


FLAP = _flap()
INV_FLAP = np.array([8 * (j % 6 + 1) + j // 6 for j in range(24)], dtype=np.int64)


def _ptwist() -> np.ndarray:
    """The order of the other leading pawns: centre files first (d/e, then c/f, ...), in each
    file pair higher ranks first, the queen-side file before the king-side one."""
    out = np.zeros(64, dtype=np.int64)
    for sq in range(8, 56):
        f, r = sq & 7, sq >> 3
        centre = 3 - FILE_FOLD[f]
        out[sq] = 12 * centre + 2 * (6 - r) + (1 if f < 4 else 0)
    return out


PTWIST = _ptwist()


def _pawn_index() -> tuple[np.ndarray, np.ndarray]:
    """PAWN_IDX[t, j]: the first index of leading pawn j (FLAP number) with t more leading
    pawns; PAWN_FACTOR[t, f]: the count of indices of file f."""
    idx = np.zeros((5, 24), dtype=np.int64)
    fac = np.zeros((5, 4), dtype=np.int64)
    for t in range(5):
        for f in range(4):
            s = 0
            for j in range(6 * f, 6 * f + 6):
                idx[t, j] = s
                s += 1 if t == 0 else BINOM[PTWIST[INV_FLAP[j]], t]
            fac[t, f] = s
    return idx, fac


PAWN_IDX, PAWN_FACTOR = _pawn_index()


# --- reading the bytes ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _u16(tbd, p: int) -> int:
    return np.int64(tbd[p]) | (np.int64(tbd[p + 1]) << 8)


@njit(cache=True, nogil=True, inline="always")
def _u32(tbd, p: int) -> int:
    return (
        np.int64(tbd[p])
        | (np.int64(tbd[p + 1]) << 8)
        | (np.int64(tbd[p + 2]) << 16)
        | (np.int64(tbd[p + 3]) << 24)
    )


@njit(cache=True, nogil=True, inline="always")
def _u32_be(tbd, p: int) -> int:
    return (
        (np.int64(tbd[p]) << 24)
        | (np.int64(tbd[p + 1]) << 16)
        | (np.int64(tbd[p + 2]) << 8)
        | np.int64(tbd[p + 3])
    )


@njit(cache=True, nogil=True, _nrt=False)
def decompress(tbd, tbi, u: int, idx: int) -> int:
    """The symbol value at position ``idx`` of sub-table ``u`` (offset of its fields in
    ``tbi``): find the block through the index and size tables, walk the block's Huffman
    codes (64-bit window, unsigned comparisons by the sign flip) to the symbol holding
    ``idx``, then descend the symbol's pair tree to a single value."""
    idxbits = tbi[u + U_IDXBITS]
    min_len = tbi[u + U_MINLEN]
    if idxbits == 0:
        return min_len
    main = idx >> idxbits
    lit = (idx & ((np.int64(1) << idxbits) - 1)) - (np.int64(1) << (idxbits - 1))
    ip = tbi[u + U_INDEX] + 6 * main
    block = _u32(tbd, ip)
    lit += _u16(tbd, ip + 4)
    sizes = tbi[u + U_SIZES]
    if lit < 0:
        while lit < 0:
            block -= 1
            lit += _u16(tbd, sizes + 2 * block) + 1
    else:
        while lit > _u16(tbd, sizes + 2 * block):
            lit -= _u16(tbd, sizes + 2 * block) + 1
            block += 1
    ptr = tbi[u + U_DATA] + (block << tbi[u + U_BLOCKSIZE])
    code = (_u32_be(tbd, ptr) << 32) | _u32_be(tbd, ptr + 4)
    ptr += 8
    bits = 0
    base = tbi[u + U_BASE]
    symlen = tbi[u + U_SYMLEN]
    symidx = tbi[u + U_SYMIDX]
    while True:
        ln = min_len
        while (code ^ SIGN) < tbi[base + ln - min_len]:
            ln += 1
        real = tbi[base + ln - min_len] ^ SIGN
        offset = ((code - real) >> (64 - ln)) & ((np.int64(1) << ln) - 1)
        sym = _u16(tbd, symidx + 2 * ln) + offset
        n = tbi[symlen + sym] + 1
        if lit < n:
            break
        lit -= n
        code <<= ln
        bits += ln
        if bits >= 32:
            bits -= 32
            code |= _u32_be(tbd, ptr) << bits
            ptr += 4
    sympat = tbi[u + U_SYMPAT]
    while tbi[symlen + sym] != 0:
        w = sympat + 3 * sym
        left = ((np.int64(tbd[w + 1]) & 0xF) << 8) | np.int64(tbd[w])
        n = tbi[symlen + left] + 1
        if lit < n:
            sym = left
        else:
            lit -= n
            sym = (np.int64(tbd[w + 2]) << 4) | (np.int64(tbd[w + 1]) >> 4)
    return np.int64(tbd[sympat + 3 * sym])


@njit(cache=True, nogil=True, inline="always")
def _offdiag(sq: int) -> int:
    return (sq >> 3) - (sq & 7)


@njit(cache=True, nogil=True, inline="always")
def _flipdiag(sq: int) -> int:
    return ((sq >> 3) | (sq << 3)) & 63


@njit(cache=True, nogil=True, inline="always")
def _groups(tbi, u: int, pos, i: int, n: int, idx: int, pawn_shift: int) -> int:
    """Add the binomial indices of the groups of equal pieces from ``pos[i]`` on: each group
    sorted, each square counted among those not taken by the pieces before the group."""
    while i < n:
        t = tbi[u + U_NORM + i]
        for j in range(i, i + t):
            for k in range(j + 1, i + t):
                if pos[j] > pos[k]:
                    x = pos[j]
                    pos[j] = pos[k]
                    pos[k] = x
        s = 0
        for m in range(i, i + t):
            p = pos[m]
            below = 0
            for q in range(i):
                if p > pos[q]:
                    below += 1
            v = p - below - pawn_shift
            if v >= 0:
                s += BINOM[v, m - i + 1]
        idx += s * tbi[u + U_FACTOR + i]
        i += t
        pawn_shift = 0
    return idx


@njit(cache=True, nogil=True, _nrt=False)
def encode_pieces(tbi, u: int, enc: int, pos, n: int) -> int:
    """The index of a pawnless position (``pos[:n]``, the table's piece order; changed)."""
    if pos[0] & 4:
        for i in range(n):
            pos[i] ^= 7
    if pos[0] & 0x20:
        for i in range(n):
            pos[i] ^= 0x38
    first = n - 1
    for i in range(n):
        if _offdiag(pos[i]) != 0:
            first = i
            break
    if first < (3 if enc == 0 else 2) and _offdiag(pos[first]) > 0:
        for i in range(n):
            pos[i] = _flipdiag(pos[i])
    if enc == 0:
        a = 1 if pos[1] > pos[0] else 0
        b = (1 if pos[2] > pos[0] else 0) + (1 if pos[2] > pos[1] else 0)
        if _offdiag(pos[0]) != 0:
            idx = TRIANGLE[pos[0]] * 63 * 62 + (pos[1] - a) * 62 + (pos[2] - b)
        elif _offdiag(pos[1]) != 0:
            idx = 6 * 63 * 62 + DIAG[pos[0]] * 28 * 62 + LOWER[pos[1]] * 62 + pos[2] - b
        elif _offdiag(pos[2]) != 0:
            idx = (
                6 * 63 * 62 + 4 * 28 * 62 + DIAG[pos[0]] * 7 * 28 + (DIAG[pos[1]] - a) * 28
                + LOWER[pos[2]]
            )  # fmt: skip
        else:
            idx = (
                6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + DIAG[pos[0]] * 7 * 6
                + (DIAG[pos[1]] - a) * 6 + (DIAG[pos[2]] - b)
            )  # fmt: skip
        start = 3
    else:
        idx = KK_IDX[TRIANGLE[pos[0]], pos[1]]
        start = 2
    idx *= tbi[u + U_FACTOR]
    return _groups(tbi, u, pos, start, n, idx, 0)


@njit(cache=True, nogil=True, _nrt=False)
def encode_pawns(tbi, u: int, lead: int, other: int, pos, n: int) -> int:
    """The index of a position with pawns (``pos[0]`` the leading pawn chosen by
    :func:`probe_table`; ``pos`` is changed)."""
    if pos[0] & 4:
        for i in range(n):
            pos[i] ^= 7
    for i in range(1, lead):
        for j in range(i + 1, lead):
            if PTWIST[pos[i]] < PTWIST[pos[j]]:
                x = pos[i]
                pos[i] = pos[j]
                pos[j] = x
    t = lead - 1
    idx = PAWN_IDX[t, FLAP[pos[0]]]
    for i in range(t, 0, -1):
        idx += BINOM[PTWIST[pos[i]], t - i + 1]
    idx *= tbi[u + U_FACTOR]
    if other > 0:
        return _groups(tbi, u, pos, lead, n, idx, 8)
    return _groups(tbi, u, pos, lead, n, idx, 0)


@njit(cache=True, nogil=True, inline="always")
def find_table(tbi, key: int) -> int:
    """The table of material ``key`` (binary search), -1 if none."""
    lo = 0
    hi = tbi[H_NKEYS] - 1
    kb = tbi[H_KEYS]
    while lo <= hi:
        mid = (lo + hi) >> 1
        k = tbi[kb + 2 * mid]
        if k == key:
            return tbi[kb + 2 * mid + 1]
        if k < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@njit(cache=True, nogil=True, inline="always")
def board_key(st) -> int:
    key = 0
    for t in range(1, 6):
        key |= st[I_CNT + t] << (4 * (t - 1))
        key |= st[I_CNT + 8 + t] << (4 * (t - 1) + 20)
    return key


@njit(cache=True, nogil=True, _nrt=False)
def probe_table(tb, st, pos) -> int:
    """The table's WDL value for the position of ``st`` (bitboards set) as it stands, from the
    side to move's view (exact only without a capture); ``TB_FAIL`` without its table.
    ``pos``: 8 int64 of scratch."""
    return _probe_table(tb, tb.view(np.int64), st, pos)


@njit(cache=True, nogil=True, _nrt=False)
def _probe_table(tbd, tbi, st, pos) -> int:
    key = board_key(st)
    if key == 0:
        return 0  # bare kings
    t = find_table(tbi, key)
    if t < 0:
        return TB_FAIL
    r = tbi[H_RECS] + t * REC
    black = st[I_SIDE]
    if tbi[r + R_SYM] != 0:
        cmirror = 8 * black
        mirror = 0x38 * black
        side = 0
    elif key != tbi[r + R_KEY]:
        cmirror = 8
        mirror = 0x38
        side = 1 - black
    else:
        cmirror = 0
        mirror = 0
        side = black
    n = tbi[r + R_NUM]
    lead = tbi[r + R_LEAD]
    if lead == 0:
        u = r + R_SUB + side * SUB
        if tbi[u + U_OK] == 0:
            return TB_FAIL
        i = 0
        while i < n:
            bb = st[I_BB + (tbi[u + U_PIECES + i] ^ cmirror)]
            while bb != 0:
                pos[i] = lsb(bb)
                bb &= bb - 1
                i += 1
        idx = encode_pieces(tbi, u, tbi[r + R_ENC], pos, n)
        return decompress(tbd, tbi, u, idx) - 2
    bb = st[I_BB + (tbi[r + R_LEADPC] ^ cmirror)]
    i = 0
    while bb != 0:
        pos[i] = lsb(bb) ^ mirror
        bb &= bb - 1
        i += 1
    for j in range(1, lead):
        if FLAP[pos[0]] > FLAP[pos[j]]:
            x = pos[0]
            pos[0] = pos[j]
            pos[j] = x
    f = FILE_FOLD[pos[0] & 7]
    u = r + R_SUB + (2 * f + side) * SUB
    if tbi[u + U_OK] == 0:
        return TB_FAIL
    while i < n:
        bb = st[I_BB + (tbi[u + U_PIECES + i] ^ cmirror)]
        while bb != 0:
            pos[i] = lsb(bb) ^ mirror
            bb &= bb - 1
            i += 1
    idx = encode_pawns(tbi, u, lead, tbi[r + R_OTHER], pos, n)
    return decompress(tbd, tbi, u, idx) - 2


@njit(cache=True, nogil=True, inline="always")
def _captures(bd, st, buf, at: int) -> int:
    """The side to move's pseudo-legal captures (promotions to every piece, no en passant)
    into ``buf[at:]``."""
    n = generate(bd, st, buf, at, True)
    k = 0
    for i in range(n):
        mv = buf[at + i]
        flag = mv >> 16
        if bd[(mv >> 6) & 63] != 0 and flag != FLAG_EP and flag != FLAG_CASTLE:
            buf[at + k] = mv
            k += 1
    return k


@njit(cache=True, nogil=True, _nrt=False)
def has_legal_move(bd, st, hist, pst, buf, at: int) -> bool:
    """Whether the side to move has a legal move (``buf[at : at + MAX_MOVES]`` scratch): the
    search asks it of a table loss in check, which may be a mate."""
    n = generate(bd, st, buf, at, True)
    for i in range(n):
        make(bd, st, hist, pst, buf[at + i])
        ok = not leaves_check(bd, st)
        undo(bd, st, hist)
        if ok:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def probe_wdl(tb, bd, st, hist, pst, buf, o: int) -> int:
    """The exact WDL value of the position (no castling rights, no en-passant square) for the
    side to move, or ``TB_FAIL``: alpha-beta over the captures within (-2, 2), each capture's
    value from the position after it, the table's value where no capture reaches alpha (its
    stand-pat). Non-recursive (the search kernel is the one recursive kernel): ``buf[o :
    o + SCRATCH_SIZE]`` holds each level's window and moves; ``buf[o + SCRATCH_SIZE :
    + 8]`` the piece squares."""
    if st[I_BB_OK] == 0:
        set_bitboards(bd, st)
    if popcount(st[I_BB] | st[I_BB + 8]) > MAX_TB_PIECES:
        return TB_FAIL
    tbd = tb
    tbi = tb.view(np.int64)
    pos = buf[o + SCRATCH_SIZE : o + SCRATCH_SIZE + 8]
    level = 0
    buf[o] = -2
    buf[o + 1] = 2
    buf[o + 2] = _captures(bd, st, buf, o + 4)
    buf[o + 3] = 0
    while True:
        lb = o + level * LV_SIZE
        i = buf[lb + 3]
        if i < buf[lb + 2]:
            buf[lb + 3] = i + 1
            mv = buf[lb + 4 + i]
            make(bd, st, hist, pst, mv)
            if leaves_check(bd, st):
                undo(bd, st, hist)
                continue
            level += 1
            nb = lb + LV_SIZE
            buf[nb] = -buf[lb + 1]
            buf[nb + 1] = -buf[lb]
            buf[nb + 2] = _captures(bd, st, buf, nb + 4)
            buf[nb + 3] = 0
            continue
        v = _probe_table(tbd, tbi, st, pos)
        if v == TB_FAIL:
            for _ in range(level):
                undo(bd, st, hist)
            return TB_FAIL
        if v < buf[lb]:
            v = buf[lb]
        # return v to the level above; a cut-off there returns at once, and so on
        while True:
            if level == 0:
                return v
            undo(bd, st, hist)
            level -= 1
            lb = o + level * LV_SIZE
            v = -v
            if v > buf[lb]:
                if v >= buf[lb + 1]:
                    continue
                buf[lb] = v
            break
