package actor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestACallersClockReadsTheTimeFromAFullReadingASecondOldAtMost(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a caller's clock, read now
		require.True(t, k.Now().Equal(time.Now()))
		base := k.clock.Load()

		// When less than a second passes, Then it tells the time from the
		// same full reading
		time.Sleep(999 * time.Millisecond)
		require.True(t, k.Now().Equal(time.Now()))
		require.Same(t, base, k.clock.Load())

		// When a second has passed, Then it takes a full reading again
		time.Sleep(time.Millisecond)
		require.True(t, k.Now().Equal(time.Now()))
		require.NotSame(t, base, k.clock.Load())
	})
}

func TestACallersClockKeepsAMonotonicReading(t *testing.T) {
	k := &Caller{born: time.Now()}
	base := k.born
	k.clock.Store(&base)
	// Read off the real clock: it has a monotonic reading (m=+...), so
	// deadlines and latencies from it ignore changes of the wall clock
	now := k.Now()
	require.Contains(t, now.String(), "m=+")
	require.False(t, now.Before(base))
}
