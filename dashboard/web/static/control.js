// The control buttons: only when the server says this page may use them.
import { toast } from "./toast.js";

const LABEL = {
  "force-open": "Force open", "force-close": "Force close", reset: "Reset",
  "probe-now": "Probe", crash: "Crash",
};

let actions = [];
let onRow = () => {};

// allow sets the actions the server allows (none: read-only), and what to
// do with the row an action answers.
export function allow(list, apply) { actions = list || []; onRow = apply; }

// buttons fills a tile's footer, if there are actions.
export function buttons(footer, key) {
  footer.replaceChildren();
  footer.hidden = actions.length === 0;
  for (const a of actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = a;
    b.textContent = LABEL[a] || a;
    b.title = a.replace("-", " ") + " " + key;
    if (a === "crash") b.className = "danger";
    b.addEventListener("click", () => act(footer, key, a));
    footer.append(b);
  }
}

async function act(footer, key, action) {
  const all = footer.querySelectorAll("button");
  all.forEach((b) => { b.disabled = true; });
  try {
    const res = await fetch("api/breakers/" + encodeURIComponent(key) + "/" + action, { method: "POST" });
    const body = await res.json().catch(() => ({ error: res.statusText }));
    if (!res.ok) throw new Error(body.error || res.statusText);
    onRow(body);
  } catch (err) {
    toast(action + " " + key + ": " + err.message);
  } finally {
    all.forEach((b) => { b.disabled = false; });
  }
}
