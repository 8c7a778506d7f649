package state

import "time"

// The rolling window of a breaker's statistics: StatsBuckets buckets of
// StatsWindow/StatsBuckets each, on the breaker's monotonic clock.
const (
	StatsWindow  = 10 * time.Second
	StatsBuckets = 10
)

// Counts are a key's calls by how they ended. Calls is the sum of the
// others but Timeouts, which are a part of Failures.
type Counts struct {
	Calls      uint64 `json:"calls"`
	Successes  uint64 `json:"successes"`
	Failures   uint64 `json:"failures"` // Timeouts and slow calls included
	Timeouts   uint64 `json:"timeouts"` // failures because the deadline passed
	Rejected   uint64 `json:"rejected"` // ErrOpen: open, or half-open with its probes out
	Overloaded uint64 `json:"overloaded"`
	Ignored    uint64 `json:"ignored"` // the classifier said Ignore
	// Canceled: the caller gave up before an outcome, or the deadline
	// passed before the target was asked (while the call waited in the
	// breaker's mailbox, or for a worker to start a function target).
	Canceled uint64 `json:"canceled"`
}

// Latency summarizes how long the calls the target ran took, from their
// admission to their outcome: percentiles within 12.5% (a histogram of
// quarter-octave bins), Max exact.
type Latency struct {
	Calls uint64        `json:"calls"` // the calls measured
	P50   time.Duration `json:"p50"`
	P90   time.Duration `json:"p90"`
	P99   time.Duration `json:"p99"`
	Max   time.Duration `json:"max"`
}

// Stats are a key's statistics as its breaker keeps them: Recent over the
// rolling window (Window long: StatsWindow, less while the key's breaker is
// younger), the rates per second over it, the latency of its calls, and
// Total since the key's breaker started (a crash keeps them; passivation
// and Unregister end them).
type Stats struct {
	Window            time.Duration `json:"window"`
	Recent            Counts        `json:"recent"`
	Total             Counts        `json:"total"`
	CallsPerSecond    float64       `json:"calls_per_second"`
	FailuresPerSecond float64       `json:"failures_per_second"`
	RejectedPerSecond float64       `json:"rejected_per_second"`
	// ErrorPercent is Recent's failures per call that got a verdict
	// (successes and failures), 0 to 100.
	ErrorPercent float64 `json:"error_percent"`
	Latency      Latency `json:"latency"`
}
