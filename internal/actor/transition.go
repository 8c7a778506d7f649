package actor

import "github.com/tripwire-go/tripwire/state"

// Listener is told what breakers do, after the fact. Its methods are called
// on a breaker's or the supervisor's turn and must only hand off: never block,
// never call back into the registry.
type Listener interface {
	Transitioned(state.Transition)
	Restarted(key string, panicValue any)
}
