"""An SVG chess board for the HTML report: squares, coordinates and pieces as Unicode glyphs
(no images, no fonts to fetch), the last move's squares tinted, numbered arrows for a line.

:func:`board_svg` draws one position (a FEN) and is the report's first frame; ``BOARD_JS``
redraws the pieces in the browser from the FENs in the review JSON (``game.fens``) with the
same geometry. :func:`best_line_arrows` gives, per reviewed move, the from/to squares of the
engine's best line (for the "show best line" view).
"""

from __future__ import annotations

from html import escape

import chess

from plies.analysis.review import Review

SQUARE = 45
BORDER = 20
LIGHT, DARK = "#f0d9b5", "#b58863"
GLYPHS = {"k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}


def _xy(square: int) -> tuple[int, int]:
    return BORDER + chess.square_file(square) * SQUARE, BORDER + (
        7 - chess.square_rank(square)
    ) * SQUARE


def board_svg(fen: str, *, element_id: str | None = None, last: str | None = None) -> str:
    """The position ``fen`` as an SVG string (white at the bottom); ``last`` (UCI) tints the
    squares of the last move."""
    board = chess.Board(fen)
    size = 2 * BORDER + 8 * SQUARE
    ident = f' id="{escape(element_id)}"' if element_id else ""
    out = [
        f'<svg{ident} xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'class="board chess" role="img" aria-label="chess board">',
        f'<rect x="0" y="0" width="{size}" height="{size}" rx="6" fill="#4a3a2a"/>',
    ]
    for sq in chess.SQUARES:
        x, y = _xy(sq)
        light = (chess.square_file(sq) + chess.square_rank(sq)) % 2 == 1
        out.append(
            f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" '
            f'fill="{LIGHT if light else DARK}"/>'
        )
    for i in range(8):
        x = BORDER + i * SQUARE + SQUARE // 2
        y = BORDER + i * SQUARE + SQUARE // 2 + 4
        out.append(
            f'<text x="{x}" y="{size - 6}" class="coord" style="fill:#eee">{"abcdefgh"[i]}</text>'
        )
        out.append(
            f'<text x="{BORDER // 2}" y="{y}" class="coord" style="fill:#eee">{8 - i}</text>'
        )
    out.append('<g class="stones">')
    if last:
        move = chess.Move.from_uci(last)
        for sq in (move.from_square, move.to_square):
            x, y = _xy(sq)
            out.append(
                f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#f7ec74" '
                f'opacity="0.55"/>'
            )
    for sq, piece in board.piece_map().items():
        x, y = _xy(sq)
        out.append(_piece(piece.symbol(), x, y))
    out.append("</g></svg>")
    return "".join(out)


def _piece(symbol: str, x: int, y: int) -> str:
    white = symbol.isupper()
    fill, stroke = ("#fff", "#222") if white else ("#111", "#111")
    return (
        f'<text x="{x + SQUARE / 2}" y="{y + SQUARE * 0.8:.1f}" class="piece" '
        f'font-size="{SQUARE * 0.8:.0f}" text-anchor="middle" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="1.2">{GLYPHS[symbol.lower()]}</text>'
    )


def best_line_arrows(review: Review, plies: int = 4) -> dict[str, list[list[str]]]:
    """Per reviewed move (``str(ply)``), the first ``plies`` moves of the engine's best line
    from the position before it, as ``[from, to]`` square names."""
    fens = review.game["fens"]
    chess960 = review.game.get("rule") == "chess960"  # castling SAN as in the game
    out: dict[str, list[list[str]]] = {}
    for m in review.moves:
        board = chess.Board(fens[m.ply - 1], chess960=chess960)
        arrows = []
        for san in m.best_line[:plies]:
            try:
                move = board.parse_san(san)
            except ValueError:
                break
            arrows.append([chess.square_name(move.from_square), chess.square_name(move.to_square)])
            board.push(move)
        out[str(m.ply)] = arrows
    return out


BOARD_JS = r"""
  const SQ = __SQUARE__, BD = __BORDER__;
  const GLYPH = {k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟"};
  const ARROWS = JSON.parse(document.getElementById("chess-extra").textContent);
  function sqxy(name) {
    return [BD + (name.charCodeAt(0) - 97) * SQ, BD + (8 - parseInt(name[1], 10)) * SQ];
  }
  function pieces(fen) {
    const out = [], rows = fen.split(" ")[0].split("/");
    rows.forEach(function (row, r) {
      let f = 0;
      for (const ch of row) {
        if (ch >= "1" && ch <= "8") { f += parseInt(ch, 10); continue; }
        out.push([String.fromCharCode(97 + f) + (8 - r), ch]);
        f += 1;
      }
    });
    return out;
  }
  function tint(g, name) {
    const p = sqxy(name);
    g.appendChild(el("rect", {x: p[0], y: p[1], width: SQ, height: SQ, fill: "#f7ec74",
      opacity: 0.55}));
  }
  function arrow(g, a, b, k) {
    const p = sqxy(a), q = sqxy(b), h = SQ / 2;
    const x1 = p[0] + h, y1 = p[1] + h, x2 = q[0] + h, y2 = q[1] + h;
    const colour = k % 2 === 1 ? "#2e7dd1" : "#d0342c";
    const grp = el("g", {"class": "ghost"});
    grp.appendChild(el("line", {x1: x1, y1: y1, x2: x2, y2: y2, stroke: colour,
      "stroke-width": 6, "stroke-linecap": "round"}));
    grp.appendChild(el("circle", {cx: x2, cy: y2, r: 10, fill: colour}));
    grp.appendChild(el("text", {x: x2, y: y2 + 4, "class": "num", fill: "#fff"}, String(k)));
    g.appendChild(grp);
  }
  function drawBoard() {
    const svg = document.getElementById("board");
    svg.querySelectorAll(".stones").forEach(function (o) { o.remove(); });
    const g = el("g", {"class": "stones"});
    const best = showBest && cur > 0 && byPly[cur];
    const fen = R.game.fens[best ? cur - 1 : cur];
    if (!best && cur > 0) {
      const u = R.game.moves_uci[cur - 1];
      tint(g, u.slice(0, 2)); tint(g, u.slice(2, 4));
    }
    pieces(fen).forEach(function (pc) {
      const p = sqxy(pc[0]), white = pc[1] === pc[1].toUpperCase();
      g.appendChild(el("text", {x: p[0] + SQ / 2, y: p[1] + SQ * 0.8, "class": "piece",
        "font-size": Math.round(SQ * 0.8), "text-anchor": "middle",
        fill: white ? "#fff" : "#111", stroke: white ? "#222" : "#111", "stroke-width": 1.2},
        GLYPH[pc[1].toLowerCase()]));
    });
    if (best) {
      (ARROWS[String(cur)] || []).forEach(function (a, i) { arrow(g, a[0], a[1], i + 1); });
    }
    svg.appendChild(g);
  }
""".replace("__SQUARE__", str(SQUARE)).replace("__BORDER__", str(BORDER))
