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
)

// TestSlowClassifierNeverDelaysTheCaller guards issue 12.5: the classifier
// of an actor target's reply ran on the caller's goroutine before it looked
// at its call again, so a 500 ms classifier answered a 50 ms call at 500 ms,
// and one that never returns hung the caller. The call's deadline holds
// whatever user code does: a reply not classified by the deadline is a
// timeout.
func TestSlowClassifierNeverDelaysTheCaller(t *testing.T) {
	for _, tc := range []struct {
		name     string
		classify func(release <-chan struct{}) state.Verdict
	}{
		{"a classifier taking 500 ms", func(<-chan struct{}) state.Verdict {
			time.Sleep(500 * time.Millisecond)
			return state.Success
		}},
		{"a classifier that never returns", func(release <-chan struct{}) state.Verdict {
			<-release
			return state.Success
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given an actor target that answers at once, behind a slow classifier
				release := make(chan struct{})
				defer close(release)
				echo := e.Sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
					if s, ok := c.Message().(string); ok {
						c.Respond(s)
					}
				}))
				testkit.Register(t, e.Reg, "slow", tripwire.ActorTarget(echo), tripwire.Settings{
					CallTimeout: 50 * time.Millisecond,
					Classify:    func(any, error) state.Verdict { return tc.classify(release) },
				})

				// When it is called
				r := testkit.Await(t, testkit.GoCall(context.Background(), e.Reg, "slow", "ping"))

				// Then the caller gets ErrTimeout at its deadline
				if !errors.Is(r.Err, tripwire.ErrTimeout) || r.At.Sub(testkit.BubbleStart) != 50*time.Millisecond {
					t.Errorf("call: %v, %v at +%v; want ErrTimeout at +50ms", r.V, r.Err, r.At.Sub(testkit.BubbleStart))
				}
				// and it counted as a failure
				testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
			})
		})
	}
}
