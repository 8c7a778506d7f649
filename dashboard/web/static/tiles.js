// The tiles: one per key shown, worst first then by key, each patched in
// place when its row changes. Nothing is redrawn that did not change.
import { SEVERITY_RANK } from "./format.js";
import { make, paint, note } from "./tile.js";

const container = document.getElementById("tiles");
const tiles = new Map(); // key -> tile (tile.js)
let unordered = false;   // a tile came, went or changed severity since the last sort

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
  if (!t.row || t.row.down_since !== row.down_since) t.down = row.down_since ? Date.parse(row.down_since) : 0;
  t.row = row;
  paint(t);
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
  // an outage begins when the circuit leaves closed, and ends when it closes
  if (tr.from === "closed" && tr.to !== "closed") { r.down_since = tr.at; r.down_at_least = false; }
  else if (tr.to === "closed") { r.down_since = ""; r.down_at_least = false; }
  r.severity = tr.to !== "closed" ? tr.to : r.forced === "forced_closed" ? "forced" : r.severity === "failing" ? "failing" : "healthy";
  apply(r);
  // a flash of its new colour, without forcing a layout as restarting a
  // CSS animation would
  t.el.animate([{ boxShadow: "0 0 0 3px var(--state)" }, { boxShadow: "0 0 0 0 transparent" }],
    { duration: 800, easing: "ease-out" });
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
