// The control buttons: only when the server says this page may use them.
// The actions that change what the key's callers get — force open, force
// close, crash — ask first; reset and probe do not (they hand the key back
// to its policies).
import { toast } from "./toast.js";

const LABEL = {
  "force-open": "Force open", "force-close": "Force close", reset: "Reset",
  "probe-now": "Probe", crash: "Crash",
};

// ASK is what each action that asks first says it does.
const ASK = {
  "force-open": "every call is rejected until a reset",
  "force-close": "every call goes to the target, failing or not, until a reset",
  crash: "its breaker panics and restarts closed (fault injection)",
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
  delete footer.dataset.asking;
  for (const a of actions) {
    const b = button(LABEL[a] || a, a.replace("-", " ") + " " + key);
    b.dataset.action = a;
    if (ASK[a]) b.className = "danger";
    b.addEventListener("click", () => (ASK[a] ? ask(footer, key, a) : act(footer, key, a)));
    footer.append(b);
  }
}

function button(text, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.title = title;
  return b;
}

// ask puts the question in place of the buttons: the action is done only
// once it is confirmed.
function ask(footer, key, action) {
  const q = document.createElement("span");
  q.className = "ask";
  q.textContent = LABEL[action] + " " + key + "? " + ASK[action][0].toUpperCase() + ASK[action].slice(1) + ".";
  const yes = button(LABEL[action], "yes: " + action.replace("-", " ") + " " + key);
  yes.className = "danger";
  yes.dataset.confirm = action;
  yes.addEventListener("click", () => { buttons(footer, key); act(footer, key, action); });
  const no = button("Cancel", "leave " + key + " as it is");
  no.dataset.cancel = action;
  no.addEventListener("click", () => buttons(footer, key));
  footer.dataset.asking = action;
  footer.replaceChildren(q, yes, no);
  no.focus();
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
