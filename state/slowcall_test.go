package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSlowCallInClosed(t *testing.T) {
	slowS := Settings{Threshold: 2, OpenTimeout: 10 * time.Second, SlowCall: time.Second}
	tests := []struct {
		name      string
		s         Settings
		ev        Event
		wantState State
		wantFails int // Failures after the event, from 1 before
	}{
		{"a success slower than SlowCall counts as a failure and trips", slowS,
			Event{Kind: Succeeded, Duration: time.Second + 1}, Open, 2},
		{"a success of exactly SlowCall is not slow", slowS,
			Event{Kind: Succeeded, Duration: time.Second}, Closed, 0},
		{"a fast success resets the streak", slowS,
			Event{Kind: Succeeded, Duration: 0}, Closed, 0},
		{"SlowCall 0 disables the rule", Settings{Threshold: 2, OpenTimeout: 10 * time.Second},
			Event{Kind: Succeeded, Duration: time.Hour}, Closed, 0},
		{"a fast failure is still a failure", slowS,
			Event{Kind: Failed, Duration: time.Millisecond}, Open, 2},
		{"a slow ignored call counts neither way", slowS,
			Event{Kind: Ignored, Duration: time.Hour}, Closed, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a closed circuit with one failure
			c, _ := feed(t, newCircuit(tt.s, 7), t0, "F")
			// When the outcome arrives
			ev := tt.ev
			ev.Gen = c.Gen
			c, fx := step(c, ev, t0)
			// Then it counts as the table says
			require.Equal(t, tt.wantState, c.State)
			require.Equal(t, tt.wantFails, c.Failures)
			if tt.wantState == Open {
				require.Equal(t, []Reason{ReasonThreshold}, reasons(fx))
			} else {
				require.Empty(t, fx)
			}
		})
	}
}

func TestSlowCallOfAnOlderGenChangesNothing(t *testing.T) {
	// Given a closed circuit one failure short of tripping, after a transition
	s := Settings{Threshold: 2, OpenTimeout: 10 * time.Second, SlowCall: time.Second}
	c, _ := step(newCircuit(s, 7), Event{Kind: Reset}, t0)
	c, _ = feed(t, c, t0, "F")
	// When a slow success of the previous gen arrives
	got, fx := step(c, Event{Kind: Succeeded, Gen: gen(0), Duration: time.Hour}, t0)
	// Then nothing changes
	require.Empty(t, fx)
	require.Equal(t, c, got)
}

func TestSlowCallInAWindow(t *testing.T) {
	// Given a count window that trips at 50% over 2 calls
	s := windowSettings(Window{Size: 4, MinCalls: 2, FailureRate: 0.5})
	s.SlowCall = time.Second
	c := newCircuit(s, 7)
	// When a success of exactly SlowCall and then a slower one arrive
	c, fx := step(c, Event{Kind: Succeeded, Gen: c.Gen, Duration: time.Second}, t0)
	require.Empty(t, fx)
	require.Equal(t, [2]int{0, 1}, rateOf(c, t0))
	c, fx = step(c, Event{Kind: Succeeded, Gen: c.Gen, Duration: 2 * time.Second}, t0)
	// Then the slow one is recorded as a failure and trips the window
	require.Equal(t, Open, c.State)
	require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx))
	require.Equal(t, [2]int{1, 2}, rateOf(c, t0))
}

func TestSlowCallProbe(t *testing.T) {
	s := Settings{Threshold: 1, OpenTimeout: 10 * time.Second, SlowCall: time.Second}
	tests := []struct {
		name     string
		duration time.Duration
		want     State
		reason   Reason
	}{
		{"a slow probe success re-opens", time.Second + 1, Open, ReasonProbeFailed},
		{"a probe of exactly SlowCall closes", time.Second, Closed, ReasonProbeSucceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a half-open circuit with its probe in flight
			c := halfOpen(t, s, t0)
			c, _ = step(c, Event{Kind: Admit}, t0)
			reopens := c.Reopens
			// When the probe succeeds after duration
			c, fx := step(c, Event{Kind: Succeeded, Gen: c.Gen, Duration: tt.duration}, t0)
			// Then the circuit moves for the reason
			require.Equal(t, tt.want, c.State)
			require.Equal(t, []Reason{tt.reason}, reasons(fx))
			if tt.want == Open {
				require.Equal(t, reopens+1, c.Reopens)
			}
		})
	}
}
