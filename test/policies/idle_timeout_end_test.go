package policies

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Regression: the idle clock did not move when a call ended by its deadline,
// a withdrawal or target_down, so a breaker whose last call timed out
// passivated less than IdleTimeout after that call ended.
func TestIdleTimeCountsFromATimedOutCall(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 10s idle timeout, and 3s after Register a
		// call that hangs until its 25s deadline (it ends 28s in)
		testkit.Register(t, e.Reg, "idle", tripwiretest.New().Func(nil), tripwire.Settings{
			IdleTimeout: 10 * time.Second, CallTimeout: 25 * time.Second,
		})
		start := time.Now()
		advance(3 * time.Second)
		h := goCall(e.Reg, "idle", tripwiretest.Op{Hang: true})
		r := testkit.Await(t, h)
		wantErr(t, "hung call", r.Err, tripwire.ErrTimeout)
		if d := r.At.Sub(start); d != 28*time.Second {
			t.Fatalf("call ended %v in; want 28s", d)
		}
		testkit.WantCircuit(t, e.Reg, "idle", state.Closed, 1)

		// When less than 10s pass after the call ended
		// Then the breaker is still there, with the timeout counted
		for at := 29 * time.Second; at < 38*time.Second; at += time.Second {
			advance(time.Until(start.Add(at)))
			if ids := breakerActors(e.Sys, "idle"); len(ids) != 1 {
				t.Fatalf("breaker gone %v in, %v after its last call ended (28s in); want it until 38s in",
					at, at-28*time.Second)
			}
		}
		testkit.WantCircuit(t, e.Reg, "idle", state.Closed, 1)
	})
}
