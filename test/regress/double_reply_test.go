package regress

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// twice asks the double-replying target to answer First and then Second to
// the same request.
type twice struct{ First, Second any }

// errLate is what a target answers with after it has answered once.
var errLate = errors.New("late second answer")

// spawnDoubleReplier starts an actor target that answers every twice message
// two times.
func spawnDoubleReplier(e *testkit.Env) *actor.PID {
	return spawnActor(e, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*twice); ok {
			ctx.Respond(m.First)
			ctx.Respond(m.Second)
		}
	})
}

// TestTwoResultsForOneCall guards "target replies twice → the first reply is
// delivered, the second dropped" (notes/testing.md §2d item 21): an actor
// target that answers one request twice. The caller gets the first answer,
// and the second neither reaches anyone nor moves the failure count.
func TestTwoResultsForOneCall(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker (threshold 3) in front of an actor that answers every
		// request twice
		testkit.Register(t, e.Reg, "dup", tripwire.ActorTarget(spawnDoubleReplier(e)), tripwire.Settings{Threshold: 3})

		steps := []struct {
			name         string
			first        any
			second       any
			wantFailures int // counting the second answer too would give another number
		}{
			{"error then error", errTarget, errLate, 1},       // counted twice: 2
			{"error then error again", errTarget, errLate, 2}, // counted twice: open at 4
			{"success then error", "ok", errLate, 0},          // counted twice: 1
			{"error then success", errTarget, "late-ok", 1},   // counted twice: 0
		}
		for _, st := range steps {
			// When a call's request is answered twice
			v, err := e.Reg.Call(ctx, "dup", &twice{First: st.first, Second: st.second})

			// Then the caller gets the first answer
			if firstErr, isErr := st.first.(error); isErr {
				if !errors.Is(err, firstErr) || v != nil {
					t.Fatalf("%s: got %v, %v; want the first answer's error", st.name, v, err)
				}
			} else if err != nil || v != st.first {
				t.Fatalf("%s: got %v, %v; want the first answer %v", st.name, v, err, st.first)
			}
			// and only the first answer counts
			if snap := testkit.WantCircuit(t, e.Reg, "dup", state.Closed, st.wantFailures); snap.InFlight != 0 {
				t.Fatalf("%s: InFlight = %d", st.name, snap.InFlight)
			}
		}

		// When an actor Requests ten calls whose requests are each answered twice
		pid, a := testkit.NewAsker(e)
		msgs := make([]any, 10)
		for i := range msgs {
			msgs[i] = &twice{First: fmt.Sprint("first-", i), Second: fmt.Sprint("second-", i)}
		}
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "dup", Msgs: msgs})

		// Then it receives exactly one Reply per request, carrying the first answer
		got := map[any]int{}
		for _, r := range a.Received() {
			m := r.Request.(*twice)
			if r.Err != nil || r.Value != m.First {
				t.Errorf("reply to %v: %v, %v; want %v", m, r.Value, r.Err, m.First)
			}
			got[m]++
		}
		for i, m := range msgs {
			if got[m] != 1 {
				t.Errorf("request %d got %d replies, want 1", i, got[m])
			}
		}
		testkit.WantCircuit(t, e.Reg, "dup", state.Closed, 0)
	})
}

// TestTargetRepliesTwice guards the related case of a target that keeps a
// sender and answers it again on a later call (notes/testing.md §2d item 21,
// §2e "reply twice, reply late"): every call must still get its own answer,
// never a stale one meant for an earlier call, and the stale errors must not
// count as failures. A function target cannot do this: it returns once.
func TestTargetRepliesTwice(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target that, on each call n, first sends a stale error
		// to the sender of every earlier call and then answers n with n*10
		var earlier []*actor.PID
		pid := spawnActor(e, func(c actor.Context) {
			n, ok := c.Message().(int)
			if !ok {
				return
			}
			for i, from := range earlier {
				c.Send(from, fmt.Errorf("stale answer for call %d: %w", i, errLate))
			}
			earlier = append(earlier, c.Sender())
			c.Respond(n * 10)
		})
		// and a breaker (threshold 1: any counted failure would open it) in front of it
		testkit.Register(t, e.Reg, "stale", tripwire.ActorTarget(pid), tripwire.Settings{Threshold: 1})

		// When ten calls are made one after another (45 stale answers in all)
		for n := range 10 {
			v, err := e.Reg.Call(ctx, "stale", n)
			// Then each call gets its own answer
			if err != nil || v != n*10 {
				t.Fatalf("call %d: %v, %v; want %d", n, v, err, n*10)
			}
			// and no stale answer counts as a failure
			testkit.WantCircuit(t, e.Reg, "stale", state.Closed, 0)
		}
		if len(earlier) != 10 {
			t.Fatalf("target saw %d calls, want 10", len(earlier))
		}
		// and every call had a sender of its own (one reply process, told
		// apart by RequestId)
		ids := map[string]bool{}
		for _, from := range earlier {
			if from == nil {
				t.Fatalf("a request reached the target without a sender")
			}
			ids[fmt.Sprintf("%s#%d", from.Id, from.RequestId)] = true
		}
		if len(ids) != 10 {
			t.Errorf("%d distinct senders for 10 calls", len(ids))
		}
	})
}
