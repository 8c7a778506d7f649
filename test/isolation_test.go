package test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestOneKeysTroublesNeverReachAnother(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given key A (threshold 3) and key B (threshold 10), each with its own target
		var a, b script
		register(t, e.reg, "A", a.target(), tripwire.Settings{Threshold: 3, OpenTimeout: time.Minute, CallTimeout: 30 * time.Second})
		register(t, e.reg, "B", b.target(), tripwire.Settings{Threshold: 10, CallTimeout: 30 * time.Second})
		// bFails makes one failing call on B, which must answer at once and
		// leave B closed with exactly its own failures counted
		bFailures := 0
		bFails := func(when string) {
			t.Helper()
			start := time.Now()
			if _, err := e.reg.Call(ctx, "B", op{Fail: true}); !errors.Is(err, errTarget) {
				t.Fatalf("B %s: %v, want its target's error", when, err)
			}
			if d := time.Since(start); d != 0 {
				t.Errorf("B %s answered after %v, want at once", when, d)
			}
			bFailures++
			if snap := wantCircuit(t, e.reg, "B", tripwire.Closed, bFailures); snap.Restarts != 0 || snap.InFlight != 0 {
				t.Errorf("B %s: Restarts=%d InFlight=%d, want 0 and 0", when, snap.Restarts, snap.InFlight)
			}
		}
		bFails("at the start")

		// When A has 5 calls hung in its target
		hung := make([]<-chan result, 5)
		for i := range hung {
			hung[i] = goCall(ctx, e.reg, "A", op{Hang: true})
		}
		for _, ch := range hung {
			stillPending(t, ch, "a hung call on A")
		}
		// Then B is unaffected
		bFails("while A has hung calls")

		// When A fails until it opens
		for range 3 {
			_, _ = e.reg.Call(ctx, "A", op{Fail: true})
		}
		wantCircuit(t, e.reg, "A", tripwire.Open, 3)
		if _, err := e.reg.Call(ctx, "A", op{}); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("A while open: %v, want ErrOpen", err)
		}
		// Then B is unaffected
		bFails("while A is open")

		// When A crashes
		if err := e.reg.Crash("A"); err != nil {
			t.Fatalf("Crash(A): %v", err)
		}
		for _, ch := range hung {
			if r := await(t, ch); !errors.Is(r.err, tripwire.ErrBreakerRestarted) {
				t.Errorf("hung call on A after the crash: %v, want ErrBreakerRestarted", r.err)
			}
		}
		if snap := wantCircuit(t, e.reg, "A", tripwire.Closed, 0); snap.Restarts != 1 {
			t.Errorf("A Restarts = %d, want 1", snap.Restarts)
		}
		// Then B is unaffected, and only B's own success resets B
		bFails("after A crashed")
		if v, err := e.reg.Call(ctx, "B", op{Label: "b"}); err != nil || v != answer("b") {
			t.Errorf("B success: %v, %v", v, err)
		}
		wantCircuit(t, e.reg, "B", tripwire.Closed, 0)
		if got := b.calls.Load(); got != int64(bFailures+1) {
			t.Errorf("B's target ran %d times, want %d (only B's own calls)", got, bFailures+1)
		}
	})
}
