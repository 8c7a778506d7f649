package regress

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestHalfOpenProbeWorkerPanics guards the "leaked half-open permit" class
// (notes/testing.md §2; resilience4j's stuck half-open state): a probe whose
// target panics must give its permit back. The breaker re-opens, half-opens
// again on its timer, and the panicking worker goes on serving calls.
func TestHalfOpenProbeWorkerPanics(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker (threshold 1, open timeout 3 s) tripped by one failure
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 3 * time.Second, CallTimeout: time.Second,
		})
		if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		snap := testkit.WantCircuit(t, e.Reg, "db", state.Open, 1)

		for cycle := range 3 {
			// When it half-opens and its probe panics in the target
			sleepUntil(snap.RetryAt.Add(time.Nanosecond))
			testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 1+cycle)
			_, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: fmt.Sprint("probe-", cycle), Panic: true})
			panickedAt := time.Now()

			// Then the prober gets ErrTargetPanic and the circuit re-opens at
			// once, its timer restarted from the panic
			if !errors.Is(err, tripwire.ErrTargetPanic) {
				t.Fatalf("cycle %d: probe: %v, want ErrTargetPanic", cycle, err)
			}
			snap = testkit.WantCircuit(t, e.Reg, "db", state.Open, 2+cycle)
			if !snap.RetryAt.Equal(panickedAt.Add(3*time.Second)) || snap.InFlight != 0 {
				t.Fatalf("cycle %d: RetryAt=+%v InFlight=%d; want 3s after the panic and 0",
					cycle, snap.RetryAt.Sub(panickedAt), snap.InFlight)
			}
			if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "while-open"}); !errors.Is(err, tripwire.ErrOpen) {
				t.Fatalf("cycle %d: call while open: %v, want ErrOpen", cycle, err)
			}
		}

		// When it half-opens once more and the probe succeeds
		sleepUntil(snap.RetryAt.Add(time.Nanosecond))
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 4)
		if v, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "healthy"}); err != nil || v != tripwiretest.Answer("healthy") {
			t.Fatalf("last probe: %v, %v", v, err)
		}
		// Then it closes, and the one worker that ran every call survived the panics
		testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)
		if got, want := s.Counts().Calls, int64(5); got != want {
			t.Errorf("target ran %d times, want %d (1 trip, 3 probes that panicked, 1 healthy)", got, want)
		}
		if w := testkit.Workers(e.Reg); w != 1 {
			t.Errorf("Workers() = %d after sequential calls, want 1: a panic must not cost a worker", w)
		}
	})
}

// TestHalfOpenProbeHangs guards the same "leaked half-open permit" class for
// a probe that never answers (resilience4j's stuck half-open state): its
// timeout gives the permit back and re-opens the circuit, the circuit
// half-opens again later, and the hung probe's eventual answer changes
// nothing.
func TestHalfOpenProbeHangs(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		stuck := make(chan struct{})
		release := sync.OnceFunc(func() { close(stuck) })
		defer release() // let the hung target return before Shutdown waits for it
		// Given a breaker (threshold 1, open timeout 10 s, call timeout 5 s)
		// tripped by one failure and then half-open
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 5 * time.Second,
		})
		if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		snap := testkit.WantCircuit(t, e.Reg, "db", state.Open, 1)
		sleepUntil(snap.RetryAt.Add(time.Millisecond))
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 1)

		// When the probe hangs in a target that ignores its context
		probeAt := time.Now()
		probe := testkit.GoCall(ctx, e.Reg, "db", tripwiretest.Op{Label: "probe", Stuck: stuck})
		testkit.StillPending(t, probe, "the hung probe")
		// Then while it hangs every other call gets ErrOpen without reaching the target
		if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "beside"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Errorf("call beside the probe: %v, want ErrOpen", err)
		}
		if got := s.Counts().Calls; got != 2 {
			t.Errorf("target ran %d times, want 2 (the trip and the probe)", got)
		}

		// and at its deadline the prober gets ErrTimeout, and the circuit re-opens
		// with its timer restarted from that moment
		r := testkit.Await(t, probe)
		if !errors.Is(r.Err, tripwire.ErrTimeout) || r.At.Sub(probeAt) != 5*time.Second {
			t.Fatalf("hung probe: %v after %v; want ErrTimeout after 5s", r.Err, r.At.Sub(probeAt))
		}
		snap = testkit.WantCircuit(t, e.Reg, "db", state.Open, 2)
		if !snap.RetryAt.Equal(r.At.Add(10*time.Second)) || snap.InFlight != 0 {
			t.Fatalf("after the timeout: RetryAt=+%v InFlight=%d; want 10s after it and 0",
				snap.RetryAt.Sub(r.At), snap.InFlight)
		}

		// When the timer fires again, the circuit is half-open, not stuck
		sleepUntil(snap.RetryAt.Add(-time.Nanosecond))
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 2)
		time.Sleep(2 * time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 2)
		// and a healthy probe closes it
		if v, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "healthy"}); err != nil || v != tripwiretest.Answer("healthy") {
			t.Fatalf("second probe: %v, %v", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)

		// Then the hung probe's failure, when it finally comes, changes nothing
		release()
		testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)
		if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "after"}); err != nil {
			t.Errorf("call after the late failure: %v", err)
		}
	})
}
