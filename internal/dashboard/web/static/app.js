// Tripwire dashboard: one tile per breaker, a timeline of transitions, both
// fed by the server-sent events of /api/events. No framework, no build step.
"use strict";

const SAMPLES = 60;        // sparkline points per tile (one per "breakers" event, 500 ms)
const TIMELINE_MAX = 200;  // transitions kept on the page
const STATE_LABEL = { closed: "closed", open: "open", half_open: "half-open" };

const tilesEl = document.getElementById("tiles");
const timelineEl = document.getElementById("timeline");
const emptyEl = document.getElementById("timeline-empty");
const template = document.getElementById("tile-template");
const tiles = new Map(); // key -> {el, fields, samples, row, retryDeadline, last}

// ---------- formatting ----------

function count(n) { return Number(n || 0).toLocaleString("en-US"); }

function millis(ms) {
  if (!ms) return "–";
  if (ms < 1) return ms.toFixed(2) + " ms";
  if (ms < 10) return ms.toFixed(1) + " ms";
  if (ms < 1000) return Math.round(ms) + " ms";
  return (ms / 1000).toFixed(2) + " s";
}

function seconds(ms) { return (Math.max(ms, 0) / 1000).toFixed(1) + " s"; }

function clock(iso) {
  const d = new Date(iso);
  const pad = (n, w) => String(n).padStart(w, "0");
  return pad(d.getHours(), 2) + ":" + pad(d.getMinutes(), 2) + ":" + pad(d.getSeconds(), 2) + "." + pad(d.getMilliseconds(), 3);
}

function ago(ms) {
  if (ms < 1000) return "just now";
  if (ms < 60000) return Math.floor(ms / 1000) + "s ago";
  return Math.floor(ms / 60000) + "m ago";
}

// ---------- tiles ----------

function tileFor(key) {
  let t = tiles.get(key);
  if (t) return t;
  const el = template.content.firstElementChild.cloneNode(true);
  el.dataset.key = key;
  el.querySelector(".key").textContent = key;
  const fields = {};
  el.querySelectorAll("[data-f]").forEach((f) => { fields[f.dataset.f] = f; });
  el.querySelectorAll("button[data-action]").forEach((b) => {
    b.addEventListener("click", () => act(key, b.dataset.action));
  });
  t = { el, fields, samples: [], row: null, retryDeadline: 0, last: null };
  tiles.set(key, t);
  return t;
}

// render shows row on its tile; sample adds its latencies to the sparkline.
function render(row, sample) {
  const t = tileFor(row.key);
  t.row = row;
  const el = t.el;
  if (el.dataset.state !== row.state) el.dataset.state = row.state;
  el.querySelector(".badge").textContent = STATE_LABEL[row.state] || row.state;
  for (const name of ["calls", "ok", "failed", "timeouts", "rejected", "inFlight", "failures", "restarts"]) {
    const text = count(row[name]);
    if (t.fields[name].textContent !== text) t.fields[name].textContent = text;
  }
  t.fields.p50Ms.textContent = millis(row.p50Ms);
  t.fields.p99Ms.textContent = millis(row.p99Ms);
  const dep = el.querySelector(".dep");
  dep.textContent = row.dependencyDown ? "dependency down" : "dependency up";
  dep.className = "dep " + (row.dependencyDown ? "down" : "up");
  t.retryDeadline = row.retryInMs ? performance.now() + row.retryInMs : 0;
  if (sample) {
    t.samples.push([row.p50Ms || 0, row.p99Ms || 0]);
    if (t.samples.length > SAMPLES) t.samples.shift();
    drawSpark(t);
  }
  note(t);
}

// note is the tile's one-line status: the retry countdown while open, the
// last transition otherwise.
function note(t) {
  const row = t.row;
  let text = "";
  if (row.error) {
    text = row.error;
  } else if (row.state === "open") {
    if (!row.retryAt) text = "forced open · until reset";
    else {
      const left = t.retryDeadline - performance.now();
      text = left > 0 ? "half-open in " + seconds(left) : "half-opening…";
    }
  } else if (row.state === "half_open") {
    text = "probing the dependency";
  } else if (t.last) {
    text = t.last.reason.replace(/_/g, " ") + " · " + ago(Date.now() - t.last.seen);
  } else {
    text = "healthy";
  }
  const el = t.el.querySelector(".note");
  if (el.textContent !== text) el.textContent = text;
}

function drawSpark(t) {
  const svg = t.el.querySelector(".spark");
  const s = t.samples;
  const top = Math.max(1, ...s.map((p) => p[1]));
  const W = 240, H = 44, pad = 2;
  const x = (i) => ((i + SAMPLES - s.length) * W) / (SAMPLES - 1); // newest at the right edge
  const y = (v) => H - pad - (v / top) * (H - 2 * pad);
  const pts = (k) => s.map((p, i) => x(i).toFixed(1) + "," + y(p[k]).toFixed(1)).join(" ");
  svg.querySelector(".line50").setAttribute("points", pts(0));
  svg.querySelector(".line99").setAttribute("points", pts(1));
  const area = s.length ? "M" + x(0).toFixed(1) + "," + H + " L" + pts(1).replace(/ /g, " L") + " L" + x(s.length - 1).toFixed(1) + "," + H + " Z" : "";
  svg.querySelector(".area").setAttribute("d", area);
  t.el.querySelector(".scale").textContent = "max " + millis(top);
}

function renderAll(rows) {
  const seen = new Set();
  let prev = null;
  const n = { closed: 0, half_open: 0, open: 0 };
  for (const row of rows) {
    seen.add(row.key);
    n[row.state] = (n[row.state] || 0) + 1;
    render(row, true);
    const el = tiles.get(row.key).el;
    const want = prev ? prev.nextSibling : tilesEl.firstChild;
    if (want !== el) tilesEl.insertBefore(el, want);
    prev = el;
  }
  for (const [key, t] of tiles) {
    if (!seen.has(key)) { t.el.remove(); tiles.delete(key); }
  }
  for (const s of Object.keys(n)) document.getElementById("n-" + s).textContent = n[s];
  document.body.dataset.ready = "true";
}

// ---------- timeline ----------

function timelineItem(tr, fresh) {
  const li = document.createElement("li");
  li.dataset.seq = tr.seq;
  li.dataset.key = tr.key;
  if (fresh) li.className = "new";
  const time = document.createElement("time");
  time.dateTime = tr.at;
  time.textContent = clock(tr.at);
  const what = document.createElement("span");
  const key = document.createElement("span");
  key.className = "tkey";
  key.textContent = tr.key;
  const from = document.createElement("span");
  from.className = "st " + tr.from;
  from.textContent = STATE_LABEL[tr.from] || tr.from;
  const to = document.createElement("span");
  to.className = "st " + tr.to;
  to.textContent = STATE_LABEL[tr.to] || tr.to;
  what.append(key, " ", from, " → ", to);
  const reason = document.createElement("span");
  reason.className = "reason";
  let r = tr.reason.replace(/_/g, " ");
  if (tr.failures) r += " · " + tr.failures + " failures";
  if (tr.openForMs) r += " · not closed for " + millis(tr.openForMs);
  reason.textContent = r;
  li.append(time, what, reason);
  return li;
}

function addTransition(tr, fresh) {
  timelineEl.prepend(timelineItem(tr, fresh));
  while (timelineEl.children.length > TIMELINE_MAX) timelineEl.lastChild.remove();
  emptyEl.hidden = true;
  const t = tiles.get(tr.key);
  if (t) {
    // a transition from the history happened at tr.at (same machine, same clock)
    t.last = { reason: tr.reason, seen: fresh ? Date.now() : Math.min(Date.now(), Date.parse(tr.at)) };
    if (fresh) {
      t.el.classList.remove("flash");
      void t.el.offsetWidth; // restart the animation
      t.el.classList.add("flash");
    }
  }
}

function setHistory(list) {
  timelineEl.replaceChildren();
  emptyEl.hidden = list.length > 0;
  for (const tr of list) addTransition(tr, false);
}

function addMissed(n) {
  const li = document.createElement("li");
  li.className = "missed";
  li.textContent = n + " transitions missed (the page fell behind)";
  timelineEl.prepend(li);
}

// ---------- actions ----------

let toastTimer = 0;
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 4000);
}

async function act(key, action) {
  const t = tiles.get(key);
  const buttons = t ? t.el.querySelectorAll("button") : [];
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const res = await fetch("/api/breakers/" + encodeURIComponent(key) + "/" + action, { method: "POST" });
    const body = await res.json().catch(() => ({ error: res.statusText }));
    if (!res.ok) throw new Error(body.error || res.statusText);
    render(body, false);
  } catch (err) {
    toast(action + " " + key + ": " + err.message);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

// ---------- live updates ----------

function setConn(state, text) {
  const el = document.getElementById("conn");
  el.dataset.conn = state;
  document.getElementById("conn-text").textContent = text;
}

// ended: the server said it was stopping ("end"); the page keeps the last
// state it showed and says so while the browser keeps trying to reconnect.
let ended = false;

function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("open", () => { ended = false; setConn("live", "live"); });
  es.addEventListener("error", () => {
    if (ended) setConn("ended", "server stopped · final state");
    else setConn(es.readyState === EventSource.CLOSED ? "down" : "connecting", "reconnecting");
  });
  es.addEventListener("end", () => { ended = true; setConn("ended", "server stopped · final state"); });
  es.addEventListener("history", (e) => setHistory(JSON.parse(e.data)));
  es.addEventListener("breakers", (e) => renderAll(JSON.parse(e.data)));
  es.addEventListener("transition", (e) => addTransition(JSON.parse(e.data), true));
  es.addEventListener("missed", (e) => addMissed(JSON.parse(e.data)));
}

setInterval(() => { for (const t of tiles.values()) if (t.row) note(t); }, 100);
connect();
