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
	"github.com/tripwire-go/tripwire/remoting"
)

func TestActorTargetSeesTheCallDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target that answers with its call's deadline
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); !ok {
				return
			}
			d, ok := remoting.CallDeadline(c.MessageHeader(), c.Sender())
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
	require.Equal(t, true, got[1], "no deadline")
	require.True(t, want.Equal(got[0].(time.Time)), "deadline %v, want %v", got[0], want)
}

func TestWithoutDeadlineHeaderSendsNoDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target that fails "fail" and answers the others
		// with whether their header had a deadline, and their sender,
		// behind a breaker that opens on one failure, without the header
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			switch m := c.Message().(type) {
			case string:
				if m == "fail" {
					c.Respond(errors.New("failed"))
					return
				}
				_, inHeader := remoting.CallDeadline(c.MessageHeader(), nil)
				_, inSender := remoting.CallDeadline(nil, c.Sender())
				c.Respond([2]bool{inHeader, inSender})
			}
		}))
		target := remoting.WithoutDeadlineHeader(tripwire.ActorTarget(pid))
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

		// Then neither call carried a deadline in its header, and both in
		// their sender
		require.Equal(t, [2]bool{false, true}, closed, "the caller's ask")
		require.Equal(t, [2]bool{false, true}, probe, "the breaker's ask")
	})
}

func TestWithoutDeadlineHeaderLeavesOtherTargetsAsTheyAre(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a function target and a nil Target, without the header
		fn := tripwire.Func(func(ctx context.Context, _ any) (any, error) {
			_, ok := ctx.Deadline()
			return ok, nil
		})
		// Then the function still runs with its deadline in its context
		testkit.Register(t, e.Reg, "fn", remoting.WithoutDeadlineHeader(fn), tripwire.Settings{})
		v, err := e.Reg.Call(context.Background(), "fn", "x")
		require.NoError(t, err)
		require.Equal(t, true, v)
		// and the nil Target is refused as ever
		err = e.Reg.Register(context.Background(), "nil", remoting.WithoutDeadlineHeader(nil), tripwire.Settings{})
		require.ErrorIs(t, err, tripwire.ErrInvalidTarget)
	})
}

func TestACallWithNoTimeoutIsNotShed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor behind ShedExpired, and a breaker whose calls have
		// no timeout (math.MaxInt64: a deadline past 2262)
		shed, err := remoting.ShedExpired(remoting.ShedConfig{})
		require.NoError(t, err)
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); ok {
				_, dated := remoting.CallDeadline(c.MessageHeader(), c.Sender())
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
		_, err = remoting.DeadlineEnvelope("x", nil, time.Now().Add(math.MaxInt64))
		require.ErrorIs(t, err, tripwire.ErrInvalidMessage)
	})
}

// deadlines answers each string with where its call's deadline is found:
// in its header, and in its sender.
func deadlines(c actor.Context) {
	if _, ok := c.Message().(string); ok {
		_, inHeader := remoting.CallDeadline(c.MessageHeader(), nil)
		_, inSender := remoting.CallDeadline(nil, c.Sender())
		c.Respond([2]bool{inHeader, inSender})
	}
}

func TestALocalCallCarriesItsDeadlineInItsSenderAndAHeaderOnlyWhenAsked(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor on this machine, as a target as it is and with
		// WithDeadlineHeader
		pid := e.Sys.Root.Spawn(actor.PropsFromFunc(deadlines))
		testkit.Register(t, e.Reg, "plain", tripwire.ActorTarget(pid), tripwire.Settings{})
		testkit.Register(t, e.Reg, "dated", remoting.WithDeadlineHeader(tripwire.ActorTarget(pid)), tripwire.Settings{})

		// When each is called
		plain, err := e.Reg.Call(context.Background(), "plain", "x")
		require.NoError(t, err)
		dated, err := e.Reg.Call(context.Background(), "dated", "x")
		require.NoError(t, err)

		// Then both senders carry the deadline, and only the second call a
		// header
		require.Equal(t, [2]bool{false, true}, plain)
		require.Equal(t, [2]bool{true, true}, dated)
	})
}

func TestAForwardedCallKeepsItsDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a target that forwards its calls to an actor that reads
		// their deadline, and one that sends them on with their sender
		reader := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); ok {
				d, ok := remoting.CallDeadline(c.MessageHeader(), c.Sender())
				c.Respond([]any{d, ok})
			}
		}))
		forward := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); ok {
				c.Forward(reader)
			}
		}))
		sendOn := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if m, ok := c.Message().(string); ok {
				c.RequestWithCustomSender(reader, m, c.Sender())
			}
		}))
		settings := tripwire.Settings{CallTimeout: 2 * time.Second}
		testkit.Register(t, e.Reg, "forward", tripwire.ActorTarget(forward), settings)
		testkit.Register(t, e.Reg, "sendOn", tripwire.ActorTarget(sendOn), settings)

		// When each is called, then the reader sees the call's deadline
		for _, key := range []string{"forward", "sendOn"} {
			start := time.Now()
			v, err := e.Reg.Call(context.Background(), key, "x")
			require.NoError(t, err, key)
			wantDeadline(t, start.Add(2*time.Second), v)
		}
	})
}
