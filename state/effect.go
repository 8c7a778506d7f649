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
	// Transition: the circuit moved from Effect.From to Effect.To.
	Transition
)

// Effect is one instruction produced by Step.
type Effect struct {
	Kind  EffectKind
	Gen   Gen
	After time.Duration
	From  State
	To    State
}
