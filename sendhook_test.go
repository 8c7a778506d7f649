//go:build tripwire_sendhook

package tripwire_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/sendhook"
)

// sends counts, by message, the answers the hook saw Tripwire send.
type sends struct {
	mu   sync.Mutex
	seen map[any]int
}

func hookSends(t *testing.T) *sends {
	s := &sends{seen: map[any]int{}}
	sendhook.Set(func(msg any) {
		s.mu.Lock()
		s.seen[msg]++
		s.mu.Unlock()
	})
	t.Cleanup(func() { sendhook.Set(nil) })
	return s
}

func (s *sends) count(msg any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[msg]
}

// requester makes one Request for each message it is sent, and hands each
// Reply to out.
type requester struct {
	reg *tripwire.Registry
	out chan *tripwire.Reply
}

func (a *requester) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case int64:
		if err := a.reg.Request(ctx, "k", m); err != nil {
			a.out <- &tripwire.Reply{Request: m, Err: err}
		}
	case *tripwire.Reply:
		a.out <- m
	}
}

func TestTheHookSeesEverySendBeforeItsCallerHasTheAnswer(t *testing.T) {
	require.True(t, sendhook.On)
	s := hookSends(t)
	reg, sys := start(t)
	release := make(chan struct{})
	defer close(release)
	target := func(ctx context.Context, msg any) (any, error) {
		switch msg {
		case int64(2):
			<-release // hangs past its deadline, ignoring its context
		case int64(3):
			return nil, errBoom
		}
		return msg, nil
	}
	require.NoError(t, reg.Register(context.Background(), "k", tripwire.Func(target), tripwire.Settings{Threshold: 2, OpenTimeout: time.Hour, CallTimeout: time.Second}))

	// Given a success, a call whose target hangs, and a failure: two
	// failures, which open the circuit
	for _, c := range []struct {
		msg  int64
		want error
	}{{1, nil}, {2, tripwire.ErrTimeout}, {3, errBoom}} {
		_, err := reg.Call(context.Background(), "k", c.msg)
		require.ErrorIs(t, err, c.want)
		// Then the hook saw each answer sent once, before Call returned it
		require.Equal(t, 1, s.count(c.msg), "sends of the answer to %d", c.msg)
	}
	// And a Call the open circuit refuses is answered by its caller, with no send
	_, err := reg.Call(context.Background(), "k", int64(4))
	require.ErrorIs(t, err, tripwire.ErrOpen)
	require.Zero(t, s.count(int64(4)))

	// And a Request's Reply, refused by the open circuit, was seen sent
	// before the actor had it
	out := make(chan *tripwire.Reply, 1)
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &requester{reg: reg, out: out} }))
	sys.Root.Send(pid, int64(5))
	r := <-out
	require.True(t, errors.Is(r.Err, tripwire.ErrOpen), "reply %+v", r)
	require.Equal(t, 1, s.count(int64(5)))
}

func TestTheHookSeesARequestsReplySent(t *testing.T) {
	s := hookSends(t)
	reg, sys := start(t)
	echo := func(_ context.Context, msg any) (any, error) { return msg, nil }
	require.NoError(t, reg.Register(context.Background(), "k", tripwire.Func(echo), tripwire.Settings{}))
	out := make(chan *tripwire.Reply, 1)
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &requester{reg: reg, out: out} }))
	// Given a Request that succeeds
	sys.Root.Send(pid, int64(6))
	r := <-out
	require.NoError(t, r.Err)
	// Then the hook saw its call answered and its Reply sent, before the
	// actor had the Reply
	require.Equal(t, 2, s.count(int64(6)))
}
