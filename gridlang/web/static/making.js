// gridlang serve: Generate. A new puzzle of the spec's genre is made on the server as `gridlang generate`
// makes it (POST /api/jobs/generate), with the clue positions' symmetry and, when one is asked for, a
// level of difficulty (its hints graded; the seeds after the one given are tried until a puzzle has
// that level, else the nearest is given). Each stage the server reports is shown as it comes; Stop
// keeps the best map made so far (what is not proved of it said in a sentence), Cancel drops the job.
// Uses board.js's bel and edited, app.js's el, specRequest and paramValues.
"use strict";

let generateJob = null;      // {id, events: EventSource}

async function generate() {
  const rows = Math.min(30, Math.max(1, parseInt(bel.rows.value, 10) || 5));
  const cols = Math.min(30, Math.max(1, parseInt(bel.cols.value, 10) || 5));
  const seed = Math.max(0, parseInt(bel.seed.value, 10) || 0);
  const body = { ...specRequest(), rows, cols, seed, params: paramValues(), symmetry: bel.symmetry.value,
                 difficulty: bel.difficulty.value || null };
  const seconds = parseFloat(el.timeLimit.value);
  if (seconds > 0) body.time_limit = seconds;
  generating(true);
  const what = `a ${rows}x${cols} puzzle${body.difficulty ? ` (${body.difficulty})` : ""}`;
  bel.generating.textContent = `generating ${what}`;
  const r = await fetch("/api/jobs/generate", { method: "POST", headers: { "Content-Type": "application/json" },
                                                 body: JSON.stringify(body) });
  const d = await r.json();
  if (!r.ok) { generating(false); bel.generating.textContent = (d.error || "").split("\n")[0]; return; }
  const events = new EventSource(d.events);
  generateJob = { id: d.id, events };
  events.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    const at = `${(p.elapsed || 0).toFixed(0)} s`;
    if (p.state === "queued") bel.generating.textContent = `waiting for a worker (${p.position || 1} in the queue)`;
    else bel.generating.textContent = `generating ${what}: ${at}${p.stage ? `, ${p.stage}` : ""}${p.stopped ? " (stopping)" : ""}`;
  });
  events.addEventListener("result", (e) => { generated(JSON.parse(e.data)); });
  events.addEventListener("failed", (e) => {
    generating(false);
    bel.generating.textContent = (JSON.parse(e.data).error || "").split("\n")[0];
  });
  events.onerror = () => {
    if (generateJob && generateJob.events.readyState === EventSource.CLOSED) {
      generating(false);
      bel.generating.textContent = "the server went away";
    }
  };
}

// A puzzle made: on the board, with what it is (its clues, seed, level) and what it is not (a note).
function generated(d) {
  generating(false);
  setterStep();
  el.puzzle.value = d.map;
  const level = d.level ? `, ${d.level} (difficulty ${d.difficulty})` : "";
  const made = d.complete
    ? `made in ${d.seconds.toFixed(1)} s: ${d.clues} clues, seed ${d.seed}, unique${level}`
    : `stopped after ${d.seconds.toFixed(1)} s`;
  bel.generating.textContent = d.note ? `${made}; ${d.note}` : made;
  edited();
}

function generating(on) {
  if (!on && generateJob) { generateJob.events.close(); generateJob = null; }
  bel.generate.disabled = on;
  bel.cancelGenerate.hidden = !on;
  bel.stopGenerate.hidden = !on;
}

// Cancel: the job is dropped, the puzzle on the board stays.
async function cancelGenerate() {
  const job = generateJob;
  generating(false);
  bel.generating.textContent = "cancelled";
  if (job) await fetch(`/api/jobs/${job.id}`, { method: "DELETE" });
}

// Stop: the job ends now and gives the best map it has made.
async function stopGenerate() {
  if (generateJob) await fetch(`/api/jobs/${generateJob.id}/stop`, { method: "POST" });
}
