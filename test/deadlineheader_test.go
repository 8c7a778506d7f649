package test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

func TestActorTargetSeesTheCallDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target that answers with the deadline in the header
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); !ok {
				return
			}
			d, ok := tripwire.CallDeadline(c.MessageHeader())
			c.Respond([]any{d, ok})
		}))
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: 3 * time.Second})

		// When it is called with a context deadline shorter than CallTimeout,
		// and with none
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		want, _ := ctx.Deadline()
		short, err := e.Reg.Call(ctx, "svc", "short")
		require.NoError(t, err)
		start := time.Now()
		long, err := e.Reg.Call(context.Background(), "svc", "long")
		require.NoError(t, err)

		// Then the target sees the earlier of the two: the caller's, then
		// CallTimeout from the call
		wantDeadline(t, want, short)
		wantDeadline(t, start.Add(3*time.Second), long)
	})
}

// wantDeadline checks that the target's answer names the deadline want.
func wantDeadline(t *testing.T, want time.Time, answer any) {
	t.Helper()
	got := answer.([]any)
	require.Equal(t, true, got[1], "no deadline header")
	require.True(t, want.Equal(got[0].(time.Time)), "deadline %v, want %v", got[0], want)
}
