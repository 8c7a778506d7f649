package actor

import "github.com/tripwire-go/tripwire/state"

// Withdraw is sent by a caller to its breaker when its context is cancelled:
// the call is dropped and counts neither way.
type Withdraw struct{ Call *Call }

// SnapshotRequest is sent by the registry to a breaker to read its state.
type SnapshotRequest struct{ Reply chan Snapshot }

// Crash is sent by the registry to make a breaker panic (fault injection).
type Crash struct{}

// recoveryTimer is sent by a breaker to itself OpenTimeout after opening.
type recoveryTimer struct{ Gen state.Gen }

// deadlineTick is sent by a breaker to itself at the earliest call deadline.
type deadlineTick struct {
	incarnation uint64
	seq         uint64
}
