package policies

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// runOps makes one call per op, in order, and checks that the caller gets
// what the target answered.
func runOps(t *testing.T, reg *tripwire.Registry, key string, ops ...tripwiretest.Op) {
	t.Helper()
	for i, o := range ops {
		_, err := call(reg, key, o)
		if o.Fail {
			wantErr(t, "call", err, tripwiretest.ErrInjected)
		} else if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
}

func repeat(o tripwiretest.Op, n int) []tripwiretest.Op {
	ops := make([]tripwiretest.Op, n)
	for i := range ops {
		ops[i] = o
	}
	return ops
}

func TestCountWindowWaitsForMinCalls(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a count window of 10 calls that needs 6 calls and a 50%
		// failure rate (the consecutive Threshold of 2 does not apply)
		tr := record(t, e.Reg)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "w", s.Func(nil), tripwire.Settings{
			Threshold: 2, OpenTimeout: time.Minute,
			Window: state.Window{Size: 10, MinCalls: 6, FailureRate: 0.5},
		})

		// When 5 calls fail: a 100% failure rate, but fewer than MinCalls
		runOps(t, e.Reg, "w", repeat(failOp, 5)...)

		// Then the circuit stays closed
		testkit.WantCircuit(t, e.Reg, "w", state.Closed, 5)
		tr.want(t)

		// When the 6th call fails
		runOps(t, e.Reg, "w", failOp)

		// Then it opens for the failure rate
		testkit.WantCircuit(t, e.Reg, "w", state.Open, 6)
		got := tr.want(t, "closed->open:failure_rate")
		if !got[0].Fresh {
			t.Errorf("trip from closed not marked Fresh: %+v", got[0])
		}
		if _, err := call(e.Reg, "w", okOp); !isOpen(err) {
			t.Fatalf("call after trip: %v; want ErrOpen", err)
		}
		if n := s.Counts().Calls; n != 6 {
			t.Fatalf("target reached %d times; want 6", n)
		}
	})
}

func TestCountWindowTripsAtTheFailureRate(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a count window of 10 calls, MinCalls 4, FailureRate 0.5
		tr := record(t, e.Reg)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "w", s.Func(nil), tripwire.Settings{
			OpenTimeout: time.Minute,
			Window:      state.Window{Size: 10, MinCalls: 4, FailureRate: 0.5},
		})

		// When failures come, but below half of the calls: 4 of 9
		runOps(t, e.Reg, "w", okOp, okOp, okOp, failOp, okOp, failOp, okOp, failOp, failOp)

		// Then the circuit stays closed (2 consecutive failures at the end)
		testkit.WantCircuit(t, e.Reg, "w", state.Closed, 2)
		tr.want(t)

		// When one more failure makes it 5 of 10
		runOps(t, e.Reg, "w", failOp)

		// Then the circuit opens for the failure rate
		testkit.WantCircuit(t, e.Reg, "w", state.Open, 3)
		tr.want(t, "closed->open:failure_rate")
	})
}

func TestCountWindowSlides(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a count window of 4 calls that opens at 75% failures
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "w", tripwiretest.New().Func(nil), tripwire.Settings{
			OpenTimeout: time.Minute,
			Window:      state.Window{Size: 4, MinCalls: 4, FailureRate: 0.75},
		})

		// When 2 failures are pushed out of the window by 4 successes, and
		// 2 new failures follow: 2 of the last 4
		runOps(t, e.Reg, "w", failOp, failOp, okOp, okOp, okOp, okOp, failOp, failOp)

		// Then the circuit stays closed: the old failures are forgotten
		testkit.WantCircuit(t, e.Reg, "w", state.Closed, 2)
		tr.want(t)

		// When a third new failure makes it 3 of the last 4
		runOps(t, e.Reg, "w", failOp)

		// Then it opens
		testkit.WantCircuit(t, e.Reg, "w", state.Open, 3)
		tr.want(t, "closed->open:failure_rate")
	})
}

func TestTimeWindowForgetsFailuresOlderThanPeriod(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pause time.Duration // between the first 3 failures and the 4th
		want  state.State
	}{
		// The window is 10 one-second buckets.
		{"within period", 9*time.Second + 500*time.Millisecond, state.Open},
		{"past period", 10*time.Second + 500*time.Millisecond, state.Closed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a time window of 10s (10 buckets) that needs 4
				// calls and a 50% failure rate
				tr := record(t, e.Reg)
				testkit.Register(t, e.Reg, "w", tripwiretest.New().Func(nil), tripwire.Settings{
					OpenTimeout: time.Hour,
					Window:      state.Window{Period: 10 * time.Second, MinCalls: 4, FailureRate: 0.5},
				})
				// and 3 failures: fewer than MinCalls
				runOps(t, e.Reg, "w", repeat(failOp, 3)...)
				testkit.WantCircuit(t, e.Reg, "w", state.Closed, 3)

				// When a 4th failure comes after the pause
				time.Sleep(tc.pause)
				runOps(t, e.Reg, "w", failOp)

				// Then the circuit opens only if the first 3 are still in
				// the window
				testkit.WantCircuit(t, e.Reg, "w", tc.want, 4)
				if tc.want == state.Open {
					tr.want(t, "closed->open:failure_rate")
					return
				}
				tr.want(t)
				// and past the period it takes 4 fresh failures to open it
				runOps(t, e.Reg, "w", repeat(failOp, 2)...)
				testkit.WantCircuit(t, e.Reg, "w", state.Closed, 6)
				runOps(t, e.Reg, "w", failOp)
				testkit.WantCircuit(t, e.Reg, "w", state.Open, 7)
				tr.want(t, "closed->open:failure_rate")
			})
		})
	}
}
