package test

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestSlowCallDoesNotDelayAFastCallOnTheSameKey(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given one key whose target takes 3 s for a slow message and no time for a fast one
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "search", s.Func(nil), tripwire.Settings{CallTimeout: 5 * time.Second})

		// When a slow call is in the target
		start := time.Now()
		slow := testkit.GoCall(ctx, e.Reg, "search", tripwiretest.Op{Label: "slow", After: 3 * time.Second})
		testkit.StillPending(t, slow, "the slow call")

		// and a fast call is made after it
		v, err := e.Reg.Call(ctx, "search", tripwiretest.Op{Label: "fast"})

		// Then the fast call returns its own answer with no fake time elapsed
		if err != nil || v != tripwiretest.Answer("fast") {
			t.Fatalf("fast call: %v, %v; want %q", v, err, tripwiretest.Answer("fast"))
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("fast call returned after %v behind a slow one, want at once", d)
		}
		// while the slow call is still running
		testkit.StillPending(t, slow, "the slow call")
		// and the slow call gets its own answer after exactly 3 s
		r := testkit.Await(t, slow)
		if r.Err != nil || r.V != tripwiretest.Answer("slow") {
			t.Errorf("slow call: %v, %v; want %q", r.V, r.Err, tripwiretest.Answer("slow"))
		}
		if d := r.At.Sub(start); d != 3*time.Second {
			t.Errorf("slow call took %v, want 3s", d)
		}
		testkit.WantCircuit(t, e.Reg, "search", state.Closed, 0)
	})
}

func TestHungCallsDoNotDelayLaterCallsOnTheSameKey(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given one key with 20 calls hung in its target
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "search", s.Func(nil), tripwire.Settings{Threshold: 100, CallTimeout: 30 * time.Second})
		hung := make([]<-chan testkit.Result, 20)
		for i := range hung {
			hung[i] = testkit.GoCall(ctx, e.Reg, "search", tripwiretest.Op{Hang: true})
		}
		for _, ch := range hung {
			testkit.StillPending(t, ch, "a hung call")
		}

		// When 20 fast calls are made one after another
		start := time.Now()
		for i := range 20 {
			if _, err := e.Reg.Call(ctx, "search", tripwiretest.Op{Label: "fast"}); err != nil {
				t.Fatalf("fast call %d: %v", i, err)
			}
		}

		// Then none of them waited, and all 20 hung calls are still in flight
		if d := time.Since(start); d != 0 {
			t.Errorf("20 fast calls took %v behind 20 hung ones, want no time", d)
		}
		if snap := testkit.Snapshot(t, e.Reg, "search"); snap.InFlight != 20 {
			t.Errorf("InFlight = %d, want the 20 hung calls", snap.InFlight)
		}
		// and the hung calls time out at their deadline
		for _, ch := range hung {
			if r := testkit.Await(t, ch); r.At.Sub(start) != 30*time.Second {
				t.Errorf("hung call answered after %v (%v), want its 30s deadline", r.At.Sub(start), r.Err)
			}
		}
	})
}
