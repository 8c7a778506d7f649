package test

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestSlowCallDoesNotDelayAFastCallOnTheSameKey(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given one key whose target takes 3 s for a slow message and no time for a fast one
		var s script
		register(t, e.reg, "search", s.target(), tripwire.Settings{CallTimeout: 5 * time.Second})

		// When a slow call is in the target
		start := time.Now()
		slow := goCall(ctx, e.reg, "search", op{Label: "slow", After: 3 * time.Second})
		stillPending(t, slow, "the slow call")

		// and a fast call is made after it
		v, err := e.reg.Call(ctx, "search", op{Label: "fast"})

		// Then the fast call returns its own answer with no fake time elapsed
		if err != nil || v != answer("fast") {
			t.Fatalf("fast call: %v, %v; want %q", v, err, answer("fast"))
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("fast call returned after %v behind a slow one, want at once", d)
		}
		// while the slow call is still running
		stillPending(t, slow, "the slow call")
		// and the slow call gets its own answer after exactly 3 s
		r := await(t, slow)
		if r.err != nil || r.v != answer("slow") {
			t.Errorf("slow call: %v, %v; want %q", r.v, r.err, answer("slow"))
		}
		if d := r.at.Sub(start); d != 3*time.Second {
			t.Errorf("slow call took %v, want 3s", d)
		}
		wantCircuit(t, e.reg, "search", tripwire.Closed, 0)
	})
}

func TestHungCallsDoNotDelayLaterCallsOnTheSameKey(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given one key with 20 calls hung in its target
		var s script
		register(t, e.reg, "search", s.target(), tripwire.Settings{Threshold: 100, CallTimeout: 30 * time.Second})
		hung := make([]<-chan result, 20)
		for i := range hung {
			hung[i] = goCall(ctx, e.reg, "search", op{Hang: true})
		}
		for _, ch := range hung {
			stillPending(t, ch, "a hung call")
		}

		// When 20 fast calls are made one after another
		start := time.Now()
		for i := range 20 {
			if _, err := e.reg.Call(ctx, "search", op{Label: "fast"}); err != nil {
				t.Fatalf("fast call %d: %v", i, err)
			}
		}

		// Then none of them waited, and all 20 hung calls are still in flight
		if d := time.Since(start); d != 0 {
			t.Errorf("20 fast calls took %v behind 20 hung ones, want no time", d)
		}
		if snap := snapshot(t, e.reg, "search"); snap.InFlight != 20 {
			t.Errorf("InFlight = %d, want the 20 hung calls", snap.InFlight)
		}
		// and the hung calls time out at their deadline
		for _, ch := range hung {
			if r := await(t, ch); r.at.Sub(start) != 30*time.Second {
				t.Errorf("hung call answered after %v (%v), want its 30s deadline", r.at.Sub(start), r.err)
			}
		}
	})
}
