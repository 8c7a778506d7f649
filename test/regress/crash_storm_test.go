package regress

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestCrashStormKeepsTargetCallsBounded guards issue 12.6: with 1,000
// callers on one key whose breaker crashed every millisecond, callers were
// answered ErrBreakerRestarted at once while their target calls went on, and
// called again: concurrent target invocations reached 40-80 times the
// callers. A crash now hands the calls in flight to the next breaker, whose
// targets' answers still reach their callers, so the calls running in the
// target never exceed the callers waiting for them.
func TestCrashStormKeepsTargetCallsBounded(t *testing.T) {
	const callers = 50
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key whose target takes 5 ms, counting its invocations
		var running, peak atomic.Int64
		target := tripwire.Func(func(ctx context.Context, _ any) (any, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			return "ok", nil
		})
		testkit.Register(t, e.Reg, "hot", target, tripwire.Settings{})

		// When 50 callers call it for 300 ms while its breaker crashes every
		// millisecond (past protoactor's restart limit, so it is respawned
		// too)
		stop := tripwiretest.CrashEvery(e.Reg, time.Millisecond)
		var wg sync.WaitGroup
		var ok, failed atomic.Int64
		end := time.Now().Add(300 * time.Millisecond)
		for range callers {
			wg.Go(func() {
				for time.Now().Before(end) {
					if _, err := e.Reg.Call(context.Background(), "hot", "m"); err != nil {
						failed.Add(1)
					} else {
						ok.Add(1)
					}
				}
			})
		}
		wg.Wait()
		rep := stop()

		// Then no more target calls ever ran at once than there were callers
		if p := peak.Load(); p > callers {
			t.Errorf("%d target calls ran at once for %d callers (%d crashes)", p, callers, rep.Crashes)
		}
		// and every call got its target's answer, crashes or not
		if failed.Load() != 0 || ok.Load() == 0 || rep.Crashes < 200 {
			t.Errorf("%d ok, %d failed, %+v", ok.Load(), failed.Load(), rep)
		}
	})
}
