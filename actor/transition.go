package actor

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// Transition is one change of a breaker's circuit state.
type Transition struct {
	Key      string
	From, To state.State
	At       time.Time
	// Reason says why: one of the Reason constants.
	Reason   string
	Failures int
	// Fresh is true for a trip from closed, false for a re-trip from half-open.
	Fresh bool
	// OpenFor is, on a close, how long the circuit was not closed.
	OpenFor time.Duration
}

// Reasons of a transition: the state package's, and a restart.
const (
	ReasonThreshold      = state.ReasonThreshold
	ReasonFailureRate    = state.ReasonFailureRate
	ReasonProbeFailed    = state.ReasonProbeFailed
	ReasonProbeTimeout   = state.ReasonProbeTimeout
	ReasonOpenTimeout    = state.ReasonOpenTimeout
	ReasonProbeSucceeded = state.ReasonProbeSucceeded
	ReasonTargetDown     = state.ReasonTargetDown
	ReasonForcedOpen     = state.ReasonForcedOpen
	ReasonForcedClosed   = state.ReasonForcedClosed
	ReasonReset          = state.ReasonReset
	ReasonRestarted      = "restarted" // -> closed: the breaker crashed and restarted
	ReasonUpdated        = "updated"   // unchanged state: Update gave the breaker new settings
)

// Listener is told what breakers do, after the fact. Its methods are called
// on a breaker's or the supervisor's turn and must only hand off: never block,
// never call back into the registry.
type Listener interface {
	Transitioned(Transition)
	Restarted(key string, panicValue any)
}
