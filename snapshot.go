package tripwire

import (
	"time"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// Snapshot is one breaker's state at a moment, as the breaker itself
// reports it. Every field is defined for every policy.
type Snapshot struct {
	Key   string      `json:"key"`
	State state.State `json:"state"`
	// Forced is the manual override in force (state.NotForced: the
	// policies decide).
	Forced state.Force `json:"forced"`
	// Reason is the reason of the transition into State
	// (state.ReasonNone if the circuit has been closed since the key's
	// breaker started); Since is when it happened, and InState how long
	// ago.
	Reason  state.Reason  `json:"reason"`
	Since   time.Time     `json:"since"`
	InState time.Duration `json:"in_state"`
	// Failures counts consecutive failures, for every policy (a failure-rate
	// breaker counts them too, though only its window trips it).
	Failures int `json:"failures"`
	// Reopens counts re-opens since the last close (what Backoff stretches).
	Reopens int `json:"reopens"`
	// WindowCalls and WindowFailures are what the failure-rate window holds
	// now, FailureRate their ratio (0 to 1); all zero without a Window.
	WindowCalls    int     `json:"window_calls"`
	WindowFailures int     `json:"window_failures"`
	FailureRate    float64 `json:"failure_rate"`
	// OpenedAt and RetryAt (when an open circuit half-opens) are set while
	// the circuit is not closed; RetryAt is zero while it is forced open.
	OpenedAt time.Time `json:"opened_at"`
	RetryAt  time.Time `json:"retry_at"`
	// InFlight is the calls forwarded and not yet answered, Restarts the
	// crash-restarts of the key's breaker.
	InFlight int `json:"in_flight"`
	Restarts int `json:"restarts"`
	// Passivated is set for a key asleep after IdleTimeout (only Snapshots
	// reports one; Snapshot wakes it): closed, with zero counts.
	Passivated bool `json:"passivated"`
	// Stats are the key's call statistics, kept by its breaker: counts
	// over a rolling window of state.StatsWindow and since the breaker
	// started, rates per second, and latency percentiles (see
	// docs/statistics.md).
	Stats state.Stats `json:"stats"`
	// Settings are the settings in force, defaults filled in.
	Settings Settings `json:"settings"`
}

// snapshotOf is the public form of the breaker's snapshot s, at now.
func snapshotOf(s tactor.Snapshot, now time.Time) Snapshot {
	snap := Snapshot{
		Key: s.Key, State: s.State, Forced: s.Forced, Reason: s.Reason, Since: s.Since,
		Failures: s.Failures, Reopens: s.Reopens,
		WindowCalls: s.WindowCalls, WindowFailures: s.WindowFailures, FailureRate: s.FailureRate,
		OpenedAt: s.OpenedAt, RetryAt: s.RetryAt, InFlight: s.InFlight, Restarts: s.Restarts,
		Passivated: s.Passivated, Stats: s.Stats,
	}
	if !s.Since.IsZero() {
		snap.InState = now.Sub(s.Since)
	}
	if r := s.Rules; r != nil {
		snap.Settings = settingsOf(r)
	}
	return snap
}

// settingsOf are the Settings r was made from, defaults filled in.
func settingsOf(r *tactor.Rules) Settings {
	c := r.Circuit
	return Settings{
		Threshold: c.Threshold, OpenTimeout: c.OpenTimeout, CallTimeout: r.CallTimeout,
		IsFailure: r.IsFailure, Classify: r.Verdicts, Window: c.Window, SlowCall: c.SlowCall,
		Backoff: c.Backoff, HalfOpenProbes: c.HalfOpenProbes, MaxInFlight: r.MaxInFlight,
		IgnoreTargetDown: r.IgnoreTargetDown, IdleTimeout: r.IdleTimeout,
	}
}
