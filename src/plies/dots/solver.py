"""The exact Dots and Boxes solver: compiled alpha-beta on the value of the rest of the game.

The value of a position is the player to move's boxes minus the opponent's **from now on**;
it depends on the lines drawn only (not on the score so far), so a position is one int64 bit
mask and the transposition table is keyed on it. Techniques (each can be switched off in
``params`` to measure it, see docs/dots.md):

* fail-soft alpha-beta with bounds ``[-remaining, +remaining]``;
* a transposition table of lower/upper bounds and the best move in two-entry buckets (one
  keeps the bigger subtree, one the latest), keyed on the **canonical** mask: the least of
  the mask's images under the board's symmetries (4 reflections/rotations, 8 on square boards),
  computed with per-byte lookup tables;
* capture analysis (no branching where capturing is safe):
  - a three-sided box whose missing side borders the edge or a box with at most one side is
    captured at once (the only move searched);
  - a three-sided box that starts a chain of at least three boxes (its missing side borders a
    two-sided box whose other open side borders another two-sided box) is captured at once,
    unless the box after those is three-sided too (the last four boxes of an opened loop,
    where the all-but-four decline must be searched);
  - a line that completes every box it borders (a domino left by a double-deal) is taken;
  - at the end of a chain (three-sided box, then a two-sided box whose other side is the edge or
    a box with at most one side), when no other box can be taken, only two moves are searched:
    capture, or the double-dealing move that declines the last two boxes (all-but-two);
  - anything else (double boxes, opened loops) is searched in full, captures first;
* simple loony endgames (every unfinished box has two sides: only chains and loops are left)
  are scored directly by a small dynamic programme over the components (:func:`_loony_value`);
* move ordering: the table's best move (stored in the canonical frame and mapped back), then
  captures, lines that give nothing away from the centre out, and lines that hand a box over;
* the root value by MTD(f): null-window tests ``v >= t`` stepping by two (a value has the
  parity of the boxes left);
* one root pass per distinct move (moves whose results are symmetric are searched once) to
  list every optimal first move.

The recursive kernel :func:`_search` is called only from Python (see DESIGN.md: a cached
kernel calling a recursive cached kernel crashes when loaded from the cache), with int64
scalars and arrays.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from plies.dots.rules import (
    MAX_LINES,
    Board,
    count_line,
    geometry,
    parse_size,
    uncount_line,
)
from plies.errors import GameOver, InvalidOption

# params indices (tunables live in an array, see DESIGN.md)
P_CHAINS = 0
P_SYMMETRY = 1
P_TT = 2
P_ORDER = 3
P_NODE_LIMIT = 4
P_LOONY = 5
P_EQUIV = 6
P_CORNERS = 7
N_PARAMS = 8
# stats indices
S_NODES = 0
S_ABORTED = 1
S_TT_HITS = 2
S_LOONY = 3
S_FORCED = 4
S_PAIR = 5
S_CAPTURE_FULL = 6
S_EQUIV = 7
N_STATS = 8
MAX_COMPONENTS = 12


# --- symmetry tables ---------------------------------------------------------------------
def _line_of(geo, a: tuple[int, int], b: tuple[int, int]) -> int:
    (r1, c1), (r2, c2) = sorted((a, b))
    if r1 == r2:
        return geo.h(r1, c1)
    return geo.v(r1, c1)


def symmetries(rows: int, cols: int) -> list[list[int]]:
    """Line permutations of the board's symmetry group (the identity first)."""
    geo = geometry(rows, cols)
    R, C = rows, cols
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, C - c),
        lambda r, c: (R - r, c),
        lambda r, c: (R - r, C - c),
    ]
    if R == C:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (C - c, R - r),
            lambda r, c: (c, R - r),
            lambda r, c: (C - c, r),
        ]
    perms = []
    for f in maps:
        perm = []
        for line in range(geo.n_lines):
            kind, r, c = geo.coords(line)
            end = (r, c + 1) if kind == "h" else (r + 1, c)
            perm.append(_line_of(geo, f(r, c), f(*end)))
        assert sorted(perm) == list(range(geo.n_lines))
        perms.append(perm)
    return perms


def _byte_tables(perms: list[list[int]], n_lines: int) -> np.ndarray:
    n_bytes = (n_lines + 7) // 8
    tab = np.zeros((len(perms), n_bytes, 256), dtype=np.int64)
    for s, perm in enumerate(perms):
        for k in range(n_bytes):
            for v in range(256):
                m = 0
                for j in range(8):
                    line = 8 * k + j
                    if v >> j & 1 and line < n_lines:
                        m |= 1 << perm[line]
                tab[s, k, v] = m
    return tab


def _corner_pairs(geo) -> list[tuple[int, int]]:
    """The two edge lines of each corner box (a box with two sides on the edge), lower index
    first; none on boards one box wide (a box there has three or four edge sides)."""
    if geo.rows < 2 or geo.cols < 2:
        return []
    pairs = []
    for b in range(geo.n_boxes):
        edge = sorted(int(x) for x in geo.box_lines[b] if (geo.line_boxes[x] < 0).any())
        if len(edge) == 2:
            pairs.append((edge[0], edge[1]))
    return pairs


# --- kernels -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _canonical(mask, tab):
    return _canonical_sym(mask, tab)[0]


@njit(cache=True, nogil=True)
def _canonical_sym(mask, tab):
    """The least image of ``mask`` under the symmetries, and the symmetry giving it."""
    best = mask
    which = 0
    for s in range(1, tab.shape[0]):
        m = np.int64(0)
        x = mask
        for k in range(tab.shape[1]):
            m |= tab[s, k, x & 255]
            x >>= 8
        if m < best:
            best = m
            which = s
    return best, which


@njit(cache=True, nogil=True)
def _corner_normal(m, corners):
    """``m`` with each corner box's one drawn edge line moved to the first of its two: the
    box's two sides on the board's edge both join it to the ground, so which is drawn does not
    change the game (the strings-and-coins graphs are the same)."""
    for i in range(corners.shape[0]):
        a = corners[i, 0]
        b = corners[i, 1]
        if (m >> b) & 1 and not (m >> a) & 1:
            m ^= (np.int64(1) << a) | (np.int64(1) << b)
    return m


@njit(cache=True, nogil=True)
def _key_sym(mask, tab, corners):
    """The table key: the least corner-normalised image of ``mask`` under the symmetries, and
    the symmetry giving it."""
    best = _corner_normal(mask, corners)
    which = 0
    for s in range(1, tab.shape[0]):
        m = np.int64(0)
        x = mask
        for k in range(tab.shape[1]):
            m |= tab[s, k, x & 255]
            x >>= 8
        m = _corner_normal(m, corners)
        if m < best:
            best = m
            which = s
    return best, which


@njit(cache=True, nogil=True)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _free_side(mask, bl, b, skip):
    for j in range(4):
        line = bl[b, j]
        if line != skip and (mask >> line) & 1 == 0:
            return line
    return -1


@njit(cache=True, nogil=True)
def _other_box(lb, line, b):
    if lb[line, 0] == b:
        return lb[line, 1]
    return lb[line, 0]


@njit(cache=True, nogil=True)
def _loony_value(mask, counts, lb, bl):
    """The exact value of a simple loony endgame (every unfinished box has two sides: only
    chains and loops are left, nothing to capture, every line gives boxes away), or -1000 when
    the position is not one (or has more than MAX_COMPONENTS components).

    Opening a chain of n >= 3 boxes lets the opponent take all or all but two, a loop all or
    all but four; chains of one or two boxes are simply taken (the two-chain opened in the
    middle). A subset dynamic programme over the components gives the mover's value."""
    n_boxes = counts.shape[0]
    for b in range(n_boxes):
        if counts[b] != 2 and counts[b] != 4:
            return np.int64(-1000)
    seen = np.zeros(n_boxes, dtype=np.uint8)
    size = np.zeros(MAX_COMPONENTS, dtype=np.int64)
    loop = np.zeros(MAX_COMPONENTS, dtype=np.uint8)
    k = 0
    for s in range(n_boxes):
        if counts[s] != 2 or seen[s]:
            continue
        if k == MAX_COMPONENTS:
            return np.int64(-1000)
        seen[s] = 1
        n = 1
        is_loop = False
        first = _free_side(mask, bl, s, -1)
        for side in range(2):
            line = first if side == 0 else _free_side(mask, bl, s, first)
            cur = _other_box(lb, line, s)
            while cur >= 0 and not seen[cur]:
                seen[cur] = 1
                n += 1
                line = _free_side(mask, bl, cur, line)
                cur = _other_box(lb, line, cur)
            if cur == s:
                is_loop = True
                break
        size[k] = n
        loop[k] = is_loop
        k += 1
    values = np.zeros(1 << k, dtype=np.int64)
    for sub in range(1, 1 << k):
        best = np.int64(-1000)
        for c in range(k):
            if (sub >> c) & 1 == 0:
                continue
            rest = values[sub ^ (1 << c)]
            n = size[c]
            take_all = -(n + rest)
            if loop[c]:
                v = min(take_all, 8 - n + rest)
            elif n >= 3:
                v = min(take_all, 4 - n + rest)
            else:
                v = take_all
            if v > best:
                best = v
        values[sub] = best
    return values[(1 << k) - 1]


@njit(cache=True, nogil=True)
def _label_chains(mask, counts, lb, bl, comp, size):
    """Label the runs of two-sided boxes joined by undrawn lines: ``comp[box]`` (-1 for a box
    without two sides) and ``size[label]`` (boxes in the run; -2 for two boxes between two
    edge lines)."""
    n_boxes = counts.shape[0]
    for b in range(n_boxes):
        comp[b] = -1
    k = 0
    for s in range(n_boxes):
        if counts[s] != 2 or comp[s] >= 0:
            continue
        comp[s] = k
        n = 1
        grounded = 0
        first = _free_side(mask, bl, s, -1)
        for side in range(2):
            line = first if side == 0 else _free_side(mask, bl, s, first)
            cur = _other_box(lb, line, s)
            while cur >= 0 and counts[cur] == 2 and comp[cur] < 0:
                comp[cur] = k
                n += 1
                line = _free_side(mask, bl, cur, line)
                cur = _other_box(lb, line, cur)
            if cur == s:
                break
            if cur < 0:
                grounded += 1
        size[k] = -2 if n == 2 and grounded == 2 else n
        k += 1


@njit(cache=True, nogil=True)
def _inside(lb, counts, comp, line):
    """The run whose boxes are all that ``line`` borders (-1 if it borders any other box)."""
    c = np.int64(-1)
    for j in range(2):
        x = lb[line, j]
        if x < 0:
            continue
        if counts[x] != 2:
            return np.int64(-1)
        if c >= 0 and comp[x] != c:
            return np.int64(-1)
        c = comp[x]
    return c


@njit(cache=True, nogil=True)
def _search(
    mask, remaining, alpha, beta, counts, lb, bl, order, tt_key, tt_val, tab, perm, params, stats,
    ply, stack, scratch, corners, twin,
):  # fmt: skip
    """The value (mover's boxes minus the opponent's) of the rest of the game, fail-soft
    within ``(alpha, beta)``. ``counts`` (sides drawn per box) matches ``mask`` and is
    restored on return."""
    stats[S_NODES] += 1
    if remaining == 0:
        return np.int64(0)
    if params[P_NODE_LIMIT] > 0 and stats[S_NODES] > params[P_NODE_LIMIT]:
        stats[S_ABORTED] = 1
        return np.int64(0)
    if stats[S_ABORTED]:
        return np.int64(0)
    n_boxes = counts.shape[0]
    n_lines = lb.shape[0]
    # capture analysis
    forced = np.int64(-1)
    end_l = np.int64(-1)
    end_m = np.int64(-1)
    any_capture = False
    n_three = 0
    for b in range(n_boxes):
        if counts[b] == 3:
            any_capture = True
            n_three += 1
            if params[P_CHAINS] == 0:
                break
            line = _free_side(mask, bl, b, -1)
            o = _other_box(lb, line, b)
            if o < 0 or counts[o] <= 1 or counts[o] == 3:
                # (a line completing every box it borders changes nothing else: take it)
                forced = line
                break
            if counts[o] == 2:
                m = _free_side(mask, bl, o, line)
                d = _other_box(lb, m, o)
                if d >= 0 and counts[d] == 2:
                    # a(3)-o(2)-d(2)-e(3) is the end of an opened loop (or a chain opened at
                    # both ends): the all-but-four decline (the line o-d) must stay searchable
                    e_line = _free_side(mask, bl, d, m)
                    e = _other_box(lb, e_line, d)
                    if e < 0 or counts[e] != 3:
                        forced = line
                        break
                    continue
                if (d < 0 or counts[d] <= 1) and end_l < 0:
                    end_l = line
                    end_m = m
    if forced >= 0:
        stats[S_FORCED] += 1
        k = count_line(counts, lb, forced)
        v = k + _search(
            mask | (np.int64(1) << forced), remaining - k, alpha - k, beta - k, counts, lb, bl,
            order, tt_key, tt_val, tab, perm, params, stats, ply + 1, stack, scratch, corners, twin,
        )  # fmt: skip
        uncount_line(counts, lb, forced)
        return v
    if params[P_LOONY] and not any_capture:
        v = _loony_value(mask, counts, lb, bl)
        if v > -1000:
            stats[S_LOONY] += 1
            return v
    # transposition table
    lo = -remaining
    hi = remaining
    use_tt = params[P_TT] != 0
    key = mask
    sym = 0
    base = np.int64(0)
    slot = np.int64(-1)
    tt_move = np.int64(-1)
    if use_tt:
        if params[P_SYMMETRY]:
            key, sym = _key_sym(mask, tab, corners)
        elif params[P_CORNERS]:
            key = _corner_normal(mask, corners)
        # two-entry buckets: [0] keeps the bigger subtree (fewer lines drawn), [1] the latest
        base = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & (
            tt_key.shape[0] - 2
        )
        slot = -1
        if tt_key[base] == key:
            slot = base
        elif tt_key[base + 1] == key:
            slot = base + 1
        if slot >= 0:
            stats[S_TT_HITS] += 1
            if tt_val[slot, 0] > lo:
                lo = np.int64(tt_val[slot, 0])
            if tt_val[slot, 1] < hi:
                hi = np.int64(tt_val[slot, 1])
            if lo >= hi:
                return lo
            if tt_val[slot, 2] >= 0:
                tt_move = perm[1, sym, tt_val[slot, 2]]  # back from the canonical frame
                if (mask >> tt_move) & 1:  # drawn here: the corner twin stands for it
                    tt_move = twin[tt_move]
    if lo >= beta:
        return lo
    if hi <= alpha:
        return hi
    a = max(alpha, lo)
    b_ = min(beta, hi)
    best = np.int64(-1000)
    best_move = np.int64(-1)
    # the moves: the chain-end pair, or every free line in three passes
    moves = stack[ply]
    n = 0
    labelled = False
    comp = scratch[ply, 0]
    used = scratch[ply, 1]
    if end_l >= 0 and n_three == 1:  # the chain end is the only box to take
        stats[S_PAIR] += 1
        moves[0] = end_l
        moves[1] = end_m
        n = 2
        if tt_move == end_m:
            moves[0] = end_m
            moves[1] = end_l
    else:
        if any_capture:
            stats[S_CAPTURE_FULL] += 1
        if tt_move >= 0:
            moves[0] = tt_move
            n = 1
        for pass_ in range(3):
            for i in range(n_lines):
                line = order[i] if params[P_ORDER] else i
                if (mask >> line) & 1:
                    continue
                worst = 0
                for j in range(2):
                    x = lb[line, j]
                    if x >= 0 and counts[x] > worst:
                        worst = counts[x]
                cls = 0 if worst == 3 else (2 if worst == 2 else 1)
                if not params[P_ORDER]:
                    cls = pass_
                if cls != pass_ or line == tt_move:
                    continue
                t = twin[line]
                if params[P_CORNERS] and t >= 0 and (mask >> t) & 1 == 0:
                    if t == tt_move or t < line:
                        continue  # the corner's other edge line: the same move
                if cls == 2 and params[P_EQUIV] and not any_capture:
                    # one opening per long chain or loop: every line inside one is a loony
                    # move leading to the same options (take all, or all but two)
                    if not labelled:
                        _label_chains(mask, counts, lb, bl, comp, used)
                        labelled = True
                    c = _inside(lb, counts, comp, line)
                    if c >= 0 and used[c] >= 3:
                        if used[c] == 1000:
                            stats[S_EQUIV] += 1
                            continue
                        used[c] = 1000
                    elif c >= 0 and used[c] <= -2 and (lb[line, 0] < 0 or lb[line, 1] < 0):
                        # a two-box chain between two edge lines: either edge line (the
                        # half-hearted handout) is the same move, by the chain's mirror image
                        if used[c] == -3:
                            stats[S_EQUIV] += 1
                            continue
                        used[c] = -3
                moves[n] = line
                n += 1
            if not params[P_ORDER]:
                break
    for i in range(n):
        line = moves[i]
        k = count_line(counts, lb, line)
        # a completed box: the mover moves again; else the opponent's value, negated
        if k > 0:
            sign, c_alpha, c_beta = 1, a - k, b_ - k
        else:
            sign, c_alpha, c_beta = -1, -b_, -a
        child = mask | (np.int64(1) << line)
        v = k + sign * _search(
            child, remaining - k, c_alpha, c_beta, counts, lb, bl, order, tt_key, tt_val, tab,
            perm, params, stats, ply + 1, stack, scratch, corners, twin,
        )  # fmt: skip
        uncount_line(counts, lb, line)
        if v > best:
            best = v
            best_move = line
        if best > a:
            a = best
        if a >= b_:
            break
    if stats[S_ABORTED]:
        return best
    if use_tt:
        new_lo = lo
        new_hi = hi
        if best >= b_:
            new_lo = max(lo, best)
        elif best <= max(alpha, lo):
            new_hi = min(hi, best)
        else:
            new_lo = best
            new_hi = best
        if slot < 0 or tt_key[slot] != key:  # a new entry (or ours was replaced meanwhile)
            if tt_key[base] < 0:
                slot = base
            elif _popcount(key) <= _popcount(tt_key[base]):
                tt_key[base + 1] = tt_key[base]  # the deeper entry moves to the latest slot
                tt_val[base + 1, 0] = tt_val[base, 0]
                tt_val[base + 1, 1] = tt_val[base, 1]
                tt_val[base + 1, 2] = tt_val[base, 2]
                slot = base
            else:
                slot = base + 1
            tt_key[slot] = key
            tt_val[slot, 0] = new_lo
            tt_val[slot, 1] = new_hi
        else:
            tt_val[slot, 0] = max(new_lo, np.int64(tt_val[slot, 0]))
            tt_val[slot, 1] = min(new_hi, np.int64(tt_val[slot, 1]))
        tt_val[slot, 2] = perm[0, sym, best_move] if best_move >= 0 else -1  # canonical frame
    return best


# --- the Python side -----------------------------------------------------------------------
@dataclass
class SolveResult:
    """``value``: player 0's final margin under perfect play from here (the score so far
    included); ``rest_value``: the mover's margin over the rest of the game; ``best_moves``:
    every optimal line for the player to move (text ``h0,1``; empty if not asked or the game
    is over); ``move_values``: the optimal moves with their rest value for the mover;
    ``stats``: node counts by kind (table hits, forced captures, chain-end pairs, loony
    endgames scored, capture positions searched in full)."""

    value: int
    rest_value: int
    best_moves: list[str]
    nodes: int
    seconds: float
    tt_hits: int = 0
    move_values: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


class SolveAborted(Exception):
    """The node or time limit stopped the solver before it had a value."""


class SolveInterrupted(SolveAborted):
    """Ctrl-C stopped the solver (its table and bounds are still valid)."""


class Solver:
    """An exact solver for one board size, keeping its table between calls."""

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        hash_bits: int = 22,
        chains: bool = True,
        symmetry: bool = True,
        tt: bool = True,
        ordering: bool = True,
        loony: bool = True,
        equivalence: bool = True,
        corners: bool = True,
    ) -> None:
        self.geo = geometry(rows, cols)
        if self.geo.n_lines > MAX_LINES:
            raise InvalidOption(
                f"the solver handles at most {MAX_LINES} lines; "
                f"{rows}x{cols} has {self.geo.n_lines}"
            )
        if not 4 <= hash_bits <= 30:
            raise InvalidOption("hash_bits must be between 4 and 30")
        self.perms = symmetries(rows, cols)
        self.tab = _byte_tables(self.perms, self.geo.n_lines)
        self.tt_key = np.full(1 << hash_bits, -1, dtype=np.int64)
        # lower bound, upper bound, best move (in the canonical frame; -1 none)
        self.tt_val = np.full((1 << hash_bits, 3), -1, dtype=np.int8)
        forward = np.array(self.perms, dtype=np.int64)
        inverse = np.argsort(forward, axis=1).astype(np.int64)
        self.perm = np.stack([forward, inverse])
        self.params = np.zeros(N_PARAMS, dtype=np.int64)
        self.params[P_CHAINS] = chains
        self.params[P_SYMMETRY] = symmetry
        self.params[P_TT] = tt
        self.params[P_ORDER] = ordering
        self.params[P_LOONY] = loony
        self.params[P_EQUIV] = equivalence
        self.params[P_CORNERS] = corners
        pairs = _corner_pairs(self.geo)
        self.corners = np.array(pairs if corners else [], dtype=np.int64).reshape(-1, 2)
        self.twin = np.full(self.geo.n_lines, -1, dtype=np.int64)
        for a, b in pairs:
            self.twin[a], self.twin[b] = b, a
        depth = self.geo.n_lines + 2
        self.stack = np.zeros((depth, self.geo.n_lines), dtype=np.int64)
        self.scratch = np.zeros((depth, 2, self.geo.n_boxes), dtype=np.int64)
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.bounds: tuple[int, int] | None = None
        self.bounds_mask = -1

    def clear(self) -> None:
        self.tt_key[:] = -1
        self.bounds = None

    def _value(self, mask: int, counts: np.ndarray, remaining: int, alpha: int, beta: int) -> int:
        geo = self.geo
        v = _search(
            np.int64(mask),
            np.int64(remaining),
            np.int64(alpha),
            np.int64(beta),
            counts,
            geo.line_boxes,
            geo.box_lines,
            geo.centre_order,
            self.tt_key,
            self.tt_val,
            self.tab,
            self.perm,
            self.params,
            self.stats,
            np.int64(0),
            self.stack,
            self.scratch,
            self.corners,
            self.twin,
        )
        if self.stats[S_ABORTED]:
            raise SolveAborted("the solver's limit was reached before the position was solved")
        return int(v)

    def _after(
        self, child: int, counts: np.ndarray, remaining: int, k: int, alpha: int, beta: int
    ) -> int:
        """The mover's value within ``(alpha, beta)`` after a line that completed ``k`` boxes
        (``child``, ``counts``: the position after it): the mover moves again when ``k > 0``,
        else it is the opponent's value, negated."""
        if k:
            return k + self._value(child, counts, remaining - k, alpha - k, beta - k)
        return -self._value(child, counts, remaining, -beta, -alpha)

    def _mtdf(self, mask: int, counts: np.ndarray, remaining: int, guess: int) -> int:
        """The exact value by null-window tests (MTD(f)). A value has the parity of the boxes
        left (mine - theirs with mine + theirs = remaining), so each test is ``v >= t`` for
        a ``t`` of that parity, searched with the window ``(t - 1, t)``. The bounds proved so
        far are kept in ``self.bounds`` (for progress reports and a resumed solve)."""
        lower, upper = self.bounds if self.bounds else (-remaining, remaining)
        self.bounds = (lower, upper)
        g = max(lower, min(upper, guess))
        if (g - remaining) % 2:
            g += 1 if g < upper else -1
        while lower < upper:
            t = g if g > lower else g + 2  # test v >= t, t of the right parity, lower < t
            v = self._value(mask, counts, remaining, t - 1, t)
            if v >= t:
                lower = v + (v - remaining) % 2  # the true value is >= v and has that parity
                g = lower
            else:
                upper = v - (v - remaining) % 2
                g = upper
            self.bounds = (lower, upper)
        return lower

    def progress_report(self) -> dict:
        """Nodes so far, the table's fill (sampled) and the bounds on the mover's value."""
        step = max(1, self.tt_key.shape[0] >> 16)
        fill = float(np.count_nonzero(self.tt_key[::step] >= 0)) * step / self.tt_key.shape[0]
        lower, upper = self.bounds or (None, None)
        return {"nodes": int(self.stats[S_NODES]), "fill": fill, "lower": lower, "upper": upper}

    def save(self, path: str, board: Board) -> None:
        """Write the table and the bounds proved so far for ``board`` (to resume a solve)."""
        lower, upper = self.bounds or (-self.geo.n_boxes - 1, self.geo.n_boxes + 1)
        meta = np.array([self.geo.rows, self.geo.cols, board.mask, lower, upper], dtype=np.int64)
        with open(path, "wb") as fh:
            np.savez(fh, meta=meta, tt_key=self.tt_key, tt_val=self.tt_val)

    def load(self, path: str, board: Board) -> None:
        """Read a table written by :meth:`save` (its size replaces this solver's); the bounds
        are kept when it was written for the same position."""
        try:
            data = np.load(path)
            meta, tt_key, tt_val = data["meta"], data["tt_key"], data["tt_val"]
        except (OSError, ValueError, KeyError) as exc:
            raise InvalidOption(f"cannot read solver state {path}: {exc}") from None
        if (int(meta[0]), int(meta[1])) != (self.geo.rows, self.geo.cols):
            raise InvalidOption(f"{path} holds a {meta[0]}x{meta[1]} table, not {self.geo.rows}x"
                                f"{self.geo.cols}")  # fmt: skip
        self.tt_key, self.tt_val = tt_key, tt_val
        remaining = self.geo.n_boxes - sum(board.scores)
        if int(meta[2]) == board.mask and -remaining <= meta[3] <= meta[4] <= remaining:
            self.bounds = (int(meta[3]), int(meta[4]))

    def solve(
        self,
        board: Board,
        *,
        guess: int = 0,
        best_moves: bool = True,
        nodes: int | None = None,
        movetime: float | None = None,
        progress: Callable[[dict], None] | None = None,
        interval: float = 10.0,
    ) -> SolveResult:
        """Solve ``board`` (not changed). Raises :class:`SolveAborted` when a limit stops it
        and :class:`SolveInterrupted` on Ctrl-C (the table stays valid: :meth:`save` it to
        resume). ``progress(report)`` is called every ``interval`` seconds with
        :meth:`progress_report`'s dictionary."""
        if (board.rows, board.cols) != (self.geo.rows, self.geo.cols):
            raise InvalidOption("board size differs from the solver's")
        if board.is_over:
            raise GameOver("the game is over")
        self.stats[:] = 0
        self.params[P_NODE_LIMIT] = nodes or 0
        if self.bounds_mask != board.mask:
            self.bounds = None
        self.bounds_mask = board.mask
        timer = None
        if movetime is not None:
            timer = threading.Timer(movetime, lambda: self.stats.__setitem__(S_ABORTED, 1))
            timer.daemon = True
            timer.start()
        start = time.perf_counter()
        box: dict = {}

        def work() -> None:
            try:
                box["result"] = self._solve(board, guess, best_moves)
            except BaseException as exc:  # handed to the caller's thread
                box["error"] = exc

        try:
            if progress is None:
                work()
            else:  # the kernels release the GIL: search in a thread, report from this one
                worker = threading.Thread(target=work, daemon=True)
                worker.start()
                try:
                    while worker.is_alive():
                        worker.join(interval)
                        if worker.is_alive():
                            progress(self.progress_report())
                except KeyboardInterrupt:
                    self.stats[S_ABORTED] = 1
                    worker.join()
                    raise SolveInterrupted("interrupted") from None
        finally:
            if timer is not None:
                timer.cancel()
        if "error" in box:
            raise box["error"]
        rest, found, values = box["result"]
        seconds = time.perf_counter() - start
        sign = 1 if board.to_move == 0 else -1
        return SolveResult(
            value=board.margin + sign * rest,
            rest_value=rest,
            best_moves=found,
            nodes=int(self.stats[S_NODES]),
            seconds=seconds,
            tt_hits=int(self.stats[S_TT_HITS]),
            move_values=values,
            stats={
                "nodes": int(self.stats[S_NODES]),
                "tt_hits": int(self.stats[S_TT_HITS]),
                "loony_scored": int(self.stats[S_LOONY]),
                "forced_captures": int(self.stats[S_FORCED]),
                "chain_end_pairs": int(self.stats[S_PAIR]),
                "full_with_capture": int(self.stats[S_CAPTURE_FULL]),
                "equivalent_skipped": int(self.stats[S_EQUIV]),
            },
        )

    def _solve(
        self, board: Board, guess: int, best_moves: bool
    ) -> tuple[int, list[str], dict[str, int]]:
        mask = board.mask
        counts = board.counts.astype(np.int8).copy()
        remaining = self.geo.n_boxes - sum(board.scores)
        rest = self._mtdf(mask, counts, remaining, guess)
        found: list[str] = []
        values: dict[str, int] = {}
        if best_moves:
            seen: dict[int, bool] = {}
            for line in board.ordered_moves():
                k = int(count_line(counts, self.geo.line_boxes, line))
                child = mask | (1 << line)
                canon = int(_canonical(np.int64(child), self.tab))
                if canon not in seen:
                    v = self._after(child, counts, remaining, k, rest - 1, rest)
                    seen[canon] = v >= rest
                uncount_line(counts, self.geo.line_boxes, line)
                if seen[canon]:
                    found.append(self.geo.text(line))
                    values[self.geo.text(line)] = rest
        return rest, found, values


SLOT_BYTES = 11  # an int64 key and three int8 (lower, upper, move)


def hash_bits_for(memory: int) -> int:
    """The largest table (``2**bits`` slots) that fits in ``memory`` bytes."""
    bits = int(memory // SLOT_BYTES).bit_length() - 1
    if bits < 4:
        raise InvalidOption(f"memory {memory} bytes is too small for a table")
    return min(30, bits)


def parse_memory(text: str) -> int:
    """``8G``, ``512M``, ``64k`` or a plain number of bytes."""
    t = text.strip().upper().removesuffix("B")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale > 1 else t) * scale
    except ValueError:
        raise InvalidOption(f"cannot read memory size {text!r}: expected e.g. 8G or 512M") from None
    if value <= 0:
        raise InvalidOption(f"memory size must be positive, not {text!r}")
    return int(value)


def solve(
    position: Board | str | tuple[int, int],
    *,
    best_moves: bool = True,
    hash_bits: int = 22,
    nodes: int | None = None,
    movetime: float | None = None,
    **features: bool,
) -> SolveResult:
    """Solve a board (or the empty board of a size, ``"3x3"`` or ``(3, 3)``)."""
    if isinstance(position, str):
        position = Board(*parse_size(position))
    elif isinstance(position, tuple):
        position = Board(*position)
    solver = Solver(position.rows, position.cols, hash_bits=hash_bits, **features)
    return solver.solve(position, best_moves=best_moves, nodes=nodes, movetime=movetime)


def warmup() -> None:
    """Compile (or load) the solver kernels."""
    solve("1x2", hash_bits=8)
