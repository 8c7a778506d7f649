package tripwiretest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestActorTargetCarriesOutOpsWithoutBlocking(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target behind a breaker
		s := tripwiretest.New()
		spawnTarget(t, e, s, "svc", roomy)
		start := time.Now()
		// When a call that takes 500 ms and one that takes none arrive together
		slow := testkit.Go(func() (any, error) {
			return e.Reg.Call(ctx, "svc", tripwiretest.Op{Label: "slow", After: 500 * time.Millisecond})
		})
		fast := testkit.Go(func() (any, error) { return e.Reg.Call(ctx, "svc", &tripwiretest.Op{Label: "fast"}) })
		// Then the quick one is answered at once, and the slow one at 500 ms
		if r := testkit.Await(t, fast); r.V != "done:fast" || r.Err != nil || !r.At.Equal(start) {
			t.Fatalf("fast: %v, %v at +%v", r.V, r.Err, r.At.Sub(start))
		}
		if r := testkit.Await(t, slow); r.V != "done:slow" || r.Err != nil || r.At.Sub(start) != 500*time.Millisecond {
			t.Fatalf("slow: %v, %v at +%v", r.V, r.Err, r.At.Sub(start))
		}
		// When Ops fail or carry a value or an error, Then the actor replies that
		if _, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Label: "pay", Fail: true, After: time.Millisecond}); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("Fail: %v", err)
		}
		if v, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Value: 7}); v != 7 || err != nil {
			t.Fatalf("Value: %v, %v", v, err)
		}
		errOwn := errors.New("own")
		if _, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Value: 7, Err: errOwn}); !errors.Is(err, errOwn) {
			t.Fatalf("Value and Err: %v", err)
		}
		// and an Op that breaks the rules is answered ErrInvalid
		if _, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Fail: true, Value: 1}); !errors.Is(err, tripwiretest.ErrInvalid) {
			t.Fatalf("invalid Op: %v", err)
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 6, Failures: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestActorTargetOpHangIsNeverAnsweredAndPanicRestarts(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target behind a breaker with a 1 s call timeout
		s := tripwiretest.New()
		spawnTarget(t, e, s, "svc", roomy)
		start := time.Now()
		// When an Op hangs, Then the breaker times the call out
		if _, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Hang: true}); !errors.Is(err, tripwire.ErrTimeout) || time.Since(start) != time.Second {
			t.Fatalf("Hang: %v after %v", err, time.Since(start))
		}
		// When an Op panics, Then the request is lost too
		if _, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Panic: true}); !errors.Is(err, tripwire.ErrTimeout) {
			t.Fatalf("Panic: %v", err)
		}
		// and the restarted actor answers the next Op
		if v, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{}); v != "ok" || err != nil {
			t.Fatalf("after the restart: %v, %v", v, err)
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 3, Panics: 1, Hangs: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestActorTargetOpWaitsOnStuckAndGateOffTheActor(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target behind a breaker with a 1 min call timeout
		s := tripwiretest.New()
		spawnTarget(t, e, s, "svc", tripwire.Settings{Threshold: 100, CallTimeout: time.Minute})
		stuck, pass, block := make(chan struct{}), make(chan bool), make(chan bool)
		// When three calls wait on a channel each
		stuckCall := testkit.Go(func() (any, error) { return e.Reg.Call(ctx, "svc", tripwiretest.Op{Label: "s", Stuck: stuck}) })
		passed := testkit.Go(func() (any, error) {
			return e.Reg.Call(ctx, "svc", tripwiretest.Op{Label: "p", Gate: pass, After: time.Second})
		})
		blocked := testkit.Go(func() (any, error) { return e.Reg.Call(ctx, "svc", tripwiretest.Op{Gate: block}) })
		time.Sleep(10 * time.Second)
		testkit.StillPending(t, stuckCall, "a stuck call")
		testkit.StillPending(t, passed, "a gated call")
		testkit.StillPending(t, blocked, "a gated call")
		// Then the actor still answers other calls meanwhile
		if v, err := e.Reg.Call(ctx, "svc", tripwiretest.Op{Label: "beside"}); v != "done:beside" || err != nil {
			t.Fatalf("beside the waiting calls: %v, %v", v, err)
		}
		// When the stuck channel closes, Then that call fails, saying it was stuck
		close(stuck)
		if r := testkit.Await(t, stuckCall); !errors.Is(r.Err, tripwiretest.ErrInjected) || !strings.HasPrefix(r.Err.Error(), "s (stuck): ") {
			t.Fatalf("Stuck: %v", r.Err)
		}
		// and a gate's true goes on after After, its false fails
		start := time.Now()
		pass <- true
		if r := testkit.Await(t, passed); r.V != "done:p" || r.Err != nil || r.At.Sub(start) != time.Second {
			t.Fatalf("passed: %v, %v after %v", r.V, r.Err, r.At.Sub(start))
		}
		block <- false
		if r := testkit.Await(t, blocked); !errors.Is(r.Err, tripwiretest.ErrInjected) {
			t.Fatalf("blocked: %v", r.Err)
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 4, Failures: 2, Hangs: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}
