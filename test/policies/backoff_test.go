package policies

import (
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// openError returns the *OpenError of a call to key, or fails.
func openError(t *testing.T, reg *tripwire.Registry, key string) *state.OpenError {
	t.Helper()
	_, err := call(reg, key, okOp)
	var oe *state.OpenError
	if !errors.As(err, &oe) {
		t.Fatalf("call to open %q: %v; want *OpenError", key, err)
	}
	return oe
}

func TestBackoffDoublesTheOpenTimeUpToMax(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that opens on the first failure for 1s, doubling
		// that for each re-open up to 10s
		tr := record(t, e.Reg)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "b", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second,
			Backoff: state.Backoff{Multiplier: 2, Max: 10 * time.Second},
		})

		// cycle checks one open period: open until exactly openFor after
		// openedAt, half-open from then on.
		cycle := func(openFor time.Duration) {
			t.Helper()
			openedAt := time.Now()
			if oe := openError(t, e.Reg, "b"); !oe.RetryAt.Equal(openedAt.Add(openFor)) || oe.RetryAfter != openFor {
				t.Fatalf("OpenError RetryAt=%v RetryAfter=%v; want %v, %v",
					oe.RetryAt, oe.RetryAfter, openedAt.Add(openFor), openFor)
			}
			time.Sleep(openFor - time.Nanosecond)
			wantState(t, e.Reg, "b", state.Open)
			time.Sleep(time.Nanosecond)
			wantState(t, e.Reg, "b", state.HalfOpen)
			if l := tr.last(t); l.To != state.HalfOpen || !l.At.Equal(openedAt.Add(openFor)) {
				t.Fatalf("half-open transition %+v; want at %v", l, openedAt.Add(openFor))
			}
		}

		// When the first failure opens it, and every probe fails
		if _, err := call(e.Reg, "b", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		want := []time.Duration{1, 2, 4, 8, 10, 10}
		for i, sec := range want {
			// Then each open period is twice the last, capped at 10s
			cycle(sec * time.Second)
			if i < len(want)-1 {
				if _, err := call(e.Reg, "b", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("probe %d: %v; want the target's error", i, err)
				}
				wantState(t, e.Reg, "b", state.Open)
			}
		}

		// When a probe succeeds, and a later failure opens the circuit again
		v, err := call(e.Reg, "b", okOp)
		wantOK(t, "successful probe", v, err)
		wantState(t, e.Reg, "b", state.Closed)
		if _, err := call(e.Reg, "b", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}

		// Then the close reset the backoff: open for 1s again, then 2s
		cycle(time.Second)
		if _, err := call(e.Reg, "b", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("probe: %v", err)
		}
		cycle(2 * time.Second)
		tr.want(t,
			"closed->open:threshold",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout",
			"half_open->closed:probe_succeeded",
			"closed->open:threshold",
			"open->half_open:open_timeout", "half_open->open:probe_failed",
			"open->half_open:open_timeout",
		)
	})
}

func TestBackoffJitterStaysWithinBounds(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker opening for 1s, doubled per re-open up to 10s,
		// with ±20% jitter
		const (
			episodes = 10 // each: a trip, 5 failed probes, a good probe
			reopens  = 6
			maxOpen  = 10 * time.Second
		)
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "j", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second,
			Backoff: state.Backoff{Multiplier: 2, Max: maxOpen, Jitter: 0.2},
		})

		// When the circuit opens and re-opens many times
		seen := map[int]map[time.Duration]bool{}
		for ep := range episodes {
			for k := range reopens {
				if _, err := call(e.Reg, "j", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("episode %d open %d: %v", ep, k, err)
				}
				opened := tr.last(t)
				if opened.To != state.Open || !opened.At.Equal(time.Now()) {
					t.Fatalf("episode %d open %d: last transition %+v; want open now", ep, k, opened)
				}
				retryAt := openError(t, e.Reg, "j").RetryAt
				time.Sleep(maxOpen + maxOpen/4) // past any possible open time
				half := tr.last(t)
				if half.To != state.HalfOpen {
					t.Fatalf("episode %d open %d: not half-open after %v: %+v", ep, k, maxOpen+maxOpen/4, half)
				}
				gap := half.At.Sub(opened.At)

				// Then each open time lies within ±20% of its base, never
				// beyond Max, and the circuit half-opens when its
				// OpenError said
				base := min(maxOpen, time.Second<<k)
				lo := time.Duration(float64(base)*0.8) - time.Nanosecond // float rounding
				hi := min(maxOpen, time.Duration(float64(base)*1.2))
				if gap < lo || gap > hi {
					t.Errorf("episode %d re-open %d: open for %v; want within [%v, %v]", ep, k, gap, lo, hi)
				}
				if !half.At.Equal(retryAt) {
					t.Errorf("episode %d re-open %d: half-open at %v; OpenError said %v", ep, k, half.At, retryAt)
				}
				if seen[k] == nil {
					seen[k] = map[time.Duration]bool{}
				}
				seen[k][gap] = true
			}
			v, err := call(e.Reg, "j", okOp)
			wantOK(t, "closing probe", v, err)
			wantState(t, e.Reg, "j", state.Closed)
		}

		// and the jitter really spreads them
		for k := range reopens {
			if len(seen[k]) < 2 {
				t.Errorf("re-open %d: all %d open times equal: %v", k, episodes, seen[k])
			}
		}
	})
}
