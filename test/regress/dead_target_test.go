package regress

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// Regression: an ask of a target that had stopped went to protoactor's
// dead letters, which publish a DeadLetterEvent on the EventStream and run
// every handler of it (the program's: a logger, a metrics push) on the
// goroutine of the send, the caller's or the breaker's turn. A slow handler
// held the call past its deadline. Such an ask is now sent nothing.
func TestACallToAStoppedTargetWaitsForNoEventStreamHandler(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a program whose dead-letter handler is slow, and a key whose target has stopped
		dl, dead := slowDeadLetters(t, e)
		testkit.Register(t, e.Reg, "dead", tripwire.ActorTarget(dead),
			tripwire.Settings{CallTimeout: 50 * time.Millisecond, IgnoreTargetDown: true, Threshold: 100})
		for i := range 3 {
			// When it is called
			start := time.Now()
			_, err := e.Reg.Call(context.Background(), "dead", "hello")
			// Then the call fails with ErrTargetDown at once
			if took := time.Since(start); !errors.Is(err, tripwire.ErrTargetDown) || took != 0 {
				t.Errorf("call %d: %v after %v, want ErrTargetDown at once", i, err, took)
			}
		}
		// and its message went to no dead letter
		dl.mu.Lock()
		defer dl.mu.Unlock()
		for _, m := range dl.msgs {
			if m == "hello" {
				t.Errorf("a call's message went to the dead letters")
			}
		}
	})
}

// Regression: a breaker of a target that had stopped watched it through
// protoactor's dead letters, which answer the Watch but first run every
// DeadLetterEvent handler of the program's on the breaker's turn: at
// Register, and again at every wake and respawn of the key. The breaker
// now tells itself that the target is not there.
func TestWatchingAStoppedTargetRunsNoEventStreamHandler(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a program whose dead-letter handler is slow, and a target that has stopped
		dl, dead := slowDeadLetters(t, e)

		// When a key is registered for it, with its watch (the default)
		start := time.Now()
		testkit.Register(t, e.Reg, "dead", tripwire.ActorTarget(dead), tripwire.Settings{})
		synctest.Wait()

		// Then it opens for its target at once, and no Watch went to the dead letters
		if took := time.Since(start); took != 0 {
			t.Errorf("Register and the watch took %v, want no time", took)
		}
		if _, err := e.Reg.Call(context.Background(), "dead", "hello"); !errors.Is(err, tripwire.ErrOpen) {
			t.Errorf("call: %v, want ErrOpen (its target is down)", err)
		}
		dl.mu.Lock()
		defer dl.mu.Unlock()
		for _, m := range dl.msgs {
			if _, ok := m.(*actor.Watch); ok {
				t.Errorf("the breaker's Watch went to the dead letters")
			}
		}
	})
}

// slowDeadLetters gives the program a dead-letter handler that takes
// 300 ms, and returns the dead letters and a target that has stopped.
func slowDeadLetters(t *testing.T, e *testkit.Env) (*deadLetters, *actor.PID) {
	t.Helper()
	dl := watchDeadLetters(t, e)
	sub := e.Sys.EventStream.Subscribe(func(ev any) {
		if _, ok := ev.(*actor.DeadLetterEvent); ok {
			time.Sleep(300 * time.Millisecond)
		}
	})
	t.Cleanup(func() { e.Sys.EventStream.Unsubscribe(sub) })
	dead := e.Sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
	if err := e.Sys.Root.StopFuture(dead).Wait(); err != nil {
		t.Fatal(err)
	}
	return dl, dead
}
