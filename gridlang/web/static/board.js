// gridlang serve: the board. The puzzle is drawn by the server (POST /api/board, the picture of
// `gridlang solve --svg` without an answer); this script lays a button over each cell, edits the
// text map in the Puzzle box (Set the puzzle) or the player's answer (Play), and draws only the
// overlay of marks: the player's marks, the forced cells and the cells that differ between two
// answers, the cells of a broken rule. Functions of app.js (specRequest, paramValues, postJSON,
// updateShare, showError, loadBundled) are called once both scripts have loaded.
"use strict";

const bel = {
  frame: document.getElementById("board-frame"), board: document.getElementById("board"),
  cells: document.getElementById("board-cells"), note: document.getElementById("board-note"),
  live: document.getElementById("live"), help: document.getElementById("board-help"),
  playOnly: document.querySelectorAll("#play-row .play-only"), decision: document.getElementById("decision"),
  undo: document.getElementById("undo"), redo: document.getElementById("redo"), check: document.getElementById("check"),
  verdict: document.getElementById("verdict"), exportUrl: document.getElementById("export-url"),
  urlOut: document.getElementById("url-out"), rows: document.getElementById("rows"),
  cols: document.getElementById("cols"), newGrid: document.getElementById("new-grid"),
  sizeRow: document.getElementById("size-row"), layer: document.getElementById("layer"),
  layerRow: document.getElementById("layer-row"), seed: document.getElementById("seed"),
  generate: document.getElementById("generate"), cancelGenerate: document.getElementById("cancel-generate"),
  stopGenerate: document.getElementById("stop-generate"), symmetry: document.getElementById("symmetry"),
  difficulty: document.getElementById("difficulty"),
  generating: document.getElementById("generating"), generateRow: document.getElementById("generate-row"),
};

const SVG = "http://www.w3.org/2000/svg";
const LIVE_CELLS = 100;      // live uniqueness runs on boards of at most 10x10 cells
const LIVE_SECONDS = 5;      // and each check has this long
const LIVE_DELAY = 450;      // milliseconds after the last edit
const BOARD_DELAY = 250;

let board = null;            // the last /api/board answer
let boardRequest = null;     // its AbortController
let boardTimer = null;
let boardPending = false;    // an edit waits for its board
let liveRequest = null;
let liveTimer = null;
let liveWanted = false;      // an edit waits for its board, then for its live check
let live = null;             // {forced: {name: [[[r, c], v], ...]}, differ: [[r, c], ...]}
let broken = [];             // the cells of the rules Check (or Explain) found broken
let brokenFor = "";          // of this puzzle: an edit of the puzzle takes them away
let mode = "set";
let selected = [0, 0];
let typed = "";              // the digits typed into the selected cell so far
let answer = {};             // decision name -> {"r,c": value}
let pendingAnswer = null;    // an answer from a share link, set once its board is drawn
let undoStack = [];          // Play: the answers before this one, as JSON (Undo and Redo)
let redoStack = [];
let setUndo = [];            // setting: the puzzles before this one, {p: the Puzzle box's text, w: open borders}
let setRedo = [];

// ------------------------------------------------------------ the text map

function isUrlText(text) { return /^\s*https?:\/\//i.test(text); }

// The Puzzle box as a text map: the lines above the grid (headers, comments, `grid:`), the grid's
// rows, and everything under the grid kept as it is, with its layers (`rooms:`, `corners:`,
// `borders:`) read into rows of tokens.
const LAYER = /^\s*(rooms|corners|borders)\s*:\s*$/;

function parseMap(text) {
  if (isUrlText(text) || text.trim().startsWith("{")) return null;
  const lines = text.replace(/\s+$/, "").split("\n");
  const header = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*grid\s*:\s*$/.test(line)) { header.push(line); i++; break; }
    if (!(/^\s*$/.test(line) || /^\s*#/.test(line) || /^\s*[A-Za-z_][A-Za-z0-9_]*\s*:/.test(line))) break;
    header.push(line);
    i++;
  }
  const body = [];
  while (i < lines.length && !/^\s*$/.test(lines[i]) && !LAYER.test(lines[i])) {
    body.push(lines[i]);
    i++;
  }
  const tail = lines.slice(i);
  const spaced = body.some((l) => /\S\s+\S/.test(l.trim()));
  const rows = body.map((l) => (spaced ? l.trim().split(/\s+/) : Array.from(l.trim())));
  const layers = {};
  tail.forEach((line, at) => {
    const found = line.match(LAYER);
    if (found) layers[found[1]] = layerAt(tail, at);
  });
  return { header, rows, spaced, tail, layers, rooms: layers.rooms || null };
}

// A layer among the lines under the grid: where its rows stand in `tail`, and its tokens.
function layerAt(tail, at) {
  let end = at + 1;
  while (end < tail.length && !/^\s*$/.test(tail[end]) && !LAYER.test(tail[end])) end++;
  const lines = tail.slice(at + 1, end);
  const spaced = lines.some((l) => /\S\s+\S/.test(l.trim()));
  return { start: at + 1, end, spaced, rows: lines.map((l) => (spaced ? l.trim().split(/\s+/) : Array.from(l.trim()))) };
}

// The map the board shows: the Puzzle box's, or the text map its URL decodes to.
function boardMap() {
  return parseMap(el.puzzle.value) || (board && board.map ? parseMap(board.map) : null);
}

// A layer's rows as text: the borders' rows between left and right neighbours indented by a space,
// so that each token stands under its gap (docs/language.md, clues on borders).
function layerLines(name, layer) {
  const spaced = layer.spaced || layer.rows.some((r) => r.some((t) => t.length > 1));
  return layer.rows.map((r, i) => {
    if (!spaced) return r.join("");
    return (name === "borders" && i % 2 === 0 ? " " : "") + r.join(" ");
  });
}

function writeMap(map) {
  const spaced = map.spaced || map.rows.some((r) => r.some((c) => c.length > 1));
  const rows = map.rows.map((r) => r.join(spaced ? " " : ""));
  let tail = map.tail || [];
  const layers = Object.entries(map.layers || {}).sort((a, b) => b[1].start - a[1].start);  // from the last
  for (const [name, layer] of layers) {
    tail = [...tail.slice(0, layer.start), ...layerLines(name, layer), ...tail.slice(layer.end)];
  }
  el.puzzle.value = [...map.header, ...rows, ...tail].join("\n") + "\n";
}

function tileCycle() {
  if (!info) return [];
  const out = [];
  for (const t of info.tiles) {
    if (t.chars.length) out.push({ char: t.chars[0], name: t.name });
    else if (t.number) out.push({ char: "1", name: t.name });
  }
  return out;
}

function numberTile() { return info ? info.tiles.find((t) => t.number) : null; }

function tileName(char) {
  if (!info) return "";
  for (const t of info.tiles) if (t.chars.includes(char)) return t.name;
  for (const t of info.tiles) if (t.number && /^([0-9]+|\?)$/.test(char)) return t.name;
  return "unknown";
}

// ------------------------------------------------------------ the board from the server

function boardSoon() {
  boardPending = true;
  clearTimeout(boardTimer);
  boardTimer = setTimeout(loadBoard, BOARD_DELAY);
}

async function loadBoard() {
  boardPending = false;
  clearTimeout(boardTimer);
  if (boardRequest) boardRequest.abort();
  const request = specRequest();
  if (!el.puzzle.value.trim() || (!request.bundled && !request.spec && !isUrlText(el.puzzle.value))) {
    showBoard(null, "");
    return;
  }
  const controller = new AbortController();
  boardRequest = controller;
  let r;
  try {
    r = await fetch("/api/board", { method: "POST", headers: { "Content-Type": "application/json" },
                                    body: JSON.stringify(solveRequest(false)), signal: controller.signal });
  } catch (e) {
    return;  // a newer edit took its place
  }
  let d;
  try { d = await r.json(); } catch (e) { d = { error: `the server answered ${r.status}` }; }
  if (boardRequest !== controller) return;
  boardRequest = null;
  if (!r.ok) { showBoard(null, `The board is drawn once the puzzle reads: ${(d.error || "").split("\n")[0]}`); return; }
  followSpec(d.spec);
  showBoard(d, "");
}

function showBoard(d, note) {
  const names = (x) => [...x.decisions, ...(x.lines || [])].map((dec) => dec.name).join(",");
  const sameShape = board && d && board.rows === d.rows && board.cols === d.cols && names(board) === names(d);
  board = d;
  const why = d && d.problem ? d.problem.split("\n")[0] : "";
  bel.note.textContent = pageWords(why ? `${d.no_answer ? "No answer" : "Not a puzzle to solve yet"}: ${why}` : note);
  bel.board.innerHTML = d ? inlineSvg(d.svg) : "";
  // a model file is offered only where it can be written (a loop's connectivity is no LP, MPS or WCNF)
  for (const b of document.querySelectorAll("[data-export]")) b.disabled = !!d && !(d.files || []).includes(b.dataset.export);
  if (liveWanted) {  // the board of an edit is drawn: now its uniqueness
    liveWanted = false;
    if (d && !d.problem) liveSoon();
    else { live = null; bel.live.textContent = !d ? "" : d.no_answer ? "no answer" : "not a puzzle yet"; }
  }
  if (!d) { bel.cells.innerHTML = ""; return; }
  if (!sameShape) { answer = {}; undoStack = []; redoStack = []; live = null; bel.verdict.textContent = ""; }
  if (pendingAnswer) { answer = pendingAnswer; pendingAnswer = null; }
  const [r, c] = selected;
  if (r >= d.rows || c >= d.cols) selected = [0, 0];
  bel.board.firstElementChild && bel.board.firstElementChild.setAttribute("aria-hidden", "true");
  fillDecisions();
  showLayers();
  renderButtons();
  renderPlaces();
  showHelp();  // after the places' buttons, which it speaks of
  drawOverlay();
  bel.exportUrl.disabled = false;
}

function fillDecisions() {
  const kept = bel.decision.value;
  bel.decision.innerHTML = "";
  for (const d of [...board.decisions, ...board.lines]) {
    const option = document.createElement("option");
    option.value = d.name;
    option.textContent = d.name;
    bel.decision.append(option);
  }
  if ([...board.decisions, ...board.lines].some((d) => d.name === kept)) bel.decision.value = kept;
}

function decision() {
  if (!board || lineDecision()) return null;  // a line's edges are entered by dragging (lines.js)
  return board.decisions.find((d) => d.name === bel.decision.value) || board.decisions[0] || null;
}

// ------------------------------------------------------------ cells as buttons over the picture

function cellBox(r, c) {
  const b = board;
  return { x: b.pad + c * b.cell, y: b.pad + r * b.cell, w: b.cell, h: b.cell };
}

function renderButtons() {
  const b = board;
  bel.frame.style.aspectRatio = `${b.width} / ${b.height}`;
  bel.frame.style.width = `${Math.round(Math.max(b.width, Math.min(b.width * 1.5, 320)))}px`;  // a small board's cells large enough to tap
  updateDrag();
  const map = boardMap();
  const keep = bel.cells.children.length === b.rows * b.cols;  // the same cells: kept, and so is the focus
  if (!keep) bel.cells.innerHTML = "";
  for (let r = 0; r < b.rows; r++) {
    for (let c = 0; c < b.cols; c++) {
      let button = keep ? buttonAt(r, c) : null;
      if (!button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.r = r;
        button.dataset.c = c;
        button.addEventListener("click", () => { select(r, c, false); press(r, c); });
        button.addEventListener("keydown", (e) => key(e, r, c));
        bel.cells.append(button);
      }
      const box = cellBox(r, c);
      button.style.left = `${(100 * box.x) / b.width}%`;
      button.style.top = `${(100 * box.y) / b.height}%`;
      button.style.width = `${(100 * box.w) / b.width}%`;
      button.style.height = `${(100 * box.h) / b.height}%`;
      button.tabIndex = r === selected[0] && c === selected[1] ? 0 : -1;
      button.setAttribute("aria-label", cellLabel(map, r, c));
    }
  }
}

function cellLabel(map, r, c) {
  const where = `row ${r + 1}, column ${c + 1}`;
  const text = map && map.rows[r] ? map.rows[r][c] : undefined;
  const tile = text === undefined ? "" : tileName(text);
  const number = numberTile();
  const shown = number && tile === number.name && text !== "?" ? `${tile} ${text}` : tile;
  if (mode === "set" && layer() === "rooms") {
    const label = map && map.rooms && map.rooms.rows[r] ? map.rooms.rows[r][c] : undefined;
    return `${where}: room ${label === undefined ? "none" : label}`;
  }
  if (mode === "set") return `${where}: ${shown || "cell"}`;
  const line = lineDecision();
  if (line) return `${where}: ${shown ? shown + ", " : ""}${lineLabel(line, r, c)}`;
  const d = decision();
  const value = d ? entry(d, r, c) : undefined;
  const given = d ? fixedValue(d, r, c) : undefined;
  if (given !== undefined) return `${where}: ${shown || `given ${given}`}`;
  let state = "empty";
  if (value === true) state = d.name;
  else if (value === false) state = `not ${d.name}`;
  else if (value !== undefined) state = `${value}`;
  return `${where}: ${shown ? shown + ", " : ""}${state}`;
}

function relabel() {
  if (board) renderPlaces();
  const map = boardMap();
  for (const button of bel.cells.children) {
    button.setAttribute("aria-label", cellLabel(map, +button.dataset.r, +button.dataset.c));
  }
}

function buttonAt(r, c) { return bel.cells.children[r * board.cols + c]; }

function select(r, c, focus) {
  if (!board) return;
  if (r !== selected[0] || c !== selected[1]) typed = "";
  const old = buttonAt(selected[0], selected[1]);
  if (old) old.tabIndex = -1;
  selected = [r, c];
  const now = buttonAt(r, c);
  now.tabIndex = 0;
  if (focus) now.focus();
  drawOverlay();
}

function key(e, r, c) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (lineKey(e, r, c)) { e.preventDefault(); return; }
  if (moves[e.key]) {
    const [dr, dc] = moves[e.key];
    select(Math.min(board.rows - 1, Math.max(0, r + dr)), Math.min(board.cols - 1, Math.max(0, c + dc)), true);
    e.preventDefault();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) {
    if (e.key.toLowerCase() === "z") { e.shiftKey ? redo() : undo(); e.preventDefault(); }
    if (e.key.toLowerCase() === "y") { redo(); e.preventDefault(); }
    return;
  }
  if (e.key === "Enter" || e.key === " ") return;  // the button's click
  if (typeKey(e.key, r, c)) e.preventDefault();
}

// ------------------------------------------------------------ setting: the map edited

function editMap(r, c, change) {
  let map = parseMap(el.puzzle.value);
  if (!map && board && board.map && isUrlText(el.puzzle.value)) map = parseMap(board.map);  // a URL becomes its map
  const grid = layer() === "rooms" && map && map.rooms ? map.rooms.rows : map && map.rows;
  if (!grid || !grid[r] || grid[r][c] === undefined) return;
  const next = change(grid[r][c]);
  if (next === grid[r][c] && !isUrlText(el.puzzle.value)) return;  // a URL still becomes its map
  setterStep();
  grid[r][c] = next;
  writeMap(map);
  edited();
}

// What a click and a key edit while setting: the cells' tiles, or the rooms: layer's labels.
function layer() { return bel.layer.value === "rooms" ? "rooms" : "cells"; }

function showLayers() {
  const map = boardMap();
  const rooms = !!(map && map.rooms);
  bel.layerRow.hidden = mode !== "set" || !rooms;
  if (!rooms) bel.layer.value = "cells";
}

const LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

// A room label's next: the labels in use in order, then the first label not in use.
function nextLabel(map, now) {
  const used = [...new Set(map.rooms.rows.flat())].sort();
  const fresh = Array.from(LABELS).find((l) => !used.includes(l));
  const cycle = fresh ? [...used, fresh] : used;
  return cycle[(cycle.indexOf(now) + 1) % cycle.length];
}

function edited() {
  live = null;  // the last check was of the puzzle before this edit
  relabel();
  updateShare();
  if (liveRequest) { liveRequest.abort(); liveRequest = null; }
  clearTimeout(liveTimer);
  liveWanted = mode === "set";
  if (liveWanted) bel.live.textContent = "checking";
  boardSoon();
}

// A parameter typed: the board again, and the live check when the setter is using it.
function paramEdited() {
  if (mode === "set" && bel.live.textContent) { liveWanted = true; bel.live.textContent = "checking"; }
  boardSoon();
}

function press(r, c) {
  typed = "";
  if (mode === "play") { playPress(r, c); return; }
  if (layer() === "rooms") {
    const map = boardMap();
    editMap(r, c, (now) => nextLabel(map, now));
    return;
  }
  const cycle = cellCycle(r, c);
  if (!cycle.length) return;
  editMap(r, c, (now) => {
    const at = cycle.findIndex((t) => t.char === now || t.name === tileName(now));
    return cycle[(at + 1) % cycle.length].char;
  });
}

function typeKey(k, r, c) {
  if (mode === "play") return playKey(k, r, c);
  if (layer() === "rooms") {
    if (k.length !== 1 || !LABELS.includes(k)) return false;
    editMap(r, c, () => k);
    return true;
  }
  const number = numberTile();
  const cycle = cellCycle(r, c);
  if (/^[0-9]$/.test(k) && number) {
    typed = (typed + k).replace(/^0+(?=[0-9])/, "").slice(-3);
    const digits = typed;
    editMap(r, c, () => digits);
    return true;
  }
  if (k === "Backspace" || k === "Delete") {
    typed = k === "Backspace" ? typed.slice(0, -1) : "";
    const digits = typed;
    const blank = cycle.length ? cycle[0].char : ".";
    editMap(r, c, () => digits || blank);
    return true;
  }
  if (k === "?" && number) {  // a number not given
    typed = "";
    editMap(r, c, () => "?");
    return true;
  }
  if (k.length === 1 && info && info.tiles.some((t) => t.chars.includes(k))) {
    typed = "";
    editMap(r, c, () => k);
    return true;
  }
  return false;
}

// The tiles a click cycles a cell through: in the outside frame of clues (pzprjs's excells) its
// empty frame and a number; inside, the spec's tiles but the frame's.
function cellCycle(r, c) {
  const cycle = tileCycle();
  if (!board || !board.outside.length) return cycle;
  if (isOutside(r, c)) {
    return [...board.frame.map((char) => ({ char, name: tileName(char) })), ...cycle.filter((t) => t.char === "1" && numberTile())];
  }
  return cycle.filter((t) => !board.frame.includes(t.char));
}

function isOutside(r, c) { return !!board && board.outside.some(([or, oc]) => or === r && oc === c); }

// The sides of the board that stand in the outside frame: top, bottom, left, right (the whole row or column).
function frameSides() {
  if (!board || !board.outside.length || !board.frame.length) return null;
  const all = (cells) => cells.every(([r, c]) => isOutside(r, c));
  const row = (r) => Array.from({ length: board.cols }, (_, c) => [r, c]);
  const col = (c) => Array.from({ length: board.rows }, (_, r) => [r, c]);
  return { top: all(row(0)), bottom: all(row(board.rows - 1)), left: all(col(0)), right: all(col(board.cols - 1)) };
}

function newGrid() {
  const cycle = tileCycle().filter((t) => !(board && board.frame.includes(t.char)));
  const rows = Math.min(100, Math.max(1, parseInt(bel.rows.value, 10) || 5));
  const cols = Math.min(100, Math.max(1, parseInt(bel.cols.value, 10) || 5));
  const fill = cycle.length ? cycle[0].char : ".";
  const old = boardMap();
  let header = old ? old.header.filter((l) => l.trim() && !/^\s*#/.test(l)) : [];
  // a parameter the spec's format reads off the size (Kropki's n) follows the new size
  for (const [name, values] of Object.entries((info && info.size_params) || {})) {
    const value = values[`${rows}x${cols}`];
    if (value === undefined) continue;
    const line = `${name}: ${value}`;
    const at = header.findIndex((l) => new RegExp(`^\\s*${name}\\s*:`).test(l));
    header = at >= 0 ? header.map((l, i) => (i === at ? line : l)) : [line, ...header];
  }
  let grid = Array.from({ length: rows }, () => Array(cols).fill(fill));
  const sides = frameSides();  // a genre with clues outside the grid: its frame around the new grid
  if (sides) {
    const f = board.frame[0];
    grid = grid.map((row) => [...(sides.left ? [f] : []), ...row, ...(sides.right ? [f] : [])]);
    const edge = Array(grid[0].length).fill(f);
    grid = [...(sides.top ? [edge] : []), ...grid, ...(sides.bottom ? [edge.slice()] : [])];
  }
  // a map with rooms gets a rooms: layer of one room, to divide by dragging borders or typing labels;
  // a genre with clues on borders or corners gets those layers, empty
  const tail = [];
  if (old && old.rooms) tail.push("rooms:", ...Array.from({ length: rows }, () => "a".repeat(cols)));
  const none = (tiles) => (tiles.find((t) => t.chars.length) || { chars: ["."] }).chars[0];
  if (info && info.border_tiles.length) {
    const n = none(info.border_tiles);
    // with the frame (`on borders and frame`): the top's row, then by turns a row's C + 1 and the C under it
    const frame = info.frame_borders ? 1 : 0;
    tail.push("borders:", ...Array.from({ length: 2 * rows - 1 + 2 * frame }, (_, i) => (i % 2 === 0 ? " " : "")
      + Array((i + frame) % 2 === 0 ? cols - 1 + 2 * frame : cols).fill(n).join(" ")));
  }
  if (info && info.corner_tiles.length) {
    const n = none(info.corner_tiles);
    tail.push("corners:", ...Array.from({ length: rows + 1 }, () => n.repeat(cols + 1)));
  }
  setterStep();
  writeMap({ header, rows: grid, spaced: false, tail });
  selected = [0, 0];
  edited();
}

// ------------------------------------------------------------ live uniqueness while setting

function liveSoon() {
  clearTimeout(liveTimer);
  if (liveRequest) { liveRequest.abort(); liveRequest = null; }
  if (mode !== "set") return;
  const map = parseMap(el.puzzle.value);
  const cells = map ? map.rows.length * Math.max(0, ...map.rows.map((r) => r.length)) : 0;
  if (cells > LIVE_CELLS) {
    live = null;
    bel.live.textContent = `Uniqueness is checked as you set on boards of at most ${LIVE_CELLS} cells (10x10).`;
    drawOverlay();
    return;
  }
  bel.live.textContent = "checking";
  liveTimer = setTimeout(runLive, LIVE_DELAY - BOARD_DELAY);
}

async function runLive() {
  const controller = new AbortController();
  liveRequest = controller;
  const body = { ...solveRequest(false), time_limit: Math.min(LIVE_SECONDS, parseFloat(el.timeLimit.value) || LIVE_SECONDS) };
  let r;
  try {
    r = await fetch("/api/tools/forced", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(body), signal: controller.signal });
  } catch (e) {
    return;  // cancelled by the next edit
  }
  let d;
  try { d = await r.json(); } catch (e) { return; }
  if (liveRequest !== controller) return;
  liveRequest = null;
  if (!r.ok) {
    live = null;
    bel.live.textContent = `cannot check: ${(d.error || "").split("\n")[0]}`;
  } else {
    const j = d.json || {};
    const open = j.open || [];
    live = { forced: j.forced || {}, differ: open.filter((k) => typeof k[0] === "number") };
    if (j.status === "INFEASIBLE") { bel.live.textContent = "no answer"; live = null; }
    else if (j.forced_complete && open.length === 0 && j.status !== "UNKNOWN") bel.live.textContent = "unique";
    else if (open.length) bel.live.textContent = `more than one answer: ${open.length} cells differ (outlined)`;
    else bel.live.textContent = `not settled within ${body.time_limit} s`;
  }
  drawOverlay();
}

// ------------------------------------------------------------ playing: the player's answer

function key2(r, c) { return `${r},${c}`; }

function entry(d, r, c) { return (answer[d.name] || {})[key2(r, c)]; }

function fixedValue(d, r, c) {
  const found = (d.fixed || []).find(([[fr, fc]]) => fr === r && fc === c);
  return found ? found[1] : undefined;
}

function madeOn(d, r, c) { return d.cells.some(([cr, cc]) => cr === r && cc === c); }

function setEntry(d, r, c, value) {
  if (!madeOn(d, r, c) || fixedValue(d, r, c) !== undefined) return;
  const now = entry(d, r, c);
  if (now === value) return;
  undoStack.push(JSON.stringify(answer));
  redoStack = [];
  const values = { ...(answer[d.name] || {}) };
  if (value === undefined) delete values[key2(r, c)];
  else values[key2(r, c)] = value;
  answer = { ...answer, [d.name]: values };
  played();
}

function played() {
  showUndo();
  broken = [];
  brokenPlaces = [];
  relabel();
  drawOverlay();
  updateShare();
}

function playPress(r, c) {
  const d = decision();
  if (!d) return;
  const now = entry(d, r, c);
  if (d.boolean) {
    setEntry(d, r, c, now === undefined ? true : now === true ? false : undefined);  // marked, dotted, empty
    return;
  }
  setEntry(d, r, c, valueAfter(d, now));
}

// A decision's values run through its listed ones, then the whole numbers of its range, which the board
// sends as [low, high] where a decision has an open value (a Fillomino's sizes from 4 up to its cells).
function inRange(d, v) { return !!d.range && Number.isInteger(v) && v >= d.range[0] && v <= d.range[1]; }

// The value after `now` on a cell clicked: the next listed value, the range's first after the last listed
// one, the next number within the range; undefined (the cell emptied) after the last.
function valueAfter(d, now) {
  if (inRange(d, now) && !d.values.includes(now)) return now < d.range[1] ? now + 1 : undefined;
  const at = d.values.indexOf(now);
  if (at + 1 < d.values.length) return d.values[at + 1];
  return d.range && at === d.values.length - 1 ? d.range[0] : undefined;
}

// The value typed as `text`: a listed value written so, or a number of the range.
function valueTyped(d, text) {
  const listed = d.values.find((v) => `${v}` === text);
  if (listed !== undefined || !/^[0-9]+$/.test(text)) return listed;
  return inRange(d, Number(text)) ? Number(text) : undefined;
}

function playKey(k, r, c) {
  const d = decision();
  if (!d) return false;
  if (k === "Backspace" || k === "Delete") { typed = ""; setEntry(d, r, c, undefined); return true; }
  if (d.boolean) {
    if (k === "1" || k.toLowerCase() === "x") { setEntry(d, r, c, true); return true; }
    if (k === "0" || k === ".") { setEntry(d, r, c, false); return true; }
    return false;
  }
  if (/^[0-9]$/.test(k)) {
    typed = (typed + k).replace(/^0+(?=[0-9])/, "").slice(-3);
    let value = valueTyped(d, typed);
    if (value === undefined) { typed = k; value = valueTyped(d, k); }
    if (value !== undefined) setEntry(d, r, c, value);
    return true;
  }
  const named = d.values.find((v) => `${v}`.toLowerCase() === k.toLowerCase());
  if (named !== undefined) { setEntry(d, r, c, named); return true; }
  return false;
}

// ------------------------------------------------------------ Undo and Redo

// In Play they step through the player's answer; while setting, through the puzzle set on the board:
// the Puzzle box's text and the room borders drawn that close no room yet (which the map's rooms: layer,
// a label a cell, cannot hold; places.js's openWalls and keepWalls). A click, a key or a drag on the
// board is one step; typing in the Puzzle box is the box's own to undo, and starts the setter's steps
// afresh.

function setterState() { return { p: el.puzzle.value, w: openWalls() }; }

// Before an edit of the puzzle on the board: the puzzle as it stands becomes a step of Undo.
function setterStep() {
  setUndo.push(setterState());
  setRedo = [];
  showUndo();
}

// The Puzzle box typed into: the board's steps of setting are of another text.
function setterTyped() {
  setUndo = [];
  setRedo = [];
  showUndo();
}

function setterBack(from, to) {
  if (!from.length) return;
  to.push(setterState());
  const s = from.pop();
  el.puzzle.value = s.p;
  keepWalls(s.w);
  edited();
  showUndo();
}

function undo() {
  if (mode === "set") { setterBack(setUndo, setRedo); return; }
  if (!undoStack.length) return;
  redoStack.push(JSON.stringify(answer));
  answer = JSON.parse(undoStack.pop());
  played();
}

function redo() {
  if (mode === "set") { setterBack(setRedo, setUndo); return; }
  if (!redoStack.length) return;
  undoStack.push(JSON.stringify(answer));
  answer = JSON.parse(redoStack.pop());
  played();
}

// Undo and Redo enabled when the mode's history has a step that way.
function showUndo() {
  const [back, on] = mode === "set" ? [setUndo, setRedo] : [undoStack, redoStack];
  bel.undo.disabled = !back.length;
  bel.redo.disabled = !on.length;
}

function answerJson() {
  const out = {};
  for (const [name, values] of Object.entries(answer)) {
    out[name] = Object.entries(values).map(([k, v]) => [
      k.includes("|") ? k.split("|").map((p) => p.split(",").map(Number)) : k.split(",").map(Number), v]);
  }
  return out;
}

async function check() {
  bel.verdict.textContent = "checking";
  const r = await postJSON("/api/check", { ...solveRequest(false), answer: answerJson() });
  const d = await r.json();
  if (!r.ok) { bel.verdict.textContent = (d.error || "").split("\n")[0]; return; }
  bel.verdict.textContent = d.text;
  outlineOnBoard(d.empty.length ? d.empty : d.violations.flatMap((v) => v.cells), d.empty.length ? [] : d.violations);
}

// ------------------------------------------------------------ the overlay of marks

// Outline cells on the board: those of a broken rule, or of the rule instances Explain found.
// A broken rule's places that are no cell of it (its row, column or room, its borders, corners or
// line) are drawn from `violations` (lines.js).
function outlineOnBoard(cells, violations) {
  broken = cells;
  brokenPlaces = violations || [];
  brokenFor = el.puzzle.value;
  drawOverlay();
}

function shape(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.append(node);
  return node;
}

function drawOverlay() {
  const old = bel.board.querySelector("svg.overlay");
  if (old) old.remove();
  if (!board) return;
  const svg = shape("svg", { class: "overlay", viewBox: `0 0 ${board.width} ${board.height}`, "aria-hidden": "true" },
                    bel.board);
  const d = decision();
  if (mode === "set" && live) {
    for (const [name, entries] of Object.entries(live.forced)) {
      const dec = board.decisions.find((x) => x.name === name);
      for (const [[r, c], v] of entries) {
        if (typeof r !== "number") { drawForcedEdge(svg, name, r, c, v); continue; }  // an edge's (lines.js)
        const b = cellBox(r, c);
        if (dec && dec.boolean) {
          if (v === true || v === 1) shape("rect", { x: b.x, y: b.y, width: b.w, height: b.h, class: "forced" }, svg);
        } else if (v !== undefined && v !== null) {
          text(svg, b, v, "forced");
        }
      }
    }
    for (const [r, c] of live.differ) {
      const b = cellBox(r, c);
      shape("rect", { x: b.x + 1.5, y: b.y + 1.5, width: b.w - 3, height: b.h - 3, class: "differ" }, svg);
    }
  }
  if (mode === "play" && d) {
    for (const [k, v] of Object.entries(answer[d.name] || {})) {
      const [r, c] = k.split(",").map(Number);
      const b = cellBox(r, c);
      if (v === true) shape("rect", { x: b.x + 1, y: b.y + 1, width: b.w - 2, height: b.h - 2, class: "mark" }, svg);
      else if (v === false) shape("circle", { cx: b.x + b.w / 2, cy: b.y + b.h / 2, r: b.w / 10, class: "dot" }, svg);
      else text(svg, b, v, "value");
    }
  }
  const map = mode === "set" && layer() === "rooms" ? boardMap() : null;
  if (map && map.rooms) {
    map.rooms.rows.forEach((row, r) => row.forEach((label, c) => {
      if (r >= board.rows || c >= board.cols) return;
      const b = cellBox(r, c);
      const t = shape("text", { x: b.x + b.w * 0.08, y: b.y + b.h * 0.32, class: "room", "font-size": b.h * 0.28 }, svg);
      t.textContent = label;
    }));
  }
  const outlined = new Set();
  for (const [r, c] of brokenFor === el.puzzle.value ? broken : []) {
    if (outlined.has(key2(r, c))) continue;  // a cell of two broken rules is outlined once, titled with both
    outlined.add(key2(r, c));
    const b = cellBox(r, c);
    const rect = shape("rect", { x: b.x + 2.5, y: b.y + 2.5, width: b.w - 5, height: b.h - 5, class: "broken" }, svg);
    const rules = brokenPlaces.filter((v) => (v.cells || []).some(([vr, vc]) => vr === r && vc === c));
    if (rules.length) shape("title", {}, rect).textContent = rules.map((v) => `line ${v.line}: ${v.name || v.rule}`).join("; ");
  }
  drawOpenWalls(svg);
  drawLines(svg);
  if (brokenFor === el.puzzle.value) drawBrokenPlaces(svg);  // over the lines, which it may draw over
  const b = cellBox(selected[0], selected[1]);
  shape("rect", { x: b.x + 1, y: b.y + 1, width: b.w - 2, height: b.h - 2, class: "selected" }, svg);
  drawPlaceFocus(svg);
}

function text(svg, b, value, cls) {
  const t = shape("text", { x: b.x + b.w / 2, y: b.y + b.h * 0.7, class: cls, "font-size": b.h * 0.6,
                            "text-anchor": "middle" }, svg);
  t.textContent = `${value}`;
}

// ------------------------------------------------------------ modes and links

function setMode(next) {
  mode = next;
  typed = "";
  for (const node of bel.playOnly) node.hidden = mode !== "play";
  showUndo();
  bel.sizeRow.hidden = mode !== "set";
  bel.generateRow.hidden = mode !== "set";
  if (board) { showLayers(); renderPlaces(); updateDrag(); }
  showHelp();
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === mode;
  if (mode === "play") { clearTimeout(liveTimer); if (liveRequest) liveRequest.abort(); bel.live.textContent = ""; }
  if (board) { relabel(); drawOverlay(); }
  updateShare();
}

function showHelp() {
  const map = board ? boardMap() : null;
  if (mode === "set") {
    bel.help.textContent = "Click a cell to cycle it through the spec's tiles; type digits for a number, arrows to move."
      + (map && map.rooms ? " Drag along the cells' sides to draw or erase a room's border." : "")
      + (board && pel.places.children.length ? " The small buttons on borders and corners set their clues the same way." : "");
  } else if (lineDecision()) {
    const along = lineDecision().kind === "corners" ? "from corner to corner along the cells' sides" : "from cell to cell";
    bel.help.textContent = `Drag ${along} to draw the ${lineDecision().name} (drag again to erase); `
      + "Shift and an arrow key draw from the selected cell; Check judges the answer.";
  } else {
    bel.help.textContent = "Click a cell to mark it (again for a dot, again to clear), or type its value; Check judges the answer.";
  }
}

async function exportUrl() {
  if (boardPending || boardRequest) await loadBoard();  // the URL of the puzzle as it is now, not before the last edit
  if (!board) { bel.urlOut.hidden = true; return; }
  bel.urlOut.hidden = false;
  bel.urlOut.value = board.url || "";
  bel.urlOut.placeholder = board.url ? "" : board.url_error;
  bel.note.textContent = board.url ? "" : `No puzz.link URL: ${board.url_error}`;
  if (board.url) bel.urlOut.select();
}

function boardState() { return { m: mode, a: answerJson(), w: openWalls() }; }

function restoreBoard(s) {
  setMode(s.m === "play" ? "play" : "set");
  const restored = {};
  for (const [name, entries] of Object.entries(s.a || {})) {
    restored[name] = {};
    for (const [[r, c], v] of entries) restored[name][Array.isArray(r) ? edgeKey(r, c) : key2(r, c)] = v;
  }
  pendingAnswer = restored;
  setterTyped();  // a link opened: the steps of setting start afresh
  keepWalls(s.w);  // the room borders drawn that close no room, which the map cannot hold
}

function boardInit() {
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.addEventListener("change", () => setMode(radio.value));
  bel.newGrid.addEventListener("click", newGrid);
  bel.generate.addEventListener("click", generate);
  bel.cancelGenerate.addEventListener("click", cancelGenerate);
  bel.stopGenerate.addEventListener("click", stopGenerate);
  bel.undo.addEventListener("click", undo);
  bel.redo.addEventListener("click", redo);
  bel.check.addEventListener("click", check);
  bel.exportUrl.addEventListener("click", exportUrl);
  bel.decision.addEventListener("change", () => { relabel(); drawOverlay(); showHelp(); });
  bel.layer.addEventListener("change", () => { typed = ""; relabel(); drawOverlay(); });
  placesInit();
  linesInit();
}
