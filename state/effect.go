package state

import "time"

// EffectKind says what the owner of a circuit must do after a Step.
type EffectKind uint8

const (
	// Forward: hand the admitted call to a worker, tagged with Effect.Gen.
	Forward EffectKind = iota + 1
	// Reject: answer the call with "circuit open" at once.
	Reject
	// StartTimer: start the recovery timer; after Effect.After deliver a
	// TimerFired event tagged with Effect.Gen. Any earlier timer is obsolete.
	StartTimer
	// Transition: the circuit moved from Effect.From to Effect.To for
	// Effect.Reason. A manual operation (force, reset) is a transition even
	// when From equals To.
	Transition
)

// Reasons of a Transition.
const (
	ReasonThreshold      = "threshold"       // closed -> open: consecutive failures reached Threshold
	ReasonFailureRate    = "failure_rate"    // closed -> open: the window's failure rate reached FailureRate
	ReasonProbeFailed    = "probe_failed"    // half_open -> open
	ReasonProbeTimeout   = "probe_timeout"   // half_open -> open
	ReasonOpenTimeout    = "open_timeout"    // open -> half_open: the recovery timer fired
	ReasonProbeSucceeded = "probe_succeeded" // half_open -> closed: every probe succeeded
	ReasonTargetDown     = "target_down"     // -> open: the target is dead
	ReasonForcedOpen     = "forced_open"     // -> open until reset
	ReasonForcedClosed   = "forced_closed"   // -> closed until reset
	ReasonReset          = "reset"           // -> closed, counts cleared
)

// Effect is one instruction produced by Step.
type Effect struct {
	Kind   EffectKind
	Gen    Gen
	After  time.Duration
	From   State
	To     State
	Reason string
}
