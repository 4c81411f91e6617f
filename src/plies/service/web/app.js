// The plies board: play against the engine, request a review and browse it.
// It holds no rules: every position's state (whose move, the result, Renju's forbidden points,
// chess's legal moves) comes from the server (/api/position, /api/move).
import { drawGomoku, drawChess, cellFromAlg } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token");  // ?token=... for writes
const FIRST = { gomoku: "black", chess: "white" };

async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const res = body === undefined
    ? await fetch(path)
    : await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function say(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

// --- play ----------------------------------------------------------------------------------------
const play = { game: "gomoku", rule: "freestyle", size: 15, moves: [], human: "black",
  state: null, busy: false, selected: null };

function request(extra = {}) {
  const base = play.game === "chess"
    ? { game: "chess", moves: play.moves }
    : { game: "gomoku", rule: play.rule, size: play.size, moves: play.moves };
  return { ...base, ...extra };
}

function renderPlay() {
  const st = play.state;
  if (!st) return;
  if (play.game === "chess") {
    const targets = play.selected
      ? st.legal.filter((m) => m.startsWith(play.selected)).map((m) => m.slice(2, 4)) : [];
    drawChess($("board"), st.fen, { selected: play.selected, targets, onClick: clickSquare,
      last: st.moves[st.moves.length - 1] });
  } else {
    const stones = st.moves.map((m, i) => ({ ...cellFromAlg(m, st.height),
      colour: i % 2 ? "white" : "black", label: i + 1 }));
    drawGomoku($("board"), st.width, st.height, { stones, forbidden: st.forbidden,
      winning: st.winning_line, onClick: clickCell });
  }
  let info = `You play ${play.human}. `;
  if (st.over) info += st.winner ? `${st.winner} wins.` : "Draw.";
  else info += `${st.to_move} to move.`;
  $("play-info").textContent = info;
  $("moves-text").textContent = st.moves.join(" ");
  document.body.dataset.moves = String(st.moves.length);
}

async function refresh() {
  play.state = await api("/api/position", request());
  renderPlay();
}

async function engineMove() {
  if (play.state.over || play.state.to_move === play.human) return;
  play.busy = true;
  document.body.dataset.thinking = "1";
  say("plies is thinking…");
  try {
    const res = await api("/api/move", request({ level: Number($("level").value) }));
    play.moves = res.position.moves;
    play.state = res.position;
    const wp = res.win_probability === null ? "" : ` (${Math.round(100 * res.win_probability)}%)`;
    $("engine-line").textContent = `plies: ${res.san || res.move}${wp} · line ${res.pv.join(" ")}`;
    say("");
  } catch (err) {
    say(err.message, true);
  } finally {
    play.busy = false;
    delete document.body.dataset.thinking;
    renderPlay();
  }
}

async function tryMove(text) {
  if (play.busy || !play.state || play.state.over || play.state.to_move !== play.human) return;
  try {
    play.state = await api("/api/position", request({ moves: [...play.moves, text] }));
    play.moves = play.state.moves;
    say("");
  } catch (err) {
    say(err.message, true);
    return;
  }
  renderPlay();
  await engineMove();
}

function clickCell(alg) { tryMove(alg); }

function clickSquare(square) {
  const st = play.state;
  if (play.selected) {
    const moves = st.legal.filter((m) => m.startsWith(play.selected + square));
    play.selected = null;
    if (moves.length) { tryMove(moves.find((m) => m.endsWith("q")) || moves[0]); return; }
  }
  if (st.legal.some((m) => m.startsWith(square))) play.selected = square;
  renderPlay();
}

async function newGame(moves = []) {
  const choice = $("game").value;
  play.game = choice === "chess" ? "chess" : "gomoku";
  play.rule = choice === "chess" ? null : choice;
  play.size = Number($("size").value);
  play.moves = moves;
  play.selected = null;
  $("engine-line").textContent = "";
  $("size").disabled = play.game === "chess";
  try {
    await refresh();
  } catch (err) {  // a bad position in the address: start from the empty board
    say(err.message, true);
    play.moves = [];
    await refresh();
  }
  play.human = play.moves.length ? play.state.to_move : FIRST[play.game];
  renderPlay();
}

async function undo() {
  if (play.busy || !play.moves.length) return;
  play.moves = play.moves.slice(0, -1);
  await refresh();
  if (play.moves.length && play.state.to_move !== play.human) {
    play.moves = play.moves.slice(0, -1);
    await refresh();
  }
}

async function swap() {
  if (play.busy) return;
  play.human = play.human === "black" ? "white" : "black";
  renderPlay();
  await engineMove();
}

// --- review --------------------------------------------------------------------------------------
const view = { job: null, data: null, extras: null, cur: 0, best: false };

async function submitReview(text) {
  const body = { game: text, budget: { tier: $("r-tier").value }, lang: $("r-lang").value };
  if ($("r-rule").value) body.rule = $("r-rule").value;
  if ($("r-size").value) body.size = $("r-size").value;
  try {
    const job = await api("/api/reviews", body);
    location.hash = "review=" + job.id;
    follow(job.id);
  } catch (err) {
    say(err.message, true);
  }
}

function follow(id) {
  const bar = $("progress");
  bar.hidden = false;
  say("reviewing…");
  const source = new EventSource(`/api/reviews/${id}/events`);
  const update = (ev) => {
    const p = JSON.parse(ev.data);
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    say(`${p.status}: ${p.done} of ${p.total} positions`);
  };
  source.addEventListener("progress", update);
  source.addEventListener("end", (ev) => {
    update(ev);
    source.close();
    loadReview(id);
  });
  source.onerror = () => { source.close(); setTimeout(() => loadReview(id), 1000); };
}

async function loadReview(id) {
  showTab("review");
  let job;
  try {
    job = await api(`/api/reviews/${id}`);
  } catch (err) {
    say(err.message, true);
    return;
  }
  if (job.status === "failed") { say(job.error, true); return; }
  if (job.status !== "done") { follow(id); return; }
  $("progress").hidden = true;
  say("");
  view.job = job;
  view.data = job.review;
  view.extras = job.board;
  $("review-link").innerHTML = "";
  const link = document.createElement("a");
  link.href = `/#review=${id}`;
  link.id = "permalink";
  link.textContent = "Link to this review";
  const report = document.createElement("a");
  report.href = `/api/reviews/${id}.html`;
  report.textContent = "HTML report";
  $("review-link").append(link, " · ", report);
  buildMoveList();
  drawChart();
  for (const id2 of ["detail", "chart-panel", "movelist"]) $(id2).hidden = false;
  go(view.data.moves.length);
}

function badge(cls) {
  const span = document.createElement("span");
  span.className = "badge";
  span.dataset.cls = cls;
  span.style.background = view.extras.colours[cls];
  span.textContent = view.extras.labels[cls];
  return span;
}

function buildMoveList() {
  const table = $("moves-table");
  table.innerHTML = "";
  view.data.moves.forEach((m) => {
    const tr = document.createElement("tr");
    tr.dataset.ply = m.ply;
    const cells = [String(m.ply), m.player, m.move];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    td.append(badge(m.classification));
    tr.append(td);
    tr.addEventListener("click", () => go(m.ply));
    table.append(tr);
  });
}

function firstPlayerSeries() {
  const moves = view.data.moves;
  const first = view.data.game.game === "chess" ? "white" : "black";
  const own = (wp, player) => (player === first ? wp : 1 - wp);
  const series = [own(moves[0].win_probability_before, moves[0].player)];
  for (const m of moves) series.push(own(m.win_probability_after, m.player));
  return series;
}

function drawChart() {
  const svg = $("chart");
  const series = firstPlayerSeries();
  const W = 600, H = 160, P = 10;
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, series.length - 1);
  const y = (v) => H - P - v * (H - 2 * P);
  const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  let out = `<rect x="0" y="0" width="${W}" height="${H}" fill="#faf8f3"/>`;
  out += `<line x1="${P}" x2="${W - P}" y1="${y(0.5)}" y2="${y(0.5)}" stroke="#bbb" stroke-dasharray="4 4"/>`;
  out += `<polyline id="curve" points="${points}" fill="none" stroke="#2f2a24" stroke-width="2"/>`;
  series.forEach((v, i) => {
    const cls = i > 0 ? view.data.moves[i - 1].classification : "best";
    out += `<circle class="pt" data-ply="${i}" cx="${x(i)}" cy="${y(v)}" r="4" fill="${view.extras.colours[cls]}"/>`;
  });
  out += `<line id="cursor" x1="0" x2="0" y1="${P}" y2="${H - P}" stroke="#d0342c"/>`;
  svg.innerHTML = out;
  svg.querySelectorAll("circle.pt").forEach((c) =>
    c.addEventListener("click", () => go(Number(c.dataset.ply))));
  view.chartX = x;
}

function go(ply) {
  const moves = view.data.moves;
  view.cur = Math.max(0, Math.min(moves.length, ply));
  document.body.dataset.ply = String(view.cur);
  const game = view.data.game;
  const m = view.cur > 0 ? moves[view.cur - 1] : null;
  const shown = view.best && m ? view.cur - 1 : view.cur;
  if (game.game === "chess") {
    const arrows = view.best && m ? view.extras.best_line_squares[String(m.ply)] || [] : [];
    drawChess($("board"), game.fens[shown], { arrows,
      last: shown > 0 ? game.moves_uci[shown - 1] : null });
  } else {
    const stones = game.moves.slice(0, shown).map((t, i) => ({ ...cellFromAlg(t, game.height),
      colour: i % 2 ? "white" : "black", label: i + 1 }));
    const ghosts = view.best && m ? m.best_line.slice(0, 6).map((t, i) => ({
      ...cellFromAlg(t, game.height), colour: (shown + i) % 2 ? "white" : "black",
      label: i + 1, ghost: true })) : [];
    drawGomoku($("board"), game.width, game.height, { stones: [...stones, ...ghosts] });
  }
  $("counter").textContent = `${view.cur} / ${moves.length}`;
  document.querySelectorAll("#moves-table tr").forEach((tr) =>
    tr.classList.toggle("cur", Number(tr.dataset.ply) === view.cur));
  const cursor = $("cursor");
  if (cursor) { cursor.setAttribute("x1", view.chartX(view.cur)); cursor.setAttribute("x2", view.chartX(view.cur)); }
  const detail = $("detail");
  detail.innerHTML = "";
  const h = document.createElement("h3");
  if (m) {
    h.textContent = `${m.ply}. ${m.move} `;
    h.append(badge(m.classification));
    const p = document.createElement("p");
    p.id = "explanation";
    p.textContent = m.explanation;
    const best = document.createElement("p");
    best.className = "lines";
    best.textContent = m.best_line.length ? `best: ${m.best_line.join(" ")}` : "";
    detail.append(h, p, best);
  } else {
    h.textContent = "Start";
    detail.append(h);
  }
}

function showTab(name) {
  const review = name === "review";
  $("tab-play").classList.toggle("on", !review);
  $("tab-review").classList.toggle("on", review);
  $("play-controls").hidden = review;
  $("play-panel").hidden = review;
  $("review-controls").hidden = !review;
  $("submit-panel").hidden = !review;
  for (const id of ["detail", "chart-panel", "movelist"]) $(id).hidden = !review || !view.data;
  $("hint").textContent = review
    ? "← → Home End to step through the moves, B for the best line."
    : "Click a point to play. The engine answers at the chosen level.";
  if (review && view.data) go(view.cur);
  if (!review) renderPlay();
}

// --- wiring --------------------------------------------------------------------------------------
$("tab-play").addEventListener("click", () => showTab("play"));
$("tab-review").addEventListener("click", () => showTab("review"));
$("btn-new").addEventListener("click", () => newGame());
$("game").addEventListener("change", () => newGame());
$("size").addEventListener("change", () => newGame());
$("btn-undo").addEventListener("click", undo);
$("btn-swap").addEventListener("click", swap);
$("btn-submit").addEventListener("click", () => submitReview($("game-text").value));
$("btn-current").addEventListener("click", () => {
  if (!play.moves.length) { say("no moves on the board", true); return; }
  if (play.game === "chess") { $("r-rule").value = ""; $("r-size").value = ""; }
  else { $("r-rule").value = play.rule; $("r-size").value = String(play.size); }
  const text = play.game === "chess" ? chessText(play.moves) : play.moves.join(" ");
  $("game-text").value = text;
  submitReview(text);
});
$("game-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (file) $("game-text").value = await file.text();
});
$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(view.cur - 1));
$("btn-next").addEventListener("click", () => go(view.cur + 1));
$("btn-last").addEventListener("click", () => go(view.data.moves.length));
$("btn-best").addEventListener("click", () => { view.best = !view.best; go(view.cur); });
document.addEventListener("keydown", (ev) => {
  if ($("review-controls").hidden || !view.data || ev.target.tagName === "TEXTAREA") return;
  const keys = { ArrowLeft: view.cur - 1, ArrowRight: view.cur + 1, Home: 0,
    End: view.data.moves.length };
  if (ev.key in keys) { go(keys[ev.key]); ev.preventDefault(); }
  else if (ev.key === "b" || ev.key === "B") { view.best = !view.best; go(view.cur); }
});

// a chess game as a PGN the review reads: the UCI moves turned into "1. e2e4 e7e5 ..." is not
// SAN, so the moves go as a PGN with numbered UCI moves, which python-chess reads
function chessText(moves) {
  const parts = [];
  moves.forEach((m, i) => { if (i % 2 === 0) parts.push(`${i / 2 + 1}.`); parts.push(m); });
  return `[Event "plies board"]\n\n${parts.join(" ")} *\n`;
}

window.addEventListener("hashchange", () => {
  const m = location.hash.match(/^#review=([0-9a-f]+)$/);
  if (m && (!view.job || view.job.id !== m[1])) loadReview(m[1]);
});

// the address may set up a position: /?game=renju&size=15&moves=h8,h9,i9 (you then play the
// side to move), and #review=<id> reopens a review
const params = new URLSearchParams(location.search);
if (params.get("game")) $("game").value = params.get("game");
if (params.get("size")) $("size").value = params.get("size");
const startMoves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
const opened = location.hash.match(/^#review=([0-9a-f]+)$/);
newGame(startMoves).then(() => { if (opened) loadReview(opened[1]); });
