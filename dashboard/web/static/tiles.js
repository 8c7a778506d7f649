// The tiles: one per key shown, worst first then by key, each patched in
// place when its row changes. Nothing is redrawn that did not change.
import { STATE_LABEL, SEVERITY_RANK, count, rate, percent, millis, span, reason, serverNow } from "./format.js";
import { buttons } from "./control.js";

const container = document.getElementById("tiles");
const template = document.getElementById("tile-template");
const tiles = new Map(); // key -> {el, f: fields, text: what each shows, row, since}
let unordered = false;   // a tile came, went or changed severity since the last sort

function make(key) {
  const el = template.content.firstElementChild.cloneNode(true);
  el.dataset.key = key;
  el.querySelector(".key").textContent = key;
  const f = {
    badge: el.querySelector(".badge"), forced: el.querySelector(".force-badge"),
    note: el.querySelector(".note"), since: el.querySelector(".since"),
    ok: el.querySelector(".mix .ok"), bad: el.querySelector(".mix .bad"), rej: el.querySelector(".mix .rej"),
  };
  el.querySelectorAll("[data-f]").forEach((d) => { f[d.dataset.f] = d; });
  // each field's text node, written in place: cheaper than textContent
  for (const name of Object.keys(f)) {
    if (!f[name].firstChild) f[name].append("");
    f[name] = { el: f[name], text: f[name].firstChild };
  }
  buttons(el.querySelector(".actions"), key);
  return { el, f, text: {}, row: null, since: 0, retry: 0 };
}

function set(t, name, text) {
  if (t.text[name] !== text) { t.text[name] = text; t.f[name].text.data = text; }
}

function attr(el, name, value) { if (el.dataset[name] !== value) el.dataset[name] = value; }

// apply shows row on its tile, made if the key had none.
export function apply(row) {
  let t = tiles.get(row.key);
  if (!t) {
    t = make(row.key);
    tiles.set(row.key, t);
    container.append(t.el);
    unordered = true;
  } else if (t.row.severity !== row.severity) {
    unordered = true;
  }
  if (!t.row || t.row.since !== row.since) t.since = row.since ? Date.parse(row.since) : 0;
  if (!t.row || t.row.retry_at !== row.retry_at) t.retry = row.retry_at ? Date.parse(row.retry_at) : 0;
  t.row = row;
  paint(t);
}

function paint(t) {
  const r = t.row, l = r.latency || {};
  attr(t.el, "state", r.state);
  attr(t.el, "severity", r.severity);
  set(t, "badge", STATE_LABEL[r.state] || r.state);
  const forced = r.forced && r.forced !== "not_forced" ? "forced" : "";
  set(t, "forced", forced);
  if (t.f.forced.el.hidden !== !forced) t.f.forced.el.hidden = !forced;
  set(t, "rate", rate(r.calls_per_second));
  set(t, "err", percent(r.error_percent));
  set(t, "rej", rate(r.rejected_per_second));
  set(t, "inflight", count(r.in_flight));
  set(t, "p50", millis(l.p50_ms));
  set(t, "p90", millis(l.p90_ms));
  set(t, "p99", millis(l.p99_ms));
  set(t, "restarts", count(r.restarts));
  attr(t.el, "stale", l.stale ? "true" : "false");
  attr(t.el, "erring", r.error_percent > 0 ? "true" : "false");
  attr(t.el, "rejecting", r.rejected_per_second > 0 ? "true" : "false");
  mix(t, r.recent || {});
  note(t);
}

// mix sizes the bar of the window's calls: ok, failed, rejected.
function mix(t, c) {
  const rej = (c.rejected || 0) + (c.overloaded || 0);
  const all = (c.successes || 0) + (c.failures || 0) + rej;
  const w = (n) => (all ? (100 * n) / all : 0).toFixed(1) + "%";
  const key = all ? w(c.successes) + w(c.failures) + w(rej) : "";
  if (t.text.mix === key) return;
  t.text.mix = key;
  t.f.ok.el.style.width = w(c.successes || 0);
  t.f.bad.el.style.width = w(c.failures || 0);
  t.f.rej.el.style.width = w(rej);
}

// note writes the texts that count with time: the countdown while open,
// the reason, the time in state.
function note(t) {
  const r = t.row, now = serverNow();
  let text;
  if (r.asleep) text = "asleep (idle)";
  else if (r.state === "open" && r.forced === "forced_open") text = "forced open · until reset";
  else if (r.state === "open" && t.retry) text = t.retry > now ? "half-open in " + span(t.retry - now) : "half-opening…";
  else if (r.state === "open") text = reason(r.reason);
  else if (r.state === "half_open") text = "probing · " + reason(r.reason);
  else if (r.severity === "failing") text = "failing" + (r.reason ? " · " + reason(r.reason) : "");
  else text = reason(r.reason) || "healthy";
  set(t, "note", text);
  set(t, "since", t.since ? "for " + span(now - t.since) : "");
}

export function remove(key) {
  const t = tiles.get(key);
  if (t) { t.el.remove(); tiles.delete(key); }
}

// reset shows exactly rows.
export function reset(rows) {
  const keep = new Set(rows.map((r) => r.key));
  for (const key of [...tiles.keys()]) if (!keep.has(key)) remove(key);
  for (const r of rows) apply(r);
  unordered = true;
}

// transition shows a change of state at once, before the next row.
export function transition(tr) {
  const t = tiles.get(tr.key);
  if (!t) return;
  const r = { ...t.row, state: tr.to, reason: tr.reason, since: tr.at };
  if (tr.reason === "forced_open") r.forced = "forced_open";
  else if (tr.reason === "forced_closed") r.forced = "forced_closed";
  else if (tr.reason === "reset" || tr.reason === "restarted") r.forced = "not_forced";
  if (tr.reason === "restarted") r.restarts = (r.restarts || 0) + 1;
  r.retry_at = ""; // the next row says when it half-opens
  r.severity = tr.to !== "closed" ? tr.to : r.forced === "forced_closed" ? "forced" : r.severity === "failing" ? "failing" : "healthy";
  apply(r);
  t.el.classList.remove("flash");
  void t.el.offsetWidth; // restart the animation
  t.el.classList.add("flash");
}

// reorder puts the tiles worst first, then by key, moving only those out
// of place.
export function reorder() {
  if (!unordered) return;
  unordered = false;
  const sorted = [...tiles.values()].sort((a, b) =>
    SEVERITY_RANK[b.row.severity] - SEVERITY_RANK[a.row.severity] || (a.row.key < b.row.key ? -1 : a.row.key > b.row.key ? 1 : 0));
  let prev = null;
  for (const t of sorted) {
    const want = prev ? prev.nextSibling : container.firstChild;
    if (want !== t.el) container.insertBefore(t.el, want);
    prev = t.el;
  }
}

export function size() { return tiles.size; }

// tick rewrites the texts that count with time: every second for all, more
// often for the countdowns.
export function tick(all) {
  for (const t of tiles.values()) if (all || (t.row.state === "open" && t.retry)) note(t);
}
