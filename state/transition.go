package state

import "time"

// Transition is one change of a key's circuit state, as the breaker that
// made it tells it: to its log, to subscribers, to the actor system's
// EventStream, as a metric and as a span.
type Transition struct {
	Key      string
	From, To State
	// At is when the breaker changed state.
	At time.Time
	// Reason says why: one of the Reason constants.
	Reason Reason
	// Failures is the count of consecutive failures after the change.
	Failures int
	// Fresh is true for a trip from closed (not a forced open), false for a
	// re-trip from half-open.
	Fresh bool
	// OpenFor is, on a close, how long the circuit was not closed.
	OpenFor time.Duration
}
