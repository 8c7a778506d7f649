package tripwiretest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestOpAnswersAfterItsDelayWhateverTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a script's function and a context that ends after 1 s
		s := tripwiretest.New()
		fn := s.Wrap(nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		// When an Op with no fault is called, Then it answers at once with its label's answer
		if v, err := fn(ctx, tripwiretest.Op{}); v != "ok" || err != nil {
			t.Fatalf("Op{}: %v, %v", v, err)
		}
		if v, err := fn(ctx, &tripwiretest.Op{Label: "p"}); v != tripwiretest.Answer("p") || v != "done:p" || err != nil {
			t.Fatalf("&Op{Label: p}: %v, %v", v, err)
		}
		// and one that takes 3 s answers at 3 s, past its context's end
		v, err := fn(ctx, tripwiretest.Op{Label: "slow", After: 3 * time.Second})
		if v != "done:slow" || err != nil || time.Since(start) != 3*time.Second {
			t.Fatalf("After 3s: %v, %v after %v", v, err, time.Since(start))
		}
	})
}

func TestOpFailsOrAnswersWhatItCarries(t *testing.T) {
	ctx := context.Background()
	errOwn := errors.New("own")
	// Given a script's function
	s := tripwiretest.New()
	fn := s.Wrap(nil)
	// When an Op fails, Then its error wraps ErrInjected and names its label
	_, err := fn(ctx, tripwiretest.Op{Label: "pay", Fail: true})
	if !errors.Is(err, tripwiretest.ErrInjected) || !strings.HasPrefix(err.Error(), "pay: ") {
		t.Fatalf("Fail: %v", err)
	}
	// and one without a label fails as FailNext does
	if _, err := fn(ctx, tripwiretest.Op{Fail: true}); err == nil || err.Error() != "tripwiretest: injected fault (call 2)" {
		t.Fatalf("Fail without a label: %v", err)
	}
	// When an Op carries a value or an error, Then that is the answer
	if v, err := fn(ctx, tripwiretest.Op{Value: 42}); v != 42 || err != nil {
		t.Fatalf("Value: %v, %v", v, err)
	}
	if v, err := fn(ctx, tripwiretest.Op{Value: "half", Err: errOwn}); v != "half" || err != errOwn {
		t.Fatalf("Value and Err: %v, %v", v, err)
	}
	// and only the injected failures count as failures
	if c := s.Counts(); c != (tripwiretest.Counts{Calls: 4, Failures: 2}) {
		t.Fatalf("Counts() = %+v", c)
	}
}

func TestOpPanics(t *testing.T) {
	// Given a script's function
	s := tripwiretest.New()
	fn := s.Wrap(nil)
	// When an Op panics, Then the call panics and the panic is counted
	if got := outcomeOf(func() (any, error) { return fn(context.Background(), tripwiretest.Op{Panic: true}) }); got != "panic" {
		t.Fatalf("Panic: %s", got)
	}
	if c := s.Counts(); c != (tripwiretest.Counts{Calls: 1, Panics: 1}) {
		t.Fatalf("Counts() = %+v", c)
	}
}

func TestOpHangNoticesTheEndOfItsContextAMillisecondLate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a context that ends after 1 s
		s := tripwiretest.New()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		// When an Op hangs
		_, err := s.Wrap(nil)(ctx, tripwiretest.Op{Hang: true})
		// Then it answers the context's error 1 ms after the context ended
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second+time.Millisecond {
			t.Fatalf("Hang: %v after %v", err, time.Since(start))
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 1, Hangs: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestOpStuckIgnoresTheContextUntilClosed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a cancelled context and a channel not yet closed
		s := tripwiretest.New()
		fn := s.Wrap(nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		stuck := make(chan struct{})
		// When an Op is stuck on it
		ch := testkit.Go(func() (any, error) { return fn(ctx, tripwiretest.Op{Label: "db", Stuck: stuck}) })
		// Then it still waits an hour later
		time.Sleep(time.Hour)
		testkit.StillPending(t, ch, "a stuck call")
		// and once the channel is closed it fails, saying it was stuck
		close(stuck)
		r := testkit.Await(t, ch)
		if !errors.Is(r.Err, tripwiretest.ErrInjected) || !strings.HasPrefix(r.Err.Error(), "db (stuck): ") {
			t.Fatalf("Stuck: %v", r.Err)
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 1, Failures: 1, Hangs: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestOpGateWaitsForItsVerdict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tripwiretest.New()
		fn := s.Wrap(nil)
		bg := context.Background()
		// Given two calls at a gate each
		pass, block := make(chan bool), make(chan bool)
		passed := testkit.Go(func() (any, error) { return fn(bg, tripwiretest.Op{Label: "a", Gate: pass, After: time.Second}) })
		blocked := testkit.Go(func() (any, error) { return fn(bg, tripwiretest.Op{Label: "b", Gate: block}) })
		// When no verdict has come, Then both wait
		time.Sleep(time.Hour)
		testkit.StillPending(t, passed, "a gated call")
		testkit.StillPending(t, blocked, "a gated call")
		// When one gets true, Then it goes on: it waits its After and answers
		start := time.Now()
		pass <- true
		if r := testkit.Await(t, passed); r.V != "done:a" || r.Err != nil || r.At.Sub(start) != time.Second {
			t.Fatalf("passed: %v, %v after %v", r.V, r.Err, r.At.Sub(start))
		}
		// and the one that gets false fails
		block <- false
		if r := testkit.Await(t, blocked); !errors.Is(r.Err, tripwiretest.ErrInjected) {
			t.Fatalf("blocked: %v", r.Err)
		}
		// When the context ends before a verdict, Then it answers as Hang does
		ctx, cancel := context.WithTimeout(bg, time.Second)
		defer cancel()
		start = time.Now()
		_, err := fn(ctx, tripwiretest.Op{Gate: make(chan bool)})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second+time.Millisecond {
			t.Fatalf("gate past its context: %v after %v", err, time.Since(start))
		}
	})
}

func TestOpRulesRejectAmbiguousOps(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	gate := make(chan bool, 1)
	errOwn := errors.New("own")
	cases := []struct {
		name string
		op   tripwiretest.Op
		ok   bool
	}{
		{"negative After", tripwiretest.Op{After: -time.Nanosecond}, false},
		{"Panic and Hang", tripwiretest.Op{Panic: true, Hang: true}, false},
		{"Hang and Stuck", tripwiretest.Op{Hang: true, Stuck: closed}, false},
		{"Stuck and Gate", tripwiretest.Op{Stuck: closed, Gate: gate}, false},
		{"Panic with After", tripwiretest.Op{Panic: true, After: time.Second}, false},
		{"Hang with Fail", tripwiretest.Op{Hang: true, Fail: true}, false},
		{"Stuck with Value", tripwiretest.Op{Stuck: closed, Value: 1}, false},
		{"Hang with Err", tripwiretest.Op{Hang: true, Err: errOwn}, false},
		{"Fail with Err", tripwiretest.Op{Fail: true, Err: errOwn}, false},
		{"Fail with Value", tripwiretest.Op{Fail: true, Value: 1}, false},
		{"After and Fail", tripwiretest.Op{After: time.Millisecond, Fail: true}, true},
		{"Gate with After and Value", tripwiretest.Op{Gate: gate, After: time.Millisecond, Value: 1}, true},
		{"Value and Err", tripwiretest.Op{Value: 1, Err: errOwn}, true},
		{"Stuck alone", tripwiretest.Op{Label: "x", Stuck: closed}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Given a script's function
				s := tripwiretest.New()
				gate <- true
				defer func() {
					select {
					case <-gate:
					default:
					}
				}()
				// When an Op is called
				_, err := s.Wrap(nil)(context.Background(), c.op)
				// Then one that breaks the rules is answered ErrInvalid, not counted as a fault
				if c.ok == errors.Is(err, tripwiretest.ErrInvalid) {
					t.Fatalf("got %v, want ErrInvalid %v", err, !c.ok)
				}
				if got := s.Counts(); !c.ok && got != (tripwiretest.Counts{Calls: 1}) {
					t.Fatalf("Counts() = %+v", got)
				}
			})
		})
	}
}

func TestScriptFaultsComeBeforeTheOp(t *testing.T) {
	ctx := context.Background()
	// Given a script that fails its next call
	s := tripwiretest.New()
	fn := s.Wrap(nil)
	must(t, s.FailNext(1))
	// When an Op that answers a value is called, Then the script's failure wins
	if v, err := fn(ctx, tripwiretest.Op{Value: "v"}); !errors.Is(err, tripwiretest.ErrInjected) || v != nil {
		t.Fatalf("FailNext over an Op: %v, %v", v, err)
	}
	// and once the script dies, its ErrDown
	s.Die()
	if _, err := fn(ctx, tripwiretest.Op{Panic: true}); !errors.Is(err, tripwiretest.ErrDown) {
		t.Fatalf("Die over an Op: %v", err)
	}
	// When it revives, Then the Op is carried out again
	s.Revive()
	if v, err := fn(ctx, tripwiretest.Op{Value: "v"}); v != "v" || err != nil {
		t.Fatalf("revived: %v, %v", v, err)
	}
}

func TestRunningAndPeakCountCallsInTheFunction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a script's function with nothing running
		s := tripwiretest.New()
		fn := s.Wrap(nil)
		if s.Running() != 0 || s.Peak() != 0 {
			t.Fatalf("fresh: Running %d, Peak %d", s.Running(), s.Peak())
		}
		// When three calls wait at a gate
		gate := make(chan bool)
		var calls []<-chan testkit.Result
		for range 3 {
			calls = append(calls, testkit.Go(func() (any, error) { return fn(context.Background(), tripwiretest.Op{Gate: gate}) }))
		}
		synctest.Wait()
		// Then three run, and that is the peak
		if s.Running() != 3 || s.Peak() != 3 {
			t.Fatalf("gated: Running %d, Peak %d", s.Running(), s.Peak())
		}
		// When they go on, Then none runs and the peak stays
		close(gate)
		for _, ch := range calls {
			testkit.Await(t, ch)
		}
		if s.Running() != 0 || s.Peak() != 3 {
			t.Fatalf("after: Running %d, Peak %d", s.Running(), s.Peak())
		}
	})
}
