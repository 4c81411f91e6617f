"""Text and SVG pictures of a Dots and Boxes position.

ASCII: ``+`` dots, ``---`` and ``|`` drawn lines, ``A`` / ``B`` box owners (A = the first
player, +1 in the dictionary format), row and column labels of the dots optional::

    +---+---+
    | A |   |
    +---+   +
    |       |
    +---+---+
"""

from __future__ import annotations

from html import escape

from plies.dots.rules import Board

OWNER_LETTERS = {1: "A", -1: "B"}


def ascii_board(board: Board, labels: bool = False) -> str:
    geo = board.geo
    out: list[str] = []
    if labels:
        out.append("   " + "".join(f"{c:<4}" for c in range(geo.cols + 1)).rstrip())
    for r in range(geo.rows + 1):
        row = (
            "".join("+" + ("---" if board.drawn[geo.h(r, c)] else "   ") for c in range(geo.cols))
            + "+"
        )
        out.append((f"{r:<3}" if labels else "") + row.rstrip())
        if r == geo.rows:
            break
        cells = []
        for c in range(geo.cols + 1):
            cells.append("|" if board.drawn[geo.v(r, c)] else " ")
            if c < geo.cols:
                owner = int(board.owner[r * geo.cols + c])
                cells.append(f" {OWNER_LETTERS.get(owner, ' ')} ")
        out.append((("   " if labels else "") + "".join(cells)).rstrip())
    return "\n".join(out)


def svg_board(board: Board, cell: int = 40, last: bool = True) -> str:
    """An SVG picture: dots, drawn lines (the last one highlighted), boxes shaded by owner."""
    geo = board.geo
    pad = cell // 2
    width, height = geo.cols * cell + 2 * pad, geo.rows * cell + 2 * pad
    fill = {1: "#9ecae1", -1: "#fdae6b"}
    title = f"Dots and Boxes {geo.rows}x{geo.cols}: A {board.scores[0]}, B {board.scores[1]}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for b in range(geo.n_boxes):
        owner = int(board.owner[b])
        if owner:
            r, c = divmod(b, geo.cols)
            x, y = pad + c * cell, pad + r * cell
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill[owner]}"/>'
                f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-family="sans-serif" '
                f'font-size="{cell // 2}" text-anchor="middle" dominant-baseline="central">'
                f"{OWNER_LETTERS[owner]}</text>"
            )
    last_line = board.history[-1][0] if board.history and last else -1
    for line in range(geo.n_lines):
        if not board.drawn[line]:
            continue
        kind, r, c = geo.coords(line)
        x1, y1 = pad + c * cell, pad + r * cell
        x2, y2 = (x1 + cell, y1) if kind == "h" else (x1, y1 + cell)
        colour = "#d62728" if line == last_line else "black"
        parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
            f'stroke-width="{max(2, cell // 12)}" stroke-linecap="round"/>'
        )
    for r in range(geo.rows + 1):
        for c in range(geo.cols + 1):
            parts.append(
                f'<circle cx="{pad + c * cell}" cy="{pad + r * cell}" r="{max(2, cell // 10)}"/>'
            )
    parts.append("</svg>")
    return "\n".join(parts)
