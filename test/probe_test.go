package test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestHalfOpenLetsExactlyOneOfTenConcurrentCallersProbe(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker with threshold 1 and a 10 s open timeout
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 5 * time.Second,
		})
		// and one failure that opened it
		if _, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "trip", Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: err = %v, want the target's error", err)
		}
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 1)

		// When the open timeout passes, the breaker half-opens by itself:
		// still open a nanosecond before, half-open a nanosecond after.
		time.Sleep(10*time.Second - time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 1)
		time.Sleep(2 * time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 1)

		// When 10 callers call at once, and the target takes 1 s to answer
		before := s.Counts().Calls
		start := time.Now()
		gate := make(chan struct{})
		calls := make([]<-chan testkit.Result, 10)
		for i := range calls {
			calls[i] = testkit.GoCallAfter(ctx, gate, e.Reg, "db", tripwiretest.Op{Label: fmt.Sprint("caller-", i), After: time.Second})
		}
		synctest.Wait() // all ten are lined up
		close(gate)

		// Then exactly one of them reaches the target
		var probe testkit.Result
		probes, rejected := 0, 0
		for i, ch := range calls {
			r := testkit.Await(t, ch)
			switch {
			case r.Err == nil:
				probes++
				probe = r
				if r.V != tripwiretest.Answer(fmt.Sprint("caller-", i)) {
					t.Errorf("probe got %v, want its own answer", r.V)
				}
			case errors.Is(r.Err, tripwire.ErrOpen):
				rejected++
				// and the other nine get ErrOpen at once
				if d := r.At.Sub(start); d != 0 {
					t.Errorf("ErrOpen after %v, want at once", d)
				}
			default:
				t.Errorf("caller %d: unexpected error %v", i, r.Err)
			}
		}
		if got := s.Counts().Calls - before; got != 1 {
			t.Errorf("target invoked %d times by 10 half-open callers, want 1", got)
		}
		if probes != 1 || rejected != 9 {
			t.Errorf("%d probes and %d ErrOpen, want 1 and 9", probes, rejected)
		}
		if d := probe.At.Sub(start); d != time.Second {
			t.Errorf("probe answered after %v, want the target's 1s", d)
		}
		// and the probe's success closes the circuit with no failures
		snap := testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)
		if snap.InFlight != 0 {
			t.Errorf("InFlight = %d after every call answered", snap.InFlight)
		}
	})
}

func TestFailedProbeReopensAndRestartsTheTimerFromThatMoment(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker (threshold 2, open timeout 10 s) opened by two failures
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{
			Threshold: 2, OpenTimeout: 10 * time.Second, CallTimeout: 5 * time.Second,
		})
		for range 2 {
			_, _ = e.Reg.Call(ctx, "db", tripwiretest.Op{Fail: true})
		}
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 2)
		// and then half-open, left without traffic for an hour: it stays half-open
		time.Sleep(time.Hour)
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 2)

		// When the probe fails after 2 s in the target
		r := testkit.Await(t, testkit.GoCall(ctx, e.Reg, "db", tripwiretest.Op{Label: "probe", After: 2 * time.Second, Fail: true}))
		if !errors.Is(r.Err, tripwiretest.ErrInjected) {
			t.Fatalf("probe: err = %v, want the target's error", r.Err)
		}
		failedAt := time.Now()

		// Then the circuit is open again, with the timer restarted from the failure
		snap := testkit.WantCircuit(t, e.Reg, "db", state.Open, 3)
		if !snap.OpenedAt.Equal(failedAt) || !snap.RetryAt.Equal(failedAt.Add(10*time.Second)) {
			t.Errorf("OpenedAt=%v RetryAt=%v; want %v and 10s later", snap.OpenedAt, snap.RetryAt, failedAt)
		}
		time.Sleep(10*time.Second - time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 3)
		time.Sleep(2 * time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 3)
	})
}
