package test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestLateOutcomesAfterATripChangeNothing(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a closed breaker (threshold 2, open timeout 10 s, call timeout 60 s)
		var s script
		register(t, e.reg, "pay", s.target(), tripwire.Settings{
			Threshold: 2, OpenTimeout: 10 * time.Second, CallTimeout: time.Minute,
		})
		start := time.Now()
		// and three slow calls admitted while it is closed: one succeeds at 5 s
		// (while the circuit will be open), one succeeds at 15 s and one fails
		// at 16 s (while it will be half-open with a probe in flight)
		late1 := goCall(ctx, e.reg, "pay", op{Label: "late-1", After: 5 * time.Second})
		late2 := goCall(ctx, e.reg, "pay", op{Label: "late-2", After: 15 * time.Second})
		late3 := goCall(ctx, e.reg, "pay", op{Label: "late-3", After: 16 * time.Second, Fail: true})
		stillPending(t, late3, "late-3")

		// When two fast failures trip the circuit at 0 s
		for range 2 {
			if _, err := e.reg.Call(ctx, "pay", op{Fail: true}); !errors.Is(err, errTarget) {
				t.Fatalf("tripping call: %v", err)
			}
		}
		opened := wantCircuit(t, e.reg, "pay", tripwire.Open, 2)

		// Then the success at 5 s reaches its caller but neither resets the
		// failures nor moves the recovery time
		r := await(t, late1)
		if r.err != nil || r.v != answer("late-1") || r.at.Sub(start) != 5*time.Second {
			t.Errorf("late-1: %v, %v after %v; want its own answer after 5s", r.v, r.err, r.at.Sub(start))
		}
		snap := wantCircuit(t, e.reg, "pay", tripwire.Open, 2)
		if !snap.RetryAt.Equal(opened.RetryAt) || !snap.OpenedAt.Equal(opened.OpenedAt) {
			t.Errorf("late success moved OpenedAt/RetryAt: %v/%v, was %v/%v",
				snap.OpenedAt, snap.RetryAt, opened.OpenedAt, opened.RetryAt)
		}

		// When the circuit half-opens at 10 s and a probe that takes until 20 s is admitted
		time.Sleep(start.Add(10*time.Second + time.Millisecond).Sub(time.Now()))
		wantCircuit(t, e.reg, "pay", tripwire.HalfOpen, 2)
		probe := goCall(ctx, e.reg, "pay", op{Label: "probe", After: start.Add(20 * time.Second).Sub(time.Now())})
		stillPending(t, probe, "the probe")

		// Then the late success at 15 s does not close the circuit
		r = await(t, late2)
		if r.err != nil || r.v != answer("late-2") {
			t.Errorf("late-2: %v, %v; want its own answer", r.v, r.err)
		}
		wantCircuit(t, e.reg, "pay", tripwire.HalfOpen, 2)
		// and the late failure at 16 s neither re-opens it nor frees the probe's permit
		r = await(t, late3)
		if !errors.Is(r.err, errTarget) || r.at.Sub(start) != 16*time.Second {
			t.Errorf("late-3: %v after %v; want its own failure after 16s", r.err, r.at.Sub(start))
		}
		wantCircuit(t, e.reg, "pay", tripwire.HalfOpen, 2)
		if _, err := e.reg.Call(ctx, "pay", op{Label: "extra"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Errorf("call beside the probe: %v, want ErrOpen", err)
		}

		// and only the probe's own success at 20 s closes it
		r = await(t, probe)
		if r.err != nil || r.v != answer("probe") || r.at.Sub(start) != 20*time.Second {
			t.Errorf("probe: %v, %v after %v; want its answer after 20s", r.v, r.err, r.at.Sub(start))
		}
		wantCircuit(t, e.reg, "pay", tripwire.Closed, 0)
	})
}
