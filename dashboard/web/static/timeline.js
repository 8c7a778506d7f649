// The timeline of transitions, newest first, restarts included.
import { STATE_LABEL, clock, millis, reason } from "./format.js";

const MAX = 200; // transitions kept on the page
const list = document.getElementById("timeline");
const empty = document.getElementById("timeline-empty");
let pick = () => {};

// onKey sets what a click on a transition's key does.
export function onKey(fn) { pick = fn; }

function item(tr, fresh) {
  const li = document.createElement("li");
  li.dataset.seq = tr.seq;
  li.dataset.key = tr.key;
  li.className = (fresh ? "new " : "") + (tr.reason === "restarted" ? "restart" : "");
  const time = document.createElement("time");
  time.dateTime = tr.at;
  time.textContent = clock(tr.at);
  const what = document.createElement("span");
  const key = document.createElement("button");
  key.type = "button";
  key.className = "tkey";
  key.textContent = tr.key;
  key.addEventListener("click", () => pick(tr.key));
  const st = (s) => {
    const e = document.createElement("span");
    e.className = "st " + s;
    e.textContent = STATE_LABEL[s] || s;
    return e;
  };
  what.append(key, " ", st(tr.from), " → ", st(tr.to));
  const why = document.createElement("span");
  why.className = "reason";
  let text = reason(tr.reason);
  if (tr.failures) text += " · " + tr.failures + " failures";
  if (tr.open_for_ms) text += " · not closed for " + millis(tr.open_for_ms);
  why.textContent = text;
  li.append(time, what, why);
  return li;
}

export function add(tr, fresh) {
  list.prepend(item(tr, fresh));
  while (list.children.length > MAX) list.lastChild.remove();
  empty.hidden = true;
}

export function history(all) {
  list.replaceChildren();
  empty.hidden = all.length > 0;
  for (const tr of all) add(tr, false);
}

export function missed(n) {
  const li = document.createElement("li");
  li.className = "missed";
  li.textContent = n + " transitions missed (the page fell behind)";
  list.prepend(li);
}
