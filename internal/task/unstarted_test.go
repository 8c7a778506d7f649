package task_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// releases is a Call that counts its Release calls.
type releases struct {
	token
	n atomic.Int32
}

func (r *releases) Release() { r.n.Add(1) }

// Regression: a worker that got a core only after its job's deadline (the
// process busy with other goroutines) still ran the target, and the call's
// timeout counted as the target's failure. A job whose deadline passed
// before its worker started it is dropped: the target never runs, nothing
// is reported (whoever ends the call at its deadline answers it), and the
// call is released. The worker compares the deadline with the pool's
// clock, the latest time its callers read (See), not with a clock read of
// its own.
func TestAJobWhoseDeadlinePassedBeforeItsWorkerStartsIsNotRun(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		var ran atomic.Bool
		call := &releases{}
		j := &task.Job{
			Ctx: context.Background(), Deadline: time.Now().Add(-time.Nanosecond),
			Fn:  func(context.Context, any) (any, error) { ran.Store(true); return "ran", nil },
			Msg: "m", ReplyTo: c, Call: call,
		}

		p.See(time.Now()) // its caller's reading, past the deadline
		p.Submit(j)
		synctest.Wait()

		require.False(t, ran.Load(), "the target ran past its deadline")
		require.Empty(t, c.settled(), "a dropped job reported an outcome")
		require.EqualValues(t, 1, call.n.Load(), "the call was not released")
		require.True(t, j.Unstarted(), "a dropped job must report that its target never started")
	})
}

// Whoever ends a call at its deadline and finds its target not started
// makes sure it never starts; once the target started, Unstarted says so.
func TestUnstartedRacesTheWorkerForTheJob(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)

		// Given a job taken by its deadline before a worker got to it
		var ran atomic.Bool
		dropped := job(c, "late", func(context.Context, any) (any, error) { ran.Store(true); return nil, nil })
		require.True(t, dropped.Unstarted())
		// When a worker gets to it
		p.Submit(dropped)
		synctest.Wait()
		// Then it does not run it
		require.False(t, ran.Load())
		require.Empty(t, c.settled())

		// Given a job whose target started (and hangs)
		gate := make(chan struct{})
		started := job(c, "running", func(context.Context, any) (any, error) { <-gate; return "done", nil })
		p.Submit(started)
		synctest.Wait()
		// Then its deadline finds it started, and it runs on to its outcome
		require.False(t, started.Unstarted())
		close(gate)
		got := c.await(t, 1)
		require.Equal(t, "done", got[0].Value)
	})
}

// The pool's clock never runs ahead of its callers' readings: a job whose
// deadline is after the latest reading runs, however the readings came.
func TestThePoolsClockNeverDropsACallWithinItsDeadline(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		time.Sleep(time.Second) // (fake time) so that readings are past the pool's birth
		now := time.Now()
		p.See(now.Add(-time.Second)) // an older reading after a newer one: ignored
		p.See(now)
		p.See(now.Add(-time.Millisecond))
		j := &task.Job{
			Ctx: context.Background(), Deadline: now.Add(time.Nanosecond),
			Fn:  func(context.Context, any) (any, error) { return "ran", nil },
			Msg: "m", ReplyTo: c, Call: &releases{},
		}
		p.Submit(j)
		got := c.await(t, 1)
		require.Equal(t, "ran", got[0].Value)
	})
}
