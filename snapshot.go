package tripwire

import tactor "github.com/tripwire-go/tripwire/actor"

// Snapshot is one breaker's state at a moment, as the breaker itself reports
// it: State, consecutive Failures, OpenedAt and RetryAt (when an open circuit
// half-opens), InFlight (calls forwarded and not yet answered) and Restarts
// (crash-restarts of the key's breaker).
type Snapshot = tactor.Snapshot
