package test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestFiftyConcurrentCallsEachGetTheirOwnReply(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a function target that answers each message after its own
		// latency (0 to 12 ms, so answers come back out of order)
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "echo", s.Func(nil), tripwire.Settings{})

		// When 50 callers call at once, each with its own message
		const n = 50
		calls := make([]<-chan testkit.Result, n)
		for i := range calls {
			calls[i] = testkit.GoCall(ctx, e.Reg, "echo", tripwiretest.Op{Label: fmt.Sprint("msg-", i), After: time.Duration(i*7%13) * time.Millisecond})
		}

		// Then each gets the answer derived from its own message, none missing or twice
		seen := map[any]int{}
		for i, ch := range calls {
			r := testkit.Await(t, ch)
			if want := tripwiretest.Answer(fmt.Sprint("msg-", i)); r.Err != nil || r.V != want {
				t.Errorf("caller %d: %v, %v; want %q", i, r.V, r.Err, want)
			}
			seen[r.V]++
		}
		for v, k := range seen {
			if k != 1 {
				t.Errorf("answer %v delivered %d times", v, k)
			}
		}
		if got := s.Counts().Calls; got != n {
			t.Errorf("target invoked %d times for %d calls", got, n)
		}
		if snap := testkit.WantCircuit(t, e.Reg, "echo", state.Closed, 0); snap.InFlight != 0 {
			t.Errorf("InFlight = %d after every call answered", snap.InFlight)
		}
	})
}

// doubler is an actor target that answers n with 2n.
type doubler struct{}

func (doubler) Receive(ctx actor.Context) {
	if n, ok := ctx.Message().(int); ok {
		ctx.Respond(2 * n)
	}
}

func TestFiftyConcurrentCallsToAnActorTargetEachGetTheirOwnReply(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target that answers n with 2n
		pid := e.Sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return doubler{} }))
		testkit.Register(t, e.Reg, "double", tripwire.ActorTarget(pid), tripwire.Settings{})

		// When 50 callers call at once with 0..49
		const n = 50
		calls := make([]<-chan testkit.Result, n)
		for i := range calls {
			calls[i] = testkit.GoCall(ctx, e.Reg, "double", i)
		}

		// Then caller i gets 2i, each answer exactly once
		seen := map[any]int{}
		for i, ch := range calls {
			r := testkit.Await(t, ch)
			if r.Err != nil || r.V != 2*i {
				t.Errorf("caller %d: %v, %v; want %d", i, r.V, r.Err, 2*i)
			}
			seen[r.V]++
		}
		if len(seen) != n {
			t.Errorf("%d distinct answers for %d callers", len(seen), n)
		}
		testkit.WantCircuit(t, e.Reg, "double", state.Closed, 0)
	})
}
