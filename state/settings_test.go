package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWithSettingsKeepsStateAndCounts(t *testing.T) {
	next := Settings{Threshold: 9, OpenTimeout: time.Minute, SlowCall: time.Second,
		Backoff: Backoff{Multiplier: 3, Max: time.Hour, Jitter: 0.1}, HalfOpenProbes: 2}
	for name, c := range circuitsIn(t, forceSettings) {
		t.Run(name, func(t *testing.T) {
			// When the settings change
			in := c
			got := withSettings(c, next)
			// Then only the settings differ, and the receiver is untouched
			require.Equal(t, next, *got.Settings)
			got.Settings = c.Settings
			require.Equal(t, c, got)
			require.Equal(t, in, c)
		})
	}
}

func TestWithSettingsWindow(t *testing.T) {
	count4 := Window{Size: 4, MinCalls: 99, FailureRate: 0.5}
	timed10 := Window{Period: 10 * time.Second, Buckets: 10, MinCalls: 99, FailureRate: 0.5}
	tests := []struct {
		name string
		from Window
		to   Window
		want [2]int // {fails, calls} after the change
	}{
		{"the same window keeps its outcomes", count4, count4, [2]int{2, 3}},
		{"another size starts empty", count4, Window{Size: 8, MinCalls: 99, FailureRate: 0.5}, [2]int{0, 0}},
		{"a time window starts empty", count4, Window{Period: time.Second, Buckets: 1, MinCalls: 99, FailureRate: 0.5}, [2]int{0, 0}},
		{"the same time window keeps its outcomes", timed10, timed10, [2]int{2, 3}},
		{"another period starts empty", timed10, Window{Period: 20 * time.Second, Buckets: 10, MinCalls: 99, FailureRate: 0.5}, [2]int{0, 0}},
		{"other buckets start empty", timed10, Window{Period: 10 * time.Second, Buckets: 5, MinCalls: 99, FailureRate: 0.5}, [2]int{0, 0}},
		{"a count window from a time window starts empty", timed10, count4, [2]int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a window holding 2 failures out of 3 calls
			c, fx := feed(t, newCircuit(windowSettings(tt.from), 7), t0, "FSF")
			require.Empty(t, fx)
			require.Equal(t, [2]int{2, 3}, rateOf(c, t0))
			// When the settings change, the window among them or not
			s := *c.Settings
			s.Window, s.Threshold, s.SlowCall = tt.to, 7, time.Hour
			c = withSettings(c, s)
			// Then the window keeps or drops what it held
			require.Equal(t, tt.want, rateOf(c, t0))
		})
	}
}

func TestWithSettingsWindowOffAndOnAgainStartsEmpty(t *testing.T) {
	// Given a count window holding outcomes
	w := Window{Size: 4, MinCalls: 3, FailureRate: 0.5}
	c, _ := feed(t, newCircuit(windowSettings(w), 7), t0, "FF")
	// When the policy changes to consecutive failures (Threshold 5) and back
	s := windowSettings(Window{})
	s.Threshold = 5
	c = withSettings(c, s)
	c, fx := feed(t, c, t0, "S")
	require.Empty(t, fx)
	c = withSettings(c, windowSettings(w))
	// Then the window starts empty: two failures do not reach MinCalls
	c, fx = feed(t, c, t0, "FF")
	require.Empty(t, fx)
	require.Equal(t, [2]int{2, 2}, rateOf(c, t0))
}

func TestWithSettingsAppliesFromTheNextEvent(t *testing.T) {
	tests := []struct {
		name      string
		threshold int
		outcome   string
		want      State
	}{
		{"a lower threshold trips on the next failure", 2, "F", Open},
		{"a lower threshold does not trip on a success", 2, "S", Closed},
		{"a higher threshold lets the next failure through", 10, "F", Closed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a closed circuit with 3 failures and Threshold 5
			s := Settings{Threshold: 5, OpenTimeout: 10 * time.Second}
			c, _ := feed(t, newCircuit(s, 7), t0, "FFF")
			// When the threshold changes: nothing happens yet
			s.Threshold = tt.threshold
			c = withSettings(c, s)
			require.Equal(t, Closed, c.State)
			require.Equal(t, 3, c.Failures)
			// Then the next outcome is judged by the new threshold
			c, fx := feed(t, c, t0, tt.outcome)
			require.Equal(t, tt.want, c.State)
			if tt.want == Open {
				require.Equal(t, []Reason{ReasonThreshold}, reasons(fx))
			}
		})
	}
}

func TestWithSettingsNewOpenTimeoutAppliesToTheNextOpen(t *testing.T) {
	// Given an open circuit that will retry after 10s
	s := Settings{Threshold: 1, OpenTimeout: 10 * time.Second}
	c, _ := feed(t, newCircuit(s, 7), t0, "F")
	retryAt := c.RetryAt
	// When OpenTimeout changes to 1m
	s.OpenTimeout = time.Minute
	c = withSettings(c, s)
	// Then the current open keeps its RetryAt
	require.True(t, c.RetryAt.Equal(retryAt))
	// And the next re-open uses 1m
	c, _ = step(c, Event{Kind: TimerFired, Gen: c.Gen}, retryAt)
	c, _ = step(c, Event{Kind: Admit}, retryAt)
	_, fx := step(c, Event{Kind: Failed, Gen: c.Gen}, retryAt)
	require.Equal(t, time.Minute, fx[1].After)
}

func TestWithSettingsMoreProbesMidHalfOpen(t *testing.T) {
	// Given a half-open circuit of one probe, with it in flight
	c := halfOpen(t, probeSettings(1), t0)
	c, kinds := admitN(c, 1, t0)
	require.Equal(t, []EffectKind{Forward}, kinds)
	// When HalfOpenProbes goes up to 2
	c = withSettings(c, probeSettings(2))
	// Then one more probe is admitted, and both must pass
	c, kinds = admitN(c, 2, t0)
	require.Equal(t, []EffectKind{Forward, Reject}, kinds)
	c, fx := feed(t, c, t0, "S")
	require.Empty(t, fx)
	_, fx = feed(t, c, t0, "S")
	require.Equal(t, []Reason{ReasonProbeSucceeded}, reasons(fx))
}
