package task_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

var errTarget = errors.New("target failed")

// job returns a job for fn with a one-minute deadline, its message and
// its call's name msg, reporting to c.
func job(c *collector, msg any, fn task.Func) *task.Job {
	return &task.Job{
		Ctx: context.Background(), Deadline: time.Now().Add(time.Minute),
		Fn: fn, Msg: msg, ReplyTo: c, Call: token{msg},
	}
}

func closePool(t *testing.T, p *task.Pool) {
	t.Helper()
	require.NoError(t, p.Close(context.Background()))
}

func TestPoolPanicIsOneFailedOutcome(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a pool and a function that panics
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)

		// When it is submitted
		p.Submit(job(c, "t1", func(context.Context, any) (any, error) { panic("kaboom") }))

		// Then exactly one Completion reports the panic as a failure
		got := c.settled()
		require.Len(t, got, 1)
		require.Equal(t, token{"t1"}, got[0].Call)
		require.Nil(t, got[0].Value)
		require.ErrorIs(t, got[0].Err, errs.ErrTargetPanic)
		require.Contains(t, got[0].Err.Error(), "kaboom")
		require.True(t, got[0].Failed)

		// And the pool still runs the next job
		p.Submit(job(c, "t2", func(context.Context, any) (any, error) { return "fine", nil }))
		got = c.settled()
		require.Len(t, got, 1)
		require.Equal(t, &task.Completion{Call: token{"t2"}, Value: "fine"}, got[0])
	})
}

func TestPoolRunsEachJobExactlyOnce(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a pool and jobs of different lengths, submitted concurrently
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		const n = 50
		var runs [n]atomic.Int32
		for i := range n {
			go p.Submit(job(c, i, func(_ context.Context, msg any) (any, error) {
				runs[msg.(int)].Add(1)
				time.Sleep(time.Duration(msg.(int)%7) * time.Millisecond)
				return msg.(int) * 10, nil
			}))
		}

		// When they have all long finished
		time.Sleep(time.Second)
		got := c.settled()

		// Then each function ran once and each job has exactly one Completion
		for i := range n {
			require.EqualValues(t, 1, runs[i].Load(), "job %d", i)
		}
		require.Len(t, got, n)
		seen := map[any]bool{}
		for _, o := range got {
			require.False(t, seen[o.Call], "two outcomes for job %v", o.Call)
			seen[o.Call] = true
			require.Equal(t, o.Call.(token).name.(int)*10, o.Value)
			require.False(t, o.Failed)
		}
	})
}

func TestPoolContextCarriesDeadlineAndCancellation(t *testing.T) {
	tests := []struct {
		name         string
		jobDeadline  time.Duration
		ctxDeadline  time.Duration // 0: none
		cancelAfter  time.Duration // 0: never
		wantDeadline time.Duration
		wantEnd      time.Duration
		wantErr      error
	}{
		{"the job deadline", 3 * time.Second, 0, 0, 3 * time.Second, 3 * time.Second, context.DeadlineExceeded},
		{"an earlier caller deadline", 5 * time.Second, 2 * time.Second, 0, 2 * time.Second, 2 * time.Second, context.DeadlineExceeded},
		{"the job deadline before a later caller deadline", 3 * time.Second, 10 * time.Second, 0, 3 * time.Second, 3 * time.Second, context.DeadlineExceeded},
		{"the caller's cancellation", time.Hour, 0, time.Second, time.Hour, time.Second, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
				// Given a caller context and a function that waits on its own
				p, c := task.NewPool(sys), newCollector()
				defer closePool(t, p)
				start := time.Now()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tt.ctxDeadline > 0 {
					ctx, cancel = context.WithDeadline(ctx, start.Add(tt.ctxDeadline))
					defer cancel()
				}
				var deadline, ended time.Time
				var hasDeadline bool
				p.Submit(&task.Job{
					Ctx: ctx, Deadline: start.Add(tt.jobDeadline), ReplyTo: c, Call: token{1},
					Fn: func(ctx context.Context, _ any) (any, error) {
						deadline, hasDeadline = ctx.Deadline()
						<-ctx.Done()
						ended = time.Now()
						return nil, ctx.Err()
					},
				})

				// When the caller cancels, or a deadline passes
				if tt.cancelAfter > 0 {
					time.Sleep(tt.cancelAfter)
					cancel()
				}
				got := c.await(t, 1)

				// Then the function saw the deadline and ended when it should
				require.True(t, hasDeadline)
				require.Equal(t, start.Add(tt.wantDeadline), deadline)
				require.Equal(t, tt.wantEnd, ended.Sub(start))
				require.Len(t, got, 1)
				require.ErrorIs(t, got[0].Err, tt.wantErr)
				require.True(t, got[0].Failed)
			})
		})
	}
}

func TestPoolCloseStopsIdleWorkers(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given three workers, each started by a job that was busy at the time
		p, c := task.NewPool(sys), newCollector()
		release := make(chan struct{})
		for i := range 3 {
			p.Submit(job(c, i, func(context.Context, any) (any, error) { <-release; return nil, nil }))
		}
		synctest.Wait()
		require.Equal(t, 3, p.Live())

		// When Close runs while one job is still stuck, it gives up at its ctx
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		require.ErrorIs(t, p.Close(ctx), context.DeadlineExceeded)

		// When the jobs finish and Close runs again
		close(release)
		require.Len(t, c.settled(), 3)
		start := time.Now()
		require.NoError(t, p.Close(context.Background()))

		// Then it returns at once, with no worker left (idle ones do not wait
		// for their idle timeout)
		require.Zero(t, time.Since(start))
		require.Zero(t, p.Live())
	})
}

func TestPoolWorkersIdleOut(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a pool whose one worker has just finished a job
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		p.Submit(job(c, 1, func(context.Context, any) (any, error) { return nil, nil }))
		require.Len(t, c.settled(), 1)
		require.Equal(t, 1, p.Live())

		// When it gets no job for a long time
		time.Sleep(time.Hour)
		synctest.Wait()

		// Then it has exited, and a new job still runs
		require.Zero(t, p.Live())
		p.Submit(job(c, 2, func(context.Context, any) (any, error) { return "again", nil }))
		got := c.settled()
		require.Len(t, got, 1)
		require.Equal(t, "again", got[0].Value)
	})
}

func TestPoolSubmitAfterClose(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a closed pool
		p, c := task.NewPool(sys), newCollector()
		closePool(t, p)

		// When a job is submitted
		var ran atomic.Bool
		p.Submit(job(c, "late", func(context.Context, any) (any, error) { ran.Store(true); return nil, nil }))

		// Then it does not run and its one Completion is ErrShutdown, neither a
		// failure nor a success (which would close a half-open circuit)
		got := c.settled()
		require.False(t, ran.Load())
		require.Len(t, got, 1)
		require.Equal(t, token{"late"}, got[0].Call)
		require.ErrorIs(t, got[0].Err, errs.ErrShutdown)
		require.False(t, got[0].Failed)
		require.True(t, got[0].Ignored)
		require.Zero(t, p.Live())
	})
}

func TestPoolClassifier(t *testing.T) {
	always := func(b bool) task.Classifier { return task.FailureIf(func(any, error) bool { return b }) }
	tests := []struct {
		name       string
		classify   task.Classifier
		value      any
		err        error
		wantFailed bool
	}{
		{"default: an error is a failure", nil, nil, errTarget, true},
		{"default: a value is a success", nil, "v", nil, false},
		{"classifier forgives an error", always(false), nil, errTarget, false},
		{"classifier fails a value", always(true), "v", nil, true},
		{"a panicking classifier counts as failure", func(any, error) state.Verdict { panic("bad classifier") }, "v", nil, true},
		{"classifier sees the value and the error", task.FailureIf(func(v any, err error) bool {
			return v == "v" && errors.Is(err, errTarget)
		}), "v", errTarget, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
				// Given a job with the classifier
				p, c := task.NewPool(sys), newCollector()
				defer closePool(t, p)
				j := job(c, 1, func(context.Context, any) (any, error) { return tt.value, tt.err })
				j.Classify = tt.classify

				// When it runs
				p.Submit(j)

				// Then the classifier decides Failed and the result is unchanged
				got := c.settled()
				require.Len(t, got, 1)
				require.Equal(t, &task.Completion{Call: token{1}, Value: tt.value, Err: tt.err, Failed: tt.wantFailed}, got[0])
			})
		})
	}
}

func TestAWorkerIdlesOutTenToFifteenSecondsAfterItsLastJob(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a pool whose one worker runs a job every 6 s for 30 s (its
		// idle timer, armed when it started, fires in between)
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		for i := range 6 {
			if i > 0 {
				time.Sleep(6 * time.Second)
				synctest.Wait()
				require.Equal(t, 1, p.Live(), "the worker before job %d", i)
			}
			p.Submit(job(c, i, func(context.Context, any) (any, error) { return nil, nil }))
			require.Len(t, c.settled(), 1)
			require.Equal(t, 1, p.Live(), "job %d", i)
		}

		// Then it is still there 9.9 s after the last job, and gone within
		// 15 s (the third of the reaper's ticks, every 5 s, after it idled)
		time.Sleep(9900 * time.Millisecond)
		synctest.Wait()
		require.Equal(t, 1, p.Live())
		time.Sleep(5100 * time.Millisecond)
		synctest.Wait()
		require.Zero(t, p.Live())
	})
}

func TestPoolUnderContentionRunsEveryJobOnceAndRetiresItsIdleWorkers(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a pool that submitters on every core hand short jobs,
		// with pauses past the idle timeout in between, so that workers
		// go idle, are handed jobs and retire all at once
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		const submitters, rounds, each = 8, 4, 200
		var runs [submitters * rounds * each]atomic.Int32
		quick := func(_ context.Context, msg any) (any, error) {
			runs[msg.(int)].Add(1)
			return nil, nil
		}
		for r := range rounds {
			var wg sync.WaitGroup
			for s := range submitters {
				wg.Go(func() {
					for i := range each {
						p.Submit(job(c, (r*submitters+s)*each+i, quick))
					}
				})
			}
			wg.Wait()
			require.Len(t, c.await(t, submitters*each), submitters*each)
			if r%2 == 0 {
				time.Sleep(15 * time.Second) // every idle worker retires
				synctest.Wait()
				require.Zero(t, p.Live(), "round %d", r)
			}
		}

		// Then every job ran once
		for i := range runs {
			require.EqualValues(t, 1, runs[i].Load(), "job %d", i)
		}
	})
}

func TestPoolRefusesAJobItCannotRunAndSurvivesAPanickingGo(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		p, c := task.NewPool(sys), newCollector()
		defer closePool(t, p)
		echo := func(_ context.Context, m any) (any, error) { return m, nil }
		// When jobs without what a worker needs are submitted
		for name, j := range map[string]*task.Job{
			"nil":        nil,
			"no ctx":     {Fn: echo, ReplyTo: c, Call: token{}},
			"no fn":      {Ctx: context.Background(), ReplyTo: c, Call: token{}},
			"no replyTo": {Ctx: context.Background(), Fn: echo, Call: token{}},
			"no call":    {Ctx: context.Background(), Fn: echo, ReplyTo: c},
		} {
			// Then each is ErrInvalidJob, and nothing runs or reports
			if err := p.Submit(j); !errors.Is(err, task.ErrInvalidJob) {
				t.Errorf("%s: %v, want ErrInvalidJob", name, err)
			}
		}
		require.False(t, p.Go(nil))
		// When a Go func panics
		require.True(t, p.Go(func() { panic("boom") }))
		synctest.Wait()
		// Then the pool goes on: a job without a deadline runs, its context undated
		j := job(c, "after", func(ctx context.Context, m any) (any, error) {
			if _, ok := ctx.Deadline(); ok {
				return nil, errTarget
			}
			return m, nil
		})
		j.Deadline = time.Time{}
		require.NoError(t, p.Submit(j))
		got := c.settled()
		require.Len(t, got, 1)
		require.Equal(t, "after", got[0].Value)
	})
}
