package policies

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// halfOpenWith3Probes registers key with HalfOpenProbes 3, trips it and
// waits until it is half-open.
func halfOpenWith3Probes(t *testing.T, e *testkit.Env, key string, s *tripwiretest.Script) {
	t.Helper()
	testkit.Register(t, e.Reg, key, s.Func(nil), tripwire.Settings{
		Threshold: 1, OpenTimeout: time.Second, HalfOpenProbes: 3, CallTimeout: time.Minute,
	})
	if _, err := call(e.Reg, key, failOp); !errors.Is(err, tripwiretest.ErrInjected) {
		t.Fatalf("tripping call: %v", err)
	}
	time.Sleep(time.Second)
	wantState(t, e.Reg, key, state.HalfOpen)
}

// probes starts n gated calls and waits until they are parked.
func probes(e *testkit.Env, key string, n int) ([]chan bool, []<-chan testkit.Result) {
	gates := make([]chan bool, n)
	results := make([]<-chan testkit.Result, n)
	for i := range n {
		gates[i] = make(chan bool, 1)
		results[i] = goCall(e.Reg, key, tripwiretest.Op{Gate: gates[i]})
	}
	return gates, results
}

func TestHalfOpenAdmitsExactlyThreeProbesAtOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a half-open breaker that admits 3 probes
		s := tripwiretest.New()
		halfOpenWith3Probes(t, e, "p", s)
		before := s.Counts().Calls

		// When 3 callers arrive together and their calls are under way
		gates, results := probes(e, "p", 3)
		for _, r := range results {
			testkit.StillPending(t, r, "probe")
		}

		// Then all 3 reached the target at once
		if n, peak := s.Counts().Calls-before, s.Peak(); n != 3 || peak != 3 {
			t.Fatalf("target reached by %d probes, %d at once; want 3 and 3", n, peak)
		}
		// and a 4th caller gets ErrOpen at once, without reaching it
		start := time.Now()
		_, err := call(e.Reg, "p", okOp)
		var oe *state.OpenError
		if !errors.As(err, &oe) || !isOpen(err) {
			t.Fatalf("4th caller: %v; want *OpenError", err)
		}
		if !oe.RetryAt.IsZero() || oe.RetryAfter != 0 {
			t.Errorf("OpenError while probes are in flight: RetryAt=%v RetryAfter=%v; want zero", oe.RetryAt, oe.RetryAfter)
		}
		if time.Since(start) != 0 || s.Counts().Calls-before != 3 {
			t.Fatalf("4th caller waited %v / reached the target", time.Since(start))
		}

		// When the probes succeed one by one
		for i := range gates {
			gates[i] <- true
			if r := testkit.Await(t, results[i]); r.Err != nil || r.V != "ok" {
				t.Fatalf("probe %d: %v, %v", i, r.V, r.Err)
			}
			// Then the circuit closes only after the third
			want := state.HalfOpen
			if i == len(gates)-1 {
				want = state.Closed
			}
			wantState(t, e.Reg, "p", want)
		}
		v, err := call(e.Reg, "p", okOp)
		wantOK(t, "call after close", v, err)
	})
}

func TestOneFailedProbeOfThreeReopens(t *testing.T) {
	for _, failed := range []int{0, 1, 2} {
		t.Run([]string{"first", "second", "last"}[failed], func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a half-open breaker with its 3 probes in flight
				tr := record(t, e.Reg)
				s := tripwiretest.New()
				halfOpenWith3Probes(t, e, "p", s)
				gates, results := probes(e, "p", 3)
				for _, r := range results {
					testkit.StillPending(t, r, "probe")
				}

				// When the probes end in order and one of them fails
				for i := range gates {
					gates[i] <- i != failed
					r := testkit.Await(t, results[i])
					if i == failed {
						wantErr(t, "failed probe", r.Err, tripwiretest.ErrInjected)
					} else if r.Err != nil {
						t.Fatalf("probe %d: %v", i, r.Err)
					}
					// Then the circuit re-opens at the failure and stays
					// open while the other probes end
					want := state.HalfOpen
					if i >= failed {
						want = state.Open
					}
					wantState(t, e.Reg, "p", want)
				}
				tr.want(t, "closed->open:threshold", "open->half_open:open_timeout", "half_open->open:probe_failed")
				if _, err := call(e.Reg, "p", okOp); !isOpen(err) {
					t.Fatalf("call after the failed probe: %v; want ErrOpen", err)
				}
			})
		})
	}
}

func TestHungProbeReopensForProbeTimeout(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a half-open breaker (one probe, 2s call timeout)
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "p", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second, CallTimeout: 2 * time.Second,
		})
		_, _ = call(e.Reg, "p", failOp)
		advance(time.Second)

		// When its probe hangs
		start := time.Now()
		probe := goCall(e.Reg, "p", tripwiretest.Op{Hang: true})

		// Then other callers are refused meanwhile
		testkit.StillPending(t, probe, "probe")
		if _, err := call(e.Reg, "p", okOp); !isOpen(err) {
			t.Fatalf("call beside the probe: %v; want ErrOpen", err)
		}
		// and at its deadline the probe times out and the circuit re-opens
		r := testkit.Await(t, probe)
		wantErr(t, "probe", r.Err, tripwire.ErrTimeout)
		if d := r.At.Sub(start); d != 2*time.Second {
			t.Fatalf("probe timed out after %v; want 2s", d)
		}
		wantState(t, e.Reg, "p", state.Open)
		tr.want(t, "closed->open:threshold", "open->half_open:open_timeout", "half_open->open:probe_timeout")
	})
}

func TestSlowProbeReopens(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a half-open breaker that counts calls over 100ms as failures
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "p", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second, SlowCall: 100 * time.Millisecond,
		})
		_, _ = call(e.Reg, "p", failOp)
		advance(time.Second)

		// When its probe succeeds after 200ms
		v, err := call(e.Reg, "p", tripwiretest.Op{After: 200 * time.Millisecond})

		// Then the caller has its value, and the circuit re-opens
		wantOK(t, "slow probe", v, err)
		wantState(t, e.Reg, "p", state.Open)
		tr.want(t, "closed->open:threshold", "open->half_open:open_timeout", "half_open->open:probe_failed")
	})
}

func TestCallersRacingForOneProbeGetOpenErrors(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a half-open breaker with one probe permit
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "p", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second, CallTimeout: time.Minute,
		})
		_, _ = call(e.Reg, "p", failOp)
		advance(time.Second)
		before := s.Counts().Calls

		// When 50 callers arrive at the same instant
		gate := make(chan bool, 1)
		start := make(chan struct{})
		results := make(chan error, 50)
		for range 50 {
			go func() {
				<-start
				_, err := call(e.Reg, "p", tripwiretest.Op{Gate: gate})
				results <- err
			}()
		}
		close(start)
		synctest.Wait()

		// Then exactly one reaches the target, and the others get an
		// *OpenError for the key with no retry time (the probe decides)
		if n := s.Counts().Calls - before; n != 1 {
			t.Fatalf("%d callers reached the target; want 1", n)
		}
		for range 49 {
			err := <-results
			var oe *state.OpenError
			if !errors.As(err, &oe) || oe.Key != "p" || !oe.RetryAt.IsZero() {
				t.Fatalf("refused caller: %v (%+v); want *OpenError for p with no RetryAt", err, oe)
			}
		}
		gate <- true
		if err := <-results; err != nil {
			t.Fatalf("probe: %v", err)
		}
		wantState(t, e.Reg, "p", state.Closed)
	})
}
