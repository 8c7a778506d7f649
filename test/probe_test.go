package test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestHalfOpenLetsExactlyOneOfTenConcurrentCallersProbe(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a breaker with threshold 1 and a 10 s open timeout
		var s script
		register(t, e.reg, "db", s.target(), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 5 * time.Second,
		})
		// and one failure that opened it
		if _, err := e.reg.Call(ctx, "db", op{Label: "trip", Fail: true}); !errors.Is(err, errTarget) {
			t.Fatalf("tripping call: err = %v, want the target's error", err)
		}
		wantCircuit(t, e.reg, "db", tripwire.Open, 1)

		// When the open timeout passes, the breaker half-opens by itself:
		// still open a nanosecond before, half-open a nanosecond after.
		time.Sleep(10*time.Second - time.Nanosecond)
		wantCircuit(t, e.reg, "db", tripwire.Open, 1)
		time.Sleep(2 * time.Nanosecond)
		wantCircuit(t, e.reg, "db", tripwire.HalfOpen, 1)

		// When 10 callers call at once, and the target takes 1 s to answer
		before := s.calls.Load()
		start := time.Now()
		gate := make(chan struct{})
		calls := make([]<-chan result, 10)
		for i := range calls {
			calls[i] = goCallAfter(ctx, gate, e.reg, "db", op{Label: fmt.Sprint("caller-", i), After: time.Second})
		}
		synctest.Wait() // all ten are lined up
		close(gate)

		// Then exactly one of them reaches the target
		var probe result
		probes, rejected := 0, 0
		for i, ch := range calls {
			r := await(t, ch)
			switch {
			case r.err == nil:
				probes++
				probe = r
				if r.v != answer(fmt.Sprint("caller-", i)) {
					t.Errorf("probe got %v, want its own answer", r.v)
				}
			case errors.Is(r.err, tripwire.ErrOpen):
				rejected++
				// and the other nine get ErrOpen at once
				if d := r.at.Sub(start); d != 0 {
					t.Errorf("ErrOpen after %v, want at once", d)
				}
			default:
				t.Errorf("caller %d: unexpected error %v", i, r.err)
			}
		}
		if got := s.calls.Load() - before; got != 1 {
			t.Errorf("target invoked %d times by 10 half-open callers, want 1", got)
		}
		if probes != 1 || rejected != 9 {
			t.Errorf("%d probes and %d ErrOpen, want 1 and 9", probes, rejected)
		}
		if d := probe.at.Sub(start); d != time.Second {
			t.Errorf("probe answered after %v, want the target's 1s", d)
		}
		// and the probe's success closes the circuit with no failures
		snap := wantCircuit(t, e.reg, "db", tripwire.Closed, 0)
		if snap.InFlight != 0 {
			t.Errorf("InFlight = %d after every call answered", snap.InFlight)
		}
	})
}

func TestFailedProbeReopensAndRestartsTheTimerFromThatMoment(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a breaker (threshold 2, open timeout 10 s) opened by two failures
		var s script
		register(t, e.reg, "db", s.target(), tripwire.Settings{
			Threshold: 2, OpenTimeout: 10 * time.Second, CallTimeout: 5 * time.Second,
		})
		for range 2 {
			_, _ = e.reg.Call(ctx, "db", op{Fail: true})
		}
		wantCircuit(t, e.reg, "db", tripwire.Open, 2)
		// and then half-open, left without traffic for an hour: it stays half-open
		time.Sleep(time.Hour)
		wantCircuit(t, e.reg, "db", tripwire.HalfOpen, 2)

		// When the probe fails after 2 s in the target
		r := await(t, goCall(ctx, e.reg, "db", op{Label: "probe", After: 2 * time.Second, Fail: true}))
		if !errors.Is(r.err, errTarget) {
			t.Fatalf("probe: err = %v, want the target's error", r.err)
		}
		failedAt := time.Now()

		// Then the circuit is open again, with the timer restarted from the failure
		snap := wantCircuit(t, e.reg, "db", tripwire.Open, 3)
		if !snap.OpenedAt.Equal(failedAt) || !snap.RetryAt.Equal(failedAt.Add(10*time.Second)) {
			t.Errorf("OpenedAt=%v RetryAt=%v; want %v and 10s later", snap.OpenedAt, snap.RetryAt, failedAt)
		}
		time.Sleep(10*time.Second - time.Nanosecond)
		wantCircuit(t, e.reg, "db", tripwire.Open, 3)
		time.Sleep(2 * time.Nanosecond)
		wantCircuit(t, e.reg, "db", tripwire.HalfOpen, 3)
	})
}
