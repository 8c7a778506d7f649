package state

import "time"

// EventKind says what happened to a circuit.
type EventKind uint8

const (
	// Admit is a call asking to be forwarded.
	Admit EventKind = iota + 1
	// Succeeded is the outcome of a forwarded call that counts as a success
	// (unless it took longer than Settings.SlowCall).
	Succeeded
	// Failed is the outcome of a forwarded call that counts as a failure
	// (an error, a panic, a timeout, a dead target).
	Failed
	// Ignored is the end of a forwarded call that counts neither way, such as
	// a call withdrawn by its caller. It frees a half-open probe permit.
	Ignored
	// TimerFired is the recovery timer of an open circuit going off.
	TimerFired
	// ForceOpen opens the circuit until Reset or ForceClose; no timer runs.
	ForceOpen
	// ForceClose closes the circuit until Reset: it forwards every call and
	// still counts, but never trips.
	ForceClose
	// Reset closes the circuit, clears every count and ends a forced mode.
	Reset
	// TargetDown opens the circuit at once: the target is known to be dead.
	TargetDown
	// ProbeNow half-opens an open circuit at once, as if its recovery timer
	// had fired: something outside knows the dependency may be back (a
	// cluster moved the grain, an operator). A forced-open circuit, or one
	// not open, is left as it is.
	ProbeNow
)

// Event is one input to Apply. Gen is the generation the call was admitted in
// (for outcomes) or the timer was started in (for TimerFired); other kinds
// ignore it.
type Event struct {
	Kind EventKind
	Gen  Gen
	// Duration is how long the call took (outcomes), for SlowCall.
	Duration time.Duration
	// Timeout marks an outcome that is a call's deadline passing: Failed,
	// or Ignored when the call's target never started (its owner had no
	// core for it in time).
	Timeout bool
	// Rand, in [0,1), picks the backoff jitter if this event opens the circuit.
	Rand float64
}
