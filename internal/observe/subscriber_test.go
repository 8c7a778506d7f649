package observe

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/tripwire-go/tripwire/state"
)

// gated returns a callback that records each transition and then waits for
// a value on gate, and the collector it records into.
func gated(gate chan struct{}) (func(state.Transition), *collector) {
	c := &collector{}
	return func(t state.Transition) {
		c.add(t)
		<-gate
	}, c
}

func TestOfferDropsBeyondTheBufferAndWarns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber stuck in its callback on a first transition
		log, logs := observedLog()
		gate := make(chan struct{})
		fn, c := gated(gate)
		s := newSubscriber(fn, log)
		s.offer(transition("x", 0), log)
		synctest.Wait()
		require.Len(t, c.all(), 1)

		// When its buffer fills, nothing is dropped nor logged
		for n := 1; n <= SubscriberBuffer; n++ {
			s.offer(transition("x", n), log)
		}
		require.Zero(t, s.dropped)
		require.Zero(t, logs.Len())

		// When one more comes, it is dropped and warned about
		s.offer(transition("y", SubscriberBuffer+1), log)
		require.EqualValues(t, 1, s.dropped)
		warns := logs.FilterMessage("subscriber falling behind: transitions dropped").All()
		require.Len(t, warns, 1)
		require.Equal(t, zapcore.WarnLevel, warns[0].Level)
		require.Equal(t, map[string]any{"key": "y", "dropped": int64(1)}, warns[0].ContextMap())

		// When SubscriberBuffer-1 more are dropped, one more warning says so
		for n := range SubscriberBuffer - 1 {
			s.offer(transition("x", n), log)
		}
		require.EqualValues(t, SubscriberBuffer, s.dropped)
		warns = logs.FilterMessageSnippet("subscriber falling behind").All()
		require.Len(t, warns, 2)
		require.EqualValues(t, SubscriberBuffer, warns[1].ContextMap()["dropped"])

		// When it catches up, it got the first one and its full buffer,
		// in order, and the next one is taken again with the count reset
		close(gate)
		synctest.Wait()
		got := c.all()
		require.Len(t, got, 1+SubscriberBuffer)
		for n, tr := range got {
			require.Equal(t, n, tr.Failures, "delivery %d", n)
		}
		s.offer(transition("x", 9999), log)
		require.Zero(t, s.dropped)
		caught := logs.FilterMessage("subscriber caught up: transitions dropped").All()
		require.Len(t, caught, 1, "the run's total, once")
		require.Equal(t, map[string]any{"dropped": int64(SubscriberBuffer)}, caught[0].ContextMap())
		synctest.Wait()
		require.Len(t, c.all(), 2+SubscriberBuffer)

		s.stop()
		require.NoError(t, s.wait(context.Background()))
	})
}

func TestPanickingCallbackIsLoggedAndTheNextOneDelivered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber whose callback panics on every transition
		log, logs := observedLog()
		c := &collector{}
		s := newSubscriber(func(tr state.Transition) {
			c.add(tr)
			panic(tr.Failures)
		}, log)

		// When two transitions are offered
		s.offer(transition("x", 0), log)
		s.offer(transition("x", 1), log)
		synctest.Wait()

		// Then both were delivered and both panics logged at Error
		require.Len(t, c.all(), 2)
		lines := logs.FilterMessage("subscriber panicked").All()
		require.Len(t, lines, 2)
		for n, e := range lines {
			require.Equal(t, zapcore.ErrorLevel, e.Level)
			require.Equal(t, map[string]any{"key": "x", "panic": int64(n)}, e.ContextMap())
		}
		s.stop()
		require.NoError(t, s.wait(context.Background()))
	})
}

func TestStopLetsTheRunningCallbackFinishAndSkipsTheRest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber in its callback with two more transitions buffered
		log, _ := observedLog()
		gate := make(chan struct{})
		fn, c := gated(gate)
		s := newSubscriber(fn, log)
		for n := range 3 {
			s.offer(transition("x", n), log)
		}
		synctest.Wait()

		// When it is stopped (twice) and its callback returns
		s.stop()
		s.stop()
		close(gate)

		// Then wait returns, and only the one under way was delivered
		require.NoError(t, s.wait(context.Background()))
		require.Len(t, c.all(), 1)
	})
}

func TestWaitReturnsCtxErrWhileTheCallbackRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a stopped subscriber whose callback is still running
		log, _ := observedLog()
		gate := make(chan struct{})
		fn, _ := gated(gate)
		s := newSubscriber(fn, log)
		s.offer(transition("x", 0), log)
		synctest.Wait()
		s.stop()

		// When wait gets 2 s
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		err := s.wait(ctx)

		// Then it returns the ctx's error after those 2 s
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Equal(t, 2*time.Second, time.Since(start))
		close(gate)
		require.NoError(t, s.wait(context.Background()))
	})
}

func TestARunOfDropsIsReportedWithItsTotal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber stuck in its callback with its buffer full
		log, logs := observedLog()
		gate := make(chan struct{})
		fn, c := gated(gate)
		s := newSubscriber(fn, log)
		for n := range 1 + SubscriberBuffer {
			s.offer(transition("x", n), log)
			synctest.Wait()
		}

		// When five are dropped, then it catches up and takes one more
		for n := range 5 {
			s.offer(transition("x", n), log)
		}
		close(gate)
		synctest.Wait()
		s.offer(transition("x", 0), log)

		// Then one warning said it fell behind, and one how many it lost
		require.Len(t, logs.FilterMessageSnippet("subscriber falling behind").All(), 1)
		caught := logs.FilterMessage("subscriber caught up: transitions dropped").All()
		require.Len(t, caught, 1)
		require.Equal(t, zapcore.WarnLevel, caught[0].Level)
		require.EqualValues(t, 5, caught[0].ContextMap()["dropped"])
		synctest.Wait()
		require.Len(t, c.all(), 2+SubscriberBuffer)

		s.stop()
		require.NoError(t, s.wait(context.Background()))
	})
}

func TestAStopAfterFinishDeliversNoMore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber in its callback with ten transitions queued,
		// told to finish (the registry shuts down)
		log, _ := observedLog()
		gate := make(chan struct{})
		fn, c := gated(gate)
		s := newSubscriber(fn, log)
		for n := range 10 {
			s.offer(transition("x", n), log)
		}
		synctest.Wait()
		s.finish()

		// When it is stopped (its unsubscribe), and the callback returns
		s.stop()
		close(gate)
		require.NoError(t, s.wait(context.Background()))

		// Then the callback ran for the first transition only
		require.Len(t, c.all(), 1)
	})
}
