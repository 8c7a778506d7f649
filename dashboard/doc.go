// Package dashboard is a live dashboard of a Tripwire registry as an
// http.Handler to mount in your own server: a page of the keys worst first
// (state with its reason and time in state, forced mode, request rate and
// error percent over the statistics window, latency percentiles,
// rejections, restarts) and a timeline of every transition, restarts
// included; a JSON API of the same figures; a server-sent event stream of
// what changes; and, with WithMetrics, your /metrics.
//
// Every figure is the breaker's own statistics (tripwire.Snapshot). The
// handler is read-only unless WithControl gives it an authorization hook;
// then the page shows the control buttons to the requests the hook
// accepts, and asks before it forces a circuit; crash, a fault injection,
// is offered only WithCrash. See docs/dashboard.md.
//
//	GET  /                                       the page (embedded, no build step, relative links)
//	GET  /api/info                               Info: title, control for this request, limits
//	GET  /api/breakers?prefix=&state=&limit=     List: summary, matched, the worst rows
//	GET  /api/breakers/{key}                     one Row, with the registry's own snapshot
//	POST /api/breakers/{key}/{action}            force-open, force-close, reset, probe-now (WithControl); crash (WithCrash)
//	GET  /api/transitions?prefix=&state=&limit=  the last 200 transitions (those picked), oldest first
//	GET  /api/events?prefix=&state=&limit=       server-sent events: hello, rows, history, transitions, missed, end
//	GET  /metrics                                WithMetrics's handler
//
// Errors are JSON, {"error": "..."}: 400 for an invalid key or query, 403
// for a POST without WithControl, refused by its hook, from another origin,
// or a crash without WithCrash, 404 for an unknown key, action or path,
// 405 for a wrong method (with Allow), 503 once the registry has shut down
// or the handler closed.
//
// An update costs what is shown, not the registry's size: a stream asks
// only the breakers of the keys it shows (up to 1,000), the keys in
// trouble are followed from the transitions, and the key list is read by
// a census that takes at most a fiftieth of the time.
package dashboard
