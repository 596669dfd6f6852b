// gridlang serve: answers drawn between cells, as pzprjs's players draw them. A decision made on edges
// (Masyu's line between cell centres, Hashiwokakero's bridges) or on the cells' sides (Slitherlink's
// line along the corners' lattice) is entered in Play by dragging from one cell (or corner) to the
// next: the first edge crossed says draw or erase (for a number of bridges, its next value), the rest
// of the drag does the same. Shift and an arrow key draw from the selected cell (along its side, for
// a line on the sides). Uses board.js's state (board, mode, answer, undoStack) and places.js's
// pointAt and cornerNear.
"use strict";

let lineDrag = null;         // {at: [r, c], value: undefined | value, pushed: bool} while dragging a line

// The decision on edges chosen in Play's Decision box, or null.
function lineDecision() {
  if (!board || mode !== "play") return null;
  return (board.lines || []).find((d) => d.name === bel.decision.value) || null;
}

function edgeKey(a, b) { return pairKey(a, b); }

function edgesOf(d) {
  if (!d.edgeSet) d.edgeSet = new Set(d.edges.map(([a, b]) => edgeKey(a, b)));
  return d.edgeSet;
}

// The cell (a line between centres) or corner (a line along the sides) a drag is at, or null.
function lineEnd(d, e) {
  const [x, y] = pointAt(e);
  if (d.kind === "corners") return cornerNear(x, y);
  const r = Math.floor((y - board.pad) / board.cell);
  const c = Math.floor((x - board.pad) / board.cell);
  return r >= 0 && c >= 0 && r < board.rows && c < board.cols ? [r, c] : null;
}

// An edge's value in the player's answer (undefined: not drawn).
function edgeValue(d, key) { return (answer[d.name] || {})[key]; }

// Set an edge; the first change of a drag (or key) is one step of Undo.
function setEdge(d, key, value, step) {
  if (!edgesOf(d).has(key) || edgeValue(d, key) === value) return false;
  if (step) { undoStack.push(JSON.stringify(answer)); redoStack = []; }
  const values = { ...(answer[d.name] || {}) };
  if (value === undefined) delete values[key];
  else values[key] = value;
  answer = { ...answer, [d.name]: values };
  played();
  return true;
}

// The value an edge takes when it is crossed first: a Boolean drawn or erased, a number its next value.
function nextEdgeValue(d, key) {
  const now = edgeValue(d, key);
  if (d.boolean) return now === true ? undefined : true;
  const values = d.values.filter((v) => v !== 0);
  const at = values.indexOf(now);
  return at + 1 < values.length ? values[at + 1] : undefined;
}

function crossEdge(d, a, b) {
  const key = edgeKey(a, b);
  if (!edgesOf(d).has(key)) return;
  if (lineDrag.value === null) lineDrag.value = nextEdgeValue(d, key);
  if (setEdge(d, key, lineDrag.value, !lineDrag.pushed)) lineDrag.pushed = true;
  dragMoved = true;
}

function lineDragStart(e) {
  const d = lineDecision();
  if (!d) return false;
  lineDrag = { at: lineEnd(d, e), value: null, pushed: false };
  return true;
}

function lineDragMove(e) {
  const d = lineDecision();
  if (!lineDrag || !d) return false;
  const now = lineEnd(d, e);
  if (!now) return true;
  const last = lineDrag.at;
  if (last && Math.abs(now[0] - last[0]) + Math.abs(now[1] - last[1]) === 1) crossEdge(d, last, now);
  if (!last || now[0] !== last[0] || now[1] !== last[1]) lineDrag.at = now;
  return true;
}

function lineDragEnd() { lineDrag = null; }

// Shift and an arrow on a cell: the edge from it that way (a line between centres), or its side that
// way (a line along the sides), drawn or erased.
function lineKey(e, r, c) {
  const d = lineDecision();
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (!d || !e.shiftKey || !moves[e.key]) return false;
  const [dr, dc] = moves[e.key];
  let a = [r, c];
  let b = [r + dr, c + dc];
  if (d.kind === "corners") {
    const sides = { ArrowUp: [[r, c], [r, c + 1]], ArrowDown: [[r + 1, c], [r + 1, c + 1]],
                    ArrowLeft: [[r, c], [r + 1, c]], ArrowRight: [[r, c + 1], [r + 1, c + 1]] };
    [a, b] = sides[e.key];
  }
  const key = edgeKey(a, b);
  if (edgesOf(d).has(key)) setEdge(d, key, nextEdgeValue(d, key), true);
  return true;
}

// What a cell's button says of the lines at it: their directions (between centres) or its sides drawn.
function lineLabel(d, r, c) {
  const at = d.kind === "corners"
    ? { top: [[r, c], [r, c + 1]], bottom: [[r + 1, c], [r + 1, c + 1]], left: [[r, c], [r + 1, c]], right: [[r, c + 1], [r + 1, c + 1]] }
    : { up: [[r, c], [r - 1, c]], down: [[r, c], [r + 1, c]], left: [[r, c], [r, c - 1]], right: [[r, c], [r, c + 1]] };
  const drawn = [];
  for (const [word, [a, b]] of Object.entries(at)) {
    const v = edgeValue(d, edgeKey(a, b));
    if (v !== undefined) drawn.push(d.boolean ? word : `${word} ${v}`);
  }
  const what = d.kind === "corners" ? "sides" : d.name;
  return drawn.length ? `${what} ${drawn.join(", ")}` : `no ${what}`;
}

// The centre of an edge's end in the picture's pixels: a cell's centre, or a corner.
function endPoint(d, [r, c]) {
  const shift = d.kind === "corners" ? 0 : 0.5;
  return [board.pad + (c + shift) * board.cell, board.pad + (r + shift) * board.cell];
}

// The player's lines on the overlay (a number of bridges as that many strokes side by side).
function drawLines(svg) {
  if (!board || mode !== "play") return;
  for (const d of board.lines || []) {
    for (const [key, v] of Object.entries(answer[d.name] || {})) {
      const [a, b] = key.split("|").map((p) => p.split(",").map(Number));
      const [x1, y1] = endPoint(d, a);
      const [x2, y2] = endPoint(d, b);
      const strokes = d.boolean ? 1 : Math.max(1, Math.min(3, Number(v) || 1));
      for (let i = 0; i < strokes; i++) {
        const off = (i - (strokes - 1) / 2) * board.cell * 0.15;
        const [ox, oy] = a[0] === b[0] ? [0, off] : [off, 0];
        shape("line", { x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy, class: "line-mark" }, svg);
      }
    }
  }
}

// An edge the live check found forced while setting: drawn grey when it is on the line (a number of
// bridges when it is more than 0), nothing when it is forced off.
function drawForcedEdge(svg, name, a, b, v) {
  const d = (board.lines || []).find((x) => x.name === name);
  if (!d || v === false || v === 0 || v === null || v === undefined) return;
  const [x1, y1] = endPoint(d, a);
  const [x2, y2] = endPoint(d, b);
  shape("line", { x1, y1, x2, y2, class: "forced-line" }, svg);
}

// Whether a drag on the board draws: rooms while setting, lines while playing.
function updateDrag() {
  bel.frame.classList.toggle("drag", !!lineDecision() || roomsDraggable());
}

function linesInit() {
  bel.decision.addEventListener("change", updateDrag);
}

// ------------------------------------------------------------ broken rules that name no cell

let brokenPlaces = [];       // the violations Check found: their rows, columns, rooms, borders, corners, lines

// The places of the broken rules: a row, column or room outlined along its rim, a border and a line
// drawn over in red, a corner ringed; each shape titled with the rule's line and text.
function drawBrokenPlaces(svg) {
  const { pad, cell } = board;
  for (const v of brokenPlaces) {
    const title = `line ${v.line}: ${v.name || v.rule}`;
    const titled = (node) => { shape("title", {}, node).textContent = title; };
    const inside = new Set((v.region || []).map(([r, c]) => `${r},${c}`));
    const inset = cell * 0.12;  // inside the rim, so that the rims of two regions side by side stay apart
    for (const [r, c] of v.region || []) {
      // [the neighbour across the side, the side's ends in cells, the way inwards]
      const sides = [[-1, 0, 0, 0, 1, 0, 0, 1], [1, 0, 0, 1, 1, 1, 0, -1], [0, -1, 0, 0, 0, 1, 1, 0], [0, 1, 1, 0, 1, 1, -1, 0]];
      for (const [dr, dc, x1, y1, x2, y2, ix, iy] of sides) {
        if (inside.has(`${r + dr},${c + dc}`)) continue;
        titled(shape("line", { x1: pad + (c + x1) * cell + ix * inset, y1: pad + (r + y1) * cell + iy * inset,
                               x2: pad + (c + x2) * cell + ix * inset, y2: pad + (r + y2) * cell + iy * inset,
                               class: "broken-region" }, svg));
      }
    }
    for (const [a, b] of v.borders || []) {  // two cells, or on the frame a cell and the place beyond (places.js)
      titled(shape("line", { ...borderLine(a, b), class: "broken-line" }, svg));
    }
    for (const [r, c] of v.corners || []) {
      titled(shape("circle", { cx: pad + c * cell, cy: pad + r * cell, r: cell * 0.3, class: "broken-point" }, svg));
    }
    for (const name of v.lines || []) {
      const d = (board.lines || []).find((x) => x.name === name);
      if (!d) continue;
      for (const key of Object.keys(answer[name] || {})) {
        const [a, b] = key.split("|").map((p) => p.split(",").map(Number));
        const [x1, y1] = endPoint(d, a);
        const [x2, y2] = endPoint(d, b);
        titled(shape("line", { x1, y1, x2, y2, class: "broken-line" }, svg));
      }
    }
  }
}
