package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// feed applies one current-gen outcome per letter of pattern at now — S a
// success, F a failure, I an ignored call — and returns the circuit and every
// effect produced.
func feed(t *testing.T, c Circuit, now time.Time, pattern string) (Circuit, []Effect) {
	t.Helper()
	var all, fx []Effect
	for _, r := range pattern {
		ev := Event{Gen: c.Gen}
		switch r {
		case 'S':
			ev.Kind = Succeeded
		case 'F':
			ev.Kind = Failed
		case 'I':
			ev.Kind = Ignored
		default:
			t.Fatalf("bad outcome %q", r)
		}
		c, fx = applyTo(c, ev, now, fx[:0])
		all = append(all, fx...)
	}
	return c, all
}

// step applies one event and returns the circuit and its effects (nil when
// there are none).
func step(c Circuit, ev Event, now time.Time) (Circuit, []Effect) {
	c, fx := applyTo(c, ev, now, nil)
	return c, nilIfEmpty(fx)
}

// halfOpen trips a new circuit of settings s at now (by forcing it open with
// TargetDown), fires its timer and returns it half-open with no probe in
// flight.
func halfOpen(t *testing.T, s Settings, now time.Time) Circuit {
	t.Helper()
	c, fx := step(newCircuit(s, 7), Event{Kind: TargetDown}, now)
	require.Len(t, fx, 2)
	c, _ = step(c, Event{Kind: TimerFired, Gen: fx[1].Gen}, c.RetryAt)
	require.Equal(t, HalfOpen, c.State)
	return c
}

// admitN admits n calls and returns the circuit and the effect kinds.
func admitN(c Circuit, n int, now time.Time) (Circuit, []EffectKind) {
	var kinds []EffectKind
	var fx []Effect
	for range n {
		c, fx = applyTo(c, Event{Kind: Admit}, now, fx[:0])
		kinds = append(kinds, fx[0].Kind)
	}
	return c, kinds
}

// rateOf returns WindowRate(now) as {fails, calls}.
func rateOf(c Circuit, now time.Time) [2]int {
	calls, fails := c.WindowRate(now)
	return [2]int{fails, calls}
}

// reasons lists the reasons of the transitions in fx.
func reasons(fx []Effect) []Reason {
	var rs []Reason
	for _, e := range fx {
		if e.Kind == Moved {
			rs = append(rs, e.Reason)
		}
	}
	return rs
}
