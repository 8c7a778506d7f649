package regress

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestStaleTimerAfterRestart guards the "stale timer after restart" class
// (notes/testing.md §2; Erlang fuse's QuickCheck model found such timer bugs):
// the recovery timer armed by a breaker incarnation that then crashed must
// not half-open the next incarnation early. Both trips happen in a fresh
// incarnation with the same threshold, so their transition numbers are equal
// and only the incarnation tells the two timers apart. It covers a plain
// supervisor restart and a respawn under a new actor name (after more than
// 10 crashes in 10 s).
func TestStaleTimerAfterRestart(t *testing.T) {
	for _, tc := range []struct {
		name    string
		crashes int
	}{
		{"restart", 1},
		{"respawn", 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				ctx := context.Background()
				start := time.Now()
				// Given a breaker (threshold 1, open timeout 10 s) tripped at 0 s,
				// so its recovery timer is due at 10 s
				var s tripwiretest.Script
				testkit.Register(t, e.Reg, "geo", s.Func(nil), tripwire.Settings{
					Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: time.Second,
				})
				if _, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("first trip: %v", err)
				}
				first := testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
				if !first.RetryAt.Equal(start.Add(10 * time.Second)) {
					t.Fatalf("first RetryAt = +%v, want +10s", first.RetryAt.Sub(start))
				}

				// When the breaker crashes at 2 s
				time.Sleep(2 * time.Second)
				for i := range tc.crashes {
					if err := tripwiretest.Crash(context.Background(), e.Reg, "geo"); err != nil {
						t.Fatalf("crash %d: %v", i+1, err)
					}
				}
				if snap := testkit.WantCircuit(t, e.Reg, "geo", state.Closed, 0); snap.Restarts != tc.crashes {
					t.Fatalf("Restarts = %d, want %d", snap.Restarts, tc.crashes)
				}
				// and the new incarnation trips at 5 s, so its own timer is due at 15 s
				time.Sleep(3 * time.Second)
				if _, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("second trip: %v", err)
				}
				second := testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
				if !second.RetryAt.Equal(start.Add(15 * time.Second)) {
					t.Fatalf("second RetryAt = +%v, want +15s", second.RetryAt.Sub(start))
				}

				// Then the first incarnation's due time passes without effect
				sleepUntil(start.Add(10*time.Second + time.Nanosecond))
				testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
				before := s.Counts().Calls
				if _, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Label: "early"}); !errors.Is(err, tripwire.ErrOpen) {
					t.Errorf("call at +10s: %v, want ErrOpen", err)
				}
				if s.Counts().Calls != before {
					t.Errorf("the target was called while the circuit was open")
				}
				sleepUntil(start.Add(15*time.Second - time.Nanosecond))
				testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
				// and the circuit half-opens only on its own timer, at 15 s
				time.Sleep(2 * time.Nanosecond)
				testkit.WantCircuit(t, e.Reg, "geo", state.HalfOpen, 1)
				if v, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Label: "probe"}); err != nil || v != tripwiretest.Answer("probe") {
					t.Errorf("probe: %v, %v", v, err)
				}
				testkit.WantCircuit(t, e.Reg, "geo", state.Closed, 0)
			})
		})
	}
}
