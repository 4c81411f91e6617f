"""Gomoku-family rules as compiled kernels: the one source of truth for every rule.

The board is a flat ``int8`` array with a wall border of ``PAD`` cells on every side, so that
line scans never leave the array: cell (x, y) lives at ``(y + PAD) * stride + x + PAD`` with
``stride = width + 2 * PAD``. Cells hold ``EMPTY``, ``BLACK``, ``WHITE`` or ``WALL``. The four
line directions are the offsets ``1, stride, stride + 1, stride - 1``.

Rules (see docs/rules.md for the exact definitions):

* ``FREESTYLE``: five or more in a row wins.
* ``STANDARD``: exactly five wins; six or more does not.
* ``RENJU``: white wins with five or more, black only with exactly five; black's overline,
  double four and double three are forbidden (the three is the recursive "real three").
* ``CARO``: five or more wins unless both ends are blocked by opponent stones.
* ``CARO5``: exactly five wins unless both ends are blocked by opponent stones.

Every kernel is ``@njit(cache=True, nogil=True)`` and non-recursive (the Renju check keeps an
explicit stack), so kernels can call each other from the numba cache safely.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = 0
BLACK = 1
WHITE = 2
WALL = 3

PAD = 5
MIN_SIZE = 5
MAX_SIZE = 22

FREESTYLE = 0
STANDARD = 1
RENJU = 2
CARO = 3
CARO5 = 4

RULE_NAMES = ("freestyle", "standard", "renju", "caro", "caro5")
RULE_CODES = {name: code for code, name in enumerate(RULE_NAMES)}

MAX_PADDED = (MAX_SIZE + 2 * PAD) ** 2
_ZOBRIST_SEED = 0x5EED_0F_9_1E5


def zobrist_keys() -> np.ndarray:
    """The Zobrist keys, ``uint64[3, MAX_PADDED]`` indexed by (colour, padded cell); row 0 unused.

    They come from a fixed seed, so hashes are the same in every process and on every machine.
    """
    rng = np.random.default_rng(_ZOBRIST_SEED)
    keys = rng.integers(0, 2**64 - 1, size=(3, MAX_PADDED), dtype=np.uint64, endpoint=True)
    keys[0, :] = 0
    return keys


def _shipped_zobrist() -> np.ndarray:
    """The keys of :func:`zobrist_keys` as shipped in ``plies/data/gomoku-zobrist.npy`` (a test
    checks they agree), else generated: generating them imports ``numpy.random``, which imports
    ``secrets`` and with it OpenSSL's libcrypto, 5 MB resident that the lean brain (70 MB in
    all) cannot spare."""
    from importlib import resources

    try:
        keys = np.load(str(resources.files("plies.data").joinpath("gomoku-zobrist.npy")))
    except (OSError, ValueError):
        return zobrist_keys()
    if keys.dtype != np.uint64 or keys.shape != (3, MAX_PADDED):
        return zobrist_keys()
    return keys


ZOBRIST = _shipped_zobrist()


def padded_stride(width: int) -> int:
    """Row stride of the padded board array for a board ``width`` cells wide."""
    return width + 2 * PAD


def new_cells(width: int, height: int) -> np.ndarray:
    """An empty padded board: walls around ``width`` x ``height`` empty cells."""
    stride = padded_stride(width)
    cells = np.full((height + 2 * PAD) * stride, WALL, dtype=np.int8)
    for y in range(height):
        start = (y + PAD) * stride + PAD
        cells[start : start + width] = EMPTY
    return cells


@njit(cache=True, nogil=True)
def to_pos(x: int, y: int, stride: int) -> int:
    """Padded index of cell (x, y)."""
    return (y + PAD) * stride + x + PAD


@njit(cache=True, nogil=True)
def direction(k: int, stride: int) -> int:
    """Offset of line direction ``k``: 0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal."""
    if k == 0:
        return 1
    if k == 1:
        return stride
    if k == 2:
        return stride + 1
    return stride - 1


@njit(cache=True, nogil=True)
def count_run(cells, pos: int, d: int, color: int) -> int:
    """Number of consecutive ``color`` stones from ``pos + d`` onwards in direction ``d``."""
    n = 0
    p = pos + d
    while cells[p] == color:
        n += 1
        p += d
    return n


@njit(cache=True, nogil=True)
def five_in_direction(cells, pos: int, d: int, color: int, rule: int) -> bool:
    """Whether the ``color`` stone at ``pos`` completes a winning line along ``d`` (``rule``).

    The stone must already be on ``pos``.
    """
    back = count_run(cells, pos, -d, color)
    fwd = count_run(cells, pos, d, color)
    n = back + fwd + 1
    if n < 5:
        return False
    if rule == FREESTYLE:
        return True
    if rule == STANDARD:
        return n == 5
    if rule == RENJU:
        return n == 5 or color == WHITE
    opponent = 3 - color
    blocked = cells[pos - (back + 1) * d] == opponent and cells[pos + (fwd + 1) * d] == opponent
    if blocked:
        return False
    if rule == CARO:
        return True
    return n == 5  # CARO5


@njit(cache=True, nogil=True)
def winning_direction(cells, stride: int, pos: int, color: int, rule: int) -> int:
    """The first direction (0..3) in which the stone at ``pos`` makes a winning line, else -1."""
    for k in range(4):
        if five_in_direction(cells, pos, direction(k, stride), color, rule):
            return k
    return -1


@njit(cache=True, nogil=True)
def makes_five(cells, stride: int, pos: int, color: int, rule: int) -> bool:
    """Whether playing ``color`` on the empty cell ``pos`` would make a winning line."""
    cells[pos] = color
    win = winning_direction(cells, stride, pos, color, rule) >= 0
    cells[pos] = EMPTY
    return win


# --- Renju forbidden moves -------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _four_count_in_direction(cells, pos: int, d: int) -> int:
    """Distinct black fours through the black stone at ``pos`` along ``d``.

    A four is a set of four black stones, ``pos`` among them, that one more stone turns into
    exactly five. ``.XXXX.`` is one four (both completions share the stones); ``X.XXX.X`` with
    ``pos`` in the middle group is two.
    """
    mask1 = -1
    mask2 = -1
    for k in range(-4, 5):
        if k == 0:
            continue
        q = pos + k * d
        if cells[q] != EMPTY:
            continue
        cells[q] = BLACK
        back = count_run(cells, q, -d, BLACK)
        fwd = count_run(cells, q, d, BLACK)
        cells[q] = EMPTY
        if back + fwd + 1 != 5:
            continue
        # offsets of the run relative to pos: k - back .. k + fwd; pos must be inside
        if not (k - back <= 0 <= k + fwd):
            continue
        mask = 0
        for off in range(k - back, k + fwd + 1):
            if off != k:
                mask |= 1 << (off + 5)
        if mask1 == -1:
            mask1 = mask
        elif mask != mask1 and mask2 == -1:
            mask2 = mask
    count = 0
    if mask1 != -1:
        count += 1
    if mask2 != -1:
        count += 1
    return count


@njit(cache=True, nogil=True)
def _makes_straight_four(cells, q: int, k: int, d: int) -> bool:
    """Whether black on the empty ``q`` makes ``.XXXX.`` (both ends exact fives) along ``d``
    with the black stone at ``q - k * d`` among the four."""
    cells[q] = BLACK
    back = count_run(cells, q, -d, BLACK)
    fwd = count_run(cells, q, d, BLACK)
    cells[q] = EMPTY
    if back + fwd + 1 != 4:
        return False
    if not (-back <= -k <= fwd):
        return False
    lo = q - (back + 1) * d
    hi = q + (fwd + 1) * d
    if cells[lo] != EMPTY or cells[hi] != EMPTY:
        return False
    return cells[lo - d] != BLACK and cells[hi + d] != BLACK


@njit(cache=True, nogil=True)
def _static_status(cells, stride: int, pos: int) -> int:
    """Classify the black stone just placed on ``pos``: 0 not forbidden, 1 forbidden,
    2 undecided (two or more directions may hold a three; needs the recursive check)."""
    for k in range(4):
        d = direction(k, stride)
        if count_run(cells, pos, -d, BLACK) + count_run(cells, pos, d, BLACK) + 1 == 5:
            return 0
    for k in range(4):
        d = direction(k, stride)
        if count_run(cells, pos, -d, BLACK) + count_run(cells, pos, d, BLACK) + 1 >= 6:
            return 1
    fours = 0
    for k in range(4):
        fours += _four_count_in_direction(cells, pos, direction(k, stride))
    if fours >= 2:
        return 1
    candidates = 0
    for k in range(4):
        d = direction(k, stride)
        for j in range(-3, 4):
            if j == 0:
                continue
            q = pos + j * d
            if cells[q] == EMPTY and _makes_straight_four(cells, q, j, d):
                candidates += 1
                break
    if candidates >= 2:
        return 2
    return 0


@njit(cache=True, nogil=True)
def is_forbidden(cells, stride: int, pos: int) -> bool:
    """Whether black on the empty cell ``pos`` is forbidden under Renju.

    Overline, double four and double three are forbidden unless the move makes exactly five.
    A three counts only if it can become a straight four by a move that is itself not forbidden
    (checked recursively, with an explicit stack).
    """
    if cells[pos] != EMPTY:
        return False
    cap = 64
    st_pos = np.empty(cap, dtype=np.int64)
    st_dir = np.empty(cap, dtype=np.int64)
    st_k = np.empty(cap, dtype=np.int64)
    st_threes = np.empty(cap, dtype=np.int64)
    level = 0
    st_pos[0] = pos
    entering = True
    child_forbidden = False
    while True:
        p = st_pos[level]
        decided = -1
        if entering:
            cells[p] = BLACK
            status = _static_status(cells, stride, p)
            if status != 2:
                decided = status
            else:
                st_dir[level] = 0
                st_k[level] = -4
                st_threes[level] = 0
        elif not child_forbidden:
            # the candidate of the current direction is a real three
            st_threes[level] += 1
            if st_threes[level] >= 2:
                decided = 1
            else:
                st_dir[level] += 1
                st_k[level] = -4
        if decided == -1:
            # look for the next straight-four candidate to test recursively
            found = False
            while st_dir[level] < 4 and not found:
                # not enough directions left to reach two threes: stop early
                if st_threes[level] + (4 - st_dir[level]) < 2:
                    break
                d = direction(st_dir[level], stride)
                j = st_k[level] + 1
                while j <= 3:
                    if j != 0:
                        q = p + j * d
                        if cells[q] == EMPTY and _makes_straight_four(cells, q, j, d):
                            found = True
                            break
                    j += 1
                if found:
                    st_k[level] = j
                else:
                    st_dir[level] += 1
                    st_k[level] = -4
            if found and level + 1 < cap:
                d = direction(st_dir[level], stride)
                level += 1
                st_pos[level] = p + st_k[level - 1] * d
                entering = True
                continue
            decided = 0
        # return the decision to the parent frame
        cells[p] = EMPTY
        if level == 0:
            return decided == 1
        level -= 1
        child_forbidden = decided == 1
        entering = False


FORBIDDEN_REASONS = ("overline", "double four", "double three")


def forbidden_reason(cells, stride: int, pos: int) -> str | None:
    """Why black on the empty cell ``pos`` is forbidden under Renju (one of
    :data:`FORBIDDEN_REASONS`), or None when it is not forbidden.

    Plain Python over the kernels, in :func:`is_forbidden`'s order: a line of six or more is an
    overline (even when the move also makes two fours), then two or more fours are a double
    four; any other forbidden move is a double three (its threes are real, recursively).
    """
    if not is_forbidden(cells, stride, pos):
        return None
    cells[pos] = BLACK
    try:
        for k in range(4):
            d = direction(k, stride)
            if count_run(cells, pos, -d, BLACK) + count_run(cells, pos, d, BLACK) + 1 >= 6:
                return "overline"
        fours = sum(_four_count_in_direction(cells, pos, direction(k, stride)) for k in range(4))
        return "double four" if fours >= 2 else "double three"
    finally:
        cells[pos] = EMPTY


@njit(cache=True, nogil=True)
def forbidden_points(cells, width: int, height: int, out) -> int:
    """Write the padded indices of all forbidden points (black, Renju) into ``out``; return
    the count."""
    stride = width + 2 * PAD
    n = 0
    for y in range(height):
        for x in range(width):
            p = (y + PAD) * stride + x + PAD
            if cells[p] == EMPTY and is_forbidden(cells, stride, p):
                out[n] = p
                n += 1
    return n


@njit(cache=True, nogil=True)
def black_can_play(cells, width: int, height: int) -> bool:
    """Whether some empty cell is not forbidden to black (Renju); stops at the first one, so
    it costs a probe or two in any normal position."""
    stride = width + 2 * PAD
    for y in range(height):
        for x in range(width):
            p = (y + PAD) * stride + x + PAD
            if cells[p] == EMPTY and not is_forbidden(cells, stride, p):
                return True
    return False


# --- playing moves ----------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def place(cells, hashbuf, zobrist, pos: int, color: int) -> None:
    """Put a ``color`` stone on ``pos`` and update the hash in ``hashbuf[0]``."""
    cells[pos] = color
    hashbuf[0] ^= zobrist[color, pos]


@njit(cache=True, nogil=True)
def remove(cells, hashbuf, zobrist, pos: int) -> None:
    """Take the stone off ``pos`` and update the hash in ``hashbuf[0]``."""
    color = cells[pos]
    hashbuf[0] ^= zobrist[color, pos]
    cells[pos] = EMPTY


@njit(cache=True, nogil=True)
def full_hash(cells, zobrist) -> np.uint64:
    """The Zobrist hash computed from scratch (the incremental one must always equal it)."""
    h = np.uint64(0)
    for p in range(cells.shape[0]):
        c = cells[p]
        if c == BLACK or c == WHITE:
            h ^= zobrist[c, p]
    return h


@njit(cache=True, nogil=True)
def winning_line(cells, stride: int, pos: int, color: int, rule: int, out) -> int:
    """Write the padded indices of the winning run through ``pos`` into ``out``; return its length
    (0 when the stone at ``pos`` does not win)."""
    k = winning_direction(cells, stride, pos, color, rule)
    if k < 0:
        return 0
    d = direction(k, stride)
    start = pos - count_run(cells, pos, -d, color) * d
    n = 0
    p = start
    while cells[p] == color:
        out[n] = p
        n += 1
        p += d
    return n


@njit(cache=True, nogil=True)
def legal_moves(
    cells, width: int, height: int, color: int, rule: int, forbid_illegal: bool, out
) -> int:
    """Write the padded indices of the legal moves for ``color`` into ``out``; return the count."""
    stride = width + 2 * PAD
    n = 0
    check = rule == RENJU and color == BLACK and forbid_illegal
    for y in range(height):
        for x in range(width):
            p = (y + PAD) * stride + x + PAD
            if cells[p] == EMPTY and not (check and is_forbidden(cells, stride, p)):
                out[n] = p
                n += 1
    return n


def warmup() -> None:
    """Compile (or load from the cache) every kernel of this module."""
    width = height = 15
    stride = padded_stride(width)
    cells = new_cells(width, height)
    hashbuf = np.zeros(1, dtype=np.uint64)
    out = np.empty(width * height, dtype=np.int64)
    p = int(to_pos(7, 7, stride))
    place(cells, hashbuf, ZOBRIST, p, BLACK)
    for rule in range(5):
        winning_line(cells, stride, p, BLACK, rule, out)
        makes_five(cells, stride, p + 1, BLACK, rule)
    forbidden_points(cells, width, height, out)
    legal_moves(cells, width, height, BLACK, RENJU, True, out)
    remove(cells, hashbuf, ZOBRIST, p)
    full_hash(cells, ZOBRIST)
