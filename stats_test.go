package tripwire_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// statsBubble runs body in fake time against key "k", a function target
// that sleeps for the duration it is sent, and for a negative one d fails
// after -d-1 (at once for -1).
func statsBubble(t *testing.T, s tripwire.Settings, body func(t *testing.T, reg *tripwire.Registry)) {
	synctest.Test(t, func(t *testing.T) {
		sys := newSystem()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		require.NoError(t, err)
		target := tripwire.Func(func(ctx context.Context, d time.Duration) (string, error) {
			if d < 0 { // fails, after -d-1
				select {
				case <-time.After(-d - 1):
					return "", errBoom
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}
			select {
			case <-time.After(d):
				return "ok", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		})
		require.NoError(t, reg.Register(context.Background(), "k", target, s))
		body(t, reg)
		endBubble(t, reg, sys)
	})
}

func snap(t *testing.T, reg *tripwire.Registry) tripwire.Snapshot {
	t.Helper()
	synctest.Wait()
	s, err := reg.Snapshot(context.Background(), "k")
	require.NoError(t, err)
	return s
}

func TestStatsCountEveryEndAndRollOff(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 3, OpenTimeout: time.Minute, CallTimeout: time.Second},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx := context.Background()
			// Given 8 successes of 10 ms and 2 of 100 ms
			for range 8 {
				_, err := reg.Call(ctx, "k", 10*time.Millisecond)
				require.NoError(t, err)
			}
			for range 2 {
				_, err := reg.Call(ctx, "k", 100*time.Millisecond)
				require.NoError(t, err)
			}
			// And a call that times out, one its caller cancels, and two
			// failures that trip the circuit
			_, err := reg.Call(ctx, "k", time.Hour)
			require.ErrorIs(t, err, tripwire.ErrTimeout)
			cctx, cancel := context.WithCancel(ctx)
			go func() { time.Sleep(time.Millisecond); cancel() }()
			_, err = reg.Call(cctx, "k", time.Hour)
			require.ErrorIs(t, err, context.Canceled)
			for range 2 {
				_, err = reg.Call(ctx, "k", time.Duration(-1))
				require.ErrorIs(t, err, errBoom)
			}
			// And three callers rejected while it is open
			for range 3 {
				_, err = reg.Call(ctx, "k", time.Duration(0))
				require.ErrorIs(t, err, tripwire.ErrOpen)
			}

			// Then the snapshot counts each end once
			s := snap(t, reg)
			want := state.Counts{Calls: 17, Successes: 10, Failures: 3, Timeouts: 1, Rejected: 3, Canceled: 1}
			require.Equal(t, want, s.Stats.Recent)
			require.Equal(t, want, s.Stats.Total)
			require.InDelta(t, 100*3.0/13, s.Stats.ErrorPercent, 1e-9)
			// Latency of the 13 calls the target ran: p50 10 ms, p90 100 ms,
			// max the timeout's 1 s, each within 12.5%
			require.EqualValues(t, 13, s.Stats.Latency.Calls)
			require.InEpsilon(t, float64(10*time.Millisecond), float64(s.Stats.Latency.P50), 0.125)
			require.InEpsilon(t, float64(100*time.Millisecond), float64(s.Stats.Latency.P90), 0.125)
			require.Equal(t, time.Second, s.Stats.Latency.Max)
			require.Positive(t, s.Stats.CallsPerSecond)
			require.InDelta(t, float64(s.Stats.Recent.Calls)/s.Stats.Window.Seconds(), s.Stats.CallsPerSecond, 1e-9)

			// And a window later the recent counts are gone, the totals stay
			time.Sleep(state.StatsWindow)
			s = snap(t, reg)
			require.Equal(t, state.Counts{}, s.Stats.Recent)
			require.Equal(t, want, s.Stats.Total)
			require.Zero(t, s.Stats.Latency)
			require.InDelta(t, state.StatsWindow.Seconds(), s.Stats.Window.Seconds(), 1)
		})
}

func TestStatsSpreadFastRejectionsOverTheWindow(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx := context.Background()
			_, err := reg.Call(ctx, "k", time.Duration(-1))
			require.ErrorIs(t, err, errBoom)
			// Given 20 s of one rejection every 100 ms, answered by the
			// callers alone (the breaker takes no turn meanwhile)
			for range 200 {
				_, err = reg.Call(ctx, "k", time.Duration(0))
				require.ErrorIs(t, err, tripwire.ErrOpen)
				time.Sleep(100 * time.Millisecond)
			}
			// Then the window holds about its share (10 of the 20 s), and the
			// totals all of them
			s := snap(t, reg)
			require.EqualValues(t, 200, s.Stats.Total.Rejected)
			require.InDelta(t, 100, float64(s.Stats.Recent.Rejected), 12)
			require.InDelta(t, 10, s.Stats.RejectedPerSecond, 1.5)
		})
}

func TestOverloadedCallsAreCounted(t *testing.T) {
	statsBubble(t, tripwire.Settings{MaxInFlight: 1, CallTimeout: time.Minute},
		func(t *testing.T, reg *tripwire.Registry) {
			done := make(chan error)
			go func() {
				_, err := reg.Call(context.Background(), "k", time.Second)
				done <- err
			}()
			synctest.Wait()
			_, err := reg.Call(context.Background(), "k", time.Duration(0))
			require.ErrorIs(t, err, tripwire.ErrOverloaded)
			require.NoError(t, <-done)
			s := snap(t, reg)
			require.Equal(t, state.Counts{Calls: 2, Successes: 1, Overloaded: 1}, s.Stats.Total)
		})
}

func TestACallerDeadlineShorterThanCallTimeoutIsATimeoutFailure(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 1, CallTimeout: time.Minute, OpenTimeout: time.Hour},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, err := reg.Call(ctx, "k", time.Hour)
			require.ErrorIs(t, err, tripwire.ErrTimeout)
			s := snap(t, reg)
			require.Equal(t, state.Open, s.State)
			require.Equal(t, state.Counts{Calls: 1, Failures: 1, Timeouts: 1}, s.Stats.Total)
		})
}

func TestOpenErrorCarriesTheFailureThatOpenedIt(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 1, CallTimeout: time.Second, OpenTimeout: time.Second},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx := context.Background()
			// Given a circuit opened by a timeout
			_, err := reg.Call(ctx, "k", time.Hour)
			require.ErrorIs(t, err, tripwire.ErrTimeout)
			// Then its rejections carry the timeout as their cause, and are
			// not themselves a deadline error
			_, err = reg.Call(ctx, "k", time.Duration(0))
			var oe *state.OpenError
			require.ErrorAs(t, err, &oe)
			require.ErrorIs(t, oe.Cause, tripwire.ErrTimeout)
			require.False(t, errors.Is(err, context.DeadlineExceeded))
			require.NotErrorIs(t, err, tripwire.ErrTimeout)

			// And after its probe fails with the target's error, that is the
			// cause of the re-opened circuit's rejections
			time.Sleep(time.Second)
			synctest.Wait() // the breaker half-opened
			_, err = reg.Call(ctx, "k", time.Duration(-1))
			require.ErrorIs(t, err, errBoom)
			_, err = reg.Call(ctx, "k", time.Duration(0))
			require.ErrorAs(t, err, &oe)
			require.ErrorIs(t, oe.Cause, errBoom)

			// And a forced open has none
			require.NoError(t, reg.Reset(context.Background(), "k"))
			require.NoError(t, reg.ForceOpen(context.Background(), "k"))
			_, err = reg.Call(ctx, "k", time.Duration(0))
			require.ErrorAs(t, err, &oe)
			require.NoError(t, oe.Cause)
		})
}

func TestSnapshotReportsForcingReasonTimeInStateAndSettings(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 2, OpenTimeout: time.Second, CallTimeout: 200 * time.Millisecond},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx := context.Background()
			for range 2 {
				_, err := reg.Call(ctx, "k", time.Duration(-1))
				require.ErrorIs(t, err, errBoom)
			}
			time.Sleep(3 * time.Second / 2) // half-open after 1 s
			_, err := reg.Call(ctx, "k", time.Duration(-1))
			require.ErrorIs(t, err, errBoom)
			time.Sleep(100 * time.Millisecond)

			s := snap(t, reg)
			require.Equal(t, state.Open, s.State)
			require.Equal(t, state.ReasonProbeFailed, s.Reason)
			require.Equal(t, 1, s.Reopens)
			require.Equal(t, 3, s.Failures)
			require.Equal(t, 100*time.Millisecond, s.InState)
			require.Equal(t, state.NotForced, s.Forced)
			// the effective settings, defaults filled in
			require.Equal(t, 2, s.Settings.Threshold)
			require.Equal(t, 200*time.Millisecond, s.Settings.CallTimeout)
			require.Equal(t, 1, s.Settings.HalfOpenProbes)

			require.NoError(t, reg.ForceClose(context.Background(), "k"))
			s = snap(t, reg)
			require.Equal(t, state.ForcedClosed, s.Forced)
			require.Equal(t, state.ReasonForcedClosed, s.Reason)
			require.Zero(t, s.Reopens)

			// And the whole snapshot is JSON, states and forcing by name
			b, err := json.Marshal(s)
			require.NoError(t, err)
			require.Contains(t, string(b), `"state":"closed"`)
			require.Contains(t, string(b), `"forced":"forced_closed"`)
		})
}

func TestSnapshotReportsTheFailureRateWindow(t *testing.T) {
	w := state.Window{Size: 10, MinCalls: 10, FailureRate: 0.5}
	statsBubble(t, tripwire.Settings{Window: w}, func(t *testing.T, reg *tripwire.Registry) {
		ctx := context.Background()
		for i := range 4 {
			d := time.Duration(0)
			if i%2 == 0 {
				d = -1
			}
			_, _ = reg.Call(ctx, "k", d)
		}
		s := snap(t, reg)
		require.Equal(t, 4, s.WindowCalls)
		require.Equal(t, 2, s.WindowFailures)
		require.InDelta(t, 0.5, s.FailureRate, 1e-9)
		require.Equal(t, 0, s.Failures) // the last call succeeded
	})
}

func TestACrashOfAClosedBreakerIsATransition(t *testing.T) {
	statsBubble(t, tripwire.Settings{}, func(t *testing.T, reg *tripwire.Registry) {
		got := make(chan state.Transition, 4)
		defer reg.Subscribe(func(tr state.Transition) { got <- tr })()
		_, err := reg.Call(context.Background(), "k", time.Duration(0))
		require.NoError(t, err)
		require.NoError(t, tripwiretest.Crash(context.Background(), reg, "k"))
		synctest.Wait()
		tr := <-got
		require.Equal(t, state.Closed, tr.From)
		require.Equal(t, state.Closed, tr.To)
		require.Equal(t, state.ReasonRestarted, tr.Reason)
		s := snap(t, reg)
		require.Equal(t, state.ReasonRestarted, s.Reason)
		require.Equal(t, 1, s.Restarts)
		require.EqualValues(t, 1, s.Stats.Total.Successes) // a crash keeps the statistics
	})
}

func TestUpdateKeepsTheOutcomesOfCallsInFlightAndResetDoesNot(t *testing.T) {
	statsBubble(t, tripwire.Settings{Threshold: 5, CallTimeout: time.Minute},
		func(t *testing.T, reg *tripwire.Registry) {
			ctx := context.Background()
			failLater := func() chan error { // a call that fails a second from now
				done := make(chan error, 1)
				go func() {
					_, err := reg.Call(ctx, "k", -time.Second-1)
					done <- err
				}()
				synctest.Wait()
				return done
			}
			// Given a failure counted, and a failing call in flight while
			// the key is updated to a Threshold of 2
			_, err := reg.Call(ctx, "k", time.Duration(-1))
			require.ErrorIs(t, err, errBoom)
			done := failLater()
			require.NoError(t, reg.Update(context.Background(), "k", tripwire.Settings{Threshold: 2, CallTimeout: time.Minute}))
			// Then its failure counts under the new settings, and opens
			require.ErrorIs(t, <-done, errBoom)
			s := snap(t, reg)
			require.Equal(t, state.Open, s.State)
			require.Equal(t, state.ReasonThreshold, s.Reason)

			// But a call in flight across a Reset counts neither way
			require.NoError(t, reg.Reset(context.Background(), "k"))
			_, err = reg.Call(ctx, "k", time.Duration(-1))
			require.ErrorIs(t, err, errBoom)
			done = failLater()
			require.NoError(t, reg.Reset(context.Background(), "k"))
			require.ErrorIs(t, <-done, errBoom)
			s = snap(t, reg)
			require.Equal(t, state.Closed, s.State)
			require.Zero(t, s.Failures)
		})
}
