package regress

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestBoundedMailboxTargetNeverBlocksTheBreaker guards issue 12.3: an actor
// target with protoactor's Bounded mailbox that stops draining blocks every
// sender once its mailbox is full, and the send ran inside the breaker's
// turn — which runs inline on a caller's goroutine. That caller blocked
// inside the post, before it waited on its call, so its deadline was lost;
// the breaker was wedged, and ForceOpen and Crash failed after 5 s with
// ErrTimeout. The breaker must never block in a send.
//
// protoactor's bounded queue waits by spinning (runtime.Gosched), which fake
// time cannot see past, so this test runs in real time; it measures nothing
// but whether each call returns, within a generous bound.
func TestBoundedMailboxTargetNeverBlocksTheBreaker(t *testing.T) {
	sys := testkit.NewSystem(t)
	reg := testkit.Start(t, sys)
	// Given an actor target with a mailbox of 2 that stops draining: its
	// first message blocks it, the next two fill its mailbox
	stuck := make(chan struct{})
	var handled atomic.Int64
	props := actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); ok {
			<-stuck
			handled.Add(1)
			c.Respond("late")
		}
	}, actor.WithMailbox(actor.Bounded(2)))
	pid, err := sys.Root.SpawnNamed(props, "bounded")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Register(t, reg, "b", tripwire.ActorTarget(pid), tripwire.Settings{Threshold: 100, CallTimeout: 100 * time.Millisecond})

	// When more calls come than its mailbox holds
	const calls = 5
	done := make(chan error, calls)
	for range calls {
		go func() {
			_, err := reg.Call(context.Background(), "b", "m")
			done <- err
		}()
	}

	// Then every caller is answered ErrTimeout at its deadline, none stuck
	// in a send
	bound := time.After(5 * time.Second)
	for range calls {
		select {
		case err := <-done:
			if !errors.Is(err, tripwire.ErrTimeout) {
				t.Errorf("call: %v, want ErrTimeout", err)
			}
		case <-bound:
			t.Fatalf("a caller is stuck sending to the full mailbox")
		}
	}
	// and the breaker answers its operator at once
	if err := reg.ForceOpen("b"); err != nil {
		t.Errorf("ForceOpen: %v", err)
	}
	if err := reg.Crash("b"); err != nil {
		t.Errorf("Crash: %v", err)
	}
	// (the target drains; the sends that waited complete, and it takes
	// each message before the test ends)
	close(stuck)
	for deadline := time.Now().Add(5 * time.Second); handled.Load() < calls; {
		if time.Now().After(deadline) {
			t.Fatalf("the target took %d of %d messages", handled.Load(), calls)
		}
		time.Sleep(time.Millisecond)
	}
}
