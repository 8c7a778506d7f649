package actor

import "github.com/tripwire-go/tripwire/state"

// Withdraw is sent by a caller to its breaker when its context is cancelled:
// the call is dropped and counts neither way.
type Withdraw struct{ Call *Call }

// SnapshotRequest is sent by the registry to a breaker to read its state.
type SnapshotRequest struct{ Reply chan Snapshot }

// Control is sent by the registry to force a breaker open or closed, or to
// reset it (Event is state.ForceOpen, ForceClose or Reset); Reply gets the
// snapshot after the change.
type Control struct {
	Event state.EventKind
	Reply chan Snapshot
}

// Reconfigure is sent by the registry after Config.Update: the breaker takes
// the new rules from the next call on, keeping its state; Reply gets the
// snapshot after the change.
type Reconfigure struct{ Reply chan Snapshot }

// Crash is sent by the registry to make a breaker panic (fault injection).
type Crash struct{}

// recoveryTimer is sent by a breaker to itself OpenTimeout after opening.
type recoveryTimer struct{ Gen state.Gen }

// deadlineTick is sent by a breaker to itself at the earliest call deadline.
type deadlineTick struct {
	incarnation uint64
	seq         uint64
}

// idleCheck is sent by a breaker to itself to see whether it has been idle
// for IdleTimeout.
type idleCheck struct {
	incarnation uint64
	seq         uint64
}
