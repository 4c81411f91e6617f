// SVG boards: the Gomoku grid (any width x height up to 22) and the chess board.
// Coordinates as plies writes them: columns a.. (i included) from the left, rows from the
// bottom (h8 is the centre of 15x15); chess squares a1..h8, white at the bottom.
const NS = "http://www.w3.org/2000/svg";
const CELL = 32, MARGIN = 30;
const SQ = 60, BD = 20;
const GLYPH = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

export function cellFromAlg(text, height) {
  const m = /^([a-z])(\d+)$/.exec(text);
  return { x: m[1].charCodeAt(0) - 97, y: height - Number(m[2]) };
}

function algFromCell(x, y, height) {
  return String.fromCharCode(97 + x) + String(height - y);
}

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function drawGomoku(svg, width, height, opts = {}) {
  const { stones = [], forbidden = [], winning = [], onClick = null } = opts;
  const W = 2 * MARGIN + (width - 1) * CELL, H = 2 * MARGIN + (height - 1) * CELL;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.classList.remove("chess");
  svg.replaceChildren();
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, rx: 6, fill: "#e3b868" }));
  const px = (x) => MARGIN + x * CELL, py = (y) => MARGIN + y * CELL;
  const grid = el("g", { stroke: "#6b4e1e", "stroke-width": 1 });
  for (let x = 0; x < width; x++) grid.append(el("line", { x1: px(x), x2: px(x), y1: py(0), y2: py(height - 1) }));
  for (let y = 0; y < height; y++) grid.append(el("line", { x1: px(0), x2: px(width - 1), y1: py(y), y2: py(y) }));
  svg.append(grid);
  for (let x = 0; x < width; x++) {
    svg.append(el("text", { class: "coord", x: px(x), y: H - 8 }, String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < height; y++) {
    svg.append(el("text", { class: "coord", x: 12, y: py(y) + 4 }, String(height - y)));
  }
  const stonesG = el("g", { class: "stones" });
  for (const s of stones) {
    const fill = s.colour === "black" ? "#1d1d1d" : "#f7f7f2";
    const c = el("circle", { cx: px(s.x), cy: py(s.y), r: CELL * 0.45, fill, stroke: "#333",
      "stroke-width": 1, class: s.ghost ? "ghost" : "stone" });
    stonesG.append(c);
    if (s.label !== undefined) {
      stonesG.append(el("text", { class: "num" + (s.ghost ? " ghost" : ""), x: px(s.x), y: py(s.y) + 4,
        fill: s.colour === "black" ? "#fff" : "#111" }, String(s.label)));
    }
  }
  svg.append(stonesG);
  const last = stones.filter((s) => !s.ghost).at(-1);
  if (last) svg.append(el("circle", { cx: px(last.x), cy: py(last.y), r: 4, fill: "#d0342c" }));
  for (const t of winning) {
    const c = cellFromAlg(t, height);
    svg.append(el("circle", { cx: px(c.x), cy: py(c.y), r: CELL * 0.5, fill: "none",
      stroke: "#3f8f3a", "stroke-width": 3 }));
  }
  const marks = el("g", { class: "forbidden-points" });
  for (const t of forbidden) {
    const c = cellFromAlg(t, height), d = CELL * 0.22;
    const g = el("g", { class: "forbidden", "data-cell": t });
    g.append(el("line", { x1: px(c.x) - d, y1: py(c.y) - d, x2: px(c.x) + d, y2: py(c.y) + d }));
    g.append(el("line", { x1: px(c.x) - d, y1: py(c.y) + d, x2: px(c.x) + d, y2: py(c.y) - d }));
    marks.append(g);
  }
  svg.append(marks);
  if (onClick) {
    const hits = el("g", { class: "hits" });
    for (let x = 0; x < width; x++) {
      for (let y = 0; y < height; y++) {
        const cell = algFromCell(x, y, height);
        const r = el("rect", { class: "hit", x: px(x) - CELL / 2, y: py(y) - CELL / 2,
          width: CELL, height: CELL, "data-cell": cell });
        r.addEventListener("click", () => onClick(cell));
        hits.append(r);
      }
    }
    svg.append(hits);
  }
}

function sqxy(name) {
  return [BD + (name.charCodeAt(0) - 97) * SQ, BD + (8 - Number(name[1])) * SQ];
}

export function drawChess(svg, fen, opts = {}) {
  const { selected = null, targets = [], arrows = [], last = null, onClick = null } = opts;
  const size = 2 * BD + 8 * SQ;
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.classList.add("chess");
  svg.replaceChildren();
  svg.append(el("rect", { x: 0, y: 0, width: size, height: size, rx: 6, fill: "#4a3a2a" }));
  const rows = fen.split(" ")[0].split("/");
  const lastSquares = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const name = String.fromCharCode(97 + f) + String(8 - r);
      const [x, y] = sqxy(name);
      let fill = (r + f) % 2 ? "#b58863" : "#f0d9b5";
      if (lastSquares.includes(name)) fill = (r + f) % 2 ? "#aaa23a" : "#cdd26a";
      const rect = el("rect", { x, y, width: SQ, height: SQ, fill, "data-square": name,
        class: "square" });
      if (onClick) rect.addEventListener("click", () => onClick(name));
      svg.append(rect);
      if (name === selected) svg.append(el("rect", { x, y, width: SQ, height: SQ, class: "sel" }));
      if (targets.includes(name)) {
        svg.append(el("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: 9, class: "target" }));
      }
    }
  }
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) { f += Number(ch); continue; }
      const [x, y] = sqxy(String.fromCharCode(97 + f) + String(8 - r));
      const white = ch === ch.toUpperCase();
      svg.append(el("text", { class: "piece", x: x + SQ / 2, y: y + SQ / 2 + 2,
        fill: white ? "#fff" : "#111", stroke: white ? "#111" : "#fff", "stroke-width": 0.8 },
        GLYPH[ch.toLowerCase()]));
      f += 1;
    }
  });
  arrows.forEach(([from, to], i) => {
    const [x1, y1] = sqxy(from), [x2, y2] = sqxy(to);
    const c = SQ / 2;
    svg.append(el("line", { class: "arrow", x1: x1 + c, y1: y1 + c, x2: x2 + c, y2: y2 + c,
      stroke: i % 2 ? "#2b6cb0cc" : "#3f8f3acc", "stroke-width": 7, "stroke-linecap": "round" }));
    svg.append(el("text", { class: "num", x: x2 + c, y: y2 + c + 4, fill: "#000" }, String(i + 1)));
  });
}
