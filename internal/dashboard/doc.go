// Package dashboard is the HTTP face of `tripwire serve`: a live page of a
// registry's breakers driven by a load (a Source: the built-in demo
// dependency, or a soak run with `tripwire serve -soak`), a JSON API to read
// them and to force, reset or crash one, a server-sent event stream of their
// transitions, and the registry's OpenTelemetry metrics in Prometheus
// format.
//
//	GET  /                                the dashboard page (embedded, no build step)
//	GET  /api/breakers                    every breaker, as JSON rows
//	GET  /api/breakers/{key}              one breaker
//	POST /api/breakers/{key}/{action}     force-open, force-close, reset or crash
//	GET  /api/transitions                 the recent transitions, newest last
//	GET  /api/events                      server-sent events: history, transition, breakers, missed, end
//	GET  /metrics                         Prometheus text format
//
// Errors are JSON, {"error": "..."}: 400 for a key that is not valid, 404 for
// an unknown key, action or path, 405 for a wrong method, 503 once the
// registry has shut down.
package dashboard
