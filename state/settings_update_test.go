package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Regression: lowering HalfOpenProbes mid half-open to at most Passed left a
// circuit that rejected every call but could never close. A half-open
// circuit with no probe out now always admits one.
func TestLoweringHalfOpenProbesCannotStickTheCircuit(t *testing.T) {
	// Given a half-open circuit of 2 probes: one passed, one in flight
	c := halfOpen(t, probeSettings(2), t0)
	c, _ = admitN(c, 2, t0)
	c, _ = feed(t, c, t0, "S")
	// When HalfOpenProbes drops to 1 and the probe in flight is withdrawn
	c = withSettings(c, probeSettings(1))
	c, _ = feed(t, c, t0, "I")
	// Then the circuit is closed, or at least admits a probe
	c, fx := step(c, Event{Kind: Admit}, t0.Add(time.Hour))
	require.True(t, c.State == Closed || fx[0].Kind == Forward,
		"stuck in %s with probes=%d passed=%d of %d: %+v", c.State, c.Probes, c.Passed, c.Settings.HalfOpenProbes, fx)
}

// Regression: WithSettings compared the whole Window, so changing only
// FailureRate or MinCalls discarded every recorded outcome.
func TestWithSettingsKeepsTheWindowWhenOnlyTheRateChanges(t *testing.T) {
	for _, to := range []Window{
		{Size: 4, MinCalls: 99, FailureRate: 0.75},
		{Size: 4, MinCalls: 3, FailureRate: 0.5},
	} {
		// Given a count window of 4 holding 2 failures of 3 calls
		c, _ := feed(t, newCircuit(windowSettings(Window{Size: 4, MinCalls: 99, FailureRate: 0.5}), 7), t0, "FSF")
		// When only its rate or MinCalls changes
		c = withSettings(c, windowSettings(to))
		// Then the outcomes are kept
		require.Equal(t, [2]int{2, 3}, rateOf(c, t0), "after changing to %+v", to)
	}
}
