package test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestHungTargetTimesOutExactlyAtCallTimeout(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a breaker with a 2 s call timeout in front of a target that hangs
		var s script
		register(t, e.reg, "slow", s.target(), tripwire.Settings{Threshold: 5, CallTimeout: 2 * time.Second})

		// When a call is made
		start := time.Now()
		_, err := e.reg.Call(ctx, "slow", op{Hang: true})

		// Then it returns ErrTimeout (also context.DeadlineExceeded) exactly at the deadline
		if !errors.Is(err, tripwire.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("hung call: %v, want ErrTimeout matching context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 2*time.Second {
			t.Errorf("hung call returned after %v, want exactly 2s", d)
		}
		// and it counts as one failure, also after the target's late answer
		wantCircuit(t, e.reg, "slow", tripwire.Closed, 1)
		time.Sleep(time.Second)
		wantCircuit(t, e.reg, "slow", tripwire.Closed, 1)
	})
}

func TestEarlierContextDeadlineWinsOverCallTimeout(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		// Given a breaker with a 5 s call timeout in front of a target that hangs
		var s script
		register(t, e.reg, "slow", s.target(), tripwire.Settings{CallTimeout: 5 * time.Second})

		// When a call is made with a context that ends in 500 ms
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := e.reg.Call(ctx, "slow", op{Hang: true})

		// Then it returns ErrTimeout after 500 ms, counted as a failure
		if !errors.Is(err, tripwire.ErrTimeout) {
			t.Errorf("call: %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d != 500*time.Millisecond {
			t.Errorf("call returned after %v, want the context's 500ms", d)
		}
		wantCircuit(t, e.reg, "slow", tripwire.Closed, 1)
	})
}

func TestCancelledCallerReturnsAtOnceAndCountsNeitherWay(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		// Given a breaker with threshold 2 and one failure counted (so a
		// cancel counted as a failure would open it, and as a success would
		// reset it), with a call hung in its target
		var s script
		register(t, e.reg, "slow", s.target(), tripwire.Settings{Threshold: 2, CallTimeout: 30 * time.Second})
		if _, err := e.reg.Call(context.Background(), "slow", op{Fail: true}); !errors.Is(err, errTarget) {
			t.Fatalf("first failure: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		call := goCall(ctx, e.reg, "slow", op{Hang: true})
		stillPending(t, call, "the hung call")
		time.Sleep(time.Second)

		// When the caller cancels its context
		cancelledAt := time.Now()
		cancel()

		// Then the call returns context.Canceled at once
		r := await(t, call)
		if !errors.Is(r.err, context.Canceled) || errors.Is(r.err, tripwire.ErrTimeout) {
			t.Errorf("cancelled call: %v, want context.Canceled", r.err)
		}
		if !r.at.Equal(cancelledAt) {
			t.Errorf("cancelled call returned %v after the cancel, want at once", r.at.Sub(cancelledAt))
		}
		// and it counts neither way: the failures are unchanged, now and
		// after the target's late answer
		if snap := wantCircuit(t, e.reg, "slow", tripwire.Closed, 1); snap.InFlight != 0 {
			t.Errorf("InFlight = %d after the cancel", snap.InFlight)
		}
		time.Sleep(time.Minute)
		wantCircuit(t, e.reg, "slow", tripwire.Closed, 1)
	})
}

func TestCancelledProbeFreesTheHalfOpenPermit(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		bg := context.Background()
		// Given a half-open breaker (threshold 1, open timeout 10 s)
		var s script
		register(t, e.reg, "slow", s.target(), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 30 * time.Second,
		})
		_, _ = e.reg.Call(bg, "slow", op{Fail: true})
		time.Sleep(10*time.Second + time.Millisecond)
		wantCircuit(t, e.reg, "slow", tripwire.HalfOpen, 1)
		// and its probe hung in the target, holding the only permit
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		probe := goCall(ctx, e.reg, "slow", op{Hang: true})
		stillPending(t, probe, "the probe")
		if _, err := e.reg.Call(bg, "slow", op{Label: "beside"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("call beside the probe: %v, want ErrOpen", err)
		}
		before := s.calls.Load()

		// When the probe's caller cancels
		cancel()
		if r := await(t, probe); !errors.Is(r.err, context.Canceled) {
			t.Errorf("cancelled probe: %v, want context.Canceled", r.err)
		}
		// Then the circuit is still half-open with its failures unchanged
		wantCircuit(t, e.reg, "slow", tripwire.HalfOpen, 1)
		// and the next call is forwarded as the new probe, whose success closes it
		if v, err := e.reg.Call(bg, "slow", op{Label: "next"}); err != nil || v != answer("next") {
			t.Errorf("call after the cancelled probe: %v, %v; want it forwarded", v, err)
		}
		if got := s.calls.Load() - before; got != 1 {
			t.Errorf("target invoked %d times after the cancel, want 1", got)
		}
		wantCircuit(t, e.reg, "slow", tripwire.Closed, 0)
	})
}
