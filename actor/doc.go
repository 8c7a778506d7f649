// Package actor is Tripwire's control plane: one breaker actor per key.
//
// The breaker owns a state.Circuit, the table of calls in flight, the
// recovery timer and the deadline of every call. It never blocks: a forwarded
// call goes to the task package (a pool worker for a function target, an Ask
// for an actor target) and its Completion comes back as a message. The breaker
// replies to each caller exactly once — with the outcome, with ErrOpen, with
// ErrTimeout when the deadline passes first, or with ErrBreakerRestarted /
// ErrShutdown when the breaker itself goes away.
//
// The state callers may read without a message (the published circuit state,
// the restart count) lives in a Cell that outlives breaker incarnations; the
// breaker actor is its only writer.
//
// Each breaker has a Mailbox of its own. Callers post their Call straight into
// it, and its turns run on the poster's goroutine (at most 64 before the rest
// moves to a goroutine of its own); a Call carries its own reply channel, on
// which its caller alone waits. When the breaker stops for good the mailbox
// closes and bounces every Call it never took back to its caller, who then
// follows the key to its next breaker: a call is never lost in dead letters.
// A Call of an actor target, once answered from its ask, is referred to by
// nothing but its caller and may be Reset and reused.
package actor
