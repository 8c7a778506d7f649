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

func TestHungTargetTimesOutExactlyAtCallTimeout(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker with a 2 s call timeout in front of a target that hangs
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "slow", s.Func(nil), tripwire.Settings{Threshold: 5, CallTimeout: 2 * time.Second})

		// When a call is made
		start := time.Now()
		_, err := e.Reg.Call(ctx, "slow", tripwiretest.Op{Hang: true})

		// Then it returns ErrTimeout (also context.DeadlineExceeded) exactly at the deadline
		if !errors.Is(err, tripwire.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("hung call: %v, want ErrTimeout matching context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 2*time.Second {
			t.Errorf("hung call returned after %v, want exactly 2s", d)
		}
		// and it counts as one failure, also after the target's late answer
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
		time.Sleep(time.Second)
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
	})
}

func TestEarlierContextDeadlineWinsOverCallTimeout(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 5 s call timeout in front of a target that hangs
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "slow", s.Func(nil), tripwire.Settings{CallTimeout: 5 * time.Second})

		// When a call is made with a context that ends in 500 ms
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := e.Reg.Call(ctx, "slow", tripwiretest.Op{Hang: true})

		// Then it returns ErrTimeout after 500 ms, counted as a failure
		if !errors.Is(err, tripwire.ErrTimeout) {
			t.Errorf("call: %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d != 500*time.Millisecond {
			t.Errorf("call returned after %v, want the context's 500ms", d)
		}
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
	})
}

func TestCancelledCallerReturnsAtOnceAndCountsNeitherWay(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with threshold 2 and one failure counted (so a
		// cancel counted as a failure would open it, and as a success would
		// reset it), with a call hung in its target
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "slow", s.Func(nil), tripwire.Settings{Threshold: 2, CallTimeout: 30 * time.Second})
		if _, err := e.Reg.Call(context.Background(), "slow", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("first failure: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		call := testkit.GoCall(ctx, e.Reg, "slow", tripwiretest.Op{Hang: true})
		testkit.StillPending(t, call, "the hung call")
		time.Sleep(time.Second)

		// When the caller cancels its context
		cancelledAt := time.Now()
		cancel()

		// Then the call returns context.Canceled at once
		r := testkit.Await(t, call)
		if !errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, tripwire.ErrTimeout) {
			t.Errorf("cancelled call: %v, want context.Canceled", r.Err)
		}
		if !r.At.Equal(cancelledAt) {
			t.Errorf("cancelled call returned %v after the cancel, want at once", r.At.Sub(cancelledAt))
		}
		// and it counts neither way: the failures are unchanged, now and
		// after the target's late answer
		if snap := testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1); snap.InFlight != 0 {
			t.Errorf("InFlight = %d after the cancel", snap.InFlight)
		}
		time.Sleep(time.Minute)
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)
	})
}

func TestCancelledProbeFreesTheHalfOpenPermit(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		bg := context.Background()
		// Given a half-open breaker (threshold 1, open timeout 10 s)
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "slow", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 30 * time.Second,
		})
		_, _ = e.Reg.Call(bg, "slow", tripwiretest.Op{Fail: true})
		time.Sleep(10*time.Second + time.Millisecond)
		testkit.WantCircuit(t, e.Reg, "slow", state.HalfOpen, 1)
		// and its probe hung in the target, holding the only permit
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		probe := testkit.GoCall(ctx, e.Reg, "slow", tripwiretest.Op{Hang: true})
		testkit.StillPending(t, probe, "the probe")
		if _, err := e.Reg.Call(bg, "slow", tripwiretest.Op{Label: "beside"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("call beside the probe: %v, want ErrOpen", err)
		}
		before := s.Counts().Calls

		// When the probe's caller cancels
		cancel()
		if r := testkit.Await(t, probe); !errors.Is(r.Err, context.Canceled) {
			t.Errorf("cancelled probe: %v, want context.Canceled", r.Err)
		}
		// Then the circuit is still half-open with its failures unchanged
		testkit.WantCircuit(t, e.Reg, "slow", state.HalfOpen, 1)
		// and the next call is forwarded as the new probe, whose success closes it
		if v, err := e.Reg.Call(bg, "slow", tripwiretest.Op{Label: "next"}); err != nil || v != tripwiretest.Answer("next") {
			t.Errorf("call after the cancelled probe: %v, %v; want it forwarded", v, err)
		}
		if got := s.Counts().Calls - before; got != 1 {
			t.Errorf("target invoked %d times after the cancel, want 1", got)
		}
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 0)
	})
}
