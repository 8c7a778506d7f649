package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTargetDown(t *testing.T) {
	s := Settings{Threshold: 3, OpenTimeout: 10 * time.Second,
		Backoff: Backoff{Multiplier: 2, Max: time.Minute, Jitter: 0.5}}
	now := t0.Add(time.Hour)
	tests := []struct {
		name        string
		from        string // a state of circuitsIn
		opens       bool
		wantReopens int
		wantAfter   time.Duration // with Rand 0: half the backoff
	}{
		{"closed opens at once with a timer", "closed", true, 0, 5 * time.Second},
		{"half-open re-opens with Reopens+1", "half_open", true, 3, 30 * time.Second}, // 10s*2^3 capped at 1m
		{"open changes nothing", "open", false, 0, 0},
		{"forced open changes nothing", "forced_open", false, 0, 0},
		{"forced closed changes nothing", "forced_closed", false, 0, 0},
	}
	circuits := circuitsIn(t, forceSettings)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a circuit in the state
			c := withSettings(circuits[tt.from], s)
			// When its target is reported dead (the event gen is not consulted)
			got, fx := step(c, Event{Kind: TargetDown, Gen: gen(99), Rand: 0}, now)
			if !tt.opens {
				// Then nothing changes
				require.Empty(t, fx)
				require.Equal(t, c, got)
				return
			}
			// Then it opens for target_down with a recovery timer
			next := Gen{7, c.Gen.Seq + 1}
			require.Equal(t, []Effect{
				{Kind: Moved, Gen: next, From: c.State, To: Open, Reason: ReasonTargetDown},
				{Kind: StartTimer, Gen: next, After: tt.wantAfter},
			}, fx)
			require.Equal(t, Open, got.State)
			require.Equal(t, NotForced, got.Forced)
			require.Equal(t, tt.wantReopens, got.Reopens)
			require.True(t, got.OpenedAt.Equal(now))
			require.True(t, got.RetryAt.Equal(now.Add(tt.wantAfter)))
			require.Zero(t, got.Probes)
			require.Equal(t, c.Failures, got.Failures, "a dead target is not a counted failure")
		})
	}
}

func TestTargetDownRecoversThroughTimerAndProbe(t *testing.T) {
	// Given a closed circuit whose target was reported dead
	c, fx := step(newCircuit(Settings{Threshold: 3, OpenTimeout: 10 * time.Second}, 7), Event{Kind: TargetDown}, t0)
	timer := fx[1]
	// When the recovery timer fires and the probe succeeds
	c, fx = step(c, Event{Kind: TimerFired, Gen: timer.Gen}, t0.Add(timer.After))
	require.Equal(t, []Reason{ReasonOpenTimeout}, reasons(fx))
	c, _ = step(c, Event{Kind: Admit}, t0.Add(timer.After))
	c, fx = step(c, Event{Kind: Succeeded, Gen: c.Gen}, t0.Add(timer.After))
	// Then it is closed again
	require.Equal(t, []Reason{ReasonProbeSucceeded}, reasons(fx))
	require.Equal(t, Closed, c.State)
	require.Zero(t, c.Reopens)
}

func TestTargetDownDuringAProbeMakesItsOutcomeStale(t *testing.T) {
	// Given a half-open circuit with its probe in flight
	c := halfOpen(t, Settings{Threshold: 3, OpenTimeout: 10 * time.Second}, t0)
	c, _ = step(c, Event{Kind: Admit}, t0)
	probe := c.Gen
	// When the target is reported dead, then the probe's success arrives
	c, _ = step(c, Event{Kind: TargetDown}, t0)
	got, fx := step(c, Event{Kind: Succeeded, Gen: probe}, t0)
	// Then the success changes nothing: the circuit stays open
	require.Empty(t, fx)
	require.Equal(t, c, got)
	require.Equal(t, Open, got.State)
}
