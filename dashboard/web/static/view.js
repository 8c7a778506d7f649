// The view a page shows — a key prefix, a state, how many keys — kept in
// the URL's fragment (#prefix=dep-&state=open&limit=200), so a reload or a
// link shows the same.
import * as timeline from "./timeline.js";

// What the API takes (filter.go): a prefix of at most 256 bytes, these
// states, a limit of 1 to 1000. A fragment edited by hand is brought within
// them, so the page shows what it can instead of a stream the server
// refuses.
const maxPrefix = 256;
const states = ["closed", "open", "half_open"];
const maxLimit = 1000;

export const view = read();
write();

function read() {
  const p = new URLSearchParams(location.hash.slice(1));
  const state = (p.get("state") || "").split(",").map((s) => s.trim()).filter((s) => states.includes(s));
  const n = Number(p.get("limit"));
  return {
    prefix: clip(p.get("prefix") || ""),
    state: [...new Set(state)].join(","),
    limit: Number.isInteger(n) && n > 0 ? Math.min(n, maxLimit) : 0,
  };
}

// clip is s cut to the longest start of it within maxPrefix bytes of UTF-8.
function clip(s) {
  const enc = new TextEncoder();
  if (enc.encode(s).length <= maxPrefix) return s;
  let out = "";
  for (const ch of s) {
    if (enc.encode(out + ch).length > maxPrefix) break;
    out += ch;
  }
  return out;
}

function write() {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(view)) if (v) p.set(k, v);
  history.replaceState(null, "", p.size ? "#" + p : location.pathname + location.search);
}

// query is the view as the event stream's query string.
export function query() {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(view)) if (v) p.set(k, v);
  return p.size ? "?" + p : "";
}

// controls wires the filter box, the summary's state pills, the
// timeline's keys and "show more" to the view; each change calls restart
// (at once, or once typing pauses). more returns the next limit.
export function controls(restart, more) {
  let pending = 0;
  const change = (fn, wait) => {
    fn();
    write();
    clearTimeout(pending);
    pending = setTimeout(restart, wait);
  };
  const filter = document.getElementById("filter");
  filter.value = view.prefix;
  filter.addEventListener("input", () => change(() => { view.prefix = clip(filter.value); }, 250));
  timeline.onKey((key) => change(() => { view.prefix = filter.value = key; }, 0));
  document.querySelectorAll(".pill[data-filter]").forEach((b) => {
    b.addEventListener("click", () => change(() => { view.state = view.state === b.dataset.filter ? "" : b.dataset.filter; }, 0));
  });
  document.getElementById("more").addEventListener("click", () => change(() => { view.limit = more(); }, 0));
}
