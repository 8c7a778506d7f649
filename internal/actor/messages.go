package actor

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

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
// reset it (state.ForceOpen, ForceClose, Reset); Reply gets the snapshot after.
type Control struct {
	Event state.EventKind
	Reply chan Report
}

// Reconfigure is posted by the registry after Config.Update: the breaker
// takes the new rules, keeping its state; Reply gets the snapshot after.
type Reconfigure struct{ Reply chan Report }

// refuse answers a request for a key that has no breaker any more.
func (m *SnapshotRequest) refuse(why error) { m.Reply <- Report{Err: why} }
func (m *Control) refuse(why error)         { m.Reply <- Report{Err: why} }
func (m *Reconfigure) refuse(why error)     { m.Reply <- Report{Err: why} }

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

// timer is a message a breaker sends itself after a while, tagged for the
// incarnation that armed it: a mailbox with no breaker running drops it, so
// a stale timer never wakes a passivated key.
type timer interface{ ownTimer() }

func (*recoveryTimer) ownTimer() {}
func (*deadlineTick) ownTimer()  {}
func (*idleCheck) ownTimer()     {}

// after posts msg to the key's mailbox (whichever actor serves the key by
// then) after d, unless the returned func stops it first.
func (b *breaker) after(d time.Duration, msg timer) (stop func() bool) {
	mb := &b.cfg.Mailbox
	return time.AfterFunc(d, func() { mb.PostUserMessage(msg) }).Stop
}

// Snapshot is one breaker's state at a moment, as the breaker itself reports
// it (tripwire.Snapshot has the fields' meanings).
type Snapshot struct {
	Key            string
	State          state.State
	Forced         state.Force
	Reason         state.Reason // of the transition into State (ReasonNone for none since start)
	Since          time.Time    // when the circuit entered State
	Failures       int          // consecutive failures, for every policy
	Reopens        int          // re-opens since the last close
	WindowCalls    int          // the calls the failure-rate window holds (0 without one)
	WindowFailures int
	FailureRate    float64 // WindowFailures / WindowCalls
	OpenedAt       time.Time
	RetryAt        time.Time // when an open circuit half-opens
	InFlight       int       // calls forwarded and not yet answered
	Restarts       int       // crash-restarts of the key's breaker
	Passivated     bool      // no breaker runs: the key sleeps (IdleTimeout)
	Stats          state.Stats
	Rules          *Rules // the settings in force
}
