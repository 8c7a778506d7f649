package tripwire

import "github.com/tripwire-go/tripwire/state"

// Subscribe calls fn with every later transition of every key (a
// state.Transition, which the actor system's EventStream carries too, as a
// *state.Transition), in the order
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
func (r *Registry) Subscribe(fn func(state.Transition)) (unsubscribe func()) {
	if r.unusable() {
		return func() {}
	}
	return r.hub.Subscribe(fn)
}
