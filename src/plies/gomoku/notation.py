"""Gomoku coordinates: the pbrain ``x,y`` notation and the algebraic ``h8`` notation.

pbrain: ``x,y``, 0-based, x = column from the left, y = row from the top.
Algebraic: a column letter ``a``.. (``i`` included, so 22 columns reach ``v``) and a row
number counted from the bottom, so ``h8`` is the centre of a 15x15 board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from plies.errors import InvalidMove

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_PBRAIN_RE = re.compile(r"^\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?$")
_ALGEBRAIC_RE = re.compile(r"^([a-zA-Z])\s*(\d+)$")


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """A cell of the board: ``x`` = column from the left, ``y`` = row from the top (0-based)."""

    x: int
    y: int

    def pbrain(self) -> str:
        """The pbrain form ``x,y``."""
        return f"{self.x},{self.y}"

    def algebraic(self, height: int) -> str:
        """The algebraic form (``h8``) on a board with ``height`` rows."""
        if not 0 <= self.x < len(COLUMN_LETTERS):
            raise InvalidMove(f"column {self.x} has no letter")
        return f"{COLUMN_LETTERS[self.x]}{height - self.y}"

    def __str__(self) -> str:
        return self.pbrain()


def parse_move(text: str, width: int = 15, height: int | None = None) -> Move:
    """Parse ``x,y`` (pbrain) or ``h8`` (algebraic) into a :class:`Move` on a board of that size.

    Raises :class:`InvalidMove` with a one-line message for text that is neither notation or
    names a cell off the board.
    """
    if height is None:
        height = width
    s = text.strip()
    m = _PBRAIN_RE.match(s)
    if m:
        move = Move(int(m.group(1)), int(m.group(2)))
    else:
        m = _ALGEBRAIC_RE.match(s)
        if not m:
            raise InvalidMove(f"cannot read move {text!r}: expected 'x,y' or a square like 'h8'")
        x = COLUMN_LETTERS.index(m.group(1).lower())
        row = int(m.group(2))
        move = Move(x, height - row)
    if not (0 <= move.x < width and 0 <= move.y < height):
        raise InvalidMove(f"move {text.strip()!r} is off the {width}x{height} board")
    return move


def parse_moves(text: str, width: int = 15, height: int | None = None) -> list[Move]:
    """Parse a move list: ``h8 h9 i10`` or ``7,7 7,6 8,5`` (separated by spaces, ``;`` or lines)."""
    tokens = re.split(r"[\s;]+", text.strip())
    return [parse_move(t, width, height) for t in tokens if t]
