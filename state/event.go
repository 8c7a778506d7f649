package state

// EventKind says what happened to a circuit.
type EventKind uint8

const (
	// Admit is a call asking to be forwarded.
	Admit EventKind = iota + 1
	// Succeeded is the outcome of a forwarded call that counts as a success.
	Succeeded
	// Failed is the outcome of a forwarded call that counts as a failure
	// (an error, a panic, a timeout, a dead target).
	Failed
	// Ignored is the end of a forwarded call that counts neither way, such as
	// a call withdrawn by its caller. It frees a half-open probe permit.
	Ignored
	// TimerFired is the recovery timer of an open circuit going off.
	TimerFired
)

// Event is one input to Step. Gen is the generation the call was admitted in
// (for outcomes) or the timer was started in (for TimerFired); Admit ignores it.
type Event struct {
	Kind EventKind
	Gen  Gen
}
