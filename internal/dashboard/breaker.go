package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire/internal/demo"
)

// Breaker is one key's row as the API and the page see it: its breaker's
// snapshot and what the load's callers (the demo's or the soak's) got from it.
type Breaker struct {
	Key      string `json:"key"`
	State    string `json:"state"`    // closed, open or half_open
	Failures int    `json:"failures"` // consecutive failures
	InFlight int    `json:"inFlight"`
	Restarts int    `json:"restarts"`
	// OpenedAt and RetryAt are set while the circuit is open; RetryAt is
	// missing when it was forced open (it stays open until reset).
	OpenedAt *time.Time `json:"openedAt,omitempty"`
	RetryAt  *time.Time `json:"retryAt,omitempty"`
	// RetryInMs is RetryAt less the time of the row, so a page can count
	// down without trusting its own clock to agree with the server's.
	RetryInMs float64 `json:"retryInMs,omitempty"`

	Calls     int64   `json:"calls"` // answers of every kind
	OK        int64   `json:"ok"`
	Failed    int64   `json:"failed"`
	Timeouts  int64   `json:"timeouts"`
	Rejected  int64   `json:"rejected"`  // ErrOpen, ErrOverloaded
	Restarted int64   `json:"restarted"` // calls cut short by a crash
	P50Ms     float64 `json:"p50Ms"`     // latency of recent calls that went through
	P99Ms     float64 `json:"p99Ms"`

	DependencyDown bool   `json:"dependencyDown"` // the demo's dependency misbehaves now; the soak's target is dead
	DependencyHits int64  `json:"dependencyHits"` // calls that reached it
	Error          string `json:"error,omitempty"`
}

// breakerOf converts a source's row taken at now.
func breakerOf(r demo.Row, now time.Time) Breaker {
	b := Breaker{
		Key: r.Key, State: r.State.String(), Failures: r.Failures, InFlight: r.InFlight, Restarts: r.Restarts,
		Calls: r.Calls, OK: r.OK, Failed: r.Failed, Timeouts: r.Timeouts, Rejected: r.Rejected, Restarted: r.Restarted,
		P50Ms: ms(r.P50), P99Ms: ms(r.P99), DependencyDown: r.DependencyDown, DependencyHits: r.DependencyHits,
	}
	if !r.OpenedAt.IsZero() {
		at := r.OpenedAt
		b.OpenedAt = &at
	}
	if !r.RetryAt.IsZero() {
		at := r.RetryAt
		b.RetryAt = &at
		b.RetryInMs = max(ms(at.Sub(now)), 0)
	}
	if r.Err != nil {
		b.Error = r.Err.Error()
	}
	return b
}

// breakersOf converts every row.
func breakersOf(rows []demo.Row, now time.Time) []Breaker {
	out := make([]Breaker, len(rows))
	for i, r := range rows {
		out[i] = breakerOf(r, now)
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
