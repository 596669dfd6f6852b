// gridlang serve: the page. Plain JavaScript over the server's JSON API (docs/api.md, "HTTP").
"use strict";

const $ = (id) => document.getElementById(id);
const el = {
  genre: $("genre"), bundled: $("bundled"), spec: $("spec"), gutter: $("gutter"), puzzle: $("puzzle"), screenshot: $("screenshot"),
  params: $("params"), noParams: $("no-params"), backend: $("backend"), timeLimit: $("time-limit"),
  solve: $("solve"), unique: $("unique"), stop: $("stop"), error: $("error"), status: $("status"), note: $("note"),
  answer: $("answer"), second: $("second"), secondFigure: $("second-figure"), output: $("output"), share: $("share"),
  stepper: $("stepper"), prevStep: $("prev-step"), nextStep: $("next-step"), stepCount: $("step-count"),
  stepText: $("step-text"),
};
const TOOLS = { forced: $("forced"), explain: $("explain"), hint: $("hint") };

let bundledText = "";      // the text of the bundled spec last loaded: an unedited editor sends its name
let info = null;           // the spec's puzzle, parameters and tiles (/api/spec-info)
let job = null;            // the running job's id
let events = null;         // its progress stream
let last = null;           // the last answer: {json, svg, png, ...}
let busyRetry = null;
let steps = [];            // the hint's steps: {svg, text}
let step = 0;

// ------------------------------------------------------------ requests

function specRequest() {
  const name = el.bundled.value;
  if (name && el.spec.value === bundledText) return { bundled: name };
  if (!el.spec.value.trim()) return {};
  return { spec: el.spec.value };
}

function paramValues() {
  const out = {};
  for (const input of el.params.querySelectorAll("input[data-param]")) {
    if (input.value.trim() !== "") out[input.dataset.param] = input.value.trim();
  }
  return out;
}

function solveRequest(unique) {
  const body = { ...specRequest(), puzzle: el.puzzle.value, params: paramValues(), backend: el.backend.value,
                 unique: !!unique };
  const seconds = parseFloat(el.timeLimit.value);
  if (seconds > 0) body.time_limit = seconds;
  return body;
}

async function postJSON(url, body) {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// ------------------------------------------------------------ the spec

function renderGutter(errorLine) {
  const count = Math.max(1, el.spec.value.split("\n").length);
  const lines = [];
  for (let i = 1; i <= count; i++) {
    lines.push(`<span data-line="${i}"${i === errorLine ? ' class="error"' : ""}>${i}</span>`);
  }
  el.gutter.innerHTML = lines.join("");
  el.gutter.scrollTop = el.spec.scrollTop;
}

// An error in the page's words: a parameter is given in its box here, not as --NAME on a command line.
function pageWords(text) {
  return (text || "").replace(/give --([A-Za-z_][A-Za-z0-9_-]*) VALUE/g, "give $1 a value under Parameters");
}

function showError(record) {
  el.error.textContent = pageWords(record.error);
  const located = (record.errors || []).find((e) => e.file === "<spec>" && e.line);
  renderGutter(located ? located.line : null);
  if (located) placeCaret(located.line, located.column || 1);
}

function clearError() {
  el.error.textContent = "";
  renderGutter(null);
}

function placeCaret(line, column) {
  const lines = el.spec.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, column - 1);
  el.spec.setSelectionRange(at, at);
}

let bundledLoads = 0;      // loadBundled's calls so far: the answer of one overtaken by a later call is dropped
async function loadBundled(name, keepText) {
  if (!name) return;
  const ticket = ++bundledLoads;
  const r = await fetch(`/api/specs/${encodeURIComponent(name)}`);
  if (ticket !== bundledLoads) return;  // the start page's spec, answering after a genre chosen since
  if (!r.ok) { showError(await r.json()); return; }
  const spec = await r.json();
  if (ticket !== bundledLoads) return;
  bundledText = spec.text;
  if (!keepText) el.spec.value = spec.text;
  clearError();
  setInfo(spec);
}

let describeTimer = null;
function describeSoon() {
  clearTimeout(describeTimer);
  describeTimer = setTimeout(describe, 400);
}

async function describe() {
  const request = specRequest();
  if (request.bundled) return loadBundled(request.bundled, true);
  if (!request.spec) { setInfo(null); return; }
  const r = await postJSON("/api/spec-info", { spec: request.spec });
  const data = await r.json();
  if (!r.ok) { showError(data); return; }
  clearError();
  setInfo(data);
}

function setInfo(data) {
  info = data;
  const kept = paramValues();
  for (const p of el.params.querySelectorAll(".param")) p.remove();
  const params = data ? data.params : [];
  el.noParams.hidden = params.length > 0;
  for (const p of params) {
    const wrap = document.createElement("span");
    wrap.className = "param";
    const label = document.createElement("label");
    label.htmlFor = `param-${p.name}`;
    label.textContent = p.name;
    const input = document.createElement("input");
    input.id = `param-${p.name}`;
    input.dataset.param = p.name;
    input.placeholder = p.default === null || p.default === undefined ? p.type : `${p.default}`;
    input.addEventListener("input", () => { updateShare(); paramEdited(); });
    if (kept[p.name] !== undefined) input.value = kept[p.name];
    wrap.append(label, input);
    el.params.append(wrap);
  }
  boardSoon();
  updateShare();
}

// ------------------------------------------------------------ a genre picked by typing its name

let genreNames = [];       // [name typed, spec]: each spec's file name, English name and puzz.link names

function genreList(specs) {
  const list = document.getElementById("genres");
  genreNames = [];
  for (const s of specs) {
    for (const name of new Set([s.name, s.puzzle, ...(s.genres || [])])) {
      if (!name) continue;
      genreNames.push([name, s.name]);
      const option = document.createElement("option");
      option.value = name;
      if (name !== s.name) option.label = `${name} (${s.name})`;
      list.append(option);
    }
  }
}

function pickGenre() {
  const typed = el.genre.value.trim().toLowerCase();
  const note = document.getElementById("genre-note");
  if (!typed) { note.textContent = ""; return; }
  const squash = (t) => t.toLowerCase().replace(/[^a-z0-9]/g, "");
  const found = genreNames.find(([name]) => name.toLowerCase() === typed)
    || genreNames.find(([name]) => squash(name) === squash(typed))
    || genreNames.find(([name]) => squash(name).startsWith(squash(typed)));
  if (!found) { note.textContent = `No bundled spec is called ${el.genre.value.trim()}.`; return; }
  note.textContent = "";
  if (el.bundled.value === found[1] && el.spec.value === bundledText) return;
  el.bundled.value = found[1];
  loadBundled(found[1], false).then(updateShare);
}

// ------------------------------------------------------------ solving

function running(on) {
  el.solve.disabled = on;
  el.unique.disabled = on;
  el.stop.disabled = !on;
  for (const b of Object.values(TOOLS)) b.disabled = on;
}

async function start(unique) {
  clearTimeout(busyRetry);
  clearError();
  el.note.textContent = "";
  el.status.textContent = "sending";
  running(true);
  const r = await postJSON("/api/jobs", solveRequest(unique));
  if (r.status === 503) {
    const wait = parseInt(r.headers.get("Retry-After") || "2", 10);
    el.status.textContent = `the server is busy; trying again in ${wait} s`;
    busyRetry = setTimeout(() => start(unique), wait * 1000);
    return;
  }
  const data = await r.json();
  if (!r.ok) { failed(data); return; }
  follow(data.id);
}

function follow(id) {
  job = id;
  events = new EventSource(`/api/jobs/${id}/events`);
  events.addEventListener("progress", (e) => progress(JSON.parse(e.data)));
  events.addEventListener("result", (e) => { finish(); answered(JSON.parse(e.data)); });
  events.addEventListener("failed", (e) => { finish(); failed(JSON.parse(e.data)); });
  events.onerror = () => {
    if (events && events.readyState === EventSource.CLOSED) { finish(); el.status.textContent = "the server went away"; }
  };
}

function finish() {
  if (events) events.close();
  events = null;
  job = null;
  running(false);
}

function progress(p) {
  if (p.state === "queued") {
    el.status.textContent = `waiting for a worker (${p.position || 1} in the queue)`;
    return;
  }
  let text = `${p.phase || "starting"}: ${p.elapsed.toFixed(1)} s`;
  if (p.best !== undefined && p.best !== null) text += `, best so far ${p.best}`;
  else if (p.best === null) text += ", an answer found";
  if (p.stopped) text += " (stopping)";
  el.status.textContent = text;
}

function inlineSvg(svg) { return svg ? svg.replace(/^<\?xml[^>]*>\s*/, "") : ""; }

function answered(d) {
  last = d;
  followSpec(d.json.spec);
  el.status.textContent = d.status_line;
  showSteps([]);
  el.answer.innerHTML = inlineSvg(d.svg);
  el.output.textContent = d.text;
  const notes = [];
  if (d.json.interrupted) notes.push("stopped: the answer shown is the best found before Stop");
  if (d.json.unique === true) notes.push("unique: the answer is the only one (proved)");
  if (d.json.unique === false) notes.push(`not unique: a second answer exists; ${d.json.differ.length} cells differ`);
  if (d.json.unique === null && d.json.solutions_found !== undefined) notes.push("unique: not settled in time");
  el.note.textContent = notes.join("; ");
  if (d.second_svg) {
    el.second.innerHTML = inlineSvg(d.second_svg);
    el.secondFigure.hidden = false;
  } else {
    el.second.innerHTML = "";
    el.secondFigure.hidden = true;
  }
  for (const b of document.querySelectorAll("[data-download]")) b.disabled = !d.svg && b.dataset.download !== "json";
}

// A URL of another genre than the chosen bundled spec's is read with its genre's spec: show that one.
function followSpec(spec) {
  const used = (spec || "").match(/^puzzles\/(.+)\.grid$/);
  if (used && el.bundled.value && used[1] !== el.bundled.value && el.spec.value === bundledText) {
    el.bundled.value = used[1];
    loadBundled(used[1], false);
  }
}

function failed(d) {
  running(false);
  showError(d);
  el.status.textContent = d.status === 499 ? "dropped" : "error";
  // The answer shown belonged to the inputs before: it goes, and so do its downloads.
  last = null;
  showSteps([]);
  el.answer.innerHTML = "";
  el.output.textContent = "";
  el.note.textContent = "";
  el.second.innerHTML = "";
  el.secondFigure.hidden = true;
  for (const b of document.querySelectorAll("[data-download]")) b.disabled = true;
}

async function stop() {
  if (job) await fetch(`/api/jobs/${job}/stop`, { method: "POST" });
}

async function runTool(name) {
  clearError();
  running(true);
  el.status.textContent = `${name}: working`;
  showSteps([]);
  try {
    const r = await postJSON(`/api/tools/${name}`, solveRequest(false));
    const d = await r.json();
    if (!r.ok) { failed(d); return; }
    el.status.textContent = `${name}: done`;
    if (d.svg) el.answer.innerHTML = inlineSvg(d.svg);
    el.output.textContent = d.text || "";
    if (d.steps && d.steps.length) showSteps(d.steps);
    const instances = name === "explain" && d.json && d.json.explanation ? d.json.explanation : [];
    outlineOnBoard(instances.flatMap((i) => i.cells || []));  // the cells of the rules that cannot hold
  } finally {
    running(false);
  }
}

// The hint's steps, one at a time: each drawn in the Answer picture, its rules in words.
function showSteps(list) {
  steps = list;
  step = 0;
  el.stepper.hidden = !steps.length;
  if (steps.length) showStep(0);
}

function showStep(k) {
  step = Math.max(0, Math.min(steps.length - 1, k));
  el.answer.innerHTML = inlineSvg(steps[step].svg);
  el.stepText.textContent = steps[step].text;
  el.stepCount.textContent = `Step ${step + 1} of ${steps.length}`;
  el.prevStep.disabled = step === 0;
  el.nextStep.disabled = step === steps.length - 1;
}

// ------------------------------------------------------------ screenshot

async function readScreenshot() {
  const file = el.screenshot.files[0];
  if (!file) return;
  clearError();
  el.status.textContent = `reading ${file.name}`;
  const puzzle = info && info.puzzle ? info.puzzle : "";
  const r = await fetch(`/api/screenshot?puzzle=${encodeURIComponent(puzzle)}&name=${encodeURIComponent(file.name)}`,
                        { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
  const d = await r.json();
  if (!r.ok) { showError(d); el.status.textContent = "error"; return; }
  el.puzzle.value = d.map;
  el.status.textContent = `read the map off ${file.name}`;
  boardSoon();
  updateShare();
}

// ------------------------------------------------------------ share link and downloads

function state() {
  return { ...specRequest(), p: el.puzzle.value, v: paramValues(), k: el.backend.value, t: el.timeLimit.value,
           ...boardState() };
}

function encodeState(s) {
  const bytes = new TextEncoder().encode(JSON.stringify(s));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeState(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

// The share link, and the page's own address: a reload gives back the board as it stands.
function updateShare() {
  el.share.href = `${location.pathname}#s=${encodeState(state())}`;
  try {
    history.replaceState(null, "", el.share.href);
  } catch (e) {
    // an address longer than the browser keeps: the Share link still holds the state
  }
}

async function restore() {
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (!m) return false;
  let s;
  try { s = decodeState(m[1]); } catch (e) { return false; }
  if (s.bundled) {
    el.bundled.value = s.bundled;
    await loadBundled(s.bundled, false);
  } else {
    el.bundled.value = "";
    bundledText = "";
    el.spec.value = s.spec || "";
    await describe();
  }
  el.puzzle.value = s.p || "";
  el.backend.value = s.k || "auto";
  if (s.t) el.timeLimit.value = s.t;
  for (const [name, value] of Object.entries(s.v || {})) {
    const input = document.getElementById(`param-${name}`);
    if (input) input.value = value;
  }
  restoreBoard(s);
  renderGutter(null);
  boardSoon();
  updateShare();
  return true;
}

function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function stem() {
  const request = specRequest();
  return request.bundled || "puzzle";
}

function download(kind) {
  if (!last) return;
  if (kind === "svg") save(new Blob([last.svg], { type: "image/svg+xml" }), `${stem()}.svg`);
  if (kind === "json") save(new Blob([JSON.stringify(last.json, null, 1)], { type: "application/json" }), `${stem()}.json`);
  if (kind === "png") {
    const bytes = Uint8Array.from(atob(last.png), (c) => c.charCodeAt(0));
    save(new Blob([bytes], { type: "image/png" }), `${stem()}.png`);
  }
}

async function exportModel(format) {
  clearError();
  const r = await postJSON(`/api/export?format=${format}`, solveRequest(false));
  if (!r.ok) { showError(await r.json()); return; }
  const disposition = r.headers.get("Content-Disposition") || "";
  const name = (disposition.match(/filename="([^"]+)"/) || [null, `model.${format}`])[1];
  save(await r.blob(), name);
}

// ------------------------------------------------------------ start

async function init() {
  el.spec.addEventListener("input", () => {
    if (el.bundled.value && el.spec.value !== bundledText) el.bundled.value = "";
    renderGutter(null);
    describeSoon();
    updateShare();
  });
  el.spec.addEventListener("scroll", () => { el.gutter.scrollTop = el.spec.scrollTop; });
  el.bundled.addEventListener("change", () => { loadBundled(el.bundled.value, false).then(updateShare); });
  el.genre.addEventListener("change", pickGenre);
  el.puzzle.addEventListener("input", () => { setterTyped(); boardSoon(); updateShare(); });
  el.backend.addEventListener("change", updateShare);
  el.timeLimit.addEventListener("input", updateShare);
  el.screenshot.addEventListener("change", readScreenshot);
  el.solve.addEventListener("click", () => start(false));
  el.unique.addEventListener("click", () => start(true));
  el.stop.addEventListener("click", stop);
  el.prevStep.addEventListener("click", () => showStep(step - 1));
  el.nextStep.addEventListener("click", () => showStep(step + 1));
  boardInit();
  for (const b of document.querySelectorAll("[data-download]")) b.addEventListener("click", () => download(b.dataset.download));
  for (const b of document.querySelectorAll("[data-export]")) b.addEventListener("click", () => exportModel(b.dataset.export));
  for (const [name, button] of Object.entries(TOOLS)) button.addEventListener("click", () => runTool(name));
  window.addEventListener("hashchange", restore);

  const [specs, features] = await Promise.all([fetch("/api/specs").then((r) => r.json()),
                                               fetch("/api/features").then((r) => r.json())]);
  for (const s of specs.specs) {
    const option = document.createElement("option");
    option.value = s.name;
    option.textContent = s.puzzle ? `${s.name} (${s.puzzle})` : s.name;
    el.bundled.append(option);
  }
  genreList(specs.specs);
  for (const [name, present] of Object.entries(features)) if (TOOLS[name]) TOOLS[name].hidden = !present;
  if (!(await restore())) {
    el.bundled.value = "horse";
    await loadBundled("horse", false);
  }
  renderGutter(null);
  updateShare();
  document.body.dataset.ready = "true";
}

init();
