// gridlang serve: the places of the board that are not cells, set as pzprjs sets them. A spec's tiles
// on borders (Kropki's dots, Minarism's inequalities) and on corners (Creek's numbers) get a button
// each over the border's middle or the corner, which a click cycles through those tiles and digits
// typed make a number; they live in the map's `borders:` and `corners:` layers. Rooms are drawn by
// dragging along the cells' sides, from corner to corner, each side crossed turning its border on
// (or off, when the drag began on a border); the `rooms:` layer follows, a room a group of cells no
// border parts. Uses board.js's state (board, mode, info, bel) and app.js's el.
"use strict";

const pel = {
  places: document.getElementById("board-places"),
};

let placeAt = 0;             // the index of the place that holds the keyboard's focus
let placeTyped = "";

// ------------------------------------------------------------ borders and corners

// The places of the board's layers as {kind, r, c, x, y, label, row, col}: `row` and `col` index the
// layer's rows of tokens; x and y are the place's centre in the picture's pixels.
function placesOf(map) {
  const out = [];
  if (!board || !map || !info) return out;
  const { pad, cell, rows, cols } = board;
  const framed = map.layers.borders && map.layers.borders.rows.length === 2 * rows + 1;
  if (framed && info.border_tiles.length) {
    // the frame's too (tiles `on borders and frame`): the top's row, then each row's left frame, the
    // borders between its cells and its right frame, and the row under it, the last the bottom's
    for (let c = 0; c < cols; c++) {
      out.push({ kind: "borders", row: 0, col: c, x: pad + (c + 0.5) * cell, y: pad,
                 label: `frame above row 1, column ${c + 1}` });
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c <= cols; c++) {
        const label = c === 0 ? `frame left of row ${r + 1}, column 1`
          : c === cols ? `frame right of row ${r + 1}, column ${cols}`
            : `border of row ${r + 1}, columns ${c} and ${c + 1}`;
        out.push({ kind: "borders", row: 2 * r + 1, col: c, x: pad + c * cell, y: pad + (r + 0.5) * cell, label });
      }
      for (let c = 0; c < cols; c++) {
        const label = r + 1 === rows ? `frame below row ${rows}, column ${c + 1}`
          : `border of column ${c + 1}, rows ${r + 1} and ${r + 2}`;
        out.push({ kind: "borders", row: 2 * r + 2, col: c, x: pad + (c + 0.5) * cell, y: pad + (r + 1) * cell, label });
      }
    }
  } else if (map.layers.borders && info.border_tiles.length) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c + 1 < cols; c++) {
        out.push({ kind: "borders", row: 2 * r, col: c, x: pad + (c + 1) * cell, y: pad + (r + 0.5) * cell,
                   label: `border of row ${r + 1}, columns ${c + 1} and ${c + 2}` });
      }
      if (r + 1 < rows) {
        for (let c = 0; c < cols; c++) {
          out.push({ kind: "borders", row: 2 * r + 1, col: c, x: pad + (c + 0.5) * cell, y: pad + (r + 1) * cell,
                     label: `border of column ${c + 1}, rows ${r + 1} and ${r + 2}` });
        }
      }
    }
  }
  if (map.layers.corners && info.corner_tiles.length) {
    for (let r = 0; r <= rows; r++) {
      for (let c = 0; c <= cols; c++) {
        out.push({ kind: "corners", row: r, col: c, x: pad + c * cell, y: pad + r * cell,
                   label: `corner ${r + 1}, ${c + 1}` });
      }
    }
  }
  return out;
}

function placeTiles(kind) { return kind === "borders" ? info.border_tiles : info.corner_tiles; }

function placeName(kind, token) {
  const tiles = placeTiles(kind);
  const found = tiles.find((t) => t.chars.includes(token));
  if (found) return found.name;
  const number = tiles.find((t) => t.number);
  return number && /^([0-9]+|\?)$/.test(token) ? `${number.name} ${token}` : token;
}

function placeToken(map, p) {
  const layer = map.layers[p.kind];
  return layer && layer.rows[p.row] ? layer.rows[p.row][p.col] : undefined;
}

// The buttons over the places, laid out as the cells' are; hidden while playing.
function renderPlaces() {
  const map = mode === "set" ? boardMap() : null;
  const places = map ? placesOf(map) : [];
  pel.places.hidden = !places.length;
  if (!places.length) { pel.places.innerHTML = ""; return; }
  if (placeAt >= places.length) placeAt = 0;
  const keep = pel.places.children.length === places.length;
  if (!keep) pel.places.innerHTML = "";
  const side = board.cell * 0.5;
  places.forEach((p, i) => {
    let button = keep ? pel.places.children[i] : null;
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = `place ${p.kind}`;
      button.addEventListener("click", () => { placeAt = i; placeTyped = ""; pressPlace(i); });
      button.addEventListener("keydown", (e) => placeKey(e, i));
      button.addEventListener("focus", () => { placeAt = i; drawOverlay(); });
      pel.places.append(button);
    }
    button.style.left = `${(100 * (p.x - side / 2)) / board.width}%`;
    button.style.top = `${(100 * (p.y - side / 2)) / board.height}%`;
    button.style.width = `${(100 * side) / board.width}%`;
    button.style.height = `${(100 * side) / board.height}%`;
    button.tabIndex = i === placeAt ? 0 : -1;
    button.setAttribute("aria-label", `${p.label}: ${placeName(p.kind, placeToken(map, p))}`);
  });
}

function editPlace(i, change) {
  const map = parseMap(el.puzzle.value) || (board && board.map ? parseMap(board.map) : null);
  const p = map ? placesOf(map)[i] : null;
  if (!p) return;
  const now = placeToken(map, p);
  if (now === undefined) return;
  const next = change(now, p);
  if (next === now && !isUrlText(el.puzzle.value)) return;  // a URL still becomes its map
  setterStep();
  map.layers[p.kind].rows[p.row][p.col] = next;
  writeMap(map);
  edited();
}

// A click: the place's next tile, in the spec's order, a number tile as 1.
function pressPlace(i) {
  editPlace(i, (now, p) => {
    const tiles = placeTiles(p.kind);
    const cycle = tiles.flatMap((t) => (t.chars.length ? [t.chars[0]] : t.number ? ["1"] : []));
    const at = cycle.findIndex((ch) => ch === now || placeName(p.kind, ch) === placeName(p.kind, now)
                                || (ch === "1" && /^[0-9]+$/.test(now)));
    return cycle[(at + 1) % cycle.length];
  });
}

function placeKey(e, i) {
  const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (moves[e.key]) {
    e.preventDefault();
    const next = nearestPlace(i, ...moves[e.key]);
    if (next !== null) focusPlace(next);
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey || e.key === "Enter" || e.key === " ") return;
  const map = boardMap();
  const p = map ? placesOf(map)[i] : null;
  if (!p) return;
  const tiles = placeTiles(p.kind);
  const number = tiles.find((t) => t.number);
  const blank = (tiles.find((t) => t.chars.length) || { chars: ["."] }).chars[0];
  let value = null;
  if (/^[0-9]$/.test(e.key) && number) {
    placeTyped = (placeTyped + e.key).replace(/^0+(?=[0-9])/, "").slice(-3);
    value = placeTyped;
  } else if (e.key === "Backspace" || e.key === "Delete") {
    placeTyped = e.key === "Backspace" ? placeTyped.slice(0, -1) : "";
    value = placeTyped || blank;
  } else if (e.key === "?" && number) {
    placeTyped = "";
    value = "?";
  } else if (e.key.length === 1 && tiles.some((t) => t.chars.includes(e.key))) {
    placeTyped = "";
    value = e.key;
  }
  if (value === null) return;
  e.preventDefault();
  editPlace(i, () => value);
}

// The place next in a direction: the nearest whose centre lies that way, straight ahead first.
function nearestPlace(i, dx, dy) {
  const places = placesOf(boardMap());
  const from = places[i];
  let best = null;
  let bestScore = Infinity;
  places.forEach((p, j) => {
    const ahead = (p.x - from.x) * dx + (p.y - from.y) * dy;
    if (j === i || ahead <= 0.01) return;
    const aside = Math.abs((p.x - from.x) * dy) + Math.abs((p.y - from.y) * dx);
    const score = ahead + 2 * aside;
    if (score < bestScore) { bestScore = score; best = j; }
  });
  return best;
}

function focusPlace(i) {
  placeTyped = "";
  const old = pel.places.children[placeAt];
  if (old) old.tabIndex = -1;
  placeAt = i;
  const now = pel.places.children[i];
  if (now) { now.tabIndex = 0; now.focus(); }
  drawOverlay();
}

// The focused place, ringed on the overlay.
function drawPlaceFocus(svg) {
  const focused = document.activeElement && document.activeElement.parentElement === pel.places;
  if (!focused) return;
  const p = placesOf(boardMap())[placeAt];
  if (p) shape("circle", { cx: p.x, cy: p.y, r: board.cell * 0.25, class: "selected" }, svg);
}

// ------------------------------------------------------------ rooms drawn by dragging

let roomWalls = null;        // the borders drawn, as a Set of "r,c|r,c" (cell pairs, the smaller first)
let roomWallsFor = "";       // of this rooms: layer (its text): another layer's walls are read from its labels
let dragging = null;         // {corner: [r, c], on: bool|null, pushed: bool} while the pointer is down
let dragMoved = false;       // the last pointer sequence drew: its click is not a click

// The segment of the picture along the border between two side-neighbouring places [r, c] (two cells,
// or on the frame a cell and the place off the grid beyond it), in either order: the side of the lower
// or right one that faces the other, as {x1, y1, x2, y2} in the picture's pixels.
function borderLine([r1, c1], [r2, c2]) {
  const { pad, cell } = board;
  const [r, c] = [Math.max(r1, r2), Math.max(c1, c2)];
  return r1 === r2
    ? { x1: pad + c * cell, y1: pad + r * cell, x2: pad + c * cell, y2: pad + (r + 1) * cell }
    : { x1: pad + c * cell, y1: pad + r * cell, x2: pad + (c + 1) * cell, y2: pad + r * cell };
}

function pairKey(a, b) {
  const [p, q] = a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? [a, b] : [b, a];
  return `${p[0]},${p[1]}|${q[0]},${q[1]}`;
}

function roomsText(map) { return map && map.rooms ? map.rooms.rows.map((r) => r.join(" ")).join("\n") : ""; }

// The room borders: those drawn on this layer, else every side between two labels that differ.
function wallsOf(map) {
  if (roomWalls && roomWallsFor === roomsText(map)) return roomWalls;
  const walls = new Set();
  const labels = map.rooms.rows;
  for (let r = 0; r < labels.length; r++) {
    for (let c = 0; c < labels[r].length; c++) {
      if (c + 1 < labels[r].length && labels[r][c] !== labels[r][c + 1]) walls.add(pairKey([r, c], [r, c + 1]));
      if (r + 1 < labels.length && labels[r + 1] && labels[r][c] !== labels[r + 1][c]) walls.add(pairKey([r, c], [r + 1, c]));
    }
  }
  return walls;
}

// The rooms of a set of borders: each group of cells no border parts gets a label, the first that no
// room beside it holds (a label is used again only for rooms that do not touch).
function labelRooms(rows, cols, walls) {
  const room = Array.from({ length: rows }, () => Array(cols).fill(-1));
  const groups = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (room[r][c] >= 0) continue;
      const id = groups.length;
      const stack = [[r, c]];
      room[r][c] = id;
      groups.push([]);
      while (stack.length) {
        const [y, x] = stack.pop();
        groups[id].push([y, x]);
        for (const [dy, dx] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) {
          const ny = y + dy;
          const nx = x + dx;
          if (ny < 0 || nx < 0 || ny >= rows || nx >= cols || room[ny][nx] >= 0) continue;
          if (walls.has(pairKey([y, x], [ny, nx]))) continue;
          room[ny][nx] = id;
          stack.push([ny, nx]);
        }
      }
    }
  }
  const label = [];
  groups.forEach((cells, id) => {
    const beside = new Set();
    for (const [y, x] of cells) {
      for (const [dy, dx] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) {
        const ny = y + dy;
        const nx = x + dx;
        if (ny >= 0 && nx >= 0 && ny < rows && nx < cols && room[ny][nx] !== id && room[ny][nx] < id) beside.add(label[room[ny][nx]]);
      }
    }
    label[id] = Array.from(LABELS).find((l) => !beside.has(l));
  });
  return room.map((row) => row.map((id) => label[id]));
}

// The corner of the cells' lattice under a point of the picture, when the point is within a third
// of a cell of it (pzprjs reads a drag along borders so), else null.
function cornerNear(x, y) {
  const cr = (y - board.pad) / board.cell;
  const cc = (x - board.pad) / board.cell;
  const r = Math.round(cr);
  const c = Math.round(cc);
  if (r < 0 || c < 0 || r > board.rows || c > board.cols) return null;
  return Math.hypot(cr - r, cc - c) <= 0.35 ? [r, c] : null;
}

// The two cells a side of the lattice parts, from its two corners; null on the grid's frame.
function cellsOfSide(a, b) {
  if (a[0] === b[0]) {  // a horizontal side: the cells above and below it
    const r = a[0];
    const c = Math.min(a[1], b[1]);
    return r > 0 && r < board.rows ? [[r - 1, c], [r, c]] : null;
  }
  const c = a[1];
  const r = Math.min(a[0], b[0]);
  return c > 0 && c < board.cols ? [[r, c - 1], [r, c]] : null;
}

function toggleWall(a, b) {
  const side = cellsOfSide(a, b);
  let map = parseMap(el.puzzle.value);
  if (!map && board && board.map && isUrlText(el.puzzle.value)) map = parseMap(board.map);
  if (!side || !map || !map.rooms) return;
  const walls = new Set(wallsOf(map));
  const key = pairKey(side[0], side[1]);
  if (dragging.on === null) dragging.on = !walls.has(key);  // the first side says draw or erase
  if (dragging.on === walls.has(key)) return;
  if (!dragging.pushed) { setterStep(); dragging.pushed = true; }  // a drag is one step of Undo
  if (dragging.on) walls.add(key);
  else walls.delete(key);
  const rows = map.rooms.rows.length;
  const cols = map.rooms.rows[0].length;
  map.rooms.rows = labelRooms(rows, cols, walls);
  roomWalls = walls;
  roomWallsFor = roomsText(map);
  writeMap(map);
  edited();
}

function pointAt(e) {
  const box = bel.frame.getBoundingClientRect();
  return [((e.clientX - box.left) * board.width) / box.width, ((e.clientY - box.top) * board.height) / box.height];
}

function roomsDraggable() {
  const map = boardMap();
  return mode === "set" && !!board && !!map && !!map.rooms;
}

function dragStart(e) {
  dragMoved = false;
  if (lineDragStart(e)) return;  // a line in Play (lines.js)
  if (!roomsDraggable()) return;
  dragging = { corner: cornerNear(...pointAt(e)), on: null, pushed: false };
}

function dragMove(e) {
  if (lineDragMove(e)) return;
  if (!dragging || !board) return;
  const now = cornerNear(...pointAt(e));
  if (!now) return;
  const last = dragging.corner;
  if (last && Math.abs(now[0] - last[0]) + Math.abs(now[1] - last[1]) === 1) {
    toggleWall(last, now);
    dragMoved = true;
  }
  if (!last || now[0] !== last[0] || now[1] !== last[1]) dragging.corner = now;
}

function dragEnd() {
  lineDragEnd();
  dragging = null;
}

// The room borders drawn that part no two rooms yet (a room not closed), as "r,c|r,c" keys.
function openWalls() {
  const map = boardMap();
  if (!map || !map.rooms || !roomWalls || roomWallsFor !== roomsText(map)) return [];
  const labels = map.rooms.rows;
  return [...roomWalls].filter((key) => {
    const [[r1, c1], [r2, c2]] = key.split("|").map((p) => p.split(",").map(Number));
    return labels[r1][c1] === labels[r2][c2];
  });
}

// The borders of the Puzzle box's rooms, and these drawn that close no room (from a share link or a step
// of Undo): keys of two side-neighbouring cells of one room, the rest left out.
function keepWalls(open) {
  roomWalls = null;
  roomWallsFor = "";
  const map = parseMap(el.puzzle.value);
  if (!map || !map.rooms || !Array.isArray(open) || !open.length) return;
  const labels = map.rooms.rows;
  const walls = new Set(wallsOf(map));
  for (const key of open) {
    const found = typeof key === "string" && key.match(/^(\d+),(\d+)\|(\d+),(\d+)$/);
    if (!found) continue;
    const [r1, c1, r2, c2] = found.slice(1).map(Number);
    const beside = Math.abs(r1 - r2) + Math.abs(c1 - c2) === 1;
    if (beside && labels[r1] && labels[r2] && labels[r1][c1] !== undefined && labels[r1][c1] === labels[r2][c2]) {
      walls.add(pairKey([r1, c1], [r2, c2]));
    }
  }
  roomWalls = walls;
  roomWallsFor = roomsText(map);
}

// The open borders dashed on the overlay while setting.
function drawOpenWalls(svg) {
  if (mode !== "set") return;
  for (const key of openWalls()) {
    const [a, b] = key.split("|").map((p) => p.split(",").map(Number));
    shape("line", { ...borderLine(a, b), class: "open-wall" }, svg);
  }
}

function placesInit() {
  bel.frame.addEventListener("pointerdown", dragStart);
  bel.frame.addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragEnd);
  // a drag that drew borders or lines is no click on the cell where it ended
  bel.frame.addEventListener("click", (e) => { if (dragMoved) { e.stopPropagation(); e.preventDefault(); dragMoved = false; } }, true);
}
