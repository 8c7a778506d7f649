package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var forceSettings = Settings{Threshold: 2, OpenTimeout: 10 * time.Second,
	Backoff: Backoff{Multiplier: 2, Max: time.Minute}}

// circuitsIn returns a circuit of settings s in each state a manual
// operation can meet: closed with a failure, open on its timer, half-open
// with a probe in flight, forced open and forced closed.
func circuitsIn(t *testing.T, s Settings) map[string]Circuit {
	t.Helper()
	closed, _ := feed(t, newCircuit(s, 7), t0, "F")
	open, _ := feed(t, closed, t0, "F")
	require.Equal(t, Open, open.State)
	half := halfOpen(t, s, t0)
	half.Reopens = 2
	half, _ = step(half, Event{Kind: Admit}, t0)
	forcedOpen, _ := step(closed, Event{Kind: ForceOpen}, t0)
	forcedClosed, _ := step(open, Event{Kind: ForceClose}, t0)
	return map[string]Circuit{"closed": closed, "open": open, "half_open": half,
		"forced_open": forcedOpen, "forced_closed": forcedClosed}
}

func TestForceOpen(t *testing.T) {
	now := t0.Add(time.Hour)
	for name, c := range circuitsIn(t, forceSettings) {
		t.Run(name, func(t *testing.T) {
			// When the circuit is forced open
			got, fx := step(c, Event{Kind: ForceOpen, Gen: gen(99), Rand: 0.9}, now)
			// Then it is open with a transition for forced_open and no timer
			require.Equal(t, []Effect{{Kind: Moved, Gen: Gen{7, c.Gen.Seq + 1}, From: c.State, To: Open,
				Reason: ReasonForcedOpen}}, fx)
			require.Equal(t, Open, got.State)
			require.Equal(t, ForcedOpen, got.Forced)
			require.True(t, got.OpenedAt.Equal(now))
			require.True(t, got.RetryAt.IsZero(), "RetryAt %v", got.RetryAt)
			require.Equal(t, c.Failures, got.Failures)
			require.Zero(t, got.Probes)
			require.True(t, got.Rejecting())
			// And no timer, old or current, half-opens it
			for _, g := range []Gen{c.Gen, got.Gen} {
				after, fx := step(got, Event{Kind: TimerFired, Gen: g}, now.Add(time.Hour))
				require.Empty(t, fx)
				require.Equal(t, got, after)
			}
			// And admissions are rejected
			_, kinds := admitN(got, 3, now)
			require.Equal(t, []EffectKind{Reject, Reject, Reject}, kinds)
			// And outcomes of calls admitted before change nothing
			for _, kind := range []EventKind{Succeeded, Failed, Ignored} {
				after, fx := step(got, Event{Kind: kind, Gen: c.Gen}, now)
				require.Empty(t, fx)
				require.Equal(t, got, after)
			}
		})
	}
}

func TestForceClose(t *testing.T) {
	now := t0.Add(time.Hour)
	for name, c := range circuitsIn(t, forceSettings) {
		t.Run(name, func(t *testing.T) {
			// When the circuit is forced closed
			got, fx := step(c, Event{Kind: ForceClose, Gen: gen(99)}, now)
			// Then it is closed with a transition for forced_closed
			require.Equal(t, []Effect{{Kind: Moved, Gen: Gen{7, c.Gen.Seq + 1}, From: c.State, To: Closed,
				Reason: ReasonForcedClosed}}, fx)
			require.Equal(t, Closed, got.State)
			require.Equal(t, ForcedClosed, got.Forced)
			require.True(t, got.OpenedAt.IsZero())
			require.True(t, got.RetryAt.IsZero())
			require.Zero(t, got.Reopens)
			// And it forwards, counts failures past Threshold, and never trips
			failures := got.Failures
			for i := 1; i <= 2*forceSettings.Threshold; i++ {
				var kinds []EffectKind
				got, kinds = admitN(got, 1, now)
				require.Equal(t, []EffectKind{Forward}, kinds)
				got, fx = feed(t, got, now, "F")
				require.Empty(t, fx)
				require.Equal(t, failures+i, got.Failures)
			}
			// And a dead target does not open it
			after, fx := step(got, Event{Kind: TargetDown}, now)
			require.Empty(t, fx)
			require.Equal(t, got, after)
			// And a success still resets the streak
			got, _ = feed(t, got, now, "S")
			require.Zero(t, got.Failures)
			require.Equal(t, Closed, got.State)
		})
	}
}

func TestForceCloseNeverTripsOnTheWindowRate(t *testing.T) {
	// Given a forced-closed circuit with a count window
	s := windowSettings(Window{Size: 4, MinCalls: 2, FailureRate: 0.5})
	c, _ := step(newCircuit(s, 7), Event{Kind: ForceClose}, t0)
	// When every call fails
	c, fx := feed(t, c, t0, "FFFFFF")
	// Then the window counts them and the circuit stays closed
	require.Empty(t, fx)
	require.Equal(t, Closed, c.State)
	require.Equal(t, [2]int{4, 4}, rateOf(c, t0))
	// And after Reset the policy applies again
	c, _ = step(c, Event{Kind: Reset}, t0)
	c, fx = feed(t, c, t0, "FF")
	require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx))
}

func TestReset(t *testing.T) {
	now := t0.Add(time.Hour)
	s := forceSettings
	s.Window = Window{Size: 8, MinCalls: 2, FailureRate: 1}
	for name, c := range circuitsIn(t, s) {
		t.Run(name, func(t *testing.T) {
			if c.State == Closed {
				c, _ = feed(t, c, now, "SF")
			}
			if name != "half_open" { // tripped by TargetDown: nothing recorded
				require.NotZero(t, rateOf(c, now)[1], "the window must hold outcomes before the reset")
			}
			// When the circuit is reset
			got, fx := step(c, Event{Kind: Reset, Gen: gen(99)}, now)
			// Then it is closed for reset with every count cleared
			require.Equal(t, []Effect{{Kind: Moved, Gen: Gen{7, c.Gen.Seq + 1}, From: c.State, To: Closed,
				Reason: ReasonReset}}, fx)
			want := newCircuit(s, 7)
			want.Gen = got.Gen
			require.Equal(t, want, got)
			require.Equal(t, [2]int{0, 0}, rateOf(got, now))
		})
	}
}

func TestResetEndsForcedClose(t *testing.T) {
	// Given a forced-closed circuit with failures past Threshold
	c, _ := step(newCircuit(forceSettings, 7), Event{Kind: ForceClose}, t0)
	c, _ = feed(t, c, t0, "FFF")
	// When it is reset
	c, _ = step(c, Event{Kind: Reset}, t0)
	// Then Threshold failures trip it again
	c, fx := feed(t, c, t0, "FF")
	require.Equal(t, []Reason{ReasonThreshold}, reasons(fx))
	require.Equal(t, Open, c.State)
	require.Equal(t, NotForced, c.Forced)
}

func TestForceOpenThenForceCloseThenForceOpen(t *testing.T) {
	// Given a closed circuit
	c := newCircuit(forceSettings, 7)
	// When it is forced open, forced closed and forced open again
	var all []Effect
	for _, kind := range []EventKind{ForceOpen, ForceOpen, ForceClose, ForceClose, ForceOpen} {
		var fx []Effect
		c, fx = step(c, Event{Kind: kind}, t0)
		all = append(all, fx...)
	}
	// Then every operation is one transition, even from a state to itself
	require.Equal(t, []Reason{ReasonForcedOpen, ReasonForcedOpen, ReasonForcedClosed, ReasonForcedClosed, ReasonForcedOpen}, reasons(all))
	require.Len(t, all, 5)
	require.Equal(t, uint64(5), c.Gen.Seq)
	require.Equal(t, ForcedOpen, c.Forced)
	require.Equal(t, Open, c.State)
}

func TestProbeNowHalfOpensAnOpenCircuitAtOnce(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := Settings{Threshold: 1, OpenTimeout: time.Minute}
	// Given a circuit opened by a failure, its recovery timer a minute away
	c := newCircuit(s, 7)
	c, fx := applyTo(c, Event{Kind: Admit}, now, nil)
	c, fx = applyTo(c, Event{Kind: Failed, Gen: fx[0].Gen}, now, fx[:0])
	timer := fx[len(fx)-1].Gen
	// When it is told to probe now
	c, fx = applyTo(c, Event{Kind: ProbeNow}, now.Add(time.Second), fx[:0])
	// Then it is half-open, and says why
	require.Equal(t, HalfOpen, c.State)
	require.Equal(t, []Effect{{Kind: Moved, Gen: c.Gen, From: Open, To: HalfOpen, Reason: ReasonProbeNow}}, fx)
	// and its old timer changes nothing when it fires
	after, fx := applyTo(c, Event{Kind: TimerFired, Gen: timer}, now.Add(time.Minute), fx[:0])
	require.Equal(t, c, after)
	require.Empty(t, fx)
	// and a closed, a half-open or a forced-open circuit is left as it is
	for _, start := range []Circuit{newCircuit(s, 7), c, forcedOpen(s)} {
		got, fx := applyTo(start, Event{Kind: ProbeNow}, now, nil)
		require.Equal(t, start, got)
		require.Empty(t, fx)
	}
}

func forcedOpen(s Settings) Circuit {
	c := newCircuit(s, 7)
	c.Apply(Event{Kind: ForceOpen}, time.Time{}, nil)
	return c
}
