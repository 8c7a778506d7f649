package test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

func TestFiftyConcurrentCallsEachGetTheirOwnReply(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a function target that answers each message after its own
		// latency (0 to 12 ms, so answers come back out of order)
		var s script
		register(t, e.reg, "echo", s.target(), tripwire.Settings{})

		// When 50 callers call at once, each with its own message
		const n = 50
		calls := make([]<-chan result, n)
		for i := range calls {
			calls[i] = goCall(ctx, e.reg, "echo", op{Label: fmt.Sprint("msg-", i), After: time.Duration(i*7%13) * time.Millisecond})
		}

		// Then each gets the answer derived from its own message, none missing or twice
		seen := map[any]int{}
		for i, ch := range calls {
			r := await(t, ch)
			if want := answer(fmt.Sprint("msg-", i)); r.err != nil || r.v != want {
				t.Errorf("caller %d: %v, %v; want %q", i, r.v, r.err, want)
			}
			seen[r.v]++
		}
		for v, k := range seen {
			if k != 1 {
				t.Errorf("answer %v delivered %d times", v, k)
			}
		}
		if got := s.calls.Load(); got != n {
			t.Errorf("target invoked %d times for %d calls", got, n)
		}
		if snap := wantCircuit(t, e.reg, "echo", tripwire.Closed, 0); snap.InFlight != 0 {
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
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given an actor target that answers n with 2n
		pid := e.sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return doubler{} }))
		register(t, e.reg, "double", tripwire.ActorTarget(pid), tripwire.Settings{})

		// When 50 callers call at once with 0..49
		const n = 50
		calls := make([]<-chan result, n)
		for i := range calls {
			calls[i] = goCall(ctx, e.reg, "double", i)
		}

		// Then caller i gets 2i, each answer exactly once
		seen := map[any]int{}
		for i, ch := range calls {
			r := await(t, ch)
			if r.err != nil || r.v != 2*i {
				t.Errorf("caller %d: %v, %v; want %d", i, r.v, r.err, 2*i)
			}
			seen[r.v]++
		}
		if len(seen) != n {
			t.Errorf("%d distinct answers for %d callers", len(seen), n)
		}
		wantCircuit(t, e.reg, "double", tripwire.Closed, 0)
	})
}
