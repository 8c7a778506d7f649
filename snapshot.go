package tripwire

import "time"

// Snapshot is one breaker's state at a moment.
type Snapshot struct {
	Key      string
	State    State
	Failures int // consecutive failures
	OpenedAt time.Time
	RetryAt  time.Time // when an open circuit half-opens
	InFlight int       // calls forwarded and not yet answered
	Restarts int       // crash-restarts of the key's breaker
}
