package tripwire_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Settings of the timing tests: the breaker opens on the 3rd consecutive
// failure, half-opens 10 s later, and a call may take 1 s.
const (
	threshold   = 3
	openTimeout = 10 * time.Second
	callTimeout = time.Second
)

// inBubble runs body in fake time against a registry whose key "k" is served
// by a scripted function target, then shuts everything down.
func inBubble(t *testing.T, body func(t *testing.T, reg *tripwire.Registry, target *scripted)) {
	synctest.Test(t, func(t *testing.T) {
		sys := newSystem()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		require.NoError(t, err)
		target := newScripted()
		require.NoError(t, reg.Register(context.Background(), "k", target.target(), tripwire.Settings{
			Threshold: threshold, OpenTimeout: openTimeout, CallTimeout: callTimeout,
		}))

		body(t, reg, target)

		target.unblock()
		endBubble(t, reg, sys)
	})
}

// stateAfterIdle returns key's state once every goroutine of the bubble has
// settled, so the breaker has published what it decided.
func stateAfterIdle(t *testing.T, reg *tripwire.Registry) state.State {
	t.Helper()
	synctest.Wait()
	st, err := reg.State("k")
	require.NoError(t, err)
	return st
}

// trip makes threshold failing calls and returns the moment the breaker opened.
func trip(t *testing.T, reg *tripwire.Registry, target *scripted) time.Time {
	t.Helper()
	target.mode.Store(fail)
	for range threshold {
		_, err := reg.Call(context.Background(), "k", "x")
		require.ErrorIs(t, err, errBoom)
	}
	require.Equal(t, state.Open, stateAfterIdle(t, reg))
	return time.Now()
}

func TestOpensOnTheNthFailureNotBefore(t *testing.T) {
	inBubble(t, func(t *testing.T, reg *tripwire.Registry, target *scripted) {
		// Given a target that fails
		target.mode.Store(fail)

		// When threshold-1 calls fail, the circuit stays closed
		for i := 1; i < threshold; i++ {
			_, err := reg.Call(context.Background(), "k", "x")
			require.ErrorIs(t, err, errBoom)
			require.Equal(t, state.Closed, stateAfterIdle(t, reg), "open after %d failures", i)
		}

		// When the threshold-th call fails
		_, err := reg.Call(context.Background(), "k", "x")

		// Then that call gets its own error, and the circuit is open
		require.ErrorIs(t, err, errBoom)
		require.NotErrorIs(t, err, tripwire.ErrOpen)
		require.Equal(t, state.Open, stateAfterIdle(t, reg))
		s, err := reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		require.Equal(t, threshold, s.Failures)
		_, err = reg.Call(context.Background(), "k", "x")
		require.ErrorIs(t, err, tripwire.ErrOpen)
		require.EqualValues(t, threshold, target.calls.Load(), "an open circuit called the target")
	})
}

func TestHalfOpensExactlyOpenTimeoutAfterOpening(t *testing.T) {
	inBubble(t, func(t *testing.T, reg *tripwire.Registry, target *scripted) {
		// Given a circuit that opened just now
		opened := trip(t, reg, target)
		s, err := reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		require.Equal(t, opened, s.OpenedAt)
		require.Equal(t, opened.Add(openTimeout), s.RetryAt)

		// When OpenTimeout-1ms passes, it is still open
		time.Sleep(openTimeout - time.Millisecond)
		require.Equal(t, state.Open, stateAfterIdle(t, reg))

		// When 2 ms more pass without any call
		time.Sleep(2 * time.Millisecond)

		// Then it is half-open by itself, and the target was not called
		require.Equal(t, state.HalfOpen, stateAfterIdle(t, reg))
		require.EqualValues(t, threshold, target.calls.Load())
	})
}

func TestTimedOutProbeReopensAndRestartsTheTimer(t *testing.T) {
	inBubble(t, func(t *testing.T, reg *tripwire.Registry, target *scripted) {
		// Given a half-open circuit and a target that hangs
		trip(t, reg, target)
		time.Sleep(openTimeout + time.Millisecond)
		require.Equal(t, state.HalfOpen, stateAfterIdle(t, reg))
		target.mode.Store(hang)

		// When the probe times out
		start := time.Now()
		_, err := reg.Call(context.Background(), "k", "probe")
		require.ErrorIs(t, err, tripwire.ErrTimeout)
		require.Equal(t, callTimeout, time.Since(start))
		reopened := time.Now()

		// Then the circuit is open again, opened at the probe's timeout
		require.Equal(t, state.Open, stateAfterIdle(t, reg))
		s, err := reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		require.Equal(t, reopened, s.OpenedAt)
		require.Equal(t, reopened.Add(openTimeout), s.RetryAt)

		// And it half-opens OpenTimeout after that moment, not earlier
		time.Sleep(openTimeout - time.Millisecond)
		require.Equal(t, state.Open, stateAfterIdle(t, reg))
		time.Sleep(2 * time.Millisecond)
		require.Equal(t, state.HalfOpen, stateAfterIdle(t, reg))
	})
}

func TestHungTargetTimesOutAtTheDeadline(t *testing.T) {
	tests := []struct {
		name    string
		ctxWait time.Duration // 0: no deadline on the context
		want    time.Duration
	}{
		{"CallTimeout without a context deadline", 0, callTimeout},
		{"an earlier context deadline wins", 300 * time.Millisecond, 300 * time.Millisecond},
		{"an earlier CallTimeout wins", 5 * time.Second, callTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T, reg *tripwire.Registry, target *scripted) {
				// Given a target that ignores its context and never returns
				target.mode.Store(hang)
				ctx := context.Background()
				if tt.ctxWait > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.ctxWait)
					defer cancel()
				}

				// When a call is made
				start := time.Now()
				_, err := reg.Call(ctx, "k", "x")

				// Then it returns ErrTimeout exactly at its deadline, and the
				// timeout counts as a failure
				require.Equal(t, tt.want, time.Since(start))
				require.ErrorIs(t, err, tripwire.ErrTimeout)
				require.True(t, errors.Is(err, context.DeadlineExceeded))
				synctest.Wait()
				s, err := reg.Snapshot(context.Background(), "k")
				require.NoError(t, err)
				require.Equal(t, 1, s.Failures)
				require.Zero(t, s.InFlight)
			})
		})
	}
}
