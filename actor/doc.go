// Package actor is Tripwire's control plane: one breaker actor per key.
//
// The breaker owns a state.Circuit, the table of calls in flight, the
// recovery timer and the deadline of every call. It never blocks: a forwarded
// call goes to the task package (a pool worker for a function target, an Ask
// for an actor target) and its Outcome comes back as a message. The breaker
// replies to each caller exactly once — with the outcome, with ErrOpen, with
// ErrTimeout when the deadline passes first, or with ErrBreakerRestarted /
// ErrShutdown when the breaker itself goes away.
//
// The state callers may read without a message (the published circuit state,
// the restart count) lives in a Cell that outlives breaker incarnations; the
// breaker actor is its only writer.
package actor
