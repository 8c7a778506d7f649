package tripwire

import "github.com/tripwire-go/tripwire/state"

// State is the position of a circuit. Its String is "closed", "open" or
// "half_open".
type State = state.State

// The three circuit states.
const (
	Closed   = state.Closed
	Open     = state.Open
	HalfOpen = state.HalfOpen
)

// Window is a failure-rate trip policy: over the last Size calls (a count
// window, Size <= 1024), or the calls of the last Period in Buckets
// (a time window, Buckets <= 60, default 10), the circuit opens once at least
// MinCalls were recorded and the share of failures reaches FailureRate
// (default 0.5). Set Size or Period, not both.
type Window = state.Window

// Backoff multiplies the open time by Multiplier (0 or >= 1) for each
// re-open since the last close, caps it at Max (0: no cap), and spreads it
// by ±Jitter (0..1) of itself, never beyond Max. A close resets it.
type Backoff = state.Backoff

// Verdict is how a call's result counts, as Settings.Classify says.
type Verdict = state.Verdict

// The verdicts a Classify func returns.
const (
	Success = state.Success
	Failure = state.Failure
	Ignore  = state.Ignore
)
