package tripwire

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

func TestBackstopAnswersACallItsBreakerNeverTakes(t *testing.T) {
	inBubbleWithKey(t, func(t *testing.T, sys *actor.ActorSystem, reg *Registry, calls *atomic.Int64) {
		ctx := context.Background()
		// Given a breaker whose mailbox is held suspended, as while a crash
		// of it is being decided
		pid, proc := breakerOf(t, sys, reg, "k")
		proc.SendSystemMessage(pid, &actor.SuspendMailbox{})

		// When a call is made
		start := time.Now()
		_, err := reg.Call(ctx, "k", "m")

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
		snap, err := reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		require.Equal(t, 0, snap.Failures)
		require.Equal(t, 0, snap.InFlight)
	})
}
