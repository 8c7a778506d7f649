package tripwiretest_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestSettersRejectOutOfRangeArguments(t *testing.T) {
	cases := []struct {
		name string
		set  func(s *tripwiretest.Script) error
		ok   bool
	}{
		{"FailNext(-1)", func(s *tripwiretest.Script) error { return s.FailNext(-1) }, false},
		{"FailNext(0)", func(s *tripwiretest.Script) error { return s.FailNext(0) }, true},
		{"FailNext(3)", func(s *tripwiretest.Script) error { return s.FailNext(3) }, true},
		{"PanicNext(-1)", func(s *tripwiretest.Script) error { return s.PanicNext(-1) }, false},
		{"PanicNext(0)", func(s *tripwiretest.Script) error { return s.PanicNext(0) }, true},
		{"FailRate(-0.01)", func(s *tripwiretest.Script) error { return s.FailRate(-0.01) }, false},
		{"FailRate(1.01)", func(s *tripwiretest.Script) error { return s.FailRate(1.01) }, false},
		{"FailRate(NaN)", func(s *tripwiretest.Script) error { return s.FailRate(math.NaN()) }, false},
		{"FailRate(+Inf)", func(s *tripwiretest.Script) error { return s.FailRate(math.Inf(1)) }, false},
		{"FailRate(0)", func(s *tripwiretest.Script) error { return s.FailRate(0) }, true},
		{"FailRate(1)", func(s *tripwiretest.Script) error { return s.FailRate(1) }, true},
		{"HangRate(-1)", func(s *tripwiretest.Script) error { return s.HangRate(-1) }, false},
		{"HangRate(NaN)", func(s *tripwiretest.Script) error { return s.HangRate(math.NaN()) }, false},
		{"HangRate(0.5)", func(s *tripwiretest.Script) error { return s.HangRate(0.5) }, true},
		{"Latency(-1ns)", func(s *tripwiretest.Script) error { return s.Latency(-time.Nanosecond) }, false},
		{"Latency(0)", func(s *tripwiretest.Script) error { return s.Latency(0) }, true},
		{"Latency(1s)", func(s *tripwiretest.Script) error { return s.Latency(time.Second) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given a healthy script
			s := tripwiretest.New()
			// When the setter is called
			err := c.set(s)
			// Then an out-of-range argument is ErrInvalid, and an accepted one is no error
			if c.ok && err != nil {
				t.Fatalf("got %v, want no error", err)
			}
			if !c.ok && !errors.Is(err, tripwiretest.ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
			// and a rejected setting leaves the script healthy
			if !c.ok {
				if _, err := s.Wrap(nil)(context.Background(), "x"); err != nil {
					t.Fatalf("call after a rejected setting: %v", err)
				}
			}
		})
	}
}

func TestRejectedSettingKeepsThePreviousOne(t *testing.T) {
	// Given a script set to fail the next 2 calls
	s := tripwiretest.New()
	must(t, s.FailNext(2))
	// When a negative count is rejected
	if err := s.FailNext(-5); !errors.Is(err, tripwiretest.ErrInvalid) {
		t.Fatalf("FailNext(-5) = %v, want ErrInvalid", err)
	}
	// Then the 2 failures are still due
	fn := s.Wrap(nil)
	for i := range 3 {
		_, err := fn(context.Background(), i)
		if want := i < 2; errors.Is(err, tripwiretest.ErrInjected) != want {
			t.Fatalf("call %d: err %v, want failure %v", i+1, err, want)
		}
	}
}

func TestFailNextAndPanicNextCountDownInArrivalOrder(t *testing.T) {
	// Given a script that panics once and then fails twice
	s := tripwiretest.New()
	must(t, s.PanicNext(1))
	must(t, s.FailNext(2))
	fn := s.Wrap(nil)
	// When five calls are made one after another
	var got []string
	for i := range 5 {
		got = append(got, outcomeOf(func() (any, error) { return fn(context.Background(), i) }))
	}
	// Then the panic comes first, then the failures, then the inner answers
	want := []string{"panic", "fail", "fail", "ok", "ok"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("outcomes %v, want %v", got, want)
		}
	}
	if c := s.Counts(); c != (tripwiretest.Counts{Calls: 5, Failures: 2, Panics: 1}) {
		t.Fatalf("Counts() = %+v", c)
	}
}

// outcomeOf names what a call did: "panic", "fail" (ErrInjected), "down"
// (ErrDown), "ok", or the unexpected error's text.
func outcomeOf(call func() (any, error)) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = "panic"
		}
	}()
	_, err := call()
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, tripwiretest.ErrInjected):
		return "fail"
	case errors.Is(err, tripwiretest.ErrDown):
		return "down"
	}
	return err.Error()
}

func TestFailRateIsReproducibleWithASeed(t *testing.T) {
	run := func(seed uint64) []bool {
		s := tripwiretest.New(tripwiretest.Seed(seed))
		must(t, s.FailRate(0.3))
		fn := s.Wrap(nil)
		fails := make([]bool, 1000)
		for i := range fails {
			_, err := fn(context.Background(), i)
			fails[i] = errors.Is(err, tripwiretest.ErrInjected)
		}
		return fails
	}
	// Given two scripts with the same seed and one with another
	a, b, c := run(7), run(7), run(8)
	// Then the same seed fails the same calls
	same := func(x, y []bool) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Fatalf("seed 7 twice gave different failures")
	}
	if same(a, c) {
		t.Fatalf("seeds 7 and 8 gave the same 1000 failures")
	}
	// and the rate is about right (0.3 of 1000: 300 ± 5 sigma, sigma ≈ 14.5)
	n := 0
	for _, f := range a {
		if f {
			n++
		}
	}
	if n < 228 || n > 372 {
		t.Fatalf("%d failures in 1000 calls at rate 0.3", n)
	}
}

func TestFailRateBoundsAreNeverAndAlways(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want int
	}{{0, 0}, {1, 100}} {
		// Given a script at rate p
		s := tripwiretest.New(tripwiretest.Seed(1))
		must(t, s.FailRate(c.p))
		fn := s.Wrap(nil)
		// When it is called 100 times
		for i := range 100 {
			_, _ = fn(context.Background(), i)
		}
		// Then p=0 never fails and p=1 always does
		if got := s.Counts().Failures; got != int64(c.want) {
			t.Fatalf("rate %v: %d failures, want %d", c.p, got, c.want)
		}
	}
}

func TestWrapCallsInnerOrEchoes(t *testing.T) {
	ctx := context.Background()
	// Given a script with no faults
	s := tripwiretest.New()
	// When the nil inner is wrapped, the call answers with its message
	if v, err := s.Wrap(nil)(ctx, "ping"); v != "ping" || err != nil {
		t.Fatalf("echo: %v, %v", v, err)
	}
	// and a given inner answers itself, errors included
	errInner := errors.New("inner")
	inner := func(_ context.Context, msg any) (any, error) {
		if msg == "bad" {
			return nil, errInner
		}
		return msg.(string) + "!", nil
	}
	if v, err := s.Wrap(inner)(ctx, "ping"); v != "ping!" || err != nil {
		t.Fatalf("inner: %v, %v", v, err)
	}
	if _, err := s.Wrap(inner)(ctx, "bad"); !errors.Is(err, errInner) {
		t.Fatalf("inner error: %v", err)
	}
	// Then the inner's own error is not counted as injected
	if c := s.Counts(); c.Calls != 3 || c.Failures != 0 {
		t.Fatalf("Counts() = %+v", c)
	}
}

func TestDieReviveAndHeal(t *testing.T) {
	ctx := context.Background()
	// Given a function target whose script dies
	s := tripwiretest.New()
	fn := s.Wrap(nil)
	s.Die()
	// When it is called, Then it answers ErrDown without calling inner
	if v, err := fn(ctx, "x"); !errors.Is(err, tripwiretest.ErrDown) || v != nil {
		t.Fatalf("dead: %v, %v", v, err)
	}
	// When it is revived, Then it answers again
	s.Revive()
	if v, err := fn(ctx, "x"); err != nil || v != "x" {
		t.Fatalf("revived: %v, %v", v, err)
	}
	// Given every fault at once
	must(t, s.FailRate(1))
	must(t, s.FailNext(3))
	must(t, s.PanicNext(3))
	must(t, s.Latency(time.Hour))
	s.Die()
	// When it heals, Then the next call is healthy and immediate
	s.Heal()
	if v, err := fn(ctx, "y"); err != nil || v != "y" {
		t.Fatalf("healed: %v, %v", v, err)
	}
	if c := s.Counts(); c != (tripwiretest.Counts{Calls: 3, Downs: 1}) {
		t.Fatalf("Counts() = %+v", c)
	}
}

func TestZeroScriptIsHealthy(t *testing.T) {
	// Given the zero Script with a fail rate (its generator seeds itself)
	var s tripwiretest.Script
	must(t, s.FailRate(1))
	// When it is called, Then it fails as told
	if _, err := s.Wrap(nil)(context.Background(), 1); !errors.Is(err, tripwiretest.ErrInjected) {
		t.Fatalf("got %v, want ErrInjected", err)
	}
}
