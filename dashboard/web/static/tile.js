// One tile: made from the page's template, patched in place. Each field
// keeps the text it shows, so only what changed is written.
import { STATE_LABEL, count, rate, percent, millis, span, reason, serverNow } from "./format.js";
import { buttons } from "./control.js";

const template = document.getElementById("tile-template");

export function make(key) {
  const el = template.content.firstElementChild.cloneNode(true);
  el.dataset.key = key;
  el.querySelector(".key").textContent = key;
  const f = {
    badge: el.querySelector(".badge"), forced: el.querySelector(".force-badge"),
    note: el.querySelector(".note"), since: el.querySelector(".since"),
    mixOk: el.querySelector(".mix .ok"), mixBad: el.querySelector(".mix .bad"), mixRej: el.querySelector(".mix .rej"),
  };
  // the figures, by their data-f (names apart from the bar's above)
  el.querySelectorAll("[data-f]").forEach((d) => { f[d.dataset.f] = d; });
  // each field's text node, written in place: cheaper than textContent
  for (const name of Object.keys(f)) {
    if (!f[name].firstChild) f[name].append("");
    f[name] = { el: f[name], text: f[name].firstChild };
  }
  buttons(el.querySelector(".actions"), key);
  return { el, f, text: {}, row: null, since: 0, retry: 0, down: 0 };
}

function set(t, name, text) {
  if (t.text[name] !== text) { t.text[name] = text; t.f[name].text.data = text; }
}

function attr(el, name, value) { if (el.dataset[name] !== value) el.dataset[name] = value; }

export function paint(t) {
  const r = t.row, l = r.latency || {};
  attr(t.el, "state", r.state);
  attr(t.el, "severity", r.severity);
  set(t, "badge", STATE_LABEL[r.state] || r.state);
  const forced = r.forced && r.forced !== "not_forced" ? "forced" : "";
  set(t, "forced", forced);
  if (t.f.forced.el.hidden !== !forced) t.f.forced.el.hidden = !forced;
  set(t, "rate", rate(r.calls_per_second));
  // no call with a verdict (an open circuit that only rejects): no error percent, not 0 %
  set(t, "err", r.verdicts ? percent(r.error_percent) : "–");
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
  t.f.mixOk.el.style.width = w(c.successes || 0);
  t.f.mixBad.el.style.width = w(c.failures || 0);
  t.f.mixRej.el.style.width = w(rej);
}

// note writes the texts that count with time: the countdown while open,
// the reason, the time in state — or, while not closed, how long the
// outage has lasted (from when the circuit left closed, not from its last
// re-open; "≥" if the server did not see it begin).
export function note(t) {
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
  let since = t.since ? "for " + span(now - t.since) : "";
  if (r.state !== "closed" && t.down) since = "down for " + (r.down_at_least ? "≥ " : "") + span(now - t.down);
  set(t, "since", since);
}

