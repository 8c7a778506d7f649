package actor

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

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
