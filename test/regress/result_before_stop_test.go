package regress

import (
	"context"
	"errors"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// lastWord asks the target to answer N and then stop itself.
type lastWord struct{ N int }

// failNow asks the target to answer with errTarget and stay alive.
type failNow struct{}

// TestWorkerResultBeforeTermination guards protoactor's "Terminated overtakes
// a result" class (notes/protoactor.md §5 and §11: a system message sent
// after a user message was handled first). Our workers are pooled goroutines
// and an actor target is asked through a one-shot reply process, so the
// analogue is an actor target that answers and then stops itself at once:
// the caller must get the answer, not ErrTargetDown, and it counts as a
// success. Only the next call, to the stopped actor, is ErrTargetDown.
func TestWorkerResultBeforeTermination(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(c actor.Context)
	}{
		{"Stop", func(c actor.Context) { c.Stop(c.Self()) }},
		{"Poison", func(c actor.Context) { c.Poison(c.Self()) }},
		{"StopFuture", func(c actor.Context) { c.StopFuture(c.Self()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				ctx := context.Background()
				// Given a breaker (threshold 3) in front of an actor target addressed
				// by name, which answers lastWord and then stops itself
				props := actor.PropsFromProducer(func() actor.Actor {
					return actorFunc(func(c actor.Context) {
						switch m := c.Message().(type) {
						case *failNow:
							c.Respond(errTarget)
						case *lastWord:
							c.Respond(m.N)
							tc.stop(c)
						}
					})
				})
				// IgnoreTargetDown: the next call must reach the dead target
				// itself (ErrTargetDown), not be refused by an opened circuit.
				testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")),
					tripwire.Settings{Threshold: 3, IgnoreTargetDown: true})

				for round := range 20 {
					if _, err := e.Sys.Root.SpawnNamed(props, "svc"); err != nil {
						t.Fatalf("round %d: spawn svc: %v", round, err)
					}
					// and one failure counted (two at the start of a later round)
					if _, err := e.Reg.Call(ctx, "svc", &failNow{}); !errors.Is(err, errTarget) {
						t.Fatalf("round %d: failing call: %v", round, err)
					}
					failures := 1
					if round > 0 {
						failures = 2 // the ErrTargetDown of the round before, and this one
					}
					testkit.WantCircuit(t, e.Reg, "svc", state.Closed, failures)

					// When the target answers a call and stops itself right after
					v, err := e.Reg.Call(ctx, "svc", &lastWord{N: round})

					// Then the caller gets the answer
					if err != nil || v != round {
						t.Fatalf("round %d: last word: %v, %v; want %d", round, v, err, round)
					}
					// and it counts as a success
					testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 0)
					// and only a call after the stop finds the target down
					if _, err := e.Reg.Call(ctx, "svc", &failNow{}); !errors.Is(err, tripwire.ErrTargetDown) {
						t.Fatalf("round %d: call after the stop: %v, want ErrTargetDown", round, err)
					}
					testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 1)
				}
			})
		})
	}
}
