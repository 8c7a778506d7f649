// Package state is the pure circuit-breaker state machine of Tripwire.
//
// A Circuit is a value. Apply takes an Event and the current time, moves the
// circuit to its next state and returns the Effects the caller must carry out
// (forward the call, reject it, start the recovery timer, announce a
// transition). The
// package has no goroutines, reads no clock, logs nothing and knows nothing of
// actors, so every rule of the breaker is testable with plain tables.
//
// Every circuit carries a Gen: the breaker incarnation and the number of
// transitions it has made. A call is admitted in a generation and its outcome
// changes the circuit only while that generation is current; a recovery timer
// is tagged the same way, so stale timers and late outcomes never change state.
package state
