package actor

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// Snapshot is one breaker's state at a moment, as the breaker itself reports
// it (tripwire.Snapshot).
type Snapshot struct {
	Key      string
	State    state.State
	Failures int // consecutive failures
	OpenedAt time.Time
	RetryAt  time.Time // when an open circuit half-opens
	InFlight int       // calls forwarded and not yet answered
	Restarts int       // crash-restarts of the key's breaker
}
