"""Connect Four on bitboards: drop discs into columns, four in a row wins.

The board is ``width`` x ``height`` (7x6 by default). Each column takes ``height + 1`` bits
of a Python int (the spare bit keeps lines from wrapping to the next column), bit
``col * (height + 1) + row`` with row 0 at the bottom. Each player has one such int, so
testing for four in a row is four shift-and pairs. Moves are column numbers from 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from plies.errors import InvalidMove, InvalidOption


class _Geometry:
    """The tables of one board size, computed once."""

    def __init__(self, width: int, height: int) -> None:
        if not (4 <= width <= 16 and 4 <= height <= 16):
            raise InvalidOption(f"Connect Four boards are 4..16 a side, not {width}x{height}")
        self.width, self.height = width, height
        h1 = height + 1
        self.h1 = h1
        self.base = [c * h1 for c in range(width)]
        self.top = [c * h1 + height for c in range(width)]  # first bit above the column
        centre = (width - 1) / 2
        self.order = sorted(range(width), key=lambda c: (abs(c - centre), c))
        self.cells = width * height
        # weight of a cell = number of four-in-a-row windows through it
        self.weight = [0] * (width * h1)
        for c in range(width):
            for r in range(height):
                n = 0
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    for k in range(4):
                        c0, r0 = c - k * dc, r - k * dr
                        c3, r3 = c0 + 3 * dc, r0 + 3 * dr
                        if 0 <= c0 < width and 0 <= c3 < width and 0 <= r0 < height:
                            if 0 <= r3 < height:
                                n += 1
                self.weight[c * h1 + r] = n


_GEOMETRIES: dict[tuple[int, int], _Geometry] = {}


def _geometry(width: int, height: int) -> _Geometry:
    geo = _GEOMETRIES.get((width, height))
    if geo is None:
        geo = _GEOMETRIES[(width, height)] = _Geometry(width, height)
    return geo


def has_four(b: int, h1: int) -> bool:
    """Whether the bitboard ``b`` (columns of ``h1`` bits) holds four in a row."""
    m = b & (b >> 1)
    if m & (m >> 2):
        return True
    m = b & (b >> h1)
    if m & (m >> 2 * h1):
        return True
    m = b & (b >> (h1 - 1))
    if m & (m >> 2 * (h1 - 1)):
        return True
    m = b & (b >> (h1 + 1))
    return bool(m & (m >> 2 * (h1 + 1)))


class ConnectFour:
    """A Connect Four position with its history (implements the plies.search Game protocol).

    ``ConnectFour("4453")`` plays columns given as digits 1-based (the common notation of
    solvers' test sets); ``ConnectFour([3, 3, 4, 2])`` takes 0-based column numbers.
    """

    max_utility = 1  # win/loss/draw: a proven win cannot be bettered
    __slots__ = ("geo", "bb", "heights", "history", "winner", "material")

    def __init__(self, moves: str | Iterable[int] = "", width: int = 7, height: int = 6) -> None:
        self.geo = _geometry(width, height)
        self.bb = [0, 0]
        self.heights = list(self.geo.base)  # the next free bit of each column
        self.history: list[int] = []
        self.winner: int | None = None
        self.material = [0, 0]
        if isinstance(moves, str):
            moves = [int(ch) - 1 for ch in moves.strip()]
        for col in moves:
            self.play(col)

    @property
    def width(self) -> int:
        return self.geo.width

    @property
    def height(self) -> int:
        return self.geo.height

    def current_player(self) -> int:
        return len(self.history) & 1

    def legal_moves(self) -> list[int]:
        heights, top = self.heights, self.geo.top
        return [c for c in range(self.geo.width) if heights[c] < top[c]]

    def ordered_moves(self) -> list[int]:
        """Winning moves first, then from the centre outwards."""
        heights, top = self.heights, self.geo.top
        moves = [c for c in self.geo.order if heights[c] < top[c]]
        b, h1 = self.bb[len(self.history) & 1], self.geo.h1
        for i, c in enumerate(moves):
            if has_four(b | (1 << heights[c]), h1):
                if i:
                    moves.insert(0, moves.pop(i))
                break
        return moves

    def play(self, move: int) -> None:
        heights = self.heights
        if (
            self.winner is not None
            or not 0 <= move < self.geo.width
            or heights[move] >= self.geo.top[move]
        ):
            raise InvalidMove(f"illegal Connect Four move {move!r}")
        history = self.history
        p = len(history) & 1
        bit = heights[move]
        b = self.bb[p] | (1 << bit)
        self.bb[p] = b
        heights[move] = bit + 1
        history.append(move)
        self.material[p] += self.geo.weight[bit]
        if len(history) < 7:
            return
        h1 = self.geo.h1  # four in a row: the same shifts as has_four, inlined
        m = b & (b >> 1)
        if m & (m >> 2):
            self.winner = p
            return
        m = b & (b >> h1)
        if m & (m >> 2 * h1):
            self.winner = p
            return
        m = b & (b >> (h1 - 1))
        if m & (m >> 2 * (h1 - 1)):
            self.winner = p
            return
        m = b & (b >> (h1 + 1))
        if m & (m >> 2 * (h1 + 1)):
            self.winner = p

    def undo(self) -> None:
        move = self.history.pop()
        p = len(self.history) & 1
        bit = self.heights[move] - 1
        self.heights[move] = bit
        self.bb[p] ^= 1 << bit
        self.material[p] -= self.geo.weight[bit]
        self.winner = None

    def is_terminal(self) -> bool:
        return self.winner is not None or len(self.history) == self.geo.cells

    def returns(self) -> tuple[int, int]:
        if self.winner is None:
            return (0, 0)
        return (1, -1) if self.winner == 0 else (-1, 1)

    def hash_key(self) -> int:
        """Player 0's discs plus all discs: unique for every position (the mover is implied)."""
        b0 = self.bb[0]
        return b0 + (b0 | self.bb[1])

    def evaluate(self) -> int:
        """The windows through the mover's discs minus those through the opponent's."""
        p = len(self.history) & 1
        return self.material[p] - self.material[1 - p]

    def random_playout(self, rng: random.Random) -> tuple[int, int]:
        """A uniformly random game to the end (the same one the generic loop plays with the
        same ``rng``), on local copies: the position is not touched."""
        if self.winner is not None:
            return self.returns()
        geo = self.geo
        h1, h2, h0, h3 = geo.h1, geo.h1 + 1, geo.h1 - 1, 2
        h1x2, h2x2, h0x2 = 2 * h1, 2 * h2, 2 * h0
        heights = list(self.heights)
        top = geo.top
        free = [c for c in range(geo.width) if heights[c] < top[c]]
        bbs = [self.bb[0], self.bb[1]]
        n = len(self.history)
        left = geo.cells - n
        p = n & 1
        rand = rng.random
        while left:
            c = free[int(rand() * len(free))]
            h = heights[c]
            b = bbs[p] | (1 << h)
            bbs[p] = b
            h += 1
            heights[c] = h
            if h == top[c]:
                free.remove(c)
            m = b & (b >> 1)
            if m & (m >> h3):
                return (1, -1) if p == 0 else (-1, 1)
            m = b & (b >> h1)
            if m & (m >> h1x2):
                return (1, -1) if p == 0 else (-1, 1)
            m = b & (b >> h0)
            if m & (m >> h0x2):
                return (1, -1) if p == 0 else (-1, 1)
            m = b & (b >> h2)
            if m & (m >> h2x2):
                return (1, -1) if p == 0 else (-1, 1)
            left -= 1
            p ^= 1
        return (0, 0)

    def copy(self) -> ConnectFour:
        other = ConnectFour.__new__(ConnectFour)
        other.geo = self.geo
        other.bb = list(self.bb)
        other.heights = list(self.heights)
        other.history = list(self.history)
        other.winner = self.winner
        other.material = list(self.material)
        return other

    def moves_text(self) -> str:
        """The history as 1-based column digits (the notation the constructor reads)."""
        return "".join(str(c + 1) for c in self.history)

    def __str__(self) -> str:
        geo, rows = self.geo, []
        for r in range(geo.height - 1, -1, -1):
            row = []
            for c in range(geo.width):
                bit = 1 << (c * geo.h1 + r)
                row.append("X" if self.bb[0] & bit else "O" if self.bb[1] & bit else ".")
            rows.append(" ".join(row))
        rows.append(" ".join(str(c + 1) for c in range(geo.width)))
        return "\n".join(rows)
