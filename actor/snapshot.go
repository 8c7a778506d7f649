package actor

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// Snapshot is a breaker's state as it answered a SnapshotRequest.
type Snapshot struct {
	State    state.State
	Failures int
	OpenedAt time.Time
	RetryAt  time.Time
	InFlight int
	Restarts int
}
