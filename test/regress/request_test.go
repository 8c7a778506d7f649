package regress

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// selfless is an actor context with no Self PID, like protoactor's root
// context, whose Request has no sender; any other method would panic.
type selfless struct{ actor.Context }

func (selfless) Self() *actor.PID { return nil }

// TestRequestWithNoSender guards protoactor's "no sender" class
// (notes/protoactor.md §4: Respond to a nil sender goes to dead letters, and
// ctx.Send(nil, x) panics — a nil sender stored from Root.Request crashed a
// breaker). A breaker always asks an actor target with a sender of its own;
// the analogue in our API is Request: a reply to a requester that has
// stopped must become a dead letter, not a panic, and a Request without a
// requester must be refused with ErrNilContext.
func TestRequestWithNoSender(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target func(e *testkit.Env) tripwire.Target
	}{
		{"function target", func(*testkit.Env) tripwire.Target { return tripwiretest.New().Func(nil) }},
		{"actor target", func(e *testkit.Env) tripwire.Target {
			return tripwire.ActorTarget(e.Sys.Root.Spawn(tripwiretest.New().Props(nil)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				dead := watchDeadLetters(t, e)
				// Given a breaker (threshold 2) with one failure counted, in
				// front of a target that answers after 2 s
				testkit.Register(t, e.Reg, "slow", tc.target(e), tripwire.Settings{Threshold: 2, CallTimeout: time.Minute})
				if _, err := e.Reg.Call(context.Background(), "slow", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("seeding failure: %v", err)
				}
				testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
				// and an actor that Requests calls
				pid, a := testkit.NewAsker(e)

				// When an actor Requests a call and stops 1 s later, before the answer
				start := time.Now()
				e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "slow", Msgs: []any{tripwiretest.Op{Label: "orphan", After: 2 * time.Second}}})
				time.Sleep(time.Second)
				if err := e.Sys.Root.StopFuture(pid).Wait(); err != nil {
					t.Fatalf("stop the requester: %v", err)
				}
				if rs := a.Received(); len(rs) != 0 {
					t.Fatalf("reply before the target answered: %v", rs[0])
				}

				// Then at 2 s the reply goes to the dead letters, once, with the
				// target's answer; nothing panics
				sleepUntil(start.Add(2*time.Second + time.Millisecond))
				rs := dead.replies()
				if len(rs) != 1 || rs[0].Key != "slow" || rs[0].Err != nil || rs[0].Value != tripwiretest.Answer("orphan") {
					t.Fatalf("dead-lettered replies: %+v; want one with the answer %q", rs, tripwiretest.Answer("orphan"))
				}
				// and the call counted as the success it was
				if snap := testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 0); snap.InFlight != 0 {
					t.Errorf("InFlight = %d", snap.InFlight)
				}

				// When Request is given no actor context, or one without a Self PID
				for _, actx := range []actor.Context{nil, selfless{}} {
					err := e.Reg.Request(actx, "slow", tripwiretest.Op{Label: "senderless"})
					// Then it is refused with ErrNilContext, without a panic or a call
					if !errors.Is(err, tripwire.ErrNilContext) {
						t.Errorf("Request(%T): %v, want ErrNilContext", actx, err)
					}
				}
				if snap := testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 0); snap.InFlight != 0 {
					t.Errorf("a refused Request reached the breaker: InFlight = %d", snap.InFlight)
				}
				if rs := dead.replies(); len(rs) != 1 {
					t.Errorf("%d dead-lettered replies, want still 1", len(rs))
				}
			})
		})
	}
}
