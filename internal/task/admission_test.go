package task_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// gate is the admission of calls their callers admitted, whose answer the
// test sets.
type gate struct {
	open       atomic.Bool
	redirected atomic.Int32
}

// gated is the Call of a job its caller admitted under g.
type gated struct {
	token
	g *gate
}

func (c gated) Admitted() bool { return c.g.open.Load() }
func (c gated) Redirect()      { c.g.redirected.Add(1) }

// admitted makes j a job its caller admitted under g.
func admitted(j *task.Job, g *gate) *task.Job {
	j.Call, j.ByCaller = gated{token{j.Msg}, g}, true
	return j
}

// name is the name of a job's call.
func name(j *task.Job) any {
	if c, ok := j.Call.(gated); ok {
		return c.name
	}
	return j.Call.(token).name
}

func TestAJobWhoseAdmissionLapsedIsHandedBackUnrun(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		var runs atomic.Int32
		fn := func(context.Context, any) (any, error) { runs.Add(1); return "ran", nil }

		// Given a job whose admission lapsed before a worker took it
		g := &gate{}
		j := admitted(job(c, "lapsed", fn), g)

		// When it is submitted
		p.Submit(j)
		time.Sleep(time.Second)

		// Then it is handed back once, its target never runs, and nothing
		// is reported
		require.EqualValues(t, 1, g.redirected.Load())
		require.Zero(t, runs.Load())
		require.Empty(t, c.settled())

		// And a job whose admission holds runs and reports as any other
		g.open.Store(true)
		j = admitted(job(c, "admitted", fn), g)
		p.Submit(j)
		got := c.await(t, 1)
		require.Equal(t, "ran", got[0].Value)
		require.EqualValues(t, 1, runs.Load())
		require.EqualValues(t, 1, g.redirected.Load())
	})
}

func TestRunningSeesTheAdmittedJobsWhoseTargetsRun(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		hang := make(chan struct{})
		hung := func(context.Context, any) (any, error) { <-hang; return nil, nil }
		quick := func(context.Context, any) (any, error) { return nil, nil }
		g := &gate{}
		g.open.Store(true)

		// Given two admitted jobs hung in their targets, a hung job the
		// breaker admitted, and an admitted job that has finished
		for _, msg := range []string{"a", "b"} {
			p.Submit(admitted(job(c, msg, hung), g))
		}
		p.Submit(job(c, "breaker's", hung))
		p.Submit(admitted(job(c, "done", quick), g))
		require.Len(t, c.await(t, 1), 1)

		// When the pool is asked for the jobs running
		var seen []any
		p.Running(func(j *task.Job) { seen = append(seen, name(j)) })

		// Then it lists the two admitted ones that run, and nothing else
		require.ElementsMatch(t, []any{"a", "b"}, seen)

		// And none once they have finished
		close(hang)
		require.Len(t, c.await(t, 3), 3)
		seen = nil
		p.Running(func(j *task.Job) { seen = append(seen, name(j)) })
		require.Empty(t, seen)
	})
}
