package actor

import "github.com/tripwire-go/tripwire/state"

// withdrawal is posted by a caller to its key's mailbox when its context is
// cancelled: the call is dropped and counts neither way.
type withdrawal struct{ Call *Call }

// Report is a breaker's answer to a request of the registry: its snapshot
// after the request, or (Err) why the key has no breaker to answer it.
type Report struct {
	Snapshot Snapshot
	Err      error
}

// SnapshotRequest is posted by the registry to read a breaker's state.
type SnapshotRequest struct{ Reply chan Report }

// Control is posted by the registry to force a breaker open or closed, or to
// reset it (Event is state.ForceOpen, ForceClose or Reset); Reply gets the
// snapshot after the change.
type Control struct {
	Event state.EventKind
	Reply chan Report
}

// Reconfigure is posted by the registry after Config.Update: the breaker
// takes the new rules from the next call on, keeping its state; Reply gets
// the snapshot after the change.
type Reconfigure struct{ Reply chan Report }

// refuse answers the request for a key that has no breaker any more.
func (m *SnapshotRequest) refuse(why error) { m.Reply <- Report{Err: why} }

// refuse answers the request for a key that has no breaker any more.
func (m *Control) refuse(why error) { m.Reply <- Report{Err: why} }

// refuse answers the request for a key that has no breaker any more.
func (m *Reconfigure) refuse(why error) { m.Reply <- Report{Err: why} }

// Crash is posted by the registry to make a breaker panic (fault injection).
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
	drain       bool // a check of the statistics' window (see armDrain), not of IdleTimeout
}
