"""An SVG Gomoku board: grid, coordinates, stones with move numbers, marks.

The HTML report redraws the board in the browser with the same geometry (``CELL``,
``MARGIN``); :func:`board_svg` is its static first frame and works on its own too.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from plies.gomoku.notation import COLUMN_LETTERS

CELL = 32
MARGIN = 28


def square_xy(square: str, height: int) -> tuple[int, int]:
    """(x, y) of an algebraic square (``h8``), y counted from the top."""
    return COLUMN_LETTERS.index(square[0]), height - int(square[1:])


def board_svg(
    width: int,
    height: int,
    moves: Sequence[str],
    *,
    numbers: bool = True,
    marks: Sequence[str] = (),
    element_id: str | None = None,
) -> str:
    """The board after ``moves`` (algebraic squares, black first) as an SVG string; the last
    move is ringed, ``marks`` get a red cross."""
    w = 2 * MARGIN + (width - 1) * CELL
    h = 2 * MARGIN + (height - 1) * CELL
    ident = f' id="{escape(element_id)}"' if element_id else ""
    out = [
        f'<svg{ident} xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
        f'class="board" role="img" aria-label="board">',
        f'<rect x="0" y="0" width="{w}" height="{h}" rx="6" fill="#dcb35c"/>',
    ]
    for i in range(width):
        x = MARGIN + i * CELL
        out.append(f'<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{h - MARGIN}" stroke="#5a4326"/>')
        out.append(f'<text x="{x}" y="{MARGIN - 12}" class="coord">{COLUMN_LETTERS[i]}</text>')
    for j in range(height):
        y = MARGIN + j * CELL
        out.append(f'<line x1="{MARGIN}" y1="{y}" x2="{w - MARGIN}" y2="{y}" stroke="#5a4326"/>')
        out.append(f'<text x="{MARGIN - 16}" y="{y + 4}" class="coord">{height - j}</text>')
    out.append('<g class="stones">')
    for k, square in enumerate(moves):
        x, y = square_xy(square, height)
        cx, cy = MARGIN + x * CELL, MARGIN + y * CELL
        black = k % 2 == 0
        fill, ink = ("#111", "#fff") if black else ("#f6f6f6", "#111")
        out.append(
            f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.45:.1f}" fill="{fill}" stroke="#222"/>'
        )
        if numbers:
            out.append(f'<text x="{cx}" y="{cy + 4}" class="num" fill="{ink}">{k + 1}</text>')
        if k == len(moves) - 1:
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.5:.1f}" fill="none" '
                f'stroke="#d0342c" stroke-width="2"/>'
            )
    for square in marks:
        x, y = square_xy(square, height)
        cx, cy = MARGIN + x * CELL, MARGIN + y * CELL
        d = CELL * 0.25
        out.append(
            f'<path d="M{cx - d} {cy - d}L{cx + d} {cy + d}M{cx - d} {cy + d}L{cx + d} {cy - d}" '
            f'stroke="#d0342c" stroke-width="3"/>'
        )
    out.append("</g></svg>")
    return "".join(out)
