package state

import "time"

// EffectKind says what the owner of a circuit must do after an Apply.
type EffectKind uint8

const (
	// Forward: hand the admitted call to a worker, tagged with Effect.Gen.
	Forward EffectKind = iota + 1
	// Reject: answer the call with "circuit open" at once.
	Reject
	// StartTimer: start the recovery timer; after Effect.After deliver a
	// TimerFired event tagged with Effect.Gen. Any earlier timer is obsolete.
	StartTimer
	// Moved: the circuit moved from Effect.From to Effect.To for
	// Effect.Reason (a Transition to announce). A manual operation (force,
	// reset) moves it even when From equals To.
	Moved
)

// Effect is one instruction produced by Apply.
type Effect struct {
	Kind   EffectKind
	Gen    Gen
	After  time.Duration
	From   State
	To     State
	Reason Reason
}
