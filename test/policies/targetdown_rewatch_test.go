package policies

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Regression: after a target_down trip the breaker watched the target again
// only once a call to it succeeded, so a respawned target that went down
// again was not noticed: its calls waited for their deadline.

func TestProbeToRespawnedTargetThatStopsFailsAtOnce(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		// Given a breaker whose target went down and was respawned under
		// the same name, now half-open
		pid, _ := spawnService(t, e)
		register(t, e.reg, "svc", tripwire.ActorTarget(e.sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: 5 * time.Second, CallTimeout: 30 * time.Second,
		})
		stopService(t, e, pid)
		wantState(t, e.reg, "svc", tripwire.Open)
		pid, _ = spawnService(t, e)
		advance(5 * time.Second)
		wantState(t, e.reg, "svc", tripwire.HalfOpen)
		// and a probe the respawned actor will never answer
		probe := goCall(e.reg, "svc", &hangMsg{})
		stillPending(t, probe, "probe")

		// When the respawned actor stops
		stoppedAt := time.Now()
		e.sys.Root.Stop(pid)

		// Then the probe fails with ErrTargetDown at once and the circuit
		// re-opens
		r := await(t, probe)
		if d := r.at.Sub(stoppedAt); d != 0 || !isErr(r.err, tripwire.ErrTargetDown) {
			t.Fatalf("probe ended %v after the stop with %v; want ErrTargetDown at once", d, r.err)
		}
		wantState(t, e.reg, "svc", tripwire.Open)
	})
}

func TestResetBreakerWatchesRespawnedTarget(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		// Given a breaker whose target went down, was respawned, and that
		// an operator Reset to closed
		tr := record(t, e.reg)
		pid, _ := spawnService(t, e)
		register(t, e.reg, "svc", tripwire.ActorTarget(e.sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: time.Minute, CallTimeout: 30 * time.Second,
		})
		stopService(t, e, pid)
		pid, _ = spawnService(t, e)
		if err := e.reg.Reset("svc"); err != nil {
			t.Fatalf("Reset: %v", err)
		}
		// and a call the respawned actor will never answer
		h := goCall(e.reg, "svc", &hangMsg{})
		stillPending(t, h, "hung call")

		// When the respawned actor stops
		stoppedAt := time.Now()
		e.sys.Root.Stop(pid)

		// Then the call fails at once and the circuit opens for target_down
		r := await(t, h)
		if d := r.at.Sub(stoppedAt); d != 0 || !isErr(r.err, tripwire.ErrTargetDown) {
			t.Errorf("call ended %v after the stop with %v; want ErrTargetDown at once", d, r.err)
		}
		tr.want(t, "closed->open:target_down", "open->closed:reset", "closed->open:target_down")
	})
}
