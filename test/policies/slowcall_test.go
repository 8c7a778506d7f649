package policies

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestSlowSuccessCountsAsFailureAndKeepsItsValue(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that opens after 2 consecutive failures and counts
		// a call slower than 100ms as one
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "slow", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 2, SlowCall: 100 * time.Millisecond, OpenTimeout: time.Minute,
		})

		// When a call succeeds after 150ms
		start := time.Now()
		v, err := call(e.Reg, "slow", tripwiretest.Op{After: 150 * time.Millisecond, Value: "late"})

		// Then the caller still gets its value, after 150ms
		if err != nil || v != "late" {
			t.Fatalf("slow call: %v, %v; want late", v, err)
		}
		if d := time.Since(start); d != 150*time.Millisecond {
			t.Fatalf("slow call took %v; want 150ms", d)
		}
		// and it counts as a failure
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)

		// When a second slow success follows
		v, err = call(e.Reg, "slow", tripwiretest.Op{After: 101 * time.Millisecond, Value: "late again"})

		// Then the caller gets its value and the circuit opens
		if err != nil || v != "late again" {
			t.Fatalf("second slow call: %v, %v", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "slow", state.Open, 2)
		tr.want(t, "closed->open:threshold")
	})
}

func TestCallAtTheSlowCallLimitIsASuccess(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that counts calls slower than 100ms as failures,
		// with one failure counted
		testkit.Register(t, e.Reg, "slow", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 2, SlowCall: 100 * time.Millisecond, OpenTimeout: time.Minute,
		})
		if _, err := call(e.Reg, "slow", failOp); err == nil {
			t.Fatal("failing call succeeded")
		}
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 1)

		// When a call takes exactly 100ms, and then one takes 99ms
		v, err := call(e.Reg, "slow", tripwiretest.Op{After: 100 * time.Millisecond})
		wantOK(t, "100ms call", v, err)

		// Then it is not slower than the limit: a success resets the count
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 0)
		if _, err := call(e.Reg, "slow", failOp); err == nil {
			t.Fatal("failing call succeeded")
		}
		v, err = call(e.Reg, "slow", tripwiretest.Op{After: 99 * time.Millisecond})
		wantOK(t, "99ms call", v, err)
		testkit.WantCircuit(t, e.Reg, "slow", state.Closed, 0)
	})
}

func TestSlowCallsFeedTheFailureRateWindow(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a count window of 4 calls opening at 50%, and SlowCall 1s
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "slow", tripwiretest.New().Func(nil), tripwire.Settings{
			SlowCall: time.Second, OpenTimeout: time.Minute,
			Window: state.Window{Size: 4, MinCalls: 4, FailureRate: 0.5},
		})

		// When 2 fast and 2 slow calls all succeed
		for _, d := range []time.Duration{0, 2 * time.Second, 0, 2 * time.Second} {
			v, err := call(e.Reg, "slow", tripwiretest.Op{After: d})
			wantOK(t, "call", v, err)
		}

		// Then the 2 slow ones make a 50% failure rate and open the circuit
		wantState(t, e.Reg, "slow", state.Open)
		tr.want(t, "closed->open:failure_rate")
	})
}
