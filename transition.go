package tripwire

import "github.com/tripwire-go/tripwire/state"

// Transition is one change of a key's circuit state, delivered to
// Subscribe callbacks and published as *Transition on the actor system's
// EventStream. Reason is one of the Reason constants; Fresh tells a trip from
// closed apart from a re-trip after a failed probe; OpenFor is set on every
// move to closed but a restart's (a probe's success, ForceClose, Reset):
// how long the circuit was not closed.
type Transition = state.Transition

// Reasons of a transition.
const (
	ReasonThreshold      = state.ReasonThreshold
	ReasonProbeFailed    = state.ReasonProbeFailed
	ReasonProbeTimeout   = state.ReasonProbeTimeout
	ReasonOpenTimeout    = state.ReasonOpenTimeout
	ReasonProbeSucceeded = state.ReasonProbeSucceeded
	ReasonRestarted      = state.ReasonRestarted
	ReasonFailureRate    = state.ReasonFailureRate
	ReasonTargetDown     = state.ReasonTargetDown
	ReasonForcedOpen     = state.ReasonForcedOpen
	ReasonForcedClosed   = state.ReasonForcedClosed
	ReasonReset          = state.ReasonReset
	ReasonUpdated        = state.ReasonUpdated
	ReasonProbeNow       = state.ReasonProbeNow
)

// Subscribe calls fn with every later transition of every key, in the order
// each breaker made them (per key; keys interleave), after the fact, on a
// goroutine of its own — never inside a breaker's turn or under a lock. A
// subscriber that falls more than 1024 transitions behind misses further ones
// until it catches up; Warn log lines report the misses: the first and
// every 1024th of a run ("subscriber falling behind"), and the run's total
// when it catches up ("subscriber caught up"). By the time fn hears of a transition, callers of the key
// see it (or a later one): a call that fn makes on hearing "closed" does not
// get the ErrOpen of the period that ended. A panic in fn is logged and the
// subscription goes on.
// The returned func ends the subscription, also while Shutdown delivers
// what is queued; it does not wait: a delivery already under way, or that
// the subscriber's goroutine is starting at that moment, may still run to
// its end. A nil fn, a registry shut down, or a nil one, gets a
// subscription that delivers nothing.
func (r *Registry) Subscribe(fn func(Transition)) (unsubscribe func()) {
	if r.unusable() {
		return func() {}
	}
	return r.hub.Subscribe(fn)
}
