package state

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// almostOne is the largest Rand below 1.
var almostOne = math.Nextafter(1, 0)

// reopenAfter puts a half-open circuit of settings s, which has re-opened
// reopens-1 times since its last close, through a failed probe with jitter
// draw r, and returns the circuit and its StartTimer. With reopens 0 it
// trips a closed circuit instead.
func reopenAfter(t *testing.T, s Settings, reopens int, r float64) (Circuit, Effect) {
	t.Helper()
	now := t0.Add(time.Minute)
	var c Circuit
	var fx []Effect
	if reopens == 0 {
		c, fx = step(newCircuit(s, 7), Event{Kind: TargetDown, Rand: r}, now)
	} else {
		c = halfOpen(t, s, t0)
		c.Reopens = reopens - 1
		c, _ = step(c, Event{Kind: Admit}, now)
		c, fx = step(c, Event{Kind: Failed, Gen: c.Gen, Rand: r}, now)
	}
	require.Len(t, fx, 2)
	require.Equal(t, reopens, c.Reopens)
	require.Equal(t, StartTimer, fx[1].Kind)
	require.True(t, c.OpenedAt.Equal(now))
	require.Equal(t, fx[1].After, c.RetryAt.Sub(c.OpenedAt), "StartTimer.After must equal RetryAt-OpenedAt")
	return c, fx[1]
}

func TestBackoffOpenTime(t *testing.T) {
	doubling := Backoff{Multiplier: 2, Max: 10 * time.Second}
	tests := []struct {
		name    string
		timeout time.Duration
		b       Backoff
		reopens int
		want    time.Duration
	}{
		{"no backoff, first open", time.Second, Backoff{}, 0, time.Second},
		{"no backoff, many re-opens", time.Second, Backoff{}, 9, time.Second},
		{"x2, first open", time.Second, doubling, 0, time.Second},
		{"x2, 1 re-open", time.Second, doubling, 1, 2 * time.Second},
		{"x2, 2 re-opens", time.Second, doubling, 2, 4 * time.Second},
		{"x2, 3 re-opens", time.Second, doubling, 3, 8 * time.Second},
		{"x2, 4 re-opens capped at Max", time.Second, doubling, 4, 10 * time.Second},
		{"x2, 40 re-opens capped at Max", time.Second, doubling, 40, 10 * time.Second},
		{"x1.5, 2 re-opens", time.Second, Backoff{Multiplier: 1.5}, 2, 2250 * time.Millisecond},
		{"multiplier 1 keeps the timeout", time.Second, Backoff{Multiplier: 1, Max: time.Hour}, 5, time.Second},
		{"multiplier below 1 never shortens", time.Second, Backoff{Multiplier: 0.5}, 5, time.Second},
		{"Max below OpenTimeout caps the first open too", 5 * time.Second, Backoff{Max: 2 * time.Second}, 0, 2 * time.Second},
		{"no Max: x2 for 20 re-opens", time.Second, Backoff{Multiplier: 2}, 20, (1 << 20) * time.Second},
		{"no Max: an overflowing open time saturates", time.Second, Backoff{Multiplier: 2}, 80, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given settings with this backoff
			s := Settings{Threshold: 1, OpenTimeout: tt.timeout, Backoff: tt.b}
			// When the circuit opens after reopens re-opens
			_, timer := reopenAfter(t, s, tt.reopens, 0.5)
			// Then it stays open for the table's time
			require.Equal(t, tt.want, timer.After)
		})
	}
}

func TestBackoffJitter(t *testing.T) {
	tests := []struct {
		name   string
		b      Backoff
		reopen int
		r      float64
		lo, hi time.Duration // inclusive
	}{
		{"r=0 is the shortest", Backoff{Jitter: 0.2}, 0, 0, 8 * time.Second, 8 * time.Second},
		{"r=0.5 is the base", Backoff{Jitter: 0.2}, 0, 0.5, 10 * time.Second, 10 * time.Second},
		{"r->1 is the longest", Backoff{Jitter: 0.2}, 0, almostOne, 12*time.Second - time.Microsecond, 12 * time.Second},
		{"r->1 is capped at Max again", Backoff{Jitter: 0.2, Max: 11 * time.Second}, 0, almostOne, 11 * time.Second, 11 * time.Second},
		{"r=0 below a capped base", Backoff{Multiplier: 2, Max: 30 * time.Second, Jitter: 0.5}, 3, 0, 15 * time.Second, 15 * time.Second},
		{"r->1 above a capped base stays at Max", Backoff{Multiplier: 2, Max: 30 * time.Second, Jitter: 0.5}, 3, almostOne, 30 * time.Second, 30 * time.Second},
		{"r=0.5 after 2 re-opens", Backoff{Multiplier: 2, Max: time.Minute, Jitter: 0.5}, 2, 0.5, 40 * time.Second, 40 * time.Second},
		{"jitter 1, r=0 is an immediate retry", Backoff{Jitter: 1}, 0, 0, 0, 0},
		{"jitter 1, r->1 doubles", Backoff{Jitter: 1}, 0, almostOne, 20*time.Second - time.Microsecond, 20 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a 10s open timeout with jitter
			s := Settings{Threshold: 1, OpenTimeout: 10 * time.Second, Backoff: tt.b}
			// When the circuit opens with jitter draw r
			_, timer := reopenAfter(t, s, tt.reopen, tt.r)
			// Then the open time is within the bounds
			require.GreaterOrEqual(t, timer.After, tt.lo)
			require.LessOrEqual(t, timer.After, tt.hi)
		})
	}
}

func TestBackoffOpenTimeProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := Settings{
			Threshold:   1,
			OpenTimeout: time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(rt, "timeout")),
			Backoff: Backoff{
				Multiplier: rapid.Float64Range(0, 10).Draw(rt, "multiplier"),
				Max:        time.Duration(rapid.Int64Range(0, int64(24*time.Hour)).Draw(rt, "max")),
				Jitter:     rapid.Float64Range(0, 1).Draw(rt, "jitter"),
			},
		}
		reopens := rapid.IntRange(0, 64).Draw(rt, "reopens")
		r := rapid.Float64Range(0, almostOne).Draw(rt, "r")
		d := s.openTime(reopens, r)
		// base = min(Max, OpenTimeout*Multiplier^reopens); the open time is
		// within [base*(1-J), min(Max, base*(1+J))] and never negative.
		base := float64(s.OpenTimeout)
		if s.Backoff.Multiplier > 1 {
			base *= math.Pow(s.Backoff.Multiplier, float64(reopens))
		}
		hi := base * (1 + s.Backoff.Jitter)
		if s.Backoff.Max > 0 {
			base = math.Min(base, float64(s.Backoff.Max))
			hi = math.Min(base*(1+s.Backoff.Jitter), float64(s.Backoff.Max))
		}
		hi = math.Min(hi, math.MaxInt64) // saturates
		lo := math.Min(base*(1-s.Backoff.Jitter), hi)
		if d < 0 || float64(d) < lo*(1-1e-12)-1 || float64(d) > hi*(1+1e-12)+1 {
			rt.Fatalf("open time %d ns outside [%g, %g] (base %g)", d, lo, hi, base)
		}
		// And a re-open through Step uses it, with StartTimer.After =
		// RetryAt-OpenedAt.
		c := Circuit{Settings: ptr(s), State: HalfOpen, Gen: gen(3), OpenedAt: t0, RetryAt: t0.Add(d), Probes: 1, Reopens: reopens - 1}
		ev := Event{Kind: Failed, Gen: gen(3), Rand: r}
		if reopens == 0 {
			c, ev = newCircuit(s, 7), Event{Kind: TargetDown, Rand: r}
		}
		c, fx := step(c, ev, t0)
		require.Equal(rt, reopens, c.Reopens)
		require.Equal(rt, d, fx[1].After)
		require.Equal(rt, d, c.RetryAt.Sub(c.OpenedAt))
	})
}

func TestCloseResetsReopens(t *testing.T) {
	s := Settings{Threshold: 1, OpenTimeout: time.Second, Backoff: Backoff{Multiplier: 2, Max: time.Hour}}
	for _, how := range []string{"probe", "force-close", "reset"} {
		t.Run(how, func(t *testing.T) {
			// Given a circuit that re-opened twice: open time 4s
			c, timer := reopenAfter(t, s, 2, 0.5)
			require.Equal(t, 4*time.Second, timer.After)
			// When it closes
			switch how {
			case "probe":
				c, _ = step(c, Event{Kind: TimerFired, Gen: c.Gen}, c.RetryAt)
				c, _ = step(c, Event{Kind: Admit}, c.RetryAt)
				c, _ = step(c, Event{Kind: Succeeded, Gen: c.Gen}, c.RetryAt)
			case "force-close":
				c, _ = step(c, Event{Kind: ForceClose}, t0)
			case "reset":
				c, _ = step(c, Event{Kind: Reset}, t0)
			}
			require.Equal(t, Closed, c.State)
			require.Zero(t, c.Reopens)
			if how == "force-close" {
				c, _ = step(c, Event{Kind: Reset}, t0) // a forced-closed circuit never trips
			}
			// Then the next trip opens for OpenTimeout again, and so does a
			// failed probe after it only for twice that
			now := t0.Add(time.Hour)
			c, fx := step(c, Event{Kind: Failed, Gen: c.Gen}, now)
			require.Equal(t, time.Second, fx[1].After)
			require.Equal(t, fx[1].After, c.RetryAt.Sub(c.OpenedAt))
			c, _ = step(c, Event{Kind: TimerFired, Gen: c.Gen}, c.RetryAt)
			c, _ = step(c, Event{Kind: Admit}, c.RetryAt)
			c, fx = step(c, Event{Kind: Failed, Gen: c.Gen}, c.RetryAt)
			require.Equal(t, 2*time.Second, fx[1].After)
			require.Equal(t, 1, c.Reopens)
		})
	}
}

func TestTripFromClosedStartsAtReopensZero(t *testing.T) {
	// Given a circuit whose half-open probe failed (Reopens 1, 2s)
	s := Settings{Threshold: 1, OpenTimeout: time.Second, Backoff: Backoff{Multiplier: 2, Max: time.Hour}}
	c, timer := reopenAfter(t, s, 1, 0.5)
	require.Equal(t, 2*time.Second, timer.After)
	// When it is reset and trips again on a failure
	c, _ = step(c, Event{Kind: Reset}, t0)
	c, fx := step(c, Event{Kind: Failed, Gen: c.Gen}, t0)
	// Then the trip is a first open
	require.Zero(t, c.Reopens)
	require.Equal(t, time.Second, fx[1].After)
}
