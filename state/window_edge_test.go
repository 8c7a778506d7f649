package state

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Regression: with the zero Window, WindowRate fell through to the time-window
// path and divided by Buckets (0).
func TestWindowRateWithoutAWindowIsZero(t *testing.T) {
	// Given a circuit of the default (consecutive) policy
	c := newCircuit(Settings{Threshold: 3, OpenTimeout: 10 * time.Second}, 7)
	// When its window rate is read
	// Then it is 0 calls, 0 failures, without a panic
	require.NotPanics(t, func() {
		calls, fails := c.WindowRate(t0)
		require.Zero(t, calls)
		require.Zero(t, fails)
	})
}

// tripped compares fails >= FailureRate*calls in floating point: 0.07*100 is
// 7.000000000000001, so 7 failures of 100 calls do not "reach" a 7% rate.
// fails/calls (correctly rounded, so equal to the literal rate) would.
func TestCountWindowTripsWhenTheRateIsReachedExactly(t *testing.T) {
	for _, tt := range []struct {
		size  int
		rate  float64
		fails int
	}{{100, 0.07, 7}, {50, 0.14, 7}, {25, 0.28, 7}, {100, 0.55, 55}} {
		// Given a count window of size calls that trips at rate
		c := newCircuit(windowSettings(Window{Size: tt.size, MinCalls: tt.size, FailureRate: tt.rate}), 7)
		// When size-fails successes and then fails failures arrive
		c, fx := feed(t, c, t0, strings.Repeat("S", tt.size-tt.fails)+strings.Repeat("F", tt.fails))
		// Then the last failure brings the rate to exactly FailureRate and trips
		require.Equal(t, [2]int{tt.fails, tt.size}, rateOf(c, t0))
		require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx), "%d of %d failed at rate %v", tt.fails, tt.size, tt.rate)
	}
}

// Window's doc: "the circuit opens once at least MinCalls were recorded and
// the share of failures reaches FailureRate". recordClosed only checks the
// window after a failure, so when the call that reaches MinCalls is a
// success the circuit stays closed at a rate above FailureRate until the
// next failure (resilience4j opens here). Either the check or the doc
// should change.
func TestWindowTripsWhenASuccessReachesMinCalls(t *testing.T) {
	// Given a count window that needs 4 calls and trips at 50%
	c := newCircuit(windowSettings(Window{Size: 10, MinCalls: 4, FailureRate: 0.5}), 7)
	// When 3 failures and then a success arrive
	c, fx := feed(t, c, t0, "FFFS")
	// Then 3 of 4 calls failed, MinCalls is reached, and the circuit is open
	require.Equal(t, [2]int{3, 4}, rateOf(c, t0))
	require.Equal(t, Open, c.State)
	require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx))
}
