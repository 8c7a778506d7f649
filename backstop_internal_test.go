package tripwire

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

func TestBackstopAnswersACallItsBreakerNeverTakes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		sys := NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := Start(sys)
		require.NoError(t, err)
		var calls atomic.Int64
		require.NoError(t, reg.Register("k", FuncTarget(func(context.Context, any) (any, error) {
			calls.Add(1)
			return "ok", nil
		}), Settings{CallTimeout: time.Second}))

		// Given a breaker whose mailbox is held suspended, as while a crash
		// of it is being decided
		e, err := reg.lookup("k")
		require.NoError(t, err)
		pid := e.Binding().PID
		proc, ok := sys.ProcessRegistry.GetLocal(pid.Id)
		require.True(t, ok)
		proc.SendSystemMessage(pid, &actor.SuspendMailbox{})

		// When a call is made
		start := time.Now()
		_, err = reg.Call(ctx, "k", "m")

		// Then the caller's backstop answers it with ErrTimeout at its
		// deadline plus ReplyGrace, and the target was never called
		require.ErrorIs(t, err, ErrTimeout)
		require.Equal(t, time.Second+ReplyGrace, time.Since(start))
		require.Zero(t, calls.Load())

		// When the mailbox resumes
		proc.SendSystemMessage(pid, &actor.ResumeMailbox{})

		// Then the stale call is dropped uncounted, and the next call works
		v, err := reg.Call(ctx, "k", "m")
		require.NoError(t, err)
		require.Equal(t, "ok", v)
		require.EqualValues(t, 1, calls.Load())
		snap, err := reg.Snapshot("k")
		require.NoError(t, err)
		require.Equal(t, 0, snap.Failures)
		require.Equal(t, 0, snap.InFlight)

		require.NoError(t, reg.Shutdown(ctx))
		sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}
