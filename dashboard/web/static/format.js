// Formatting of the figures a page shows.

export const STATE_LABEL = { closed: "closed", open: "open", half_open: "half-open" };

// SEVERITY_RANK orders tiles worst first, as the server does.
export const SEVERITY_RANK = { open: 4, half_open: 3, forced: 2, failing: 1, healthy: 0 };

// count is n with thousands separators; a formatter made once, as
// toLocaleString would make one per call (tens of µs each).
const grouped = new Intl.NumberFormat("en-US");
export function count(n) { return n < 1000 ? String(n || 0) : grouped.format(n); }

// rate is a figure per second in at most four characters and a unit.
export function rate(x) {
  if (!x) return "0";
  if (x >= 1e6) return (x / 1e6).toFixed(1) + "M";
  if (x >= 1e4) return Math.round(x / 1e3) + "k";
  if (x >= 1e3) return (x / 1e3).toFixed(1) + "k";
  if (x >= 100) return String(Math.round(x));
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

export function percent(x) { return (x || 0).toFixed(x >= 10 || !x ? 0 : 1) + "%"; }

export function millis(ms) {
  if (!ms) return "–";
  if (ms < 1) return ms.toFixed(2) + " ms";
  if (ms < 10) return ms.toFixed(1) + " ms";
  if (ms < 1000) return Math.round(ms) + " ms";
  return (ms / 1000).toFixed(2) + " s";
}

// span is a duration as a person reads it: 4.2 s, 12 s, 3 m 20 s, 2 h 5 m.
export function span(ms) {
  const s = Math.max(ms, 0) / 1000;
  if (s < 10) return s.toFixed(1) + " s";
  if (s < 60) return Math.floor(s) + " s";
  if (s < 3600) return Math.floor(s / 60) + " m " + Math.floor(s % 60) + " s";
  if (s < 86400) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " m";
  return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
}

export function clock(iso) {
  const d = new Date(iso);
  const pad = (n, w) => String(n).padStart(w, "0");
  return pad(d.getHours(), 2) + ":" + pad(d.getMinutes(), 2) + ":" + pad(d.getSeconds(), 2) + "." + pad(d.getMilliseconds(), 3);
}

export function reason(r) { return r ? r.replace(/_/g, " ") : ""; }

// serverNow is the server's clock, as the last event said it was.
let offset = 0;
export function syncClock(iso) { if (iso) offset = Date.parse(iso) - Date.now(); }
export function serverNow() { return Date.now() + offset; }
