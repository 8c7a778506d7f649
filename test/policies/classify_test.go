package policies

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// errNotFound is an answer the classifier says counts neither way.
var errNotFound = errors.New("not found")

// classify ignores errNotFound, fails the value "bad" and every other error,
// and counts the rest as success.
func classify(v any, err error) state.Verdict {
	switch {
	case errors.Is(err, errNotFound):
		return state.Ignore
	case err != nil, v == "bad":
		return state.Failure
	}
	return state.Success
}

var ignoredOp = tripwiretest.Op{Err: errNotFound}

func TestClassifyIgnoreCountsNeitherWay(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker opening after 3 consecutive failures, whose
		// classifier ignores errNotFound
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "c", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 3, OpenTimeout: time.Minute, Classify: classify,
		})

		// When 10 calls end with errNotFound
		for range 10 {
			_, err := call(e.Reg, "c", ignoredOp)
			// Then each caller gets the target's error
			wantErr(t, "ignored call", err, errNotFound)
		}
		// and nothing is counted
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 0)

		// When ignored calls come between failures
		for _, o := range []tripwiretest.Op{failOp, ignoredOp, failOp, ignoredOp, ignoredOp} {
			_, _ = call(e.Reg, "c", o)
		}
		// Then they neither count nor reset the consecutive failures
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 2)
		tr.want(t)

		// When a success value the classifier calls bad comes back
		v, err := call(e.Reg, "c", tripwiretest.Op{Value: "bad"})

		// Then the caller gets it, and it is the third failure
		if err != nil || v != "bad" {
			t.Fatalf("bad value: %v, %v", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "c", state.Open, 3)
		tr.want(t, "closed->open:threshold")
	})
}

func TestIgnoredProbeFreesItsPermit(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a half-open breaker with one probe permit, whose classifier
		// ignores errNotFound
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "c", s.Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: time.Second, Classify: classify,
		})
		if _, err := call(e.Reg, "c", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		time.Sleep(time.Second)
		wantState(t, e.Reg, "c", state.HalfOpen)

		// When the probe ends with errNotFound
		_, err := call(e.Reg, "c", ignoredOp)
		wantErr(t, "ignored probe", err, errNotFound)

		// Then the circuit is still half-open, neither closed nor re-opened
		wantState(t, e.Reg, "c", state.HalfOpen)
		// and the next caller gets the permit: it reaches the target and
		// its success closes the circuit
		before := s.Counts().Calls
		v, err := call(e.Reg, "c", okOp)
		wantOK(t, "next probe", v, err)
		if s.Counts().Calls != before+1 {
			t.Fatalf("the next probe did not reach the target")
		}
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 0)
	})
}

func TestPanickingClassifierCountsAFailure(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker whose classifier panics
		testkit.Register(t, e.Reg, "c", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 2, OpenTimeout: time.Minute,
			Classify: func(any, error) state.Verdict { panic("classifier bug") },
		})

		// When a call succeeds
		v, err := call(e.Reg, "c", okOp)

		// Then the caller gets the target's answer, and it counts as a failure
		wantOK(t, "call", v, err)
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 1)
	})
}

func TestIsFailureIsTheSimpleForm(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker whose IsFailure says errNotFound is no failure
		testkit.Register(t, e.Reg, "c", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 2, OpenTimeout: time.Minute,
			IsFailure: func(_ any, err error) bool { return err != nil && !errors.Is(err, errNotFound) },
		})

		// When a failure is followed by errNotFound
		_, _ = call(e.Reg, "c", failOp)
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 1)
		_, err := call(e.Reg, "c", ignoredOp)

		// Then the caller gets the error, and it counts as a success
		wantErr(t, "call", err, errNotFound)
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 0)
	})
}

func TestIsFailureWithClassifyIsInvalid(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		both := tripwire.Settings{
			Classify:  classify,
			IsFailure: func(any, error) bool { return true },
		}
		// Given no key, When one is registered with IsFailure and Classify
		err := e.Reg.Register(context.Background(), "c", tripwiretest.New().Func(nil), both)

		// Then Register refuses it and the key does not exist
		wantErr(t, "Register", err, tripwire.ErrInvalidSettings)
		if _, err := e.Reg.State("c"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Fatalf("State after a refused Register: %v; want ErrUnknownKey", err)
		}

		// Given a key with Classify, When Update sets both
		testkit.Register(t, e.Reg, "c", tripwiretest.New().Func(nil), tripwire.Settings{Threshold: 1, Classify: classify})
		err = e.Reg.Update(context.Background(), "c", both)

		// Then Update refuses it and the old rules stay: errNotFound is
		// still ignored, not a failure that would trip Threshold 1
		wantErr(t, "Update", err, tripwire.ErrInvalidSettings)
		_, err = call(e.Reg, "c", ignoredOp)
		wantErr(t, "call", err, errNotFound)
		testkit.WantCircuit(t, e.Reg, "c", state.Closed, 0)
	})
}
