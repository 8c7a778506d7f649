package state

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Regression: with no Max, Multiplier^Reopens overflowed float64 to +Inf, and
// Jitter 1 with r=0 made Inf*0 = NaN: a negative open time.
func TestOpenTimeIsNeverNegativeWhenTheBackoffOverflows(t *testing.T) {
	s := Settings{Threshold: 1, OpenTimeout: time.Second, Backoff: Backoff{Multiplier: 2, Jitter: 1}}
	// Given a half-open circuit that re-opened 1100 times
	c := Circuit{Settings: ptr(s), State: HalfOpen, Gen: gen(3), OpenedAt: t0, RetryAt: t0.Add(math.MaxInt64),
		Probes: 1, Reopens: 1099}
	// When its probe fails with jitter draw 0
	c, fx := step(c, Event{Kind: Failed, Gen: gen(3), Rand: 0}, t0)
	// Then the open time is not negative
	require.GreaterOrEqual(t, fx[1].After, time.Duration(0))
	require.False(t, c.RetryAt.Before(c.OpenedAt), "RetryAt %v before OpenedAt %v", c.RetryAt, c.OpenedAt)
}
