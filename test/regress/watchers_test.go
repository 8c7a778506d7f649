package regress

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestBreakersLeaveNoDeadWatchersOnTheirTarget guards issue 12.7: a breaker
// watches its actor target and never unwatched it, and each new breaker of
// the key has an actor name of its own, so the target's set of watchers grew
// by one dead breaker per passivation, per respawn after too many crashes
// and per Unregister/Register cycle (650 cycles: 649 dead watchers, 3-4 KB
// each). When the target finally stops, protoactor tells each watcher; a
// dead one is a dead letter, which this test counts.
func TestBreakersLeaveNoDeadWatchersOnTheirTarget(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target, and a count of Terminated messages sent to
		// breakers that no longer exist
		target, err := e.Sys.Root.SpawnNamed(actor.PropsFromFunc(func(c actor.Context) {
			if s, ok := c.Message().(string); ok {
				c.Respond(s)
			}
		}), "target")
		if err != nil {
			t.Fatal(err)
		}
		var dead atomic.Int64
		sub := e.Sys.EventStream.Subscribe(func(evt any) {
			if d, ok := evt.(*actor.DeadLetterEvent); ok {
				if _, ok := d.Message.(*actor.Terminated); ok && strings.HasPrefix(d.PID.Id, "tripwire-") {
					dead.Add(1)
				}
			}
		})
		defer e.Sys.EventStream.Unsubscribe(sub)
		call := func(key string) {
			t.Helper()
			if _, err := e.Reg.Call(context.Background(), key, "ping"); err != nil {
				t.Fatalf("call %s: %v", key, err)
			}
		}

		// When a key in front of it passivates and wakes 20 times
		testkit.Register(t, e.Reg, "idle", tripwire.ActorTarget(target), tripwire.Settings{IdleTimeout: time.Second})
		for range 20 {
			call("idle")
			time.Sleep(2 * time.Second)
		}
		// and another is unregistered and registered again 20 times
		for range 20 {
			testkit.Register(t, e.Reg, "again", tripwire.ActorTarget(target), tripwire.Settings{})
			call("again")
			if err := e.Reg.Unregister(context.Background(), "again"); err != nil {
				t.Fatal(err)
			}
		}
		// and a third crashes 40 times, past protoactor's restart limit
		testkit.Register(t, e.Reg, "crashy", tripwire.ActorTarget(target), tripwire.Settings{})
		for range 40 {
			if err := tripwiretest.Crash(context.Background(), e.Reg, "crashy"); err != nil {
				t.Fatal(err)
			}
		}
		call("crashy")

		// Then when the target stops, only the breakers still there are told
		if err := e.Sys.Root.StopFuture(target).Wait(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if n := dead.Load(); n != 0 {
			t.Errorf("the target had %d dead breakers among its watchers", n)
		}
	})
}
