package tripwire

import tactor "github.com/tripwire-go/tripwire/actor"

// Transition is one change of a key's circuit state, delivered to
// Subscribe callbacks and published as *Transition on the actor system's
// EventStream. Reason is one of the Reason constants; Fresh tells a trip from
// closed apart from a re-trip after a failed probe; OpenFor is set on a close
// after a probe: how long the circuit was not closed.
type Transition = tactor.Transition

// Reasons of a transition.
const (
	ReasonThreshold      = tactor.ReasonThreshold
	ReasonProbeFailed    = tactor.ReasonProbeFailed
	ReasonProbeTimeout   = tactor.ReasonProbeTimeout
	ReasonOpenTimeout    = tactor.ReasonOpenTimeout
	ReasonProbeSucceeded = tactor.ReasonProbeSucceeded
	ReasonRestarted      = tactor.ReasonRestarted
	ReasonFailureRate    = tactor.ReasonFailureRate
	ReasonTargetDown     = tactor.ReasonTargetDown
	ReasonForcedOpen     = tactor.ReasonForcedOpen
	ReasonForcedClosed   = tactor.ReasonForcedClosed
	ReasonReset          = tactor.ReasonReset
	ReasonUpdated        = tactor.ReasonUpdated
)

// Subscribe calls fn with every later transition of every key, in the order
// each breaker made them (per key; keys interleave), after the fact, on a
// goroutine of its own — never inside a breaker's turn or under a lock. A
// subscriber that falls more than 1024 transitions behind misses further ones
// until it catches up; each miss is counted in a Warn log line ("subscriber
// falling behind"). A panic in fn is logged and the subscription goes on.
// The returned func ends the subscription; a delivery already under way may
// still finish. A nil fn, or a registry shut down, gets a subscription that
// delivers nothing.
func (r *Registry) Subscribe(fn func(Transition)) (unsubscribe func()) {
	return r.hub.Subscribe(fn)
}
