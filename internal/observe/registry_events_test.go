package observe_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// want is what a test expects of one transition.
type want struct {
	from, to state.State
	reason   state.Reason
	fresh    bool
	at       time.Time
	failures int
}

func requireTransitions(t *testing.T, key string, wants []want, got []state.Transition) {
	t.Helper()
	require.Len(t, got, len(wants), "transitions of %q: %+v", key, got)
	for i, w := range wants {
		g := got[i]
		what := fmt.Sprintf("transition %d of %q (%v -> %v)", i, key, g.From, g.To)
		require.Equal(t, key, g.Key, what)
		require.Equal(t, w.from, g.From, what)
		require.Equal(t, w.to, g.To, what)
		require.Equal(t, w.reason, g.Reason, what)
		require.Equal(t, w.fresh, g.Fresh, what)
		require.Equal(t, w.failures, g.Failures, what)
		requireSameInstant(t, w.at, g.At, what)
	}
}

// cycle drives key through trip, half-open, failed probe, half-open and a
// successful probe, and returns what Subscribe should have seen.
func cycle(t *testing.T, r *rig, key string) []want {
	t.Helper()
	opened := r.trip(t, key)
	half := r.halfOpen(t, key, opened)
	time.Sleep(time.Second)
	require.ErrorIs(t, r.call(key, msgFail), errBoom)
	reopened := time.Now()
	half2 := r.halfOpen(t, key, reopened)
	time.Sleep(2 * time.Second)
	require.NoError(t, r.call(key, msgOK))
	closed := time.Now()
	synctest.Wait()
	return []want{
		{state.Closed, state.Open, state.ReasonThreshold, true, opened, threshold},
		{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, half, threshold},
		{state.HalfOpen, state.Open, state.ReasonProbeFailed, false, reopened, threshold + 1},
		{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, half2, threshold + 1},
		{state.HalfOpen, state.Closed, state.ReasonProbeSucceeded, false, closed, 0},
	}
}

func TestSubscribeGetsEveryTransitionInOrder(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber
		var rec recorder
		defer r.reg.Subscribe(rec.add)()

		// When the circuit goes through a whole cycle
		wants := cycle(t, r, "k")

		// Then the subscriber got each change once, in order, with its
		// reason, the fake time it happened at and the failure count; only
		// the first trip is fresh
		got := rec.all()
		requireTransitions(t, "k", wants, got)
		// And the close says how long the circuit was not closed
		require.Equal(t, wants[4].at.Sub(wants[0].at), got[4].OpenFor)
	})
}

func TestSubscribeKeepsEachKeysOrderAcrossKeys(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber and two keys
		r.register(t, "other")
		var rec recorder
		defer r.reg.Subscribe(rec.add)()

		// When "k" trips, then "other" trips, then both half-open, "k"
		// re-trips and "other" closes
		kOpened := r.trip(t, "k")
		time.Sleep(time.Second)
		otherOpened := r.trip(t, "other")
		kHalf := r.halfOpen(t, "k", kOpened)
		otherHalf := r.halfOpen(t, "other", otherOpened)
		require.ErrorIs(t, r.call("k", msgFail), errBoom)
		require.NoError(t, r.call("other", msgOK))
		now := time.Now()
		synctest.Wait()

		// Then each key's transitions arrive in that key's order
		byKey := map[string][]state.Transition{}
		for _, tr := range rec.all() {
			byKey[tr.Key] = append(byKey[tr.Key], tr)
		}
		require.Len(t, byKey, 2)
		requireTransitions(t, "k", []want{
			{state.Closed, state.Open, state.ReasonThreshold, true, kOpened, threshold},
			{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, kHalf, threshold},
			{state.HalfOpen, state.Open, state.ReasonProbeFailed, false, now, threshold + 1},
		}, byKey["k"])
		requireTransitions(t, "other", []want{
			{state.Closed, state.Open, state.ReasonThreshold, true, otherOpened, threshold},
			{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, otherHalf, threshold},
			{state.HalfOpen, state.Closed, state.ReasonProbeSucceeded, false, now, 0},
		}, byKey["other"])
	})
}

func TestSubscribeReportsProbeTimeoutAndRestart(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber and a half-open circuit
		var rec recorder
		defer r.reg.Subscribe(rec.add)()
		opened := r.trip(t, "k")
		half := r.halfOpen(t, "k", opened)

		// When its probe times out, and then its breaker crashes while open
		probed := time.Now()
		require.ErrorIs(t, r.call("k", msgWait), tripwire.ErrTimeout)
		reopened := time.Now()
		require.Equal(t, callTimeout, reopened.Sub(probed))
		time.Sleep(time.Second)
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		restarted := time.Now()
		synctest.Wait()

		// Then the re-trip says probe_timeout and the restart says restarted
		requireTransitions(t, "k", []want{
			{state.Closed, state.Open, state.ReasonThreshold, true, opened, threshold},
			{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, half, threshold},
			{state.HalfOpen, state.Open, state.ReasonProbeTimeout, false, reopened, threshold + 1},
			{state.Open, state.Closed, state.ReasonRestarted, false, restarted, 0},
		}, rec.all())
		r.requireState(t, "k", state.Closed)
	})
}

func TestBlockedSubscriberDelaysNeitherCallsNorOtherSubscribers(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber that blocks on its first transition until
		// released, and a second subscriber
		release := make(chan struct{})
		blocked := make(chan state.Transition, 1)
		defer r.reg.Subscribe(func(tr state.Transition) {
			select {
			case blocked <- tr:
			default:
			}
			<-release
		})()
		var rec recorder
		defer r.reg.Subscribe(rec.add)()

		// When the circuit goes through a whole cycle while the first one
		// is stuck in its callback, every call returns in zero fake time
		for range threshold {
			start := time.Now()
			require.ErrorIs(t, r.call("k", msgFail), errBoom)
			require.Zero(t, time.Since(start))
		}
		synctest.Wait()
		first := <-blocked
		require.Equal(t, state.ReasonThreshold, first.Reason, "the first subscriber is not blocked")
		r.halfOpen(t, "k", first.At)
		start := time.Now()
		require.NoError(t, r.call("k", msgOK))
		require.Zero(t, time.Since(start))
		synctest.Wait()

		// Then the second subscriber got every transition
		got := rec.all()
		require.Len(t, got, 3)
		require.Equal(t, state.Closed, got[2].To)
		close(release)
	})
}

func TestEventStreamGetsTheSameTransitions(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given an actor-system EventStream subscriber to *state.Transition
		// and a Subscribe callback
		var fromStream recorder
		sub := r.sys.EventStream.SubscribeWithPredicate(func(evt any) {
			fromStream.add(*evt.(*state.Transition))
		}, func(evt any) bool {
			_, ok := evt.(*state.Transition)
			return ok
		})
		defer r.sys.EventStream.Unsubscribe(sub)
		var fromSubscribe recorder
		defer r.reg.Subscribe(fromSubscribe.add)()

		// When the circuit goes through a whole cycle
		wants := cycle(t, r, "k")

		// Then the EventStream got the same transitions, in the same order
		requireTransitions(t, "k", wants, fromStream.all())
		require.Equal(t, fromSubscribe.all(), fromStream.all())
	})
}

func TestEventStreamPublishesPointers(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given an EventStream subscriber to everything
		events := make(chan any, 16)
		sub := r.sys.EventStream.Subscribe(eventstream.Handler(func(evt any) {
			if _, ok := evt.(state.Transition); ok {
				events <- evt
			}
			if _, ok := evt.(*state.Transition); ok {
				events <- evt
			}
		}))
		defer r.sys.EventStream.Unsubscribe(sub)

		// When the circuit trips
		r.trip(t, "k")

		// Then one *state.Transition was published, not a value
		require.Len(t, events, 1)
		tr, ok := (<-events).(*state.Transition)
		require.True(t, ok, "published a state.Transition value, want a pointer")
		require.Equal(t, state.Open, tr.To)
	})
}

func TestUnsubscribeStopsDelivery(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given two subscribers that both saw the trip
		var gone, stays recorder
		unsubscribe := r.reg.Subscribe(gone.add)
		defer r.reg.Subscribe(stays.add)()
		opened := r.trip(t, "k")
		require.Len(t, gone.all(), 1)

		// When the first unsubscribes (twice: the second call does nothing)
		// and the circuit half-opens
		unsubscribe()
		unsubscribe()
		r.halfOpen(t, "k", opened)

		// Then only the other one hears of it
		require.Len(t, gone.all(), 1)
		require.Len(t, stays.all(), 2)
	})
}

func TestPanickingSubscriberIsLoggedAndKeepsReceiving(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber that panics on every transition
		var rec recorder
		defer r.reg.Subscribe(func(tr state.Transition) {
			rec.add(tr)
			panic("subscriber bug")
		})()

		// When the circuit trips and half-opens
		r.halfOpen(t, "k", r.trip(t, "k"))

		// Then it got both transitions and each panic was logged at Error
		require.Len(t, rec.all(), 2)
		lines := r.logs.FilterMessage("subscriber panicked").All()
		require.Len(t, lines, 2)
		for _, e := range lines {
			require.Equal(t, zapcore.ErrorLevel, e.Level)
			require.Equal(t, "k", e.ContextMap()["key"])
			require.Equal(t, "subscriber bug", e.ContextMap()["panic"])
		}
	})
}

func TestSubscriberFallingBehindIsWarnedAndBounded(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a key that opens on one failure and half-opens after 1 ms
		// (probed 2 ms after each trip: no tie with the timer), and a
		// subscriber that blocks on its first transition
		require.NoError(t, r.reg.Register(context.Background(), "flap", tripwire.Func(r.target),
			tripwire.Settings{Threshold: 1, OpenTimeout: time.Millisecond, CallTimeout: callTimeout}))
		release := make(chan struct{})
		var rec recorder
		defer r.reg.Subscribe(func(tr state.Transition) {
			rec.add(tr)
			<-release
		})()

		// When far more than 1024 transitions happen while it is blocked
		const failedProbes = 1500
		require.ErrorIs(t, r.call("flap", msgFail), errBoom)
		for range failedProbes {
			time.Sleep(2 * time.Millisecond)
			require.ErrorIs(t, r.call("flap", msgFail), errBoom)
		}
		synctest.Wait()
		const total = 1 + 2*failedProbes

		// Then it is warned about, with the number of transitions it missed
		warns := r.logs.FilterMessageSnippet("subscriber falling behind").All()
		require.NotEmpty(t, warns)
		require.Equal(t, zapcore.WarnLevel, warns[0].Level)
		require.EqualValues(t, 1, warns[0].ContextMap()["dropped"])
		require.Equal(t, "flap", warns[0].ContextMap()["key"])

		// And once released it gets the one it was blocked on plus a bounded
		// backlog, in order, not all of them
		close(release)
		synctest.Wait()
		got := rec.all()
		require.Len(t, got, 1+1024)
		require.Less(t, len(got), total)
		for i, tr := range got {
			require.Equal(t, i%2 == 0, tr.To == state.Open, "transition %d: %v", i, tr.To)
		}

		// And having caught up it gets the next transitions again
		time.Sleep(2 * time.Millisecond)
		synctest.Wait()
		got = rec.all()
		require.Len(t, got, 1+1024+1)
		require.Equal(t, state.HalfOpen, got[len(got)-1].To)
	})
}

func TestSubscribeNilAndAfterShutdownReturnNoOps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a registry
		r := newRig(t)

		// When Subscribe gets nil
		unsubscribe := r.reg.Subscribe(nil)

		// Then it returns a func that does nothing, and nothing breaks on a trip
		require.NotNil(t, unsubscribe)
		unsubscribe()
		r.trip(t, "k")

		// When Subscribe is called after Shutdown
		r.shutdown(t)
		called := false
		unsubscribe = r.reg.Subscribe(func(state.Transition) { called = true })

		// Then it returns a func that does nothing either
		require.NotNil(t, unsubscribe)
		unsubscribe()
		unsubscribe()
		synctest.Wait()
		require.False(t, called)
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

func TestShutdownWaitsForSubscribers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber that takes 5 s over each transition
		r := newRig(t)
		var finished recorder
		r.reg.Subscribe(func(tr state.Transition) {
			time.Sleep(5 * time.Second)
			finished.add(tr)
		})
		r.trip(t, "k")

		// When the registry shuts down while it is busy
		start := time.Now()
		require.NoError(t, r.reg.Shutdown(context.Background()))

		// Then Shutdown returned only once the callback had finished
		require.Len(t, finished.all(), 1)
		require.Equal(t, 5*time.Second, time.Since(start))
		r.sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

func TestShutdownGivesUpOnAStuckSubscriberWhenCtxEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber stuck in its callback
		r := newRig(t)
		release := make(chan struct{})
		r.reg.Subscribe(func(state.Transition) { <-release })
		r.trip(t, "k")

		// When the registry shuts down with a 2 s budget
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		err := r.reg.Shutdown(ctx)

		// Then Shutdown waited the 2 s for it and reports the context's error
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Equal(t, 2*time.Second, time.Since(start))
		// And the callback's goroutine ends once the callback returns
		close(release)
		r.sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

func TestAnOperatorsCloseSaysHowLongTheCircuitWasOpen(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a subscriber, and a circuit tripped 2 s ago
		var rec recorder
		defer r.reg.Subscribe(rec.add)()
		r.trip(t, "k")
		time.Sleep(2 * time.Second)

		// When an operator closes it
		require.NoError(t, r.reg.Reset(context.Background(), "k"))
		synctest.Wait()

		// Then the close carries OpenFor too
		got := rec.all()
		require.Len(t, got, 2)
		require.Equal(t, state.ReasonReset, got[1].Reason)
		require.Equal(t, 2*time.Second, got[1].OpenFor)
	})
}
