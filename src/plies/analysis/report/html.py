"""The self-contained HTML report: one file, inline CSS, SVG and JavaScript, no network.

A board with a move stepper (buttons, arrow keys, Home/End, B for the best line), the
win-probability chart (click a point to go to that move), the classification badges, the
explanations and the engine's lines, and the summary. The review JSON is embedded as data.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from plies.analysis.i18n import messages, translator
from plies.analysis.report import move_number, summary_moments
from plies.analysis.report.svg import CELL, MARGIN, board_svg
from plies.analysis.review import Review

COLOURS = {
    "book": "#a58a6b",
    "forced": "#4a90c2",
    "best": "#3f8f3a",
    "excellent": "#6aa84f",
    "good": "#93b874",
    "inaccuracy": "#e6b422",
    "mistake": "#e07a1f",
    "blunder": "#d0342c",
    "missed_win": "#9b3cc8",
    "lost": "#808080",
}

_CSS = """
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; }
body { margin: 0; background: #f3f1ec; }
header { padding: 12px 20px; background: #2f2a24; color: #f3efe6; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header .meta { font-size: 13px; opacity: .85; }
main { display: flex; flex-wrap: wrap; gap: 18px; padding: 16px 20px; align-items: flex-start; }
.panel { background: #fff; border-radius: 8px; padding: 12px; box-shadow: 0 1px 3px #0002; }
#left { flex: 0 1 560px; }
#right { flex: 1 1 420px; min-width: 320px; display: flex; flex-direction: column; gap: 14px; }
svg.board { width: 100%; max-width: 560px; height: auto; display: block; }
svg .coord { font-size: 11px; text-anchor: middle; fill: #4a3a22; }
svg .num { font-size: 11px; text-anchor: middle; font-weight: 600; }
svg .ghost { opacity: .55; }
.controls { display: flex; gap: 6px; margin-top: 8px; align-items: center; flex-wrap: wrap; }
button { font: inherit; padding: 5px 10px; border: 1px solid #bbb; border-radius: 5px;
  background: #fafafa; cursor: pointer; }
button:hover { background: #eee; }
button.on { background: #2f2a24; color: #fff; }
#counter { margin-left: auto; font-variant-numeric: tabular-nums; font-size: 14px; }
.hint { font-size: 12px; color: #777; margin-top: 6px; }
.badge { display: inline-block; padding: 2px 8px; border-radius: 10px; color: #fff;
  font-size: 12px; font-weight: 600; white-space: nowrap; }
.cat { display: inline-block; padding: 1px 7px; border-radius: 10px; border: 1px solid #999;
  font-size: 12px; margin-left: 4px; }
#detail h2 { margin: 0 0 6px; font-size: 17px; }
#detail p { margin: 6px 0; line-height: 1.4; }
#detail .lines { font-size: 13px; color: #444; }
#chart { width: 100%; height: auto; display: block; cursor: pointer; }
#chart .pt { cursor: pointer; }
table.summary { border-collapse: collapse; font-size: 14px; width: 100%; }
table.summary td, table.summary th { padding: 3px 6px; text-align: left; }
#movelist { max-height: 360px; overflow-y: auto; font-size: 13px; }
#movelist table { border-collapse: collapse; width: 100%; }
#movelist td { padding: 2px 6px; border-bottom: 1px solid #eee; cursor: pointer; }
#movelist tr.cur td { background: #fff3c4; }
.acc { font-size: 22px; font-weight: 700; }
.warn { color: #a05a00; font-weight: 600; }
"""

_GOMOKU_BOARD_JS = r"""
  function xy(sq) { return [sq.charCodeAt(0) - 97, H - parseInt(sq.slice(1), 10)]; }
  function stone(g, sq, k, black, ghost) {
    const p = xy(sq), cx = M + p[0] * CELL, cy = M + p[1] * CELL;
    const grp = el("g", ghost ? {"class": "ghost"} : {});
    grp.appendChild(el("circle", {cx: cx, cy: cy, r: CELL * 0.45,
      fill: black ? "#111" : "#f6f6f6", stroke: ghost ? "#d0342c" : "#222",
      "stroke-dasharray": ghost ? "3 2" : "none"}));
    grp.appendChild(el("text", {x: cx, y: cy + 4, "class": "num",
      fill: black ? "#fff" : "#111"}, String(k)));
    g.appendChild(grp);
    return [cx, cy];
  }
  function drawBoard() {
    const svg = document.getElementById("board");
    svg.querySelectorAll(".stones").forEach(function (o) { o.remove(); });
    const g = el("g", {"class": "stones"});
    const upto = showBest && cur > 0 ? cur - 1 : cur;
    let last = null;
    for (let k = 0; k < upto; k++) last = stone(g, moves[k], k + 1, k % 2 === 0, false);
    if (showBest && cur > 0 && byPly[cur]) {
      byPly[cur].best_line.forEach(function (sq, i) {
        stone(g, sq, upto + i + 1, (upto + i) % 2 === 0, true);
      });
    } else if (last) {
      g.appendChild(el("circle", {cx: last[0], cy: last[1], r: CELL * 0.5, fill: "none",
        stroke: "#d0342c", "stroke-width": 2}));
    }
    svg.appendChild(g);
  }
"""

_JS = r"""
(function () {
  "use strict";
  const R = JSON.parse(document.getElementById("review-data").textContent);
  const T = JSON.parse(document.getElementById("messages").textContent);
  const COL = JSON.parse(document.getElementById("colours").textContent);
  const W = R.game.width, H = R.game.height, CELL = __CELL__, M = __MARGIN__;
  const moves = R.game.moves;
  const byPly = {};
  R.moves.forEach(function (m) { byPly[m.ply] = m; });
  const NS = "http://www.w3.org/2000/svg";
  let cur = moves.length, showBest = false;

  function el(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c];
    });
  }
  function badge(cls) {
    return '<span class="badge" style="background:' + COL[cls] + '">' + esc(T["cls_" + cls]) +
      "</span>";
  }
__BOARD_JS__
  const FIRST = R.game.game === "chess" ? "white" : "black";
  function num(ply) {
    if (R.game.game !== "chess") return ply + ".";
    const f = R.game.fens[ply - 1].split(" ");
    return f[5] + (f[1] === "w" ? "." : "...");
  }
  function firstWp(m) {
    return m.player === FIRST ? m.win_probability_after : 1 - m.win_probability_after;
  }
  function drawChart() {
    const svg = document.getElementById("chart");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const cw = 600, ch = 180, pad = 24, n = Math.max(1, moves.length);
    const X = function (i) { return pad + (cw - 2 * pad) * i / n; };
    const Y = function (p) { return pad / 2 + (ch - pad) * (1 - p); };
    svg.appendChild(el("rect", {x: 0, y: 0, width: cw, height: ch, fill: "#fbfaf7"}));
    svg.appendChild(el("line", {x1: X(0), y1: Y(0.5), x2: X(n), y2: Y(0.5), stroke: "#bbb",
      "stroke-dasharray": "4 3"}));
    const pts = [];
    const first = R.moves.length ? R.moves[0] : null;
    if (first) pts.push([0, first.player === FIRST ? first.win_probability_before :
      1 - first.win_probability_before]);
    R.moves.forEach(function (m) { pts.push([m.ply, firstWp(m)]); });
    if (pts.length) {
      let d = "M" + X(pts[0][0]) + " " + Y(0);
      pts.forEach(function (p) { d += "L" + X(p[0]) + " " + Y(p[1]); });
      d += "L" + X(pts[pts.length - 1][0]) + " " + Y(0) + "Z";
      svg.appendChild(el("path", {d: d, fill: "#2223", stroke: "none"}));
      let line = "";
      pts.forEach(function (p, i) { line += (i ? "L" : "M") + X(p[0]) + " " + Y(p[1]); });
      svg.appendChild(el("path", {d: line, fill: "none", stroke: "#222", "stroke-width": 1.5}));
    }
    svg.appendChild(el("line", {id: "cursor", x1: X(cur), y1: 4, x2: X(cur), y2: ch - 4,
      stroke: "#d0342c", "stroke-width": 1.5}));
    R.moves.forEach(function (m) {
      const bad = ["inaccuracy", "mistake", "blunder", "missed_win"].indexOf(m.classification) >= 0;
      const c = el("circle", {cx: X(m.ply), cy: Y(firstWp(m)), r: bad ? 5 : 3,
        fill: COL[m.classification], stroke: "#fff", "class": "pt", "data-ply": m.ply});
      const label = num(m.ply) + " " + m.move + " " + T["cls_" + m.classification];
      c.appendChild(el("title", {}, label));
      c.addEventListener("click", function (ev) { ev.stopPropagation(); go(m.ply); });
      svg.appendChild(c);
    });
    svg.appendChild(el("text", {x: pad, y: ch - 2, "font-size": 11, fill: "#555"},
      T.chart_label));
  }
  function chartClick(ev) {
    const svg = document.getElementById("chart");
    const r = svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) * 600 / r.width;
    const n = Math.max(1, moves.length);
    go(Math.round((x - 24) / ((600 - 48) / n)));
  }
  function drawDetail() {
    const d = document.getElementById("detail");
    const m = byPly[cur];
    if (cur === 0) { d.innerHTML = "<h2>" + esc(T.start_position) + "</h2>"; return; }
    if (!m) { d.innerHTML = "<h2>" + esc(T.move_n.replace("{n}", cur)) + " " +
      esc(moves[cur - 1]) + "</h2>"; return; }
    let h = "<h2>" + num(cur) + " " + esc(T[m.player]) + " " + esc(m.move) + " " +
      badge(m.classification);
    m.categories.forEach(function (c) {
      if (c !== m.classification) h += '<span class="cat">' + esc(T["cat_" + c]) + "</span>";
    });
    h += "</h2>";
    h += "<p>" + esc(T.win_chance) + ": " + Math.round(100 * m.win_probability_before) +
      "% → " + Math.round(100 * m.win_probability_after) + "%</p>";
    if (m.explanation) h += "<p>" + esc(m.explanation) + "</p>";
    if (m.best_line.length) h += '<p class="lines">' + esc(T.best_line) + ": " +
      esc(m.best_line.join(" ")) + "</p>";
    if (m.lines.length) {
      h += '<p class="lines">' + esc(T.engine_lines) + ":<br>";
      m.lines.forEach(function (l) {
        h += esc(l.move) + " (" + Math.round(100 * l.win_probability) + "%): " +
          esc(l.pv.join(" ")) + "<br>";
      });
      h += "</p>";
    }
    d.innerHTML = h;
  }
  function drawList() {
    const rows = document.querySelectorAll("#movelist tr");
    rows.forEach(function (r) {
      r.classList.toggle("cur", parseInt(r.getAttribute("data-ply"), 10) === cur);
    });
    const row = document.querySelector('#movelist tr[data-ply="' + cur + '"]');
    if (row && row.scrollIntoView) row.scrollIntoView({block: "nearest"});
  }
  function go(ply) {
    cur = Math.max(0, Math.min(moves.length, ply));
    document.getElementById("counter").textContent = cur + " / " + moves.length;
    document.getElementById("btn-best").classList.toggle("on", showBest);
    drawBoard(); drawChart(); drawDetail(); drawList();
    document.body.setAttribute("data-ply", String(cur));
  }
  document.getElementById("btn-first").addEventListener("click", function () { go(0); });
  document.getElementById("btn-prev").addEventListener("click", function () { go(cur - 1); });
  document.getElementById("btn-next").addEventListener("click", function () { go(cur + 1); });
  document.getElementById("btn-last").addEventListener("click", function () { go(moves.length); });
  document.getElementById("btn-best").addEventListener("click", function () {
    showBest = !showBest; go(cur); });
  document.getElementById("chart").addEventListener("click", chartClick);
  document.querySelectorAll("#movelist tr").forEach(function (r) {
    r.addEventListener("click", function () {
      go(parseInt(r.getAttribute("data-ply"), 10)); });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowLeft") { go(cur - 1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { go(cur + 1); ev.preventDefault(); }
    else if (ev.key === "Home") { go(0); ev.preventDefault(); }
    else if (ev.key === "End") { go(moves.length); ev.preventDefault(); }
    else if (ev.key === "b" || ev.key === "B") { showBest = !showBest; go(cur); }
  });
  go(moves.length);
})();
"""


def _json_script(ident: str, data: object) -> str:
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{ident}">{text}</script>'


def render_html(review: Review) -> str:
    """The HTML report of a review, as one self-contained page."""
    t = messages(review.language)
    game, summary = review.game, review.summary
    data = review.to_dict()
    is_chess = game.get("game") == "chess"
    order = ("white", "black") if is_chess else ("black", "white")
    names = " · ".join(
        f"{escape(t[side])}: {escape(game['players'].get(side) or '?')}" for side in order
    )
    result = t[f"result_{summary.result}"] if summary.result else t["result_none"]
    rule = (
        escape(t.get("rule_" + game.get("rule", "chess"), t["rule_chess"]))
        if is_chess
        else f"{escape(t['rule'])}: {escape(game['rule'])} {game['width']}x{game['height']}"
    )
    meta = [
        names,
        rule,
        f"{escape(t['result'])}: {escape(result)}",
        f"{escape(t['budget'])}: {escape(str(review.settings.get('budget')))}",
    ]
    if summary.opening:
        meta.insert(2, f"{escape(t['opening'])}: {escape(summary.opening)}")
    rows = []
    for player, stats in summary.players.items():
        acc = "–" if stats["accuracy"] is None else f"{stats['accuracy']:.1f}"
        counts = " ".join(
            f'<span class="badge" style="background:{COLOURS[c]}">{escape(t["cls_" + c])} '
            f"{n}</span>"
            for c, n in stats["counts"].items()
            if n
        )
        rows.append(
            f'<tr><th>{escape(t[player])}</th><td class="acc">{acc}</td><td>{counts}</td></tr>'
        )
    moments, turning = summary_moments(review, translator(review.language))
    move_rows = []
    for m in review.moves:
        move_rows.append(
            f'<tr data-ply="{m.ply}"><td>{move_number(game, m.ply)}</td>'
            f"<td>{escape(t[m.player])}</td>"
            f"<td>{escape(m.move)}</td><td>"
            f'<span class="badge" style="background:{COLOURS[m.classification]}">'
            f"{escape(t['cls_' + m.classification])}</span></td>"
            f"<td>{100 * m.win_probability_after:.0f}%</td></tr>"
        )
    ui = dict(t)
    ui["chart_label"] = t["win_chance_of"].format(player=t[order[0]])
    warning = "" if review.complete else f'<p class="warn">{escape(t["interrupted"])}</p>'
    extra = ""
    if is_chess:
        from plies.analysis.report import chessboard

        board = chessboard.board_svg(game["fens"][-1], element_id="board")
        board_js = chessboard.BOARD_JS
        extra = _json_script("chess-extra", chessboard.best_line_arrows(review))
    else:
        board = board_svg(game["width"], game["height"], game["moves"], element_id="board")
        board_js = _GOMOKU_BOARD_JS
    js = (
        _JS.replace("__BOARD_JS__", board_js)
        .replace("__CELL__", str(CELL))
        .replace("__MARGIN__", str(MARGIN))
    )
    lang = "vi" if review.language == "vi" else "en"
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(t["title"])} – plies</title>
<style>{_CSS}</style>
</head>
<body>
<header><h1>{escape(t["title"])}</h1><div class="meta">{" · ".join(meta)}</div></header>
<main>
<section id="left" class="panel">
{board}
<div class="controls">
<button id="btn-first" title="Home">« {escape(t["first"])}</button>
<button id="btn-prev" title="←">◀ {escape(t["previous"])}</button>
<button id="btn-next" title="→">{escape(t["next"])} ▶</button>
<button id="btn-last" title="End">{escape(t["last"])} »</button>
<button id="btn-best" title="B">{escape(t["show_best"])}</button>
<span id="counter"></span>
</div>
<div class="hint">{escape(t["keys_hint"])}</div>
</section>
<section id="right">
<div class="panel" id="detail"></div>
<div class="panel">
<svg id="chart" viewBox="0 0 600 180" xmlns="http://www.w3.org/2000/svg"></svg>
</div>
<div class="panel">
<h3>{escape(t["summary"])}</h3>
{warning}
<table class="summary"><tr><th></th><th>{escape(t["accuracy"])}</th><th></th></tr>
{"".join(rows)}</table>
<p>{escape(t["critical_moments"])}: {escape(moments)} ·
{escape(t["turning_point"])}: {escape(turning)}</p>
</div>
<div class="panel" id="movelist"><h3>{escape(t["moves"])}</h3>
<table>{"".join(move_rows)}</table></div>
</section>
</main>
{_json_script("review-data", data)}
{_json_script("messages", ui)}
{_json_script("colours", COLOURS)}
{extra}
<script>{js}</script>
</body>
</html>
"""


def write_html(review: Review, path: str | Path) -> None:
    """Write the HTML report to ``path``."""
    Path(path).write_text(render_html(review), encoding="utf-8")
