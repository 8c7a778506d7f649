package policies

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// Regression: after a target_down trip the breaker watched the target again
// only once a call to it succeeded, so a respawned target that went down
// again was not noticed: its calls waited for their deadline.

func TestProbeToRespawnedTargetThatStopsFailsAtOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker whose target went down and was respawned under
		// the same name, now half-open
		pid, _ := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: 5 * time.Second, CallTimeout: 30 * time.Second,
		})
		stopService(t, e, pid)
		wantState(t, e.Reg, "svc", state.Open)
		pid, _ = spawnService(t, e)
		advance(5 * time.Second)
		wantState(t, e.Reg, "svc", state.HalfOpen)
		// and a probe the respawned actor will never answer
		probe := goCall(e.Reg, "svc", &hangMsg{})
		testkit.StillPending(t, probe, "probe")

		// When the respawned actor stops
		stoppedAt := time.Now()
		e.Sys.Root.Stop(pid)

		// Then the probe fails with ErrTargetDown at once and the circuit
		// re-opens
		r := testkit.Await(t, probe)
		if d := r.At.Sub(stoppedAt); d != 0 || !isErr(r.Err, tripwire.ErrTargetDown) {
			t.Fatalf("probe ended %v after the stop with %v; want ErrTargetDown at once", d, r.Err)
		}
		wantState(t, e.Reg, "svc", state.Open)
	})
}

func TestResetBreakerWatchesRespawnedTarget(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker whose target went down, was respawned, and that
		// an operator Reset to closed
		tr := record(t, e.Reg)
		pid, _ := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: time.Minute, CallTimeout: 30 * time.Second,
		})
		stopService(t, e, pid)
		pid, _ = spawnService(t, e)
		if err := e.Reg.Reset(context.Background(), "svc"); err != nil {
			t.Fatalf("Reset: %v", err)
		}
		// and a call the respawned actor will never answer
		h := goCall(e.Reg, "svc", &hangMsg{})
		testkit.StillPending(t, h, "hung call")

		// When the respawned actor stops
		stoppedAt := time.Now()
		e.Sys.Root.Stop(pid)

		// Then the call fails at once and the circuit opens for target_down
		r := testkit.Await(t, h)
		if d := r.At.Sub(stoppedAt); d != 0 || !isErr(r.Err, tripwire.ErrTargetDown) {
			t.Errorf("call ended %v after the stop with %v; want ErrTargetDown at once", d, r.Err)
		}
		tr.want(t, "closed->open:target_down", "open->closed:reset", "closed->open:target_down")
	})
}
