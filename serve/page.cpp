// The page of `cqlindex serve`: plain HTML, CSS and JavaScript (no framework, no network), talking to the JSON
// API of api.h. Ids and classes the browser test (tests/serve/page_check.js) looks for: #cql, #run, #status,
// #repo (the repository selector), #error, #results .result, #board, #moves .move, .matched, #next-match,
// #explorer .explore-move, #tab-study,
// #study, #near, #find, #study-error, #study-warnings li, #study-prev, #study-page, #study-next, #predecessors
// (.pair, a click opens its game in the viewer: #game-note says how it was seen; near ones .pair.near, their
// differing squares rect.differs),
// #tab-yacpdb, #yacpdb-query, #yacpdb-run, #yacpdb-status, #yacpdb-error,
// #yacpdb-results .entry, #yacpdb-board, #yacpdb-pgn.
#include "serve/page.h"

namespace cqlindex::serve {
namespace {

constexpr std::string_view kPage = R"PAGE(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cqlindex</title>
<style>
  :root { --light: #f0d9b5; --dark: #b58863; --mark: #d9534f; --ink: #222; --soft: #666; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink); background: #fafafa; }
  header { display: flex; align-items: baseline; gap: 1.5em; padding: .6em 1em; background: #2b2b2b; color: #eee; }
  header h1 { font-size: 1.1em; margin: 0; }
  header .info { color: #aaa; font-size: .9em; }
  header select { font: inherit; background: #3a3a3a; color: #eee; border: 1px solid #555; }
  nav button { background: none; border: 0; color: #ccc; font: inherit; padding: .2em .6em; cursor: pointer; }
  nav button.active { color: #fff; border-bottom: 2px solid #fff; }
  main { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(360px, 1fr); gap: 1em; padding: 1em; }
  section.tab { display: none; } section.tab.active { display: contents; }
  textarea { width: 100%; min-height: 11em; font: 13px/1.45 ui-monospace, monospace; padding: .5em; }
  textarea.bad { outline: 2px solid var(--mark); }
  button.go { margin: .4em 0; padding: .35em 1.2em; font: inherit; cursor: pointer; }
  #error, #study-error { color: var(--mark); white-space: pre-wrap; font-family: ui-monospace, monospace; }
  #status, #study-status { color: var(--soft); }
  #study-warnings { color: #8a5a00; background: #fff8e5; margin: 0 0 .6em; padding: .3em .3em .3em 1.6em; }
  #study-warnings:empty { display: none; }
  .pager { display: flex; gap: .5em; align-items: center; margin: .3em 0; }
  #results { list-style: none; padding: 0; margin: 0; max-height: 55vh; overflow: auto; border-top: 1px solid #ddd; }
  #results li { padding: .35em .4em; border-bottom: 1px solid #eee; cursor: pointer; }
  #results li:hover, #results li.open { background: #eef3fb; }
  #results .num { color: var(--soft); display: inline-block; min-width: 4em; }
  #results .marks { color: var(--mark); font-size: .85em; }
  .viewer { display: flex; flex-direction: column; gap: .5em; }
  .controls button { font: inherit; min-width: 2.4em; }
  #moves { max-height: 30vh; overflow: auto; font-family: ui-monospace, monospace; }
  #moves .move { padding: 0 .2em; cursor: pointer; border-radius: 3px; }
  #moves .move.matched { color: #fff; background: var(--mark); }
  #moves .move.current { outline: 2px solid #337ab7; }
  #game-title { font-weight: 600; }
  #explorer table { border-collapse: collapse; font-size: .9em; }
  #explorer td, #explorer th { padding: .1em .6em; text-align: right; }
  #explorer td:first-child, #explorer th:first-child { text-align: left; }
  #explorer tr.explore-move { cursor: pointer; } #explorer tr.explore-move:hover { background: #eef3fb; }
  svg.board text { font-family: "DejaVu Sans", "Noto Sans Symbols2", sans-serif; }
  #predecessors { display: flex; flex-wrap: wrap; gap: 1em; }
  .pair { border: 1px solid #ddd; background: #fff; padding: .5em; }
  .pair .boards { display: flex; gap: .5em; }
  .pair { cursor: pointer; } .pair:hover, .pair.open { border-color: #337ab7; }
  .pair figcaption { font-size: .85em; color: var(--soft); max-width: 420px; }
  #game-note { color: #8a5a00; } #game-note:empty { display: none; }
  .pair.near { border-color: #e0a030; background: #fffaf0; }
  .pair.near .label { color: #b06000; font-weight: 600; }
  #yacpdb-query { min-height: 4em; }
  #yacpdb-error { color: var(--mark); white-space: pre-wrap; font-family: ui-monospace, monospace; }
  #yacpdb-status { color: var(--soft); }
  #yacpdb-results { list-style: none; padding: 0; margin: 0; max-height: 55vh; overflow: auto; border-top: 1px solid #ddd; }
  #yacpdb-results li { padding: .35em .4em; border-bottom: 1px solid #eee; cursor: pointer; }
  #yacpdb-results li:hover, #yacpdb-results li.open { background: #eef3fb; }
  #yacpdb-pgn { white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; max-height: 35vh; overflow: auto; }
</style>
</head>
<body>
<header>
  <h1>cqlindex</h1>
  <nav><button id="tab-query" class="active">Query</button><button id="tab-study">Study</button><button id="tab-yacpdb">YACPDB</button></nav>
  <label class="info">repository <select id="repo" title="the repository every tab asks"></select></label>
  <span class="info" id="repo-info"></span>
</header>
<main>
  <section class="tab active" id="query-tab">
    <div>
      <label for="cql">CQL query</label>
      <textarea id="cql" spellcheck="false">cql()
mate</textarea>
      <button class="go" id="run">Run</button> <span id="status"></span>
      <div id="error"></div>
      <div class="pager"><button id="prev">&larr;</button><span id="page-info"></span><button id="next">&rarr;</button></div>
      <ul id="results"></ul>
    </div>
    <div class="viewer">
      <div id="game-title">Open a result to see its game.</div>
      <div id="game-note"></div>
      <div id="board-holder"></div>
      <div class="controls">
        <button id="first" title="start">|&lt;</button><button id="back" title="back">&lt;</button>
        <button id="forward" title="forward">&gt;</button><button id="last" title="end">&gt;|</button>
        <button id="next-match" title="next matched position">next match</button>
        <span id="ply-info"></span>
      </div>
      <div id="moves"></div>
      <div id="explorer"><div id="explorer-title"></div><table><thead><tr><th>move</th><th>games</th>
        <th>White</th><th>draw</th><th>Black</th></tr></thead><tbody></tbody></table></div>
    </div>
  </section>
  <section class="tab" id="study-tab">
    <div>
      <label for="study">A study: a FEN (several: one a line), or PGN of one or more games</label>
      <textarea id="study" spellcheck="false" placeholder="8/8/8/8/8/8/8/K1k5 w - - 0 1"></textarea>
      <label><input type="checkbox" id="notransform"> identical boards only (no reflections or shifts)</label><br>
      <label><input type="checkbox" id="near"> near (1 difference): also boards one square away</label><br>
      <button class="go" id="find">Find predecessors</button> <span id="study-status"></span>
      <div id="study-error"></div>
    </div>
    <div><ul id="study-warnings"></ul>
      <div class="pager"><button id="study-prev">&larr;</button><span id="study-page"></span><button id="study-next">&rarr;</button></div>
      <div id="predecessors"></div></div>
  </section>
  <section class="tab" id="yacpdb-tab">
    <div>
      <label for="yacpdb-query">YACPDB query over <span id="problem-file">the problem file</span></label>
      <textarea id="yacpdb-query" spellcheck="false">Stip("#2")</textarea>
      <button class="go" id="yacpdb-run">Search</button> <span id="yacpdb-status"></span>
      <div id="yacpdb-error"></div>
      <div class="pager"><button id="yacpdb-prev">&larr;</button><span id="yacpdb-page"></span><button id="yacpdb-next">&rarr;</button></div>
      <ul id="yacpdb-results"></ul>
    </div>
    <div class="viewer">
      <div id="yacpdb-title">Open an entry to see its diagram.</div>
      <div id="yacpdb-board-holder"></div>
      <div id="yacpdb-pgn"></div>
    </div>
  </section>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const PAGE = 50;
const GLYPH = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
let state = { offset: 0, matches: 0, game: null, ply: 0, marks: [], open: null };
// The repository every call asks (null: the server's first); kept in the page's URL (?repo=NAME).
let repo = new URLSearchParams(location.search).get("repo");
let chosenAt = 0;  // counts the changes of repository: an answer asked before the last change is dropped

async function api(method, path, body) {
  const asked = chosenAt;
  if (repo !== null) {
    if (body !== undefined) body = Object.assign({}, body, { repo });
    else path += (path.includes("?") ? "&" : "?") + "repo=" + encodeURIComponent(repo);
  }
  const options = { method, headers: {} };
  if (body !== undefined) { options.body = JSON.stringify(body); options.headers["Content-Type"] = "application/json"; }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: "the server's answer is not JSON" }; }
  if (asked !== chosenAt) return new Promise(() => {});  // for the repository shown before: never shown
  return { status: response.status, data };
}

// An SVG board of `fen`; `marked`: a red frame (a matched position); `differs`: squares outlined ("e4").
function board(fen, size, marked, differs) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("width", size); svg.setAttribute("height", size);
  svg.setAttribute("class", "board" + (marked ? " marked" : ""));
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  for (let r = 0; r < 8; ++r) {
    let f = 0;
    for (const c of rows[r] || "8") {
      if (c >= "1" && c <= "8") { for (let i = 0; i < +c; ++i, ++f) square(svg, ns, r, f, null); }
      else { square(svg, ns, r, f, c); ++f; }
    }
  }
  for (const name of differs || []) {
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", name.charCodeAt(0) - 97 + 0.06); rect.setAttribute("y", 8 - +name[1] + 0.06);
    rect.setAttribute("width", 0.88); rect.setAttribute("height", 0.88); rect.setAttribute("fill", "none");
    rect.setAttribute("stroke", "#e07000"); rect.setAttribute("stroke-width", 0.12);
    rect.setAttribute("class", "differs"); rect.dataset.square = name;
    svg.appendChild(rect);
  }
  if (marked) {
    const frame = document.createElementNS(ns, "rect");
    frame.setAttribute("x", 0.04); frame.setAttribute("y", 0.04); frame.setAttribute("width", 7.92);
    frame.setAttribute("height", 7.92); frame.setAttribute("fill", "none");
    frame.setAttribute("stroke", "#d9534f"); frame.setAttribute("stroke-width", 0.08);
    svg.appendChild(frame);
  }
  return svg;
}
function square(svg, ns, r, f, piece) {
  const rect = document.createElementNS(ns, "rect");
  rect.setAttribute("x", f); rect.setAttribute("y", r); rect.setAttribute("width", 1); rect.setAttribute("height", 1);
  rect.setAttribute("fill", (r + f) % 2 ? "var(--dark)" : "var(--light)");
  svg.appendChild(rect);
  if (!piece || !GLYPH[piece]) return;
  const text = document.createElementNS(ns, "text");
  text.setAttribute("x", f + 0.5); text.setAttribute("y", r + 0.82); text.setAttribute("font-size", 0.85);
  text.setAttribute("text-anchor", "middle"); text.setAttribute("class", "piece");
  text.textContent = GLYPH[piece];
  svg.appendChild(text);
}

function tag(tags, name) { const t = tags.find((x) => x[0] === name); return t ? t[1] : "?"; }

// --- the query tab
function showError(data) {
  const editor = $("cql");
  let text = data.error || "error";
  if (data.line) {
    text = "line " + data.line + ", column " + data.column + ": " + text;
    const lines = editor.value.split("\n");
    let at = 0;
    for (let i = 0; i < data.line - 1 && i < lines.length; ++i) at += lines[i].length + 1;
    at += Math.max(0, data.column - 1);
    editor.classList.add("bad");
    editor.focus();
    editor.setSelectionRange(at, Math.min(editor.value.length, at + 1));
  }
  $("error").textContent = text;
}

async function runQuery(offset) {
  $("error").textContent = ""; $("cql").classList.remove("bad");
  $("status").textContent = "running...";
  const started = performance.now();
  const { status, data } = await api("POST", "/api/run", { cql: $("cql").value, offset, limit: PAGE });
  if (status !== 200) { $("status").textContent = ""; showError(data); return; }
  state.offset = offset; state.matches = data.matches;
  $("status").textContent = data.matches + " matches of " + data.games + " games" +
      (data.complete ? "" : " (stopped at the server's result cap)") +
      " in " + Math.round(performance.now() - started) + " ms";
  $("page-info").textContent = data.matches ? (offset + 1) + "-" + (offset + data.results.length) : "";
  const list = $("results");
  list.textContent = "";
  for (const g of data.results) {
    const li = document.createElement("li");
    li.className = "result";
    li.dataset.number = g.number;
    const marks = g.comments.filter((c) => c.mainline && c.text === "CQL").map((c) => c.ply);
    li.innerHTML = '<span class="num"></span><span class="who"></span> <span class="marks"></span>';
    li.querySelector(".num").textContent = "#" + g.number;
    li.querySelector(".who").textContent = tag(g.tags, "White") + " - " + tag(g.tags, "Black") + "  " +
        tag(g.tags, "Result") + "  (" + tag(g.tags, "Event") + ", " + tag(g.tags, "Date") + ")";
    li.querySelector(".marks").textContent = marks.length ? marks.length + " matched" : "";
    li.addEventListener("click", () => { for (const o of list.children) o.classList.remove("open");
                                         li.classList.add("open"); openGame(g.number, marks); });
    list.appendChild(li);
  }
}

// Opens game `number` in the viewer at ply `at` (absent: its first of `marks`, the matched plies); `note` says
// why it was opened (a match of the Study tab: how it was seen).
async function openGame(number, marks, at, note) {
  const { status, data } = await api("GET", "/api/game/" + number);
  if (status !== 200) { $("game-title").textContent = data.error; return; }
  state.game = data; state.marks = marks;
  $("game-title").textContent = "#" + number + "  " + tag(data.tags, "White") + " - " + tag(data.tags, "Black") +
      "  " + tag(data.tags, "Result");
  $("game-title").dataset.number = number;
  $("game-note").textContent = note || "";
  const moves = $("moves");
  moves.textContent = "";
  data.moves.forEach((san, i) => {
    if (i % 2 === 0) moves.appendChild(document.createTextNode(" " + (i / 2 + 1) + ". "));
    const span = document.createElement("span");
    span.className = "move" + (marks.includes(i + 1) ? " matched" : "");
    span.dataset.ply = i + 1;
    span.textContent = san;
    span.addEventListener("click", () => show(i + 1));
    moves.appendChild(span); moves.appendChild(document.createTextNode(" "));
  });
  show(at !== undefined ? at : marks.length ? marks[0] : 0);
}

function show(ply) {
  const g = state.game;
  if (!g || !g.fens.length) return;
  state.ply = Math.max(0, Math.min(ply, g.fens.length - 1));
  const holder = $("board-holder");
  holder.textContent = "";
  const svg = board(g.fens[state.ply], 360, state.marks.includes(state.ply));
  svg.id = "board";
  svg.dataset.fen = g.fens[state.ply];
  svg.dataset.ply = state.ply;
  holder.appendChild(svg);
  for (const m of document.querySelectorAll("#moves .move"))
    m.classList.toggle("current", +m.dataset.ply === state.ply);
  $("ply-info").textContent = "ply " + state.ply + " / " + (g.fens.length - 1) +
      (state.marks.includes(state.ply) ? "  (matched)" : "");
  explore(g.fens[state.ply]);
}

// --- the explorer: the moves the repository's games played from the board shown; a click walks on
let exploring = 0;
async function explore(fen) {
  const ticket = ++exploring;  // only the latest answer is shown
  const { status, data } = await api("GET", "/api/explore?fen=" + encodeURIComponent(fen));
  if (ticket !== exploring) return;
  const body = $("explorer").querySelector("tbody");
  body.textContent = "";
  if (status !== 200) { $("explorer-title").textContent = data.error; return; }
  $("explorer-title").textContent = "Explorer: " + data.results.games + " games reach this position" +
      (data.source === "index" ? " in their first " + data.depth + " plies" :
       " (replayed" + (data.complete ? ")" : ": counted in the first " + data.replayed + " of " + data.candidates +
                                              " candidates)"));
  const percent = (n, of) => of ? Math.round(100 * n / of) + "%" : "";
  for (const m of data.moves) {
    const tr = document.createElement("tr");
    tr.className = "explore-move";
    tr.dataset.fen = m.fen;
    for (const text of [m.san, m.games, percent(m.white, m.games), percent(m.draws, m.games), percent(m.black, m.games)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => walkTo(m.fen, m.san));
    body.appendChild(tr);
  }
}
// Shows `fen` (reached by `san` from the board shown) outside any game, and explores it.
function walkTo(fen, san) {
  const holder = $("board-holder");
  holder.textContent = "";
  const svg = board(fen, 360, false);
  svg.id = "board";
  svg.dataset.fen = fen;
  holder.appendChild(svg);
  $("ply-info").textContent = "explorer: after " + san;
  explore(fen);
}

// --- the study tab: the predecessors a page at a time; a click opens one in the game viewer at its ply
const STUDY_PAGE = 100;
let studyState = { offset: 0, total: 0, body: null };

async function findPredecessors() {
  $("study-error").textContent = ""; $("study-warnings").textContent = ""; $("predecessors").textContent = "";
  $("study-page").textContent = "";
  studyState = { offset: 0, total: 0, body: null };
  const text = $("study").value;
  if (!text.trim()) { $("study-error").textContent = "type a FEN, or PGN of one or more games"; return; }
  // sent as typed: the server reads FENs (one a line) or PGN, and names the line and column of a mistake
  const body = { pgn: text };
  body.notransform = $("notransform").checked;
  if ($("near").checked) body.near = 1;
  studyState.body = body;
  await studyPage(0);
}

// A tag as a judge reads it: "" when the game does not say (PGN's "?", a date of question marks).
function known(tags, name) {
  const value = tag(tags, name).replace(/(\.\?\?)+$/, "");
  return /^[?.]*$/.test(value) ? "" : value;
}
// "Smith - Jones, Hastings, 1895.08.05"
function gameInWords(tags) {
  const white = known(tags, "White") || "?", black = known(tags, "Black") || "?";
  return [white + " - " + black, known(tags, "Event"), known(tags, "Date")].filter((x) => x).join(", ");
}
// "move 12, Black to move", from the position's FEN (a game may start from a set-up position)
function moveInWords(fen) {
  const fields = (fen || "").split(" ");
  return "move " + (fields[5] || "?") + ", " + (fields[1] === "b" ? "Black" : "White") + " to move";
}
function submissionInWords(m) {
  return "like submission " + m.submission_game + " at move " + m.move + " (" + (m.side === "btm" ? "Black" : "White") +
      " to move)";
}
// Shows the match in the viewer of the Query tab, at its ply, saying how it was seen.
function openMatch(figure, number, marks, ply, note) {
  for (const o of document.querySelectorAll("#predecessors .pair")) o.classList.remove("open");
  figure.classList.add("open");
  selectTab("query");
  openGame(number, marks, ply, note);
}

async function studyPage(offset) {
  $("study-error").textContent = ""; $("study-warnings").textContent = "";
  $("study-status").textContent = "searching...";
  const { status, data } = await api("POST", "/api/similar", Object.assign({}, studyState.body, { offset, limit: STUDY_PAGE }));
  const out = $("predecessors");
  out.textContent = ""; $("study-page").textContent = "";
  if (status !== 200) { $("study-status").textContent = ""; $("study-error").textContent =
      (data.line ? "line " + data.line + ", column " + data.column + ": " : "") + data.error +
      (data.diagnostics && data.diagnostics.length ? "\n" + data.diagnostics.join("\n") : ""); return; }
  // the exact predecessors and the near pairs are paged together (the API's offset and limit apply to both)
  studyState.offset = offset;
  studyState.total = Math.max(data.matches, data.near ? data.near.pairs : 0);
  // near pairs at distance 0 are the exact predecessors shown first: only those one square away are added
  const near = data.near ? data.near.results.filter((p) => p.distance > 0) : [];
  for (const w of data.warnings) {
    const li = document.createElement("li");
    li.textContent = w;
    $("study-warnings").appendChild(li);
  }
  const games = await Promise.all(data.results.map((g) => api("GET", "/api/game/" + g.number)));
  data.results.forEach((g, i) => {
    const game = games[i];
    const matched = g.matched || [];
    const first = matched[0] || { ply: 0, submission_game: 1, move: 1, side: "wtm", transform: "as it stands" };
    const figure = document.createElement("figure");
    figure.className = "pair";
    figure.dataset.number = g.number;
    figure.dataset.ply = first.ply;
    const boards = document.createElement("div");
    boards.className = "boards";
    // the submission typed as FENs: the position its match names
    const fens = data.submission_fens || [];
    const submission = fens[first.submission_game - 1];
    if (submission) boards.appendChild(board(submission, 200, false));
    const there = game.status === 200 ? game.data.fens[Math.min(first.ply, game.data.fens.length - 1)] : undefined;
    if (there) boards.appendChild(board(there, 200, true));
    const caption = document.createElement("figcaption");
    const at = moveInWords(there) + ", seen " + first.transform;
    caption.textContent = "#" + g.number + " " + gameInWords(g.tags) + ": at " + at + "; " + submissionInWords(first) +
        (matched.length > 1 ? "; " + (matched.length - 1) + " more position" + (matched.length > 2 ? "s" : "") +
                              " of this game" : "");
    figure.appendChild(boards); figure.appendChild(caption);
    figure.addEventListener("click", () => openMatch(figure, g.number, matched.map((m) => m.ply), first.ply,
        "From the study: at " + at + ", " + submissionInWords(first) + "."));
    out.appendChild(figure);
  });
  for (const p of near) out.appendChild(nearPair(p));
  const last = offset + Math.max(data.results.length, data.near ? data.near.results.length : 0);
  $("study-page").textContent = data.results.length ?
      "results " + (offset + 1) + "-" + (offset + data.results.length) + " of " + data.matches :
      last > offset ? "near pairs " + (offset + 1) + "-" + last + " of " + data.near.pairs : "";
  // said once every predecessor of the page is drawn
  $("study-status").textContent = data.matches + " predecessors in " + data.games + " games of " +
      data.submissions + (data.submissions === 1 ? " submission" : " submissions") +
      (data.near ? "; " + data.near.by_distance[1] + " near (1 difference)" : "");
}

// A near pair: the submission's board beside the repository's, turned as the submission stands, the squares
// where they differ outlined on both.
function nearPair(p) {
  const figure = document.createElement("figure");
  figure.className = "pair near";
  figure.dataset.number = p.game;
  figure.dataset.ply = p.ply;
  figure.dataset.differs = p.differs.join(" ");
  const boards = document.createElement("div");
  boards.className = "boards";
  boards.appendChild(board(p.fen, 200, false, p.differs));
  boards.appendChild(board(p.oriented, 200, true, p.differs));
  const caption = document.createElement("figcaption");
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = "near (distance " + p.distance + ", differs at " + p.differs.join(", ") + ")";
  caption.appendChild(label);
  const at = moveInWords(p.repository_fen) + ", seen " + p.transform;
  caption.appendChild(document.createTextNode(" #" + p.game + " " + gameInWords(p.tags) + ": at " + at + "; " +
      submissionInWords(p) +
      (p.dropped ? "; " + p.dropped + " piece(s) off the board as the submission stands" : "")));
  figure.appendChild(boards); figure.appendChild(caption);
  figure.addEventListener("click", () => openMatch(figure, p.game, [p.ply], p.ply,
      "From the study: near (differs at " + p.differs.join(", ") + "), at " + at + ", " + submissionInWords(p) + "."));
  return figure;
}

// --- the YACPDB tab: a query over the problem file, its entries, the diagram of the one opened
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
let yacpdbState = { offset: 0, matches: 0 };
async function runYacpdb(offset) {
  $("yacpdb-error").textContent = ""; $("yacpdb-query").classList.remove("bad");
  $("yacpdb-status").textContent = "searching...";
  const { status, data } = await api("POST", "/api/yacpdb", { query: $("yacpdb-query").value, offset, limit: PAGE });
  const list = $("yacpdb-results");
  list.textContent = "";
  if (status !== 200) {
    $("yacpdb-status").textContent = "";
    $("yacpdb-error").textContent = (data.column ? "column " + data.column + ": " : "") + data.error +
        (data.diagnostics && data.diagnostics.length && !data.column ? "\n" + [].concat(data.diagnostics).join("\n") : "");
    if (data.column) $("yacpdb-query").classList.add("bad");
    return;
  }
  yacpdbState = { offset, matches: data.matches };
  $("yacpdb-status").textContent = data.matches + " matches of " + data.entries + " entries" +
      (data.undetermined ? " (" + data.undetermined + " not analysed)" : "");
  $("yacpdb-page").textContent = data.matches ? (offset + 1) + "-" + (offset + data.results.length) : "";
  for (const e of data.results) {
    const li = document.createElement("li");
    li.className = "entry";
    li.dataset.number = e.number;
    li.textContent = "#" + e.number + "  " + tag(e.tags, "Composer") + "  " + tag(e.tags, "Stipulation") + "  (" +
        tag(e.tags, "Source") + ", " + tag(e.tags, "Date") + ")";
    li.addEventListener("click", () => {
      for (const o of list.children) o.classList.remove("open");
      li.classList.add("open");
      const fen = tag(e.tags, "FEN");
      const holder = $("yacpdb-board-holder");
      holder.textContent = "";
      const svg = board(fen === "?" ? START : fen, 360, false);
      svg.id = "yacpdb-board";
      svg.dataset.fen = fen === "?" ? START : fen;
      holder.appendChild(svg);
      $("yacpdb-title").textContent = "#" + e.number + "  " + tag(e.tags, "Composer") + ", " + tag(e.tags, "Stipulation");
      $("yacpdb-pgn").textContent = e.pgn;
    });
    list.appendChild(li);
  }
}

// --- wiring
function selectTab(name) {
  for (const t of ["query", "study", "yacpdb"]) {
    $("tab-" + t).classList.toggle("active", t === name);
    $(t + "-tab").classList.toggle("active", t === name);
  }
}
$("tab-query").addEventListener("click", () => selectTab("query"));
$("tab-study").addEventListener("click", () => selectTab("study"));
$("tab-yacpdb").addEventListener("click", () => selectTab("yacpdb"));
$("yacpdb-run").addEventListener("click", () => runYacpdb(0));
$("yacpdb-prev").addEventListener("click", () => {
  if (yacpdbState.offset > 0) runYacpdb(Math.max(0, yacpdbState.offset - PAGE)); });
$("yacpdb-next").addEventListener("click", () => {
  if (yacpdbState.offset + PAGE < yacpdbState.matches) runYacpdb(yacpdbState.offset + PAGE); });
$("run").addEventListener("click", () => runQuery(0));
$("prev").addEventListener("click", () => { if (state.offset > 0) runQuery(Math.max(0, state.offset - PAGE)); });
$("next").addEventListener("click", () => { if (state.offset + PAGE < state.matches) runQuery(state.offset + PAGE); });
$("cql").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) runQuery(0); });
$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show(state.ply - 1));
$("forward").addEventListener("click", () => show(state.ply + 1));
$("last").addEventListener("click", () => show(1e9));
$("next-match").addEventListener("click", () => {
  const next = state.marks.find((p) => p > state.ply);
  show(next !== undefined ? next : (state.marks.length ? state.marks[0] : state.ply));
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA") return;
  if (e.key === "ArrowLeft") show(state.ply - 1);
  if (e.key === "ArrowRight") show(state.ply + 1);
});
$("find").addEventListener("click", findPredecessors);
$("study-prev").addEventListener("click", () => {
  if (studyState.body && studyState.offset > 0) studyPage(Math.max(0, studyState.offset - STUDY_PAGE)); });
$("study-next").addEventListener("click", () => {
  if (studyState.body && studyState.offset + STUDY_PAGE < studyState.total) studyPage(studyState.offset + STUDY_PAGE); });
// --- the repository selector: every tab asks the chosen one; a change clears what the last one answered
function showRepository(info) {
  $("repo-info").textContent = info.repository + ": " + info.games + " games" +
      (info.files.length > 1 ? " in " + info.files.length + " files" : "");
  $("problem-file").textContent = info.problems;
}
function clearAnswers() {
  state = { offset: 0, matches: 0, game: null, ply: 0, marks: [], open: null };
  ++exploring;  // an answer still on its way is for the last repository
  for (const id of ["status", "error", "page-info", "results", "board-holder", "moves", "ply-info", "explorer-title",
                    "study-status", "study-error", "study-warnings", "study-page", "predecessors", "game-note", "yacpdb-status", "yacpdb-error",
                    "yacpdb-page", "yacpdb-results", "yacpdb-board-holder", "yacpdb-pgn"]) $(id).textContent = "";
  $("explorer").querySelector("tbody").textContent = "";
  $("game-title").textContent = "Open a result to see its game.";
  $("yacpdb-title").textContent = "Open an entry to see its diagram.";
  yacpdbState = { offset: 0, matches: 0 };
  studyState = { offset: 0, total: 0, body: null };
}
let repositories = [];
$("repo").addEventListener("change", () => {
  repo = $("repo").value;
  ++chosenAt;
  const url = new URL(location.href);
  url.searchParams.set("repo", repo);
  history.replaceState(null, "", url);
  clearAnswers();
  const info = repositories.find((r) => r.name === repo);
  if (info) showRepository(info);
});
(async () => {
  const asked = repo;
  repo = null;  // the list first, from the server's default: a name in the URL may no longer be served
  const { data } = await api("GET", "/api/info");
  if (!data || !data.repositories) return;
  repositories = data.repositories;
  const select = $("repo");
  for (const r of repositories) {
    const option = document.createElement("option");
    option.value = r.name;
    option.textContent = r.name + " (" + r.games + " games)";
    select.appendChild(option);
  }
  const chosen = repositories.find((r) => r.name === asked) || repositories[0];
  repo = chosen.name;
  select.value = repo;
  showRepository(chosen);
})();
</script>
</body>
</html>
)PAGE";

}  // namespace

std::string_view page_html() { return kPage; }

}  // namespace cqlindex::serve
