package test

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

func TestOneKeysTroublesNeverReachAnother(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given key A (threshold 3) and key B (threshold 10), each with its own target
		var a, b tripwiretest.Script
		testkit.Register(t, e.Reg, "A", a.Func(nil), tripwire.Settings{Threshold: 3, OpenTimeout: time.Minute, CallTimeout: 30 * time.Second})
		testkit.Register(t, e.Reg, "B", b.Func(nil), tripwire.Settings{Threshold: 10, CallTimeout: 30 * time.Second})
		// bFails makes one failing call on B, which must answer at once and
		// leave B closed with exactly its own failures counted
		bFailures := 0
		bFails := func(when string) {
			t.Helper()
			start := time.Now()
			if _, err := e.Reg.Call(ctx, "B", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
				t.Fatalf("B %s: %v, want its target's error", when, err)
			}
			if d := time.Since(start); d != 0 {
				t.Errorf("B %s answered after %v, want at once", when, d)
			}
			bFailures++
			if snap := testkit.WantCircuit(t, e.Reg, "B", state.Closed, bFailures); snap.Restarts != 0 || snap.InFlight != 0 {
				t.Errorf("B %s: Restarts=%d InFlight=%d, want 0 and 0", when, snap.Restarts, snap.InFlight)
			}
		}
		bFails("at the start")

		// When A has 5 calls hung in its target
		hung := make([]<-chan testkit.Result, 5)
		for i := range hung {
			hung[i] = testkit.GoCall(ctx, e.Reg, "A", tripwiretest.Op{Hang: true})
		}
		for _, ch := range hung {
			testkit.StillPending(t, ch, "a hung call on A")
		}
		// Then B is unaffected
		bFails("while A has hung calls")

		// When A fails until it opens
		for range 3 {
			_, _ = e.Reg.Call(ctx, "A", tripwiretest.Op{Fail: true})
		}
		testkit.WantCircuit(t, e.Reg, "A", state.Open, 3)
		if _, err := e.Reg.Call(ctx, "A", tripwiretest.Op{}); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("A while open: %v, want ErrOpen", err)
		}
		// Then B is unaffected
		bFails("while A is open")

		// When A crashes
		if err := tripwiretest.Crash(context.Background(), e.Reg, "A"); err != nil {
			t.Fatalf("Crash(A): %v", err)
		}
		// (its hung calls carry over to its new breaker)
		for _, ch := range hung {
			testkit.StillPending(t, ch, "a hung call on A after the crash")
		}
		if snap := testkit.WantCircuit(t, e.Reg, "A", state.Closed, 0); snap.Restarts != 1 || snap.InFlight != len(hung) {
			t.Errorf("A Restarts = %d, InFlight = %d, want 1 and %d", snap.Restarts, snap.InFlight, len(hung))
		}
		// Then B is unaffected, and only B's own success resets B
		bFails("after A crashed")
		if v, err := e.Reg.Call(ctx, "B", tripwiretest.Op{Label: "b"}); err != nil || v != tripwiretest.Answer("b") {
			t.Errorf("B success: %v, %v", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "B", state.Closed, 0)
		if got := b.Counts().Calls; got != int64(bFailures+1) {
			t.Errorf("B's target ran %d times, want %d (only B's own calls)", got, bFailures+1)
		}

		// When A's hung calls reach their deadline
		for _, ch := range hung {
			if r := testkit.Await(t, ch); !errors.Is(r.Err, tripwire.ErrTimeout) {
				t.Errorf("hung call on A: %v, want ErrTimeout", r.Err)
			}
		}
		// Then A is still closed (they were admitted before its crash) and B too
		testkit.WantCircuit(t, e.Reg, "A", state.Closed, 0)
		testkit.WantCircuit(t, e.Reg, "B", state.Closed, 0)
	})
}
