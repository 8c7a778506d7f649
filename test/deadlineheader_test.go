package test

import (
	"context"
	"errors"
	"math"
	"testing"
	"testing/synctest"
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

func TestWithoutDeadlineHeaderSendsNoDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target that fails "fail" and answers the others
		// with whether their header had a deadline, behind a breaker that
		// opens on one failure, without the header
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			switch m := c.Message().(type) {
			case string:
				if m == "fail" {
					c.Respond(errors.New("failed"))
					return
				}
				_, ok := tripwire.CallDeadline(c.MessageHeader())
				c.Respond(ok)
			}
		}))
		target := tripwire.WithoutDeadlineHeader(tripwire.ActorTarget(pid))
		testkit.Register(t, e.Reg, "svc", target, tripwire.Settings{Threshold: 1, OpenTimeout: time.Second})

		// When it is called closed (its caller sends the ask), then as the
		// probe of a half-open circuit (its breaker does)
		closed, err := e.Reg.Call(context.Background(), "svc", "closed")
		require.NoError(t, err)
		_, err = e.Reg.Call(context.Background(), "svc", "fail")
		require.Error(t, err)
		time.Sleep(time.Second + time.Millisecond)
		synctest.Wait() // half-open
		probe, err := e.Reg.Call(context.Background(), "svc", "probe")
		require.NoError(t, err)

		// Then neither call carried a deadline
		require.Equal(t, false, closed, "the caller's ask")
		require.Equal(t, false, probe, "the breaker's ask")
	})
}

func TestWithoutDeadlineHeaderLeavesOtherTargetsAsTheyAre(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a function target and a nil Target, without the header
		fn := tripwire.FuncTarget(func(ctx context.Context, _ any) (any, error) {
			_, ok := ctx.Deadline()
			return ok, nil
		})
		// Then the function still runs with its deadline in its context
		testkit.Register(t, e.Reg, "fn", tripwire.WithoutDeadlineHeader(fn), tripwire.Settings{})
		v, err := e.Reg.Call(context.Background(), "fn", "x")
		require.NoError(t, err)
		require.Equal(t, true, v)
		// and the nil Target is refused as ever
		err = e.Reg.Register("nil", tripwire.WithoutDeadlineHeader(nil), tripwire.Settings{})
		require.ErrorIs(t, err, tripwire.ErrInvalidTarget)
	})
}

func TestACallWithNoTimeoutIsNotShed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor behind ShedExpired, and a breaker whose calls have
		// no timeout (math.MaxInt64: a deadline past 2262)
		shed, err := tripwire.ShedExpired(tripwire.ShedConfig{})
		require.NoError(t, err)
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); ok {
				_, dated := tripwire.CallDeadline(c.MessageHeader())
				c.Respond(dated)
			}
		}, actor.WithReceiverMiddleware(shed)))
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: math.MaxInt64})

		// When it is called, then the actor runs it, with no deadline in
		// its header (the header cannot carry it; it wrapped to 1677)
		dated, err := e.Reg.Call(context.Background(), "svc", "x")
		require.NoError(t, err)
		require.Equal(t, false, dated)
		// and an envelope for such a deadline is refused
		_, err = tripwire.DeadlineEnvelope("x", nil, time.Now().Add(math.MaxInt64))
		require.ErrorIs(t, err, tripwire.ErrInvalidMessage)
	})
}
