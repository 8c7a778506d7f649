package task_test

import (
	"context"
	"runtime/metrics"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/retain"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// Regression: a worker that parked as the pool closed could arm the
// reaper after Close had stopped it, and it fired idleTimeout/2 later,
// starting a goroutine after the registry had shut down.
func TestAClosedPoolsReaperDoesNotFire(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given pools, each of whose worker parks as it closes (the race
		// is narrow: one pool is not enough to tell)
		for i := range 2000 {
			p, c := task.NewPool(sys), newCollector()
			p.Submit(job(c, i, func(context.Context, any) (any, error) { return nil, nil }))
			<-c.got
			// When it has closed
			closePool(t, p)
		}
		synctest.Wait()
		// Then no timer of theirs fires later
		before := goroutinesCreated()
		time.Sleep(time.Minute)
		synctest.Wait()
		require.Zero(t, goroutinesCreated()-before, "goroutines started after Close")
	})
}

// goroutinesCreated counts the goroutines the process has started (each
// runtime timer that fires starts one).
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Regression: the runtime keeps a stopped timer, and its func, in its heap
// until the time it was due (or until it sweeps its heap, which it does
// when a quarter of it is stopped timers), and the reaper's func held the
// pool, and through its Router the actor system, for idleTimeout/2 after
// Close, or for ever if no worker had idled.
func TestAClosedPoolIsNotHeldByItsTimer(t *testing.T) {
	sys := testkit.NewSystem(t)
	// Given timers enough that the runtime does not sweep its heap
	retain.HoldTimers(t, 4000)
	// and pools that ran a job (the runtime keeps some stopped timers and
	// not others: one pool is not enough to tell)
	const pools = 20
	gone := make([]weak.Pointer[task.Pool], pools)
	for i := range pools {
		p, c := task.NewPool(sys), newCollector()
		p.Submit(job(c, i, func(context.Context, any) (any, error) { return nil, nil }))
		<-c.got
		// When each has closed
		closePool(t, p)
		gone[i] = weak.Make(p)
	}
	// Then nothing keeps any
	if kept := retain.Kept(gone); kept > 0 {
		t.Fatalf("%d of %d closed pools still held", kept, pools)
	}
}

// A nil context is refused, closing nothing: the pool still closes later.
func TestClosingWithANilContextIsRefused(t *testing.T) {
	p := task.NewPool(testkit.NewSystem(t))
	require.ErrorIs(t, p.Close(nil), errs.ErrNilContext)
	require.NoError(t, p.Close(context.Background()))
}
