"""Dots and Boxes rules: geometry tables, compiled make/undo and playout kernels, and
:class:`Board`, the Python position that wraps them (and speaks plies.search's Game protocol).

Sizes are given in **boxes**: ``Board(3, 3)`` is the 3 x 3 boxes game played on 4 x 4 dots.

Line indexing (compact, for the kernels): with ``R`` rows and ``C`` columns of boxes,

* horizontal line ``('h', r, c)`` joins dot ``(r, c)`` to ``(r, c + 1)``, ``0 <= r <= R``,
  ``0 <= c < C``; its index is ``r * C + c``;
* vertical line ``('v', r, c)`` joins dot ``(r, c)`` to ``(r + 1, c)``, ``0 <= r < R``,
  ``0 <= c <= C``; its index is ``(R + 1) * C + r * (C + 1) + c``.

Box ``(r, c)`` (index ``r * C + c``) has sides ``h(r, c)``, ``h(r + 1, c)``, ``v(r, c)`` and
``v(r, c + 1)``. Completing a box (drawing its fourth side) scores it and the same player
moves again; one line can complete two boxes. The game ends when every line is drawn.
"""

from __future__ import annotations

import random
import re
from functools import cache

import numpy as np
from numba import njit

from plies.errors import GameOver, InvalidMove, InvalidOption, InvalidRecord

MAX_LINES = 63  # the solver keys positions on one int64 bit mask of the lines drawn


class Geometry:
    """The tables of one board size (shared by every board of that size)."""

    def __init__(self, rows: int, cols: int) -> None:
        if rows < 1 or cols < 1:
            raise InvalidOption(f"a board needs at least 1 x 1 boxes, not {rows}x{cols}")
        if rows > 30 or cols > 30:
            raise InvalidOption(f"board {rows}x{cols} is too large (at most 30 boxes a side)")
        self.rows, self.cols = rows, cols
        self.n_h = (rows + 1) * cols
        self.n_lines = self.n_h + rows * (cols + 1)
        self.n_boxes = rows * cols
        # line_boxes[l] = the (up to) two boxes line l borders, -1 for none
        line_boxes = np.full((self.n_lines, 2), -1, dtype=np.int64)
        box_lines = np.zeros((self.n_boxes, 4), dtype=np.int64)
        for r in range(rows):
            for c in range(cols):
                b = r * cols + c
                box_lines[b] = (self.h(r, c), self.h(r + 1, c), self.v(r, c), self.v(r, c + 1))
        for b in range(self.n_boxes):
            for line in box_lines[b]:
                slot = 0 if line_boxes[line, 0] < 0 else 1
                line_boxes[line, slot] = b
        self.line_boxes = line_boxes
        self.box_lines = box_lines
        # centre-out order: by distance of the line's midpoint to the board centre
        mids = [self.midpoint(i) for i in range(self.n_lines)]
        cy, cx = rows / 2, cols / 2
        self.centre_order = np.array(
            sorted(
                range(self.n_lines),
                key=lambda i: ((mids[i][0] - cy) ** 2 + (mids[i][1] - cx) ** 2, i),
            ),
            dtype=np.int64,
        )

    def h(self, r: int, c: int) -> int:
        return r * self.cols + c

    def v(self, r: int, c: int) -> int:
        return self.n_h + r * (self.cols + 1) + c

    def line(self, kind: str, r: int, c: int) -> int:
        """The index of line ``(kind, r, c)`` (kind ``'h'`` or ``'v'``, dot coordinates)."""
        if kind == "h" and 0 <= r <= self.rows and 0 <= c < self.cols:
            return self.h(r, c)
        if kind == "v" and 0 <= r < self.rows and 0 <= c <= self.cols:
            return self.v(r, c)
        raise InvalidMove(f"no line {kind}{r},{c} on a {self.rows}x{self.cols} board")

    def coords(self, line: int) -> tuple[str, int, int]:
        """``('h'|'v', r, c)`` of a line index."""
        if not 0 <= line < self.n_lines:
            raise InvalidMove(f"no line {line} on a {self.rows}x{self.cols} board")
        if line < self.n_h:
            return ("h", line // self.cols, line % self.cols)
        k = line - self.n_h
        return ("v", k // (self.cols + 1), k % (self.cols + 1))

    def midpoint(self, line: int) -> tuple[float, float]:
        kind, r, c = self.coords(line)
        return (r, c + 0.5) if kind == "h" else (r + 0.5, c)

    def text(self, line: int) -> str:
        kind, r, c = self.coords(line)
        return f"{kind}{r},{c}"

    def parse(self, text: str) -> int:
        """A line from ``h0,1`` / ``v 1 2`` / ``('h', 0, 1)`` text, or a plain index."""
        t = text.strip().lower()
        m = re.fullmatch(r"\(?\s*'?([hv])'?\s*[, ]?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?", t)
        if not (m or t.isdigit()):
            raise InvalidMove(f"cannot read line {text!r}: expected h<row>,<col> or v<row>,<col>")
        try:
            if m is None:
                self.coords(int(t))
                return int(t)
            return self.line(m.group(1), int(m.group(2)), int(m.group(3)))
        except InvalidMove:  # quote the line as the user wrote it
            raise InvalidMove(
                f"no line {text.strip()!r} on a {self.rows}x{self.cols} board"
            ) from None


@cache
def geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)


def parse_size(text: str) -> tuple[int, int]:
    """``3x3`` (boxes) or ``4x4d`` / ``4x4 dots`` (dots) -> (rows, cols) of boxes."""
    m = re.fullmatch(r"\s*(\d+)\s*[x*]\s*(\d+)\s*(d|dots)?\s*", text.lower())
    if not m:
        raise InvalidOption(f"bad board size {text!r}: expected RxC boxes (3x3) or RxCd dots")
    rows, cols = int(m.group(1)), int(m.group(2))
    if m.group(3):
        rows, cols = rows - 1, cols - 1
    geometry(rows, cols)  # validates
    return rows, cols


# --- kernels -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def count_line(counts, line_boxes, line):
    """Count ``line`` as a side of the boxes it borders; return how many it completed."""
    done = 0
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0:
            counts[b] += 1
            if counts[b] == 4:
                done += 1
    return done


@njit(cache=True, nogil=True)
def uncount_line(counts, line_boxes, line):
    """Undo :func:`count_line`."""
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0:
            counts[b] -= 1


@njit(cache=True, nogil=True)
def _set_owner(owner, counts, line_boxes, line, mark):
    """``owner = mark`` for the complete boxes that ``line`` borders."""
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0 and counts[b] == 4:
            owner[b] = mark


@njit(cache=True, nogil=True)
def draw_line(drawn, counts, owner, line_boxes, line, mark):
    """Draw ``line``; boxes it completes get ``owner = mark``; return how many it completed."""
    drawn[line] = 1
    done = count_line(counts, line_boxes, line)
    if done:
        _set_owner(owner, counts, line_boxes, line, mark)
    return done


@njit(cache=True, nogil=True)
def erase_line(drawn, counts, owner, line_boxes, line):
    """Undo :func:`draw_line`."""
    drawn[line] = 0
    _set_owner(owner, counts, line_boxes, line, 0)
    uncount_line(counts, line_boxes, line)


@njit(cache=True, nogil=True)
def playout(drawn, counts, line_boxes, to_move, seed):
    """Play uniformly random lines to the end on copies; return the box margin of the rest of
    the game for player 0 (player ``to_move`` moves first)."""
    np.random.seed(seed)
    d = drawn.copy()
    cnt = counts.copy()
    free = np.empty(d.shape[0], dtype=np.int64)
    n = 0
    for i in range(d.shape[0]):
        if d[i] == 0:
            free[n] = i
            n += 1
    for i in range(n - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        free[i], free[j] = free[j], free[i]
    player = to_move
    margin = 0
    for i in range(n):
        done = count_line(cnt, line_boxes, free[i])
        if done:
            margin += done if player == 0 else -done
        else:
            player = 1 - player
    return margin


def warmup() -> None:
    """Compile (or load) the rules kernels."""
    b = Board(1, 2)
    b.play(0)
    b.undo()
    playout(b.drawn, b.counts, b.geo.line_boxes, 0, 1)


# --- the Python position -----------------------------------------------------------------
class Board:
    """A Dots and Boxes position: ``rows x cols`` boxes, player 0 (``+1`` in the dictionary
    format, moves first) and player 1 (``-1``). Moves are line indices (see the module doc);
    ``play`` also accepts text (``h0,1``) and ``('h', r, c)`` tuples.

    Implements the plies.search Game protocol (``returns()`` is the box margin).
    """

    def __init__(self, rows: int = 3, cols: int = 3) -> None:
        self.geo = geometry(rows, cols)
        self.drawn = np.zeros(self.geo.n_lines, dtype=np.uint8)
        self.counts = np.zeros(self.geo.n_boxes, dtype=np.int8)
        self.owner = np.zeros(self.geo.n_boxes, dtype=np.int8)
        self.to_move = 0
        self.scores = [0, 0]
        self.history: list[tuple[int, int, int]] = []  # (line, mover, boxes completed)
        self.max_utility = self.geo.n_boxes

    # -- geometry shortcuts
    @property
    def rows(self) -> int:
        return self.geo.rows

    @property
    def cols(self) -> int:
        return self.geo.cols

    @property
    def dot_size(self) -> tuple[int, int]:
        return (self.geo.rows + 1, self.geo.cols + 1)

    @classmethod
    def from_dots(cls, dot_rows: int, dot_cols: int) -> Board:
        """The board of ``dot_rows x dot_cols`` dots."""
        return cls(dot_rows - 1, dot_cols - 1)

    # -- moves
    def to_line(self, move) -> int:
        if isinstance(move, (int, np.integer)):
            line = int(move)
            self.geo.coords(line)
            return line
        if isinstance(move, tuple):
            return self.geo.line(*move)
        if isinstance(move, str):
            return self.geo.parse(move)
        raise InvalidMove(f"cannot read move {move!r}")

    def play(self, move) -> int:
        """Draw a line; return the number of boxes it completed (the mover moves again if > 0)."""
        line = self.to_line(move)
        if self.is_over:
            raise GameOver("the game is over")
        if self.drawn[line]:
            raise InvalidMove(f"line {self.geo.text(line)} is already drawn")
        mover = self.to_move
        done = draw_line(
            self.drawn, self.counts, self.owner, self.geo.line_boxes, line, 1 - 2 * mover
        )
        self.history.append((line, mover, done))
        if done:
            self.scores[mover] += done
        else:
            self.to_move = 1 - mover
        return done

    def undo(self) -> None:
        if not self.history:
            raise InvalidMove("no move to take back")
        line, mover, done = self.history.pop()
        erase_line(self.drawn, self.counts, self.owner, self.geo.line_boxes, line)
        self.scores[mover] -= done
        self.to_move = mover

    @property
    def is_over(self) -> bool:
        """Every line is drawn."""
        return not (self.drawn == 0).any()

    def moves(self) -> list[int]:
        """The undrawn lines, in index order."""
        return [int(i) for i in np.flatnonzero(self.drawn == 0)]

    @property
    def margin(self) -> int:
        """Player 0's boxes minus player 1's."""
        return self.scores[0] - self.scores[1]

    @property
    def mask(self) -> int:
        """The lines drawn as one integer (bit ``i`` = line ``i``)."""
        return int(sum(1 << int(i) for i in np.flatnonzero(self.drawn)))

    def capturable(self) -> list[int]:
        """Boxes with three sides drawn."""
        return [int(b) for b in np.flatnonzero(self.counts == 3)]

    def move_text(self, line: int) -> str:
        return self.geo.text(line)

    # -- Game protocol
    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[int]:
        return self.moves()

    def is_terminal(self) -> bool:
        return not (self.drawn == 0).any()

    def returns(self) -> tuple[int, int]:
        m = self.margin
        return (m, -m)

    def hash_key(self) -> int:
        return ((self.mask << 12 | (self.margin + 2048)) << 1) | self.to_move

    def ordered_moves(self) -> list[int]:
        """Captures first, then safe lines from the centre out, then lines that give boxes away."""
        counts, lb = self.counts, self.geo.line_boxes
        captures, safe, gifts = [], [], []
        for line in self.geo.centre_order:
            if self.drawn[line]:
                continue
            cs = [counts[b] for b in lb[line] if b >= 0]
            if 3 in cs:
                captures.append(int(line))
            elif 2 in cs:
                gifts.append(int(line))
            else:
                safe.append(int(line))
        return captures + safe + gifts

    def evaluate(self) -> float:
        """Heuristic for the player to move: box margin, capturable boxes, long chain rule."""
        from plies.dots.chains import evaluate

        return evaluate(self)

    def random_playout(self, rng: random.Random) -> tuple[int, int]:
        rest = int(
            playout(self.drawn, self.counts, self.geo.line_boxes, self.to_move, rng.getrandbits(31))
        )
        m = self.margin + rest
        return (m, -m)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.geo = self.geo
        other.drawn = self.drawn.copy()
        other.counts = self.counts.copy()
        other.owner = self.owner.copy()
        other.to_move = self.to_move
        other.scores = list(self.scores)
        other.history = list(self.history)
        other.max_utility = self.max_utility
        return other

    # -- dictionary format
    def to_dict(self) -> dict:
        """``{'size': (dot_rows, dot_cols), 'lines': {('h', r, c): True, ...},
        'boxes': {(r, c): +1 | -1, ...}}`` (+1 = the first player)."""
        return {
            "size": self.dot_size,
            "lines": {self.geo.coords(int(i)): True for i in np.flatnonzero(self.drawn)},
            "boxes": {
                (int(b) // self.cols, int(b) % self.cols): int(self.owner[b])
                for b in np.flatnonzero(self.owner)
            },
        }

    @classmethod
    def from_dict(cls, data: dict, to_move: int = 0) -> Board:
        """A board from the dictionary format (lines mapped to False are not drawn). The format
        does not say whose turn it is: ``to_move`` (0 = the +1 player) does. Every complete box
        must have an owner (+1 or -1) and every owned box must be complete."""
        try:
            dot_rows, dot_cols = (int(x) for x in data["size"])
            board = cls(dot_rows - 1, dot_cols - 1)
            lines = data.get("lines", {})
            boxes = data.get("boxes", {})
            for key, present in lines.items():
                if present:
                    line = board.geo.line(str(key[0]), int(key[1]), int(key[2]))
                    board.drawn[line] = 1
            for b in range(board.geo.n_boxes):
                board.counts[b] = sum(int(board.drawn[x]) for x in board.geo.box_lines[b])
            for (r, c), player in boxes.items():
                if not (0 <= r < board.rows and 0 <= c < board.cols) or player not in (1, -1):
                    raise InvalidRecord(f"bad box entry ({r}, {c}): {player!r}")
                b = r * board.cols + c
                if board.counts[b] != 4:
                    raise InvalidRecord(f"box ({r}, {c}) has an owner but is not complete")
                board.owner[b] = player
        except (KeyError, TypeError, ValueError, IndexError, InvalidMove) as exc:
            raise InvalidRecord(f"bad Dots and Boxes dictionary: {exc}") from None
        for b in range(board.geo.n_boxes):
            if board.counts[b] == 4 and board.owner[b] == 0:
                r, c = divmod(b, board.cols)
                raise InvalidRecord(f"box ({r}, {c}) is complete but has no owner")
        board.scores = [int((board.owner == 1).sum()), int((board.owner == -1).sum())]
        if to_move not in (0, 1):
            raise InvalidOption("to_move must be 0 or 1")
        board.to_move = to_move
        return board

    def __str__(self) -> str:
        from plies.dots.display import ascii_board

        return ascii_board(self)

    def __repr__(self) -> str:
        return f"Board({self.rows}, {self.cols}) after {len(self.history)} lines"
