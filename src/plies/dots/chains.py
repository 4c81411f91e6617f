"""Chain analysis in Python: the chains and loops of a position, the long chain rule, the
heuristic evaluation the depth-limited agents use, and a loony-endgame value.

In a position with no capturable box, a box with exactly two sides drawn links its two
neighbours across its open sides; maximal runs of such boxes are **chains** (ending at the
edge or at a box with fewer than two sides) and closed runs are **loops**. A chain of three or
more boxes is *long*. Long chain rule (Berlekamp): the first player wants the number of dots
plus the number of long chains to be even, the second player wants it odd (loops do not count).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from plies.dots.rules import Board


@dataclass(frozen=True)
class Component:
    kind: str  # "chain" or "loop"
    boxes: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.boxes)


def _open_neighbours(board: Board, b: int) -> list[int]:
    """The boxes (or -1 for the edge) across b's undrawn sides."""
    geo = board.geo
    out = []
    for line in geo.box_lines[b]:
        if not board.drawn[line]:
            x, y = (int(v) for v in geo.line_boxes[line])
            out.append(y if x == b else x)
    return out


def components(board: Board) -> list[Component]:
    """The chains and loops formed by the two-sided boxes."""
    counts = board.counts
    seen: set[int] = set()
    found: list[Component] = []
    for start in range(board.geo.n_boxes):
        if counts[start] != 2 or start in seen:
            continue
        seen.add(start)
        path = [start]
        loop = False
        ends = _open_neighbours(board, start)
        for side, first in enumerate(ends):
            prev, cur = start, first
            part = []
            while cur >= 0 and counts[cur] == 2 and cur not in seen:
                seen.add(cur)
                part.append(cur)
                nxt = [n for n in _open_neighbours(board, cur) if n != prev]
                prev, cur = cur, (nxt[0] if nxt else -1)
            if cur == start:
                loop = True
            path = list(reversed(part)) + path if side == 0 else path + part
            if loop:
                break
        found.append(Component("loop" if loop else "chain", tuple(path)))
    return found


def long_chains(board: Board) -> int:
    return sum(1 for c in components(board) if c.kind == "chain" and c.size >= 3)


def safe_lines(board: Board) -> list[int]:
    """Undrawn lines that give no box a third side."""
    lb, counts = board.geo.line_boxes, board.counts
    return [line for line in board.moves() if all(b < 0 or counts[b] < 2 for b in lb[line])]


def parity_favours(board: Board, player: int) -> bool:
    """Whether the long chain rule, counted on the chains now on the board, favours ``player``."""
    dots = (board.rows + 1) * (board.cols + 1)
    even = (dots + long_chains(board)) % 2 == 0
    return even if player == 0 else not even


def loony_value(chains: list[int], loops: list[int]) -> int:
    """The value for the player to move of a simple loony endgame: only chains and loops left,
    every line gives boxes away. Opening a chain of n >= 3 lets the opponent take all or all but
    two (keeping control); a loop of n all or all but four; chains of 1 and 2 are taken."""

    @functools.cache
    def value(cs: tuple[int, ...], ls: tuple[int, ...]) -> int:
        if not cs and not ls:
            return 0
        best = -(10**6)
        for i, n in enumerate(cs):
            if i and cs[i - 1] == n:
                continue
            rest = value(cs[:i] + cs[i + 1 :], ls)
            v = -(n + rest) if n < 3 else min(-(n + rest), 4 - n + rest)
            best = max(best, v)
        for i, n in enumerate(ls):
            if i and ls[i - 1] == n:
                continue
            rest = value(cs, ls[:i] + ls[i + 1 :])
            best = max(best, min(-(n + rest), 8 - n + rest))
        return best

    return value(tuple(sorted(chains)), tuple(sorted(loops)))


def evaluate(board: Board) -> float:
    """A heuristic for the player to move, in centi-boxes: the margin so far, boxes it can
    capture now, and in the endgame (no safe line left) the loony-endgame value of the chains
    and loops; before that a bonus when the long chain rule favours it."""
    me = board.to_move
    margin = board.margin if me == 0 else -board.margin
    score = 100.0 * margin
    capt = int((board.counts == 3).sum())
    if capt:
        return score + 100.0 * capt
    if not safe_lines(board):
        comps = components(board)
        chains = [c.size for c in comps if c.kind == "chain"]
        loops = [c.size for c in comps if c.kind == "loop"]
        if sum(chains) + sum(loops) == board.geo.n_boxes - sum(board.scores):
            return score + 100.0 * loony_value(chains, loops)
    return score + (40.0 if parity_favours(board, me) else -40.0)
