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
	// Reason says why: ReasonThreshold, ReasonProbeFailed, ReasonProbeTimeout,
	// ReasonOpenTimeout, ReasonProbeSucceeded or ReasonRestarted.
	Reason   string
	Failures int
	// Fresh is true for a trip from closed, false for a re-trip from half-open.
	Fresh bool
	// OpenFor is, on a close, how long the circuit was not closed.
	OpenFor time.Duration
}

// Reasons of a transition.
const (
	ReasonThreshold      = "threshold"       // closed -> open: consecutive failures reached the threshold
	ReasonProbeFailed    = "probe_failed"    // half_open -> open: the probe failed
	ReasonProbeTimeout   = "probe_timeout"   // half_open -> open: the probe timed out
	ReasonOpenTimeout    = "open_timeout"    // open -> half_open: the recovery timer fired
	ReasonProbeSucceeded = "probe_succeeded" // half_open -> closed
	ReasonRestarted      = "restarted"       // open or half_open -> closed: the breaker crashed and restarted
)

// Listener is told what breakers do, after the fact. Its methods are called
// on a breaker's or the supervisor's turn and must only hand off: never block,
// never call back into the registry.
type Listener interface {
	Transitioned(Transition)
	Restarted(key string, panicValue any)
}

func reasonFor(from, to state.State, timedOut bool) string {
	switch {
	case to == state.Open && from == state.Closed:
		return ReasonThreshold
	case to == state.Open && timedOut:
		return ReasonProbeTimeout
	case to == state.Open:
		return ReasonProbeFailed
	case to == state.HalfOpen:
		return ReasonOpenTimeout
	default:
		return ReasonProbeSucceeded
	}
}
