// The view a page shows — a key prefix, a state, how many keys — kept in
// the URL's fragment (#prefix=dep-&state=open&limit=200), so a reload or a
// link shows the same.
import * as timeline from "./timeline.js";

export const view = read();

function read() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { prefix: p.get("prefix") || "", state: p.get("state") || "", limit: Number(p.get("limit")) || 0 };
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
  filter.addEventListener("input", () => change(() => { view.prefix = filter.value; }, 250));
  timeline.onKey((key) => change(() => { view.prefix = filter.value = key; }, 0));
  document.querySelectorAll(".pill[data-filter]").forEach((b) => {
    b.addEventListener("click", () => change(() => { view.state = view.state === b.dataset.filter ? "" : b.dataset.filter; }, 0));
  });
  document.getElementById("more").addEventListener("click", () => change(() => { view.limit = more(); }, 0));
}
