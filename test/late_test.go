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

func TestLateOutcomesAfterATripChangeNothing(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a closed breaker (threshold 2, open timeout 10 s, call timeout 60 s)
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "pay", s.Func(nil), tripwire.Settings{
			Threshold: 2, OpenTimeout: 10 * time.Second, CallTimeout: time.Minute,
		})
		start := time.Now()
		// and three slow calls admitted while it is closed: one succeeds at 5 s
		// (while the circuit will be open), one succeeds at 15 s and one fails
		// at 16 s (while it will be half-open with a probe in flight)
		late1 := testkit.GoCall(ctx, e.Reg, "pay", tripwiretest.Op{Label: "late-1", After: 5 * time.Second})
		late2 := testkit.GoCall(ctx, e.Reg, "pay", tripwiretest.Op{Label: "late-2", After: 15 * time.Second})
		late3 := testkit.GoCall(ctx, e.Reg, "pay", tripwiretest.Op{Label: "late-3", After: 16 * time.Second, Fail: true})
		testkit.StillPending(t, late3, "late-3")

		// When two fast failures trip the circuit at 0 s
		for range 2 {
			if _, err := e.Reg.Call(ctx, "pay", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
				t.Fatalf("tripping call: %v", err)
			}
		}
		opened := testkit.WantCircuit(t, e.Reg, "pay", state.Open, 2)

		// Then the success at 5 s reaches its caller but neither resets the
		// failures nor moves the recovery time
		r := testkit.Await(t, late1)
		if r.Err != nil || r.V != tripwiretest.Answer("late-1") || r.At.Sub(start) != 5*time.Second {
			t.Errorf("late-1: %v, %v after %v; want its own answer after 5s", r.V, r.Err, r.At.Sub(start))
		}
		snap := testkit.WantCircuit(t, e.Reg, "pay", state.Open, 2)
		if !snap.RetryAt.Equal(opened.RetryAt) || !snap.OpenedAt.Equal(opened.OpenedAt) {
			t.Errorf("late success moved OpenedAt/RetryAt: %v/%v, was %v/%v",
				snap.OpenedAt, snap.RetryAt, opened.OpenedAt, opened.RetryAt)
		}

		// When the circuit half-opens at 10 s and a probe that takes until 20 s is admitted
		time.Sleep(start.Add(10*time.Second + time.Millisecond).Sub(time.Now()))
		testkit.WantCircuit(t, e.Reg, "pay", state.HalfOpen, 2)
		probe := testkit.GoCall(ctx, e.Reg, "pay", tripwiretest.Op{Label: "probe", After: start.Add(20 * time.Second).Sub(time.Now())})
		testkit.StillPending(t, probe, "the probe")

		// Then the late success at 15 s does not close the circuit
		r = testkit.Await(t, late2)
		if r.Err != nil || r.V != tripwiretest.Answer("late-2") {
			t.Errorf("late-2: %v, %v; want its own answer", r.V, r.Err)
		}
		testkit.WantCircuit(t, e.Reg, "pay", state.HalfOpen, 2)
		// and the late failure at 16 s neither re-opens it nor frees the probe's permit
		r = testkit.Await(t, late3)
		if !errors.Is(r.Err, tripwiretest.ErrInjected) || r.At.Sub(start) != 16*time.Second {
			t.Errorf("late-3: %v after %v; want its own failure after 16s", r.Err, r.At.Sub(start))
		}
		testkit.WantCircuit(t, e.Reg, "pay", state.HalfOpen, 2)
		if _, err := e.Reg.Call(ctx, "pay", tripwiretest.Op{Label: "extra"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Errorf("call beside the probe: %v, want ErrOpen", err)
		}

		// and only the probe's own success at 20 s closes it
		r = testkit.Await(t, probe)
		if r.Err != nil || r.V != tripwiretest.Answer("probe") || r.At.Sub(start) != 20*time.Second {
			t.Errorf("probe: %v, %v after %v; want its answer after 20s", r.V, r.Err, r.At.Sub(start))
		}
		testkit.WantCircuit(t, e.Reg, "pay", state.Closed, 0)
	})
}
