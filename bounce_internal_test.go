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

func TestCallQueuedAtABreakerThatStopsFollowsTheKeyToTheNextOne(t *testing.T) {
	inBubbleWithKey(t, func(t *testing.T, sys *actor.ActorSystem, reg *Registry, calls *atomic.Int64) {
		// Given a call waiting in the mailbox of a breaker held suspended
		pid, proc := breakerOf(t, sys, reg, "k")
		proc.SendSystemMessage(pid, &actor.SuspendMailbox{})
		start := time.Now()
		done := make(chan error, 1)
		var got any
		go func() {
			var err error
			got, err = reg.Call(context.Background(), "k", "m")
			done <- err
		}()
		synctest.Wait()
		require.Zero(t, calls.Load())

		// When that breaker stops for good without ever taking the call
		// (as protoactor stops one that crashes too often)
		proc.SendSystemMessage(pid, &actor.Stop{})

		// Then the call is answered by the breaker that took over the key,
		// at once, and the target was called once
		require.NoError(t, <-done)
		require.Equal(t, "ok", got)
		require.Zero(t, time.Since(start))
		require.EqualValues(t, 1, calls.Load())
		next, _ := breakerOf(t, sys, reg, "k")
		require.NotEqual(t, pid.Id, next.Id)

	})
}
