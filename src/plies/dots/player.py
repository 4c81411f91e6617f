"""``dots-pro``: a player for boards beyond exact solving (5x5 and larger) on a time budget.

* **Nothing safe left** (every line gives boxes away), or few lines left: the exact solver
  (:mod:`plies.dots.solver`, boards up to 63 lines) with most of the move's time; if it runs
  out of time, the chain-aware rules of ``dots-chains`` (captures, the all-but-two
  double-deal when the loony value of the rest says control pays, the fewest boxes handed
  over).
* **A box to take while safe lines remain**: take it.
* **Otherwise** (the safe phase, where the long chain fight is decided): compiled MCTS over
  the safe lines. A playout draws random safe lines until none is left; the endgame it
  reaches is scored by the loony-endgame value (exact when only chains and loops are left;
  a box with fewer than two sides, a joint between chains, counts as a one-box chain) for
  the player who must then open something. A playout scores 1 for a win, 1/2 a draw, 0 a
  loss, blended with a tenth of the margin, so among won (or lost) lines the bigger margin
  is preferred.

The kernels work on a ``drawn`` array (any board size) with the box side counts.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
from numba import njit

from plies.dots.agents import ChainsAgent
from plies.dots.rules import MAX_LINES, Board, count_line
from plies.dots.solver import SolveAborted, Solver
from plies.errors import InvalidOption

MAX_DP = 12  # components scored by the subset dynamic programme; more are opened smallest first
EXPLORATION = 0.7


@njit(cache=True, nogil=True)
def _free_side(drawn, bl, b, skip):
    for j in range(4):
        line = bl[b, j]
        if line != skip and drawn[line] == 0:
            return line
    return -1


@njit(cache=True, nogil=True)
def _other(lb, line, b):
    if lb[line, 0] == b:
        return lb[line, 1]
    return lb[line, 0]


@njit(cache=True, nogil=True)
def _is_safe(lb, counts, line):
    for j in range(2):
        x = lb[line, j]
        if x >= 0 and counts[x] >= 2:
            return False
    return True


@njit(cache=True, nogil=True)
def _safe_lines(drawn, counts, lb, out):
    n = 0
    for line in range(drawn.shape[0]):
        if drawn[line] == 0 and _is_safe(lb, counts, line):
            out[n] = line
            n += 1
    return n


@njit(cache=True, nogil=True)
def endgame_value(drawn, counts, lb, bl):
    """An estimate of the rest of the game for the player to move in a position with nothing
    safe and nothing to take: the loony value of its chains and loops (runs of two-sided
    boxes), each box with fewer than two sides counting as a one-box chain. Exact when only
    chains and loops are left (and at most MAX_DP of them are long chains or loops)."""
    n_boxes = counts.shape[0]
    seen = np.zeros(n_boxes, dtype=np.uint8)
    comps = np.zeros((2, n_boxes), dtype=np.int64)
    values = np.zeros(_table_size(n_boxes), dtype=np.int64)
    return _endgame(drawn, counts, lb, bl, seen, comps, values)


@njit(cache=True, nogil=True)
def _table_size(n_boxes):
    """Entries of the dynamic programme's table (at most 2**14; see :func:`_endgame`)."""
    return min(1 << 14, (n_boxes + 1) * (n_boxes // 2 + 1) * (1 << min(MAX_DP, n_boxes // 3 + 1)))


@njit(cache=True, nogil=True)
def _endgame(drawn, counts, lb, bl, seen, comps, values):
    """:func:`endgame_value` with its scratch arrays given (``seen``: a flag per box;
    ``comps``: 2 x boxes; ``values``: :func:`_table_size` entries)."""
    n_boxes = counts.shape[0]
    seen[:] = 0
    n1 = 0
    n2 = 0
    k = 0  # long chains and loops: comps[0] sizes, comps[1] loop flags
    extra = 0  # the sum of long chains beyond MAX_DP (each simply taken, smallest first)
    n_extra = 0
    for s in range(n_boxes):
        if seen[s] or counts[s] == 4:
            continue
        seen[s] = 1
        if counts[s] != 2:
            n1 += 1
            continue
        n = 1
        is_loop = False
        first = _free_side(drawn, bl, s, -1)
        for side in range(2):
            line = first if side == 0 else _free_side(drawn, bl, s, first)
            cur = _other(lb, line, s)
            while cur >= 0 and counts[cur] == 2 and not seen[cur]:
                seen[cur] = 1
                n += 1
                line = _free_side(drawn, bl, cur, line)
                cur = _other(lb, line, cur)
            if cur == s:
                is_loop = True
                break
        if n == 1 and not is_loop:
            n1 += 1
        elif n == 2 and not is_loop:
            n2 += 1
        elif k < MAX_DP:
            comps[0, k] = n
            comps[1, k] = is_loop
            k += 1
        else:
            extra += n
            n_extra += 1
    while k > 0 and ((n1 + 1) * (n2 + 1)) << k > values.shape[0]:  # keep the table's size
        k -= 1
        extra += comps[0, k]
        n_extra += 1
    # values[(a * (n2 + 1) + b) << k | sub]: the mover's value with a one-box chains, b
    # two-box chains and the long components in ``sub`` left
    full = (1 << k) - 1
    for a in range(n1 + 1):
        for b in range(n2 + 1):
            base = (a * (n2 + 1) + b) << k
            for sub in range(full + 1):
                if a == 0 and b == 0 and sub == 0:
                    values[base] = 0
                    continue
                best = np.int64(-10000)
                if a > 0:
                    best = -(1 + values[((a - 1) * (n2 + 1) + b) << k | sub])
                if b > 0:
                    v = -(2 + values[(a * (n2 + 1) + b - 1) << k | sub])
                    if v > best:
                        best = v
                for c in range(k):
                    if (sub >> c) & 1 == 0:
                        continue
                    rest = values[base | (sub ^ (1 << c))]
                    n = comps[0, c]
                    v = -(n + rest)
                    if comps[1, c]:
                        v = min(v, 8 - n + rest)
                    else:
                        v = min(v, 4 - n + rest)
                    if v > best:
                        best = v
                values[base | sub] = best
    v = values[((n1 * (n2 + 1) + n2) << k) | full]
    for _ in range(n_extra):  # beyond the table: opened first, each taken (an estimate)
        v = -(extra // n_extra + v)
    return v


@njit(cache=True, nogil=True)
def _outcome(margin, n_boxes):
    """A playout's score in [0, 1] for the root's mover from its final margin."""
    win = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
    return 0.9 * win + 0.1 * (0.5 + margin / (2.0 * n_boxes))


@njit(cache=True, nogil=True)
def mcts_run(
    drawn0, counts0, lb, bl, margin0, iterations, seed, t_move, t_first, t_n,
    t_visits, t_value, n_nodes,
):  # fmt: skip
    """``iterations`` more MCTS iterations over the safe lines from the root position
    (``drawn0``, ``counts0``; ``margin0``: the root mover's boxes minus the opponent's so
    far). The tree lives in the ``t_*`` arrays (node 0 the root; ``t_n[node]`` children from
    ``t_first[node]``, -1 before expansion); ``t_value`` holds the total score for the root's
    mover. Returns the node count."""
    np.random.seed(seed)
    n_lines = drawn0.shape[0]
    n_boxes = counts0.shape[0]
    cap = t_move.shape[0]
    drawn = drawn0.copy()
    counts = counts0.copy()
    safe = np.empty(n_lines, dtype=np.int64)
    path = np.empty(n_lines + 2, dtype=np.int64)
    seen = np.zeros(n_boxes, dtype=np.uint8)
    comps = np.zeros((2, n_boxes), dtype=np.int64)
    values = np.zeros(_table_size(n_boxes), dtype=np.int64)
    for _ in range(iterations):
        drawn[:] = drawn0
        counts[:] = counts0
        node = 0
        player = 0  # 0: the root's mover
        depth = 0
        path[0] = 0
        while t_n[node] > 0:
            # UCT from the point of view of the player to move at ``node``
            best = -1.0
            pick = t_first[node]
            log_n = math.log(t_visits[node] + 1.0)
            for c in range(t_first[node], t_first[node] + t_n[node]):
                if t_visits[c] == 0:
                    score = 1e9 + np.random.random()
                else:
                    q = t_value[c] / t_visits[c]
                    if player == 1:
                        q = 1.0 - q
                    score = q + EXPLORATION * math.sqrt(log_n / t_visits[c])
                if score > best:
                    best = score
                    pick = c
            node = pick
            line = t_move[node]
            drawn[line] = 1
            count_line(counts, lb, line)
            player ^= 1
            depth += 1
            path[depth] = node
            if t_visits[node] == 0:
                break
        if t_n[node] < 0 and n_nodes < cap:
            n = _safe_lines(drawn, counts, lb, safe)
            if n_nodes + n <= cap:
                t_first[node] = n_nodes
                t_n[node] = n
                for i in range(n):
                    c = n_nodes + i
                    t_move[c] = safe[i]
                    t_first[c] = -1
                    t_n[c] = -1
                    t_visits[c] = 0.0
                    t_value[c] = 0.0
                n_nodes += n
        # playout: random safe lines (they never complete a box, so turns alternate)
        n = _safe_lines(drawn, counts, lb, safe)
        while n > 0:  # a line never becomes safe again: drop the stale ones as they come up
            i = np.random.randint(n)
            line = safe[i]
            n -= 1
            safe[i] = safe[n]
            if not _is_safe(lb, counts, line):
                continue
            drawn[line] = 1
            count_line(counts, lb, line)
            player ^= 1
        rest = _endgame(drawn, counts, lb, bl, seen, comps, values)
        margin = margin0 + (rest if player == 0 else -rest)
        score = _outcome(margin, n_boxes)
        for d in range(depth + 1):
            t_visits[path[d]] += 1.0
            t_value[path[d]] += score
    return n_nodes


class MctsTree:
    """The arrays of one compiled MCTS tree."""

    def __init__(self, capacity: int) -> None:
        self.move = np.zeros(capacity, dtype=np.int64)
        self.first = np.full(capacity, -1, dtype=np.int64)
        self.n = np.full(capacity, -1, dtype=np.int64)
        self.visits = np.zeros(capacity, dtype=np.float64)
        self.value = np.zeros(capacity, dtype=np.float64)
        self.nodes = 1

    def reset(self) -> None:
        self.first[0] = -1
        self.n[0] = -1
        self.visits[0] = 0.0
        self.value[0] = 0.0
        self.nodes = 1


def safe_mcts(
    board: Board,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    tree: MctsTree | None = None,
) -> tuple[int, dict[int, tuple[int, float]]]:
    """MCTS over the safe lines of ``board`` (which has one and nothing to take) for
    ``seconds`` or ``iterations``: the most visited line and, per safe line, (visits, mean
    score for the mover)."""
    safe = [
        x
        for x in board.moves()
        if all(b < 0 or board.counts[b] < 2 for b in board.geo.line_boxes[x])
    ]
    if not safe or (board.counts == 3).any():
        raise InvalidOption("safe_mcts needs a position with a safe line and no box to take")
    tree = tree or MctsTree(1 << 20)
    tree.reset()
    geo = board.geo
    drawn = board.drawn.copy()
    counts = board.counts.astype(np.int8).copy()
    margin = board.margin if board.to_move == 0 else -board.margin
    start = time.perf_counter()
    batch = 256
    done = 0
    rng = random.Random(seed)
    while True:
        step = batch if iterations is None else min(batch, iterations - done)
        if step <= 0:
            break
        tree.nodes = mcts_run(
            drawn, counts, geo.line_boxes, geo.box_lines, np.int64(margin), np.int64(step),
            np.int64(rng.getrandbits(31)), tree.move, tree.first, tree.n,
            tree.visits, tree.value, np.int64(tree.nodes),
        )  # fmt: skip
        done += step
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
    stats = {}
    if tree.n[0] > 0:
        for c in range(tree.first[0], tree.first[0] + tree.n[0]):
            v = tree.visits[c]
            stats[int(tree.move[c])] = (int(v), float(tree.value[c] / v) if v else 0.0)
    best = max(stats, key=lambda m: stats[m][0])
    return best, stats


class ProAgent:
    """The player described in the module doc (``movetime`` seconds a move)."""

    def __init__(
        self,
        name: str = "dots-pro",
        movetime: float = 1.0,
        seed: int | None = None,
        exact_lines: int = 26,
        hash_bits: int = 22,
    ) -> None:
        if movetime <= 0:
            raise InvalidOption(f"movetime must be positive, not {movetime}")
        self.name = name
        self.movetime = movetime
        self.seed = seed
        self.exact_lines = exact_lines
        self.hash_bits = hash_bits
        self.rng = random.Random(seed)
        self._solver: Solver | None = None
        self._tree: MctsTree | None = None  # allocated at the first search (48 MB)
        self.last_info: dict = {}

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    new_game = reset

    def _solver_for(self, board: Board) -> Solver:
        s = self._solver
        if s is None or (s.geo.rows, s.geo.cols) != (board.rows, board.cols):
            s = self._solver = Solver(board.rows, board.cols, hash_bits=self.hash_bits)
        return s

    def select_move(self, board: Board) -> int:
        start = time.perf_counter()
        self.last_info = {}
        geo, counts = board.geo, board.counts
        moves = board.moves()
        if len(moves) == 1:
            self.last_info = {"kind": "only"}
            return moves[0]
        safe = [line for line in moves if all(b < 0 or counts[b] < 2 for b in geo.line_boxes[line])]
        capture = [
            line for line in moves if any(b >= 0 and counts[b] == 3 for b in geo.line_boxes[line])
        ]
        if capture and safe:
            self.last_info = {"kind": "capture"}
            return capture[0]
        if (not safe or len(moves) <= self.exact_lines) and geo.n_lines <= MAX_LINES:
            budget = self.movetime * (0.9 if not safe else 0.5)
            try:
                result = self._solver_for(board).solve(board, movetime=budget)
                self.last_info = {"kind": "exact", "value": result.value}
                choices = result.best_moves
                text = choices[0] if self.seed is None else self.rng.choice(choices)
                return geo.parse(text)
            except SolveAborted:
                self.last_info = {"kind": "exact-timeout"}
        if not safe or capture:
            self.last_info["kind"] = "rules"
            return ChainsAgent(seed=self.seed).select_move(board)
        left = max(0.01, self.movetime - (time.perf_counter() - start))
        if self._tree is None:
            self._tree = MctsTree(1 << 20)
        best, _ = safe_mcts(board, seconds=left, seed=self.rng.getrandbits(31), tree=self._tree)
        self.last_info = {"kind": "mcts", "playouts": int(self._tree.visits[0])}
        return best


def warmup() -> None:
    """Compile (or load) the player's kernels."""
    b = Board(2, 2)
    safe_mcts(b, iterations=10, tree=MctsTree(1024))
