package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func probeSettings(n int) Settings {
	return Settings{Threshold: 1, OpenTimeout: 10 * time.Second, HalfOpenProbes: n}
}

func TestHalfOpenAdmitsNProbesAtOnce(t *testing.T) {
	for _, tt := range []struct {
		setting, n int
	}{{0, 1}, {1, 1}, {2, 2}, {3, 3}, {10, 10}} {
		t.Run(fmt.Sprintf("HalfOpenProbes=%d", tt.setting), func(t *testing.T) {
			// Given a half-open circuit that allows HalfOpenProbes (0 means 1)
			c := halfOpen(t, probeSettings(tt.setting), t0)
			// When n+1 calls arrive before any outcome
			c, kinds := admitN(c, tt.n+1, t0)
			// Then n are forwarded at once and the next is rejected
			want := make([]EffectKind, tt.n+1)
			for i := range tt.n {
				want[i] = Forward
			}
			want[tt.n] = Reject
			require.Equal(t, want, kinds)
			require.Equal(t, tt.n, c.Probes)
			require.True(t, c.Rejecting())
		})
	}
}

func TestAllProbesMustSucceedToClose(t *testing.T) {
	// Given a half-open circuit with 3 probes in flight
	c := halfOpen(t, probeSettings(3), t0)
	c, _ = admitN(c, 3, t0)
	probeGen := c.Gen
	// When two succeed
	c, fx := feed(t, c, t0, "SS")
	// Then it stays half-open, and the passed probes do not free permits
	require.Empty(t, fx)
	require.Equal(t, HalfOpen, c.State)
	require.Equal(t, 1, c.Probes)
	require.Equal(t, 2, c.Passed)
	_, kinds := admitN(c, 1, t0)
	require.Equal(t, []EffectKind{Reject}, kinds)
	// When the third succeeds
	c, fx = feed(t, c, t0, "S")
	// Then it closes for probe_succeeded with counts cleared
	require.Equal(t, []Effect{{Kind: Moved, Gen: Gen{7, probeGen.Seq + 1}, From: HalfOpen, To: Closed, Reason: ReasonProbeSucceeded}}, fx)
	require.Equal(t, Closed, c.State)
	require.Zero(t, c.Probes)
	require.Zero(t, c.Passed)
	require.Zero(t, c.Failures)
	require.Zero(t, c.Reopens)
}

func TestAnyProbeFailureReopens(t *testing.T) {
	for _, pattern := range []string{"F", "SF", "SSF", "IF"} {
		t.Run(pattern, func(t *testing.T) {
			// Given a half-open circuit with 3 probes in flight, after one re-open
			c := halfOpen(t, probeSettings(3), t0)
			c.Reopens = 1
			c, _ = admitN(c, 3, t0)
			probeGen := c.Gen
			// When the outcomes arrive, the last a failure
			now := t0.Add(time.Minute)
			c, fx := feed(t, c, now, pattern)
			// Then it re-opens at once for probe_failed with Reopens+1
			require.Equal(t, []Reason{ReasonProbeFailed}, reasons(fx))
			require.Equal(t, Open, c.State)
			require.Equal(t, 2, c.Reopens)
			require.True(t, c.OpenedAt.Equal(now))
			require.Zero(t, c.Probes)
			require.Zero(t, c.Passed)
			// And the outcomes of the probes still in flight change nothing
			for _, kind := range []EventKind{Succeeded, Succeeded, Failed, Ignored} {
				got, fx := step(c, Event{Kind: kind, Gen: probeGen}, now)
				require.Empty(t, fx)
				require.Equal(t, c, got)
			}
		})
	}
}

func TestIgnoredProbeFreesOnePermit(t *testing.T) {
	// Given a half-open circuit with 3 probes in flight, one already passed
	c := halfOpen(t, probeSettings(3), t0)
	c, _ = admitN(c, 3, t0)
	c, _ = feed(t, c, t0, "S")
	// When one probe is ignored (say, withdrawn by its caller)
	c, fx := feed(t, c, t0, "I")
	require.Empty(t, fx)
	require.Equal(t, 1, c.Probes)
	require.Equal(t, 1, c.Passed)
	// Then exactly one more probe is admitted
	c, kinds := admitN(c, 2, t0)
	require.Equal(t, []EffectKind{Forward, Reject}, kinds)
	// And two more successes close the circuit
	c, fx = feed(t, c, t0, "SS")
	require.Equal(t, []Reason{ReasonProbeSucceeded}, reasons(fx))
	require.Equal(t, Closed, c.State)
}

func TestProbeOutcomesAfterTheCloseChangeNothing(t *testing.T) {
	// Given a 2-probe circuit that closed on its probes, with a closed call in flight
	c := halfOpen(t, probeSettings(2), t0)
	c, _ = admitN(c, 2, t0)
	probeGen := c.Gen
	c, _ = feed(t, c, t0, "SS")
	require.Equal(t, Closed, c.State)
	c, kinds := admitN(c, 1, t0)
	require.Equal(t, []EffectKind{Forward}, kinds)
	// When late outcomes of the half-open generation and of the generation
	// before it arrive (Threshold is 1: a counted failure would trip)
	for _, g := range []Gen{probeGen, {7, probeGen.Seq - 1}} {
		for _, kind := range []EventKind{Failed, Succeeded, Ignored} {
			got, fx := step(c, Event{Kind: kind, Gen: g}, t0)
			// Then nothing changes
			require.Empty(t, fx, "%v of gen %+v", kind, g)
			require.Equal(t, c, got, "%v of gen %+v", kind, g)
		}
	}
}

func TestProbeCountsResetOnEachHalfOpen(t *testing.T) {
	// Given a 2-probe circuit where one probe passed and the other failed
	c := halfOpen(t, probeSettings(2), t0)
	c, _ = admitN(c, 2, t0)
	c, _ = feed(t, c, t0, "SF")
	require.Equal(t, Open, c.State)
	// When the timer half-opens it again
	c, _ = step(c, Event{Kind: TimerFired, Gen: c.Gen}, c.RetryAt)
	// Then two fresh probes are admitted and both must pass again
	require.Zero(t, c.Passed)
	c, kinds := admitN(c, 3, t0)
	require.Equal(t, []EffectKind{Forward, Forward, Reject}, kinds)
	c, fx := feed(t, c, t0, "S")
	require.Empty(t, fx)
	_, fx = feed(t, c, t0, "S")
	require.Equal(t, []Reason{ReasonProbeSucceeded}, reasons(fx))
}
