package test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestCrashWhileOpenRestartsClosedAndForgetsTheOldTimer(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker (threshold 1, open timeout 10 s) with three calls in its target
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "geo", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 10 * time.Second, CallTimeout: 30 * time.Second,
		})
		start := time.Now()
		gate := make(chan bool)
		held := make([]<-chan testkit.Result, 3)
		for i := range held {
			held[i] = testkit.GoCall(ctx, e.Reg, "geo", tripwiretest.Op{Gate: gate})
		}
		for _, ch := range held {
			testkit.StillPending(t, ch, "a call in the target")
		}
		// and a failure that opened it at 0 s, so its recovery timer is due at 10 s
		if _, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)

		// When the breaker crashes at 2 s
		time.Sleep(2 * time.Second)
		if err := tripwiretest.Crash(context.Background(), e.Reg, "geo"); err != nil {
			t.Fatalf("Crash: %v", err)
		}

		// Then it is back closed with 0 failures and one restart, and the
		// calls it had in flight are still in flight, in the new breaker
		if snap := testkit.WantCircuit(t, e.Reg, "geo", state.Closed, 0); snap.Restarts != 1 || snap.InFlight != 3 {
			t.Errorf("after the crash: Restarts=%d InFlight=%d, want 1 and 3", snap.Restarts, snap.InFlight)
		}
		for _, ch := range held {
			testkit.StillPending(t, ch, "a call the crash carried over")
		}
		// and when their target fails them, each caller gets its error,
		// which counts for nothing: they were admitted before the crash
		for range held {
			gate <- false
		}
		for i, ch := range held {
			if r := testkit.Await(t, ch); !errors.Is(r.Err, tripwiretest.ErrInjected) {
				t.Errorf("call %d carried over: %v; want its target's error", i, r.Err)
			}
		}
		if snap := testkit.WantCircuit(t, e.Reg, "geo", state.Closed, 0); snap.InFlight != 0 {
			t.Errorf("InFlight=%d once the carried calls ended", snap.InFlight)
		}

		// When it trips again at 5 s, so the new timer is due at 15 s
		time.Sleep(3 * time.Second)
		if _, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("second tripping call: %v", err)
		}
		snap := testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
		if want := start.Add(15 * time.Second); !snap.RetryAt.Equal(want) {
			t.Errorf("RetryAt = +%v, want +15s", snap.RetryAt.Sub(start))
		}

		// Then at the old timer's due time (10 s) it is still open
		time.Sleep(start.Add(10*time.Second + time.Millisecond).Sub(time.Now()))
		testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
		time.Sleep(start.Add(15*time.Second - time.Nanosecond).Sub(time.Now()))
		testkit.WantCircuit(t, e.Reg, "geo", state.Open, 1)
		// and it half-opens only at the new due time
		time.Sleep(2 * time.Nanosecond)
		testkit.WantCircuit(t, e.Reg, "geo", state.HalfOpen, 1)
		if v, err := e.Reg.Call(ctx, "geo", tripwiretest.Op{Label: "probe"}); err != nil || v != tripwiretest.Answer("probe") {
			t.Errorf("probe: %v, %v", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "geo", state.Closed, 0)
	})
}

func TestFiftyCrashesInARowLeaveTheKeyWorking(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a working key (protoactor alone would stop a breaker that
		// crashes more than 10 times in 10 s)
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "flaky", s.Func(nil), tripwire.Settings{})
		if _, err := e.Reg.Call(ctx, "flaky", tripwiretest.Op{Label: "before"}); err != nil {
			t.Fatalf("call before the crashes: %v", err)
		}

		// When its breaker crashes 50 times in a row, with no time passing
		for i := range 50 {
			if err := tripwiretest.Crash(context.Background(), e.Reg, "flaky"); err != nil {
				t.Fatalf("crash %d: %v", i+1, err)
			}
		}

		// Then the key is still registered and works
		if keys := e.Reg.Keys(); !slices.Contains(keys, "flaky") {
			t.Fatalf("Keys() = %v after 50 crashes", keys)
		}
		if v, err := e.Reg.Call(ctx, "flaky", tripwiretest.Op{Label: "after"}); err != nil || v != tripwiretest.Answer("after") {
			t.Fatalf("call after 50 crashes: %v, %v", v, err)
		}
		// and its snapshot counts every crash, closed with no failures
		if snap := testkit.WantCircuit(t, e.Reg, "flaky", state.Closed, 0); snap.Restarts != 50 {
			t.Errorf("Restarts = %d, want 50", snap.Restarts)
		}
	})
}

func TestCallsDuringACrashStormEachGetOneReply(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a key whose target answers after 1 ms
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "storm", s.Func(nil), tripwire.Settings{})

		// When 30 crashes hit its breaker, one every 2 ms, while 100 calls
		// arrive one every 0.5 ms
		storm := make(chan error, 1)
		go func() {
			defer close(storm)
			for range 30 {
				time.Sleep(2 * time.Millisecond)
				if err := tripwiretest.Crash(context.Background(), e.Reg, "storm"); err != nil {
					storm <- err
					return
				}
			}
		}()
		calls := make([]<-chan testkit.Result, 100)
		for i := range calls {
			calls[i] = testkit.GoCall(ctx, e.Reg, "storm", tripwiretest.Op{Label: "c", After: time.Millisecond})
			time.Sleep(500 * time.Microsecond)
		}

		// Then every call gets one answer, its own: a crash costs the
		// calls in flight nothing
		for i, ch := range calls {
			if r := testkit.Await(t, ch); r.Err != nil || r.V != tripwiretest.Answer("c") {
				t.Errorf("call %d: %v, %v", i, r.V, r.Err)
			}
		}
		if err := <-storm; err != nil {
			t.Fatalf("Crash: %v", err)
		}
		// and the breaker ends closed with every crash counted
		if snap := testkit.WantCircuit(t, e.Reg, "storm", state.Closed, 0); snap.Restarts != 30 || snap.InFlight != 0 {
			t.Errorf("Restarts=%d InFlight=%d, want 30 and 0", snap.Restarts, snap.InFlight)
		}
	})
}
