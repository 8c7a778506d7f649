// Package demo is the built-in dependency and load driver behind the
// tripwire command's demo and serve: keys whose dependency fails in a chosen
// pattern, callers that call them, and per-key statistics of what the
// callers saw (counts, latency quantiles).
package demo
