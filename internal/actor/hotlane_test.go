package actor

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// statsWidth is the width of an epoch of the statistics' window.
const statsWidth = state.StatsWindow / state.StatsBuckets

// hotAt makes a key hot after n successes of one epoch, for the test.
func hotAt(t *testing.T, n uint32) {
	hotCalls = n
	t.Cleanup(func() { hotCalls = defaultHotCalls })
}

// heat makes r's key hot: hotCalls successes through its breaker's turns.
func (r *rig) heat() {
	for range hotCalls {
		require.NoError(r.t, (<-r.do(context.Background(), "ok")).Err)
	}
	synctest.Wait() // the breaker counts a call after it has answered it
	require.NotNil(r.t, r.cfg.Cell.hot.Load(), "the key did not get a hot lane")
}

// succeed makes n calls that succeed, one after another.
func (r *rig) succeed(n int) {
	for range n {
		res := <-r.do(context.Background(), "ok")
		require.NoError(r.t, res.Err)
		require.Equal(r.t, "ok", res.Value)
	}
}

func TestAHotKeysWorkersCountItsSuccessesEveryOneOnce(t *testing.T) {
	hotAt(t, 4)
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key that got hot in its first epoch
		r.heat()
		require.Zero(t, r.cfg.Cell.hotEnded())

		// When its callers make 20 more calls, then its workers end every
		// one, and its statistics count each once
		r.succeed(20)
		require.EqualValues(t, 20, r.cfg.Cell.hotEnded())
		st := r.fullSnapshot()
		require.Zero(t, st.InFlight)
		require.EqualValues(t, 24, st.Stats.Recent.Successes)
		require.EqualValues(t, 24, st.Stats.Total.Successes)
		require.EqualValues(t, 24, st.Stats.Latency.Calls)

		// And across epochs, including one whose shard slot still holds an
		// epoch the breaker has not taken (its worker hands that success
		// to the breaker, which takes the old epoch), each counts once
		time.Sleep(statsWidth + statsWidth/2)
		r.succeed(10)
		time.Sleep(statsWidth)
		r.succeed(10)
		st = r.fullSnapshot()
		require.EqualValues(t, 44, st.Stats.Recent.Successes)
		require.EqualValues(t, 44, st.Stats.Total.Successes)
		require.EqualValues(t, 44, st.Stats.Latency.Calls)
		require.Zero(t, st.InFlight)
		require.Greater(t, r.cfg.Cell.hotEnded(), uint32(35), "most of them ended on their workers")

		// And once the window has let them go, the totals keep them
		time.Sleep(state.StatsWindow)
		st = r.fullSnapshot()
		require.Zero(t, st.Stats.Recent.Successes)
		require.EqualValues(t, 44, st.Stats.Total.Successes)
	})
}

func TestAQuietHotKeyGivesItsLaneBackWithItsWindow(t *testing.T) {
	hotAt(t, 4)
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a hot key whose workers ended calls
		r.heat()
		r.succeed(6)
		require.NotZero(t, r.cfg.Cell.hotEnded())

		// When it is quiet for a window, then it lets go of its lane with
		// its window, keeping every call in its totals, none in flight
		time.Sleep(3 * state.StatsWindow)
		synctest.Wait()
		require.Nil(t, r.cfg.Cell.hot.Load())
		require.Nil(t, r.cfg.Cell.stats.Load().win)
		st := r.fullSnapshot()
		require.EqualValues(t, 10, st.Stats.Total.Successes)
		require.Zero(t, st.InFlight)
		require.Zero(t, r.cfg.Cell.admittedInFlight())
	})
}

func TestAHotKeysSuccessAfterAFailureStillResetsTheFailures(t *testing.T) {
	hotAt(t, 2)
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a hot key one failure short of opening
		r.heat()
		require.ErrorIs(t, (<-r.do(context.Background(), "fail")).Err, errBoom)
		require.Equal(t, 1, r.snapshot().Failures)

		// When a call succeeds, then its breaker counts it (it changes the
		// circuit: a worker must not take it), and the failures start over
		r.succeed(1)
		require.Zero(t, r.snapshot().Failures)
		require.ErrorIs(t, (<-r.do(context.Background(), "fail")).Err, errBoom)
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())

		// And once the circuit is quiet again, its workers take its
		// successes again
		r.succeed(1)
		before := r.cfg.Cell.hotEnded()
		r.succeed(3)
		require.Equal(t, before+3, r.cfg.Cell.hotEnded())
	})
}

func TestAHotKeysSuccessAfterItsDeadlineCountsOnlyAsATimeout(t *testing.T) {
	hotAt(t, 2)
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a hot key, and a call its target holds past its deadline
		r.heat()
		gate := make(later)
		out := r.do(context.Background(), gate)
		synctest.Wait()

		// When its deadline passes, then it fails with ErrTimeout, counted
		// once as a timeout
		require.ErrorIs(t, (<-out).Err, errs.ErrTimeout)

		// And its target's late success counts nothing more
		close(gate)
		synctest.Wait()
		st := r.fullSnapshot()
		require.Equal(t, 1, st.Failures)
		require.EqualValues(t, 1, st.Stats.Total.Timeouts)
		require.EqualValues(t, 2, st.Stats.Total.Successes)
		require.Zero(t, st.InFlight)
	})
}

func TestAHotKeysSuccessItsCallerWithdrewCountsAsCanceled(t *testing.T) {
	hotAt(t, 2)
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a hot key, and a call its caller admitted that is withdrawn
		// (its caller's context cancelled) before its breaker heard of it
		r.heat()
		k := NewCaller(r.cfg.Shared.Pool)
		now := time.Now()
		c := newCall(context.Background(), "ok", now.Add(callTimeout), now)
		k.admit(&r.cfg.Mailbox, c, admissionOf(&r.cfg.Mailbox, c.Deadline, now), now)
		require.True(t, c.withdraw())

		// When its target succeeds, then its worker cannot answer it, and
		// hands its end to the breaker, which counts it as canceled
		r.cfg.Shared.Pool.Submit(&c.job)
		synctest.Wait()
		require.Equal(t, endTaken, c.over.Load())
		st := r.fullSnapshot()
		require.EqualValues(t, 1, st.Stats.Total.Canceled)
		require.EqualValues(t, 2, st.Stats.Total.Successes)
		require.Zero(t, st.InFlight)
	})
}

func TestAHotKeyIsNotPassivatedWhileItsWorkersEndItsCalls(t *testing.T) {
	hotAt(t, 2)
	const idle = time.Second
	inBubbleWith(t, Rules{IdleTimeout: idle}, func(t *testing.T, r *rig) {
		// Given a hot key that passivates after idle
		r.heat()
		before := r.cfg.Cell.hotEnded()

		// When its callers call it every idle/10 for three times idle,
		// nearly every call ended by its worker, then it stays up
		for range 30 {
			time.Sleep(idle / 10)
			r.succeed(1)
		}
		require.Greater(t, r.cfg.Cell.hotEnded(), before+25)
		require.False(t, r.cfg.Cell.Passivated())
		require.EqualValues(t, 32, r.fullSnapshot().Stats.Total.Successes)

		// And once they stop, it passivates idle after the last call,
		// giving its lane back
		last := time.Now()
		for !r.cfg.Cell.Passivated() && time.Since(last) < 3*idle {
			time.Sleep(time.Millisecond)
		}
		synctest.Wait() // the turn that passivated it has ended (the counts below are its)
		require.True(t, r.cfg.Cell.Passivated())
		require.Equal(t, idle, time.Since(last).Round(idle/4))
		require.Nil(t, r.cfg.Cell.hot.Load())
		require.Zero(t, r.cfg.Cell.admittedInFlight())
	})
}

// laneRig is a key's statistics with a window and a hot lane, outside any
// breaker, and at, the middle of an epoch of its window.
type laneRig struct {
	c  Cell
	s  *keyStats
	w  *statsWindow
	l  *hotLane
	at func(epoch int64) time.Time
}

func newLaneRig() *laneRig {
	r := &laneRig{}
	start := time.Now()
	r.s, r.w = r.c.window(start)
	r.l = newHotLane(r.w.Origin())
	r.c.hot.Store(r.l)
	r.at = func(epoch int64) time.Time { return start.Add(time.Duration(epoch-1)*statsWidth + statsWidth/2) }
	return r
}

func TestALanesShardsCountEverySuccessOnceWhileTheBreakerTakesThem(t *testing.T) {
	// Given a key's window and lane
	r := newLaneRig()
	c, s, w, l := &r.c, r.s, r.w, r.l
	var epoch atomic.Int64
	epoch.Store(1)
	now := func() time.Time { return r.at(epoch.Load()) }

	// When workers count successes while the clock crosses 20 epochs and
	// the breaker takes the epochs behind it, and the current one too (as
	// a breaker whose clock reads later than a worker's does)
	const workers, each = 8, 5000
	var counted, handed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range each {
				sh, sl, ok := l.begin(clock(now()))
				if !ok {
					handed.Add(1) // its breaker would count it
					continue
				}
				sh.count(sl, monoOf(now()), time.Duration(i)*time.Microsecond)
				sl.done()
				counted.Add(1)
			}
		})
	}
	stop := make(chan struct{})
	took := make(chan struct{})
	go func() {
		defer close(took)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			cur := epoch.Load()
			if i%2 == 0 {
				cur++
			}
			l.take(s, w, cur)
			if i%100 == 99 && epoch.Load() < 20 {
				epoch.Add(1)
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-took

	// Then once the lane ends, the window and the totals hold each
	// counted success once, and the shards every end
	c.endHot(s, w, now())
	require.Nil(t, c.hot.Load())
	require.EqualValues(t, counted.Load(), s.win.Totals(s.total)[state.TallySuccess])
	require.EqualValues(t, counted.Load(), c.ended)
	require.EqualValues(t, workers*each, counted.Load()+handed.Load())
	require.NotZero(t, counted.Load())

	// And no worker counts in it any more
	_, _, ok := l.begin(clock(now()))
	require.False(t, ok)
}

func TestALaneSlotStillHoldingAnUntakenEpochTurnsItsWorkerAway(t *testing.T) {
	r := newLaneRig()
	c, s, w, l, at := &r.c, r.s, r.w, r.l, r.at
	count := func(epoch int64) bool {
		sh, sl, ok := l.begin(clock(at(epoch)))
		if ok {
			sh.count(sl, monoOf(at(epoch)), time.Millisecond)
			sl.done()
		}
		return ok
	}

	// Given successes counted in epochs 1 and 2, which the breaker has not taken
	require.True(t, count(1))
	require.True(t, count(2))

	// When a worker counts one in epoch 3, whose slot holds epoch 1, then
	// it is turned away
	require.False(t, count(3))

	// And once the breaker takes the epochs before 3, it counts
	l.take(s, w, 3)
	require.True(t, count(3))
	st := s.report(at(3), c)
	require.EqualValues(t, 3, st.Recent.Successes)
	require.EqualValues(t, 3, st.Latency.Calls)
	require.Equal(t, time.Millisecond, st.Latency.Max)
}

func TestASlotTakenWhileAStragglerCountsIsReportedAndEmptiedLater(t *testing.T) {
	r := newLaneRig()
	c, s, l, at := &r.c, r.s, r.l, r.at

	// Given two successes counted in epoch 1, and a worker still counting
	// in that slot (it read the epoch just before the breaker took it)
	for range 2 {
		sh, sl, ok := l.begin(clock(at(1)))
		require.True(t, ok)
		sh.count(sl, monoOf(at(1)), time.Millisecond)
		sl.done()
	}
	straggler, sl, ok := l.begin(clock(at(1)))
	require.True(t, ok)

	// When the breaker reports in epoch 2, then it cannot empty the slot,
	// and reports its counts all the same
	st := s.report(at(2), c)
	require.EqualValues(t, 2, st.Recent.Successes)
	require.EqualValues(t, 2, st.Total.Successes)
	require.Equal(t, slotTaken, sl.epoch.Load())

	// And once the straggler is done, the next take empties it into the
	// window, each success counted once
	straggler.count(sl, monoOf(at(1)), time.Millisecond)
	sl.done()
	st = s.report(at(2), c)
	require.EqualValues(t, 3, st.Recent.Successes)
	require.EqualValues(t, 3, st.Latency.Calls)
	require.Zero(t, sl.epoch.Load())
}
