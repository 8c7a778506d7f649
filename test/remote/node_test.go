package remote

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// caller is a registry on the home node, with its transitions.
type caller struct {
	reg   *tripwire.Registry
	trans chan state.Transition
}

func startCaller(t *testing.T) *caller {
	t.Helper()
	reg, err := tripwire.Start(tripwire.WithActorSystem(home.System()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Shutdown(context.Background()) })
	c := &caller{reg: reg, trans: make(chan state.Transition, 1024)}
	reg.Subscribe(func(tr state.Transition) {
		select {
		case c.trans <- tr:
		default:
		}
	})
	return c
}

// await returns key's next transition to state, failing the test if none
// comes within d.
func (c *caller) await(t *testing.T, to state.State, d time.Duration) state.Transition {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case tr := <-c.trans:
			if tr.To == to {
				return tr
			}
		case <-timeout:
			t.Fatalf("no transition to %v within %v", to, d)
		}
	}
}

// keepCalling calls key every pause until stop is called; stop waits for
// the last call to return.
func (c *caller) keepCalling(key string, pause time.Duration) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, _ = c.reg.Call(context.Background(), key, hello())
			select {
			case <-quit:
				return
			case <-time.After(pause):
			}
		}
	}()
	return func() { close(quit); <-done }
}

// reconnect bounds how long protoactor takes to reach an address again once
// it is back: its endpoint writer retries a lost address every 2 s.
const reconnect = 2*time.Second + 500*time.Millisecond

func hello() *wrapperspb.StringValue { return wrapperspb.String("hello") }

// waitFor polls cond until it holds, failing the test after 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// connected returns a channel closed once the home node has connected to
// addr. protoactor only learns that a node died once it had a connection to
// lose: while it is still connecting, it retries for 10 s before it gives
// the address up.
func connected(addr string) <-chan struct{} {
	ch := make(chan struct{})
	var once sync.Once
	var sub *eventstream.Subscription
	sub = home.System().EventStream.SubscribeWithPredicate(func(any) {
		once.Do(func() {
			close(ch)
			go home.System().EventStream.Unsubscribe(sub)
		})
	}, func(ev any) bool {
		c, ok := ev.(*remote.EndpointConnectedEvent)
		return ok && c.Address == addr
	})
	return ch
}
