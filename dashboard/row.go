package dashboard

import (
	"math"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Row is one key as the dashboard shows it: what its breaker reports
// (tripwire.Snapshot and its Stats, see docs/statistics.md), figures
// rounded to what a page shows, and its Severity. Times are UTC; durations
// are in milliseconds.
type Row struct {
	Key      string      `json:"key"`
	State    state.State `json:"state"`
	Forced   state.Force `json:"forced"`
	Severity Severity    `json:"severity"`
	// Reason is the reason of the transition into State ("" if closed
	// since the breaker started); Since is when it happened, InStateMs
	// how long ago (at the time of the answer).
	Reason    string    `json:"reason"`
	Since     time.Time `json:"since,omitzero"`
	InStateMs float64   `json:"in_state_ms"`
	// RetryAt is when an open circuit half-opens (zero while forced open);
	// RetryInMs is how long from the answer's time.
	OpenedAt  time.Time `json:"opened_at,omitzero"`
	RetryAt   time.Time `json:"retry_at,omitzero"`
	RetryInMs float64   `json:"retry_in_ms,omitempty"`
	// DownSince is when the circuit last left closed (zero while closed):
	// the outage it is in began then, however often it re-opened since.
	// With DownAtLeast the dashboard did not see it begin: it began then
	// or earlier.
	DownSince   time.Time `json:"down_since,omitzero"`
	DownAtLeast bool      `json:"down_at_least,omitempty"`

	Failures int `json:"failures"` // consecutive
	InFlight int `json:"in_flight"`
	Restarts int `json:"restarts"`
	// Asleep: the key was passivated (IdleTimeout) at the last census; it
	// is not asked, which would wake it.
	Asleep bool `json:"asleep,omitempty"`

	// The statistics window (Stats.Window, up to state.StatsWindow) and
	// what it holds: rates per second, error percent (failures per call
	// with a verdict), the counts; Total counts since the breaker started.
	// Verdicts are the window's calls with a verdict (successes and
	// failures): with none, as in an open circuit that only rejects, there
	// is no error percent, and ErrorPercent's 0 means nothing.
	WindowMs          float64      `json:"window_ms"`
	CallsPerSecond    float64      `json:"calls_per_second"`
	ErrorPercent      float64      `json:"error_percent"`
	Verdicts          uint64       `json:"verdicts"`
	RejectedPerSecond float64      `json:"rejected_per_second"`
	Recent            state.Counts `json:"recent"`
	Total             state.Counts `json:"total"`
	Latency           Latency      `json:"latency"`

	// Snapshot is the registry's own snapshot, settings included: only in
	// the answer of GET api/breakers/{key} and of the control actions.
	Snapshot *tripwire.Snapshot `json:"snapshot,omitempty"`
}

// Latency is the latency of the calls the target ran in the window, in
// milliseconds (rejections are not in it). When the window has none — a
// circuit open for longer than the window — it holds the last figures the
// dashboard saw, Stale set.
type Latency struct {
	Calls uint64  `json:"calls"`
	P50Ms float64 `json:"p50_ms"`
	P90Ms float64 `json:"p90_ms"`
	P99Ms float64 `json:"p99_ms"`
	MaxMs float64 `json:"max_ms"`
	Stale bool    `json:"stale,omitempty"`
}

// rowOf is the row of s at now; last is the key's last latency with calls,
// shown (stale) if the window has none.
func rowOf(s tripwire.Snapshot, last Latency, now time.Time) Row {
	st := s.Stats
	r := Row{
		Key: s.Key, State: s.State, Forced: s.Forced, Reason: reasonText(s.Reason),
		Severity: severityOf(s.State, s.Forced, failingIn(st)),
		Since:    utc(s.Since), OpenedAt: utc(s.OpenedAt), RetryAt: utc(s.RetryAt),
		Failures: s.Failures, InFlight: s.InFlight, Restarts: s.Restarts, Asleep: s.Passivated,
		WindowMs:       round(ms(st.Window), 3),
		CallsPerSecond: round(st.CallsPerSecond, 3), ErrorPercent: round(st.ErrorPercent, 3),
		Verdicts:          st.Recent.Successes + st.Recent.Failures,
		RejectedPerSecond: round(st.RejectedPerSecond, 3),
		Recent:            st.Recent, Total: st.Total,
		Latency: latencyOf(st.Latency),
	}
	if r.Latency.Calls == 0 && last.Calls > 0 {
		r.Latency = last
		r.Latency.Stale = true
	}
	r.stamp(now)
	return r
}

// stamp sets the durations that count from now.
func (r *Row) stamp(now time.Time) {
	r.InStateMs, r.RetryInMs = 0, 0
	if !r.Since.IsZero() {
		r.InStateMs = max(math.Round(ms(now.Sub(r.Since))), 0)
	}
	if !r.RetryAt.IsZero() {
		r.RetryInMs = max(math.Round(ms(r.RetryAt.Sub(now))), 0)
	}
}

// same reports whether a page showing r needs o: the durations that only
// count on from the same instants, and the snapshot, do not count.
func (r Row) same(o Row) bool {
	r.InStateMs, r.RetryInMs, r.Snapshot = 0, 0, nil
	o.InStateMs, o.RetryInMs, o.Snapshot = 0, 0, nil
	return r == o
}

func latencyOf(l state.Latency) Latency {
	return Latency{Calls: l.Calls, P50Ms: round(ms(l.P50), 3), P90Ms: round(ms(l.P90), 3),
		P99Ms: round(ms(l.P99), 3), MaxMs: round(ms(l.Max), 3)}
}
