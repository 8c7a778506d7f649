package regress

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestBoundedMailboxTargetNeverBlocksTheBreaker guards issue 12.3 and what
// a review found after it. An actor target with protoactor's Bounded
// mailbox that stops draining blocks every sender once its mailbox is full
// (protoactor's queue spins on runtime.Gosched until there is room):
//   - the send ran inside the breaker's turn, which runs inline on a
//     caller's goroutine, so that caller lost its deadline and the breaker
//     was wedged (ForceOpen and Crash failed after 5 s with ErrTimeout);
//   - then each send ran on a pool worker of its own, which spun for as
//     long as the target was stuck, long after its caller had its answer:
//     one more spinning worker a call, and Shutdown never ended;
//   - and a send that got room at last delivered the message of a call
//     answered long before, under the sender PID of whatever call had
//     reused the ask by then.
//
// The asks to such a target wait in line for room without spinning (which
// is why this runs in fake time), and one whose caller has its answer is
// never sent.
func TestBoundedMailboxTargetNeverBlocksTheBreaker(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
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
		pid, err := e.Sys.Root.SpawnNamed(props, "bounded")
		if err != nil {
			t.Fatal(err)
		}
		testkit.Register(t, e.Reg, "b", tripwire.ActorTarget(pid), tripwire.Settings{Threshold: 100, CallTimeout: 100 * time.Millisecond})

		// When more calls come than its mailbox holds
		const calls, sent = 5, 3
		start := time.Now()
		done := make(chan error, calls)
		for range calls {
			go func() {
				_, err := e.Reg.Call(context.Background(), "b", "m")
				done <- err
			}()
		}

		// Then every caller is answered ErrTimeout at its deadline, none stuck
		// in a send
		for range calls {
			if err := <-done; !errors.Is(err, tripwire.ErrTimeout) {
				t.Errorf("call: %v, want ErrTimeout", err)
			}
		}
		if took := time.Since(start); took != 100*time.Millisecond {
			t.Errorf("the calls were answered after %v, want their deadline, 100ms", took)
		}
		// and the breaker answers its operator at once
		if err := e.Reg.ForceOpen(context.Background(), "b"); err != nil {
			t.Errorf("ForceOpen: %v", err)
		}
		if err := tripwiretest.Crash(context.Background(), e.Reg, "b"); err != nil {
			t.Errorf("Crash: %v", err)
		}
		// and nothing is held by the stuck target: the registry shuts down
		// while it is still stuck
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := e.Reg.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown while the target is stuck: %v", err)
		}
		// and once it drains, it takes only what it was sent: the messages
		// that found room, not those whose callers had their answer first
		close(stuck)
		time.Sleep(time.Second)
		synctest.Wait()
		if n := handled.Load(); n != sent {
			t.Errorf("the target took %d messages, want %d", n, sent)
		}
	})
}
