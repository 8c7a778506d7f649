// Tripwire dashboard: the tiles of the keys shown, worst first, and the
// timeline, fed by the server-sent events of api/events. Every URL is
// relative, so the page works wherever the handler is mounted. No
// framework, no build step.
import { count, syncClock } from "./format.js";
import * as tiles from "./tiles.js";
import * as timeline from "./timeline.js";
import { allow } from "./control.js";
import { view, query, controls } from "./view.js";

let info = { max_limit: 1000, limit: 100 };
let es = null;
let ended = false; // the server said it stopped: the page keeps its last state

// perf keeps how long the last updates took, for the browser test: the
// handler's own time, and until the next frame was drawn.
const perf = { frames: [] };
window.tripwirePerf = perf;

function onRows(e) {
  const t0 = performance.now();
  const f = JSON.parse(e.data);
  syncClock(f.at);
  if (f.reset) tiles.reset(f.rows);
  else {
    for (const r of f.rows) tiles.apply(r);
    for (const k of f.removed || []) tiles.remove(k);
  }
  tiles.reorder();
  summary(f.summary, f.matched);
  document.body.dataset.ready = "true";
  const t1 = performance.now();
  requestAnimationFrame(() => setTimeout(() => {
    perf.frames.push({ rows: f.rows.length, reset: !!f.reset, handler: t1 - t0, frame: performance.now() - t0 });
    if (perf.frames.length > 1000) perf.frames.shift();
  }, 0));
}

function summary(s, matched) {
  for (const [id, n] of [["keys", s.keys], ["open", s.open], ["half_open", s.half_open], ["forced", s.forced],
    ["failing", s.failing], ["closed", s.closed]]) {
    const el = document.getElementById("n-" + id);
    const text = count(n);
    if (el.textContent !== text) el.textContent = text;
  }
  const shown = tiles.size();
  const what = view.prefix || view.state ? " matching" : "";
  document.getElementById("shown").textContent = "showing " + count(shown) + " of " + count(matched) + what + " keys, worst first";
  document.getElementById("more").hidden = shown >= matched || limit() >= info.max_limit;
}

function limit() { return view.limit || info.limit; }

function setConn(state, text) {
  document.getElementById("conn").dataset.conn = state;
  document.getElementById("conn-text").textContent = text;
}

function connect() {
  if (es) es.close();
  ended = false;
  es = new EventSource("api/events" + query());
  es.addEventListener("open", () => setConn("live", "live"));
  es.addEventListener("error", () => {
    if (ended) setConn("ended", "server stopped · final state");
    else setConn(es.readyState === EventSource.CLOSED ? "down" : "connecting", "reconnecting");
  });
  es.addEventListener("hello", (e) => hello(JSON.parse(e.data)));
  es.addEventListener("rows", onRows);
  es.addEventListener("history", (e) => timeline.history(JSON.parse(e.data)));
  es.addEventListener("transitions", (e) => {
    for (const tr of JSON.parse(e.data)) { timeline.add(tr, true); tiles.transition(tr); }
    tiles.reorder();
  });
  es.addEventListener("missed", (e) => timeline.missed(JSON.parse(e.data)));
  es.addEventListener("end", () => { ended = true; setConn("ended", "server stopped · final state"); });
}

function hello(i) {
  info = i;
  document.title = i.title;
  document.getElementById("title").textContent = i.title;
  document.getElementById("metrics-link").hidden = !i.metrics;
  allow(i.control ? i.actions : [], (row) => { tiles.apply(row); tiles.reorder(); });
  document.body.dataset.control = i.control ? "true" : "false";
}

controls(connect, () => Math.min(limit() + info.limit, info.max_limit));
setInterval(() => tiles.tick(true), 1000);
setInterval(() => tiles.tick(false), 200);
connect();
