package tripwire

import "github.com/tripwire-go/tripwire/state"

// State is the position of a circuit. Its String is "closed", "open" or
// "half_open".
type State = state.State

// The three circuit states.
const (
	Closed   = state.Closed
	Open     = state.Open
	HalfOpen = state.HalfOpen
)
