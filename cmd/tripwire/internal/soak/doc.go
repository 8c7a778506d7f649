// Package soak runs Tripwire under real-time load and chaos and says whether
// it kept its promises: many callers on many keys against fault-injecting
// targets (tripwiretest) while breakers are crashed at random, then a Report of
// what happened and, from it, the invariants that were violated: every call
// answered exactly once and in time, tallies that add up, workers that follow
// the load, every crash restarted, and no goroutine left after Shutdown.
//
// "In time" is judged by when Tripwire sent an answer where the build knows
// it (the tag tripwire_sendhook, package internal/sendhook), else by when
// its caller had it; either way less the time the process was not run at
// all (the stall probes).
//
// Its own TestLoad and TestHotKey run it inside `go test` (small in `make test`, big in
// `make soak`); `tripwire soak` runs it from the command line, and
// `tripwire serve -soak` shows it on the dashboard (Config.Watch, Live).
package soak
