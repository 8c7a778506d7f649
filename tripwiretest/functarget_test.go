package tripwiretest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestLatencyDelaysTheAnswerByExactlyD(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a script with 300 ms of latency
		s := tripwiretest.New()
		must(t, s.Latency(300*time.Millisecond))
		fn := s.Wrap(nil)
		start := time.Now()
		// When it is called
		ch := testkit.Go(func() (any, error) { return fn(context.Background(), "slow") })
		// Then it has not answered 1 ns before 300 ms
		time.Sleep(300*time.Millisecond - time.Nanosecond)
		testkit.StillPending(t, ch, "a delayed call")
		// and answers at 300 ms
		r := testkit.Await(t, ch)
		if r.Err != nil || r.V != "slow" || r.At.Sub(start) != 300*time.Millisecond {
			t.Fatalf("got %v, %v after %v", r.V, r.Err, r.At.Sub(start))
		}
	})
}

func TestLatencyEndsWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a script with 1 s of latency and a context of 200 ms
		s := tripwiretest.New()
		must(t, s.Latency(time.Second))
		must(t, s.FailNext(1))
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		// When it is called
		v, err := s.Wrap(nil)(ctx, "slow")
		// Then it gives up with the context's error at 200 ms
		if !errors.Is(err, context.DeadlineExceeded) || v != nil || time.Since(start) != 200*time.Millisecond {
			t.Fatalf("got %v, %v after %v", v, err, time.Since(start))
		}
		// and the failure it was meant to inject was not delivered
		if c := s.Counts(); c.Failures != 0 || c.Calls != 1 {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestHangIgnoresTheContextUntilRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a hanging script and a call whose context is cancelled at once
		s := tripwiretest.New()
		s.Hang()
		fn := s.Wrap(nil)
		ctx, cancel := context.WithCancel(context.Background())
		hung := testkit.Go(func() (any, error) { return fn(ctx, "h") })
		cancel()
		// When an hour passes, Then the call still hangs
		time.Sleep(time.Hour)
		testkit.StillPending(t, hung, "a hung call")
		if c := s.Counts(); c.Hangs != 1 {
			t.Fatalf("Counts() = %+v, want 1 hang", c)
		}
		// When the script is released
		s.Release()
		// Then the hung call goes on like a healthy one
		if r := testkit.Await(t, hung); r.Err != nil || r.V != "h" {
			t.Fatalf("released call: %v, %v", r.V, r.Err)
		}
		// and later calls no longer hang
		if v, err := fn(context.Background(), "after"); err != nil || v != "after" {
			t.Fatalf("call after Release: %v, %v", v, err)
		}
	})
}

func TestHangRateHangsSomeCallsUntilTheNextRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a seeded script that hangs half its calls
		s := tripwiretest.New(tripwiretest.Seed(3))
		must(t, s.HangRate(0.5))
		fn := s.Wrap(nil)
		// When 40 calls are made
		var wg sync.WaitGroup
		var mu sync.Mutex
		done := 0
		for i := range 40 {
			wg.Go(func() {
				if _, err := fn(context.Background(), i); err == nil {
					mu.Lock()
					done++
					mu.Unlock()
				}
			})
		}
		synctest.Wait()
		// Then exactly the hung ones have not answered
		hangs := s.Counts().Hangs
		mu.Lock()
		answered := done
		mu.Unlock()
		if hangs == 0 || hangs == 40 || int64(answered)+hangs != 40 {
			t.Fatalf("%d hangs and %d answers of 40 calls", hangs, answered)
		}
		// and Release lets them all answer
		s.Release()
		wg.Wait()
		if done != 40 {
			t.Fatalf("%d of 40 calls answered after Release", done)
		}
	})
}

func TestFuncTargetThroughABreaker(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker (threshold 3, call timeout 1 s) in front of a script's function target
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{Threshold: 3, CallTimeout: time.Second, OpenTimeout: time.Minute})
		// When the script fails once, panics once and hangs once
		must(t, s.FailNext(1))
		if _, err := e.Reg.Call(ctx, "db", 1); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("failing call: %v", err)
		}
		must(t, s.PanicNext(1))
		if _, err := e.Reg.Call(ctx, "db", 2); !errors.Is(err, tripwire.ErrTargetPanic) {
			t.Fatalf("panicking call: %v", err)
		}
		s.Hang()
		start := time.Now()
		_, err := e.Reg.Call(ctx, "db", 3)
		// Then the breaker sees three failures in a row: the hang timed out at its deadline
		if !errors.Is(err, tripwire.ErrTimeout) || time.Since(start) != time.Second {
			t.Fatalf("hung call: %v after %v", err, time.Since(start))
		}
		synctest.Wait()
		if st, _ := e.Reg.State("db"); st != state.Open {
			t.Fatalf("state %v, want open", st)
		}
		// and the hung worker is freed by Release (Shutdown would wait for it)
		s.Release()
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 3, Failures: 1, Panics: 1, Hangs: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}
