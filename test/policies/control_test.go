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

func TestForceOpenRejectsUntilResetAndNeverHalfOpens(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a closed breaker with a 1s open time
		tr := record(t, e.Reg)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "k", s.Func(nil), tripwire.Settings{OpenTimeout: time.Second})

		// When it is forced open
		if err := e.Reg.ForceOpen(context.Background(), "k"); err != nil {
			t.Fatalf("ForceOpen: %v", err)
		}

		// Then it is a transition for forced_open, and calls are refused
		// with an OpenError that schedules no probe
		tr.want(t, "closed->open:forced_open")
		testkit.WantCircuit(t, e.Reg, "k", state.Open, 0)
		oe := openError(t, e.Reg, "k")
		if !oe.RetryAt.IsZero() || oe.RetryAfter != 0 {
			t.Errorf("forced open: RetryAt=%v RetryAfter=%v; want zero", oe.RetryAt, oe.RetryAfter)
		}
		// and an hour later it is still open: it never half-opens by itself
		advance(time.Hour)
		wantState(t, e.Reg, "k", state.Open)
		if _, err := call(e.Reg, "k", okOp); !isOpen(err) {
			t.Fatalf("call an hour later: %v; want ErrOpen", err)
		}
		if s.Counts().Calls != 0 {
			t.Fatalf("target reached %d times while forced open", s.Counts().Calls)
		}

		// When it is reset
		if err := e.Reg.Reset(context.Background(), "k"); err != nil {
			t.Fatalf("Reset: %v", err)
		}

		// Then it is closed and forwards again
		v, err := call(e.Reg, "k", okOp)
		wantOK(t, "call after Reset", v, err)
		tr.want(t, "closed->open:forced_open", "open->closed:reset")
	})
}

func TestForceOpenOverridesATrippedCircuit(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a tripped breaker whose recovery timer is due in 1s
		testkit.Register(t, e.Reg, "k", tripwiretest.New().Func(nil), tripwire.Settings{Threshold: 1, OpenTimeout: time.Second})
		_, _ = call(e.Reg, "k", failOp)
		wantState(t, e.Reg, "k", state.Open)

		// When it is forced open
		tr := record(t, e.Reg)
		if err := e.Reg.ForceOpen(context.Background(), "k"); err != nil {
			t.Fatalf("ForceOpen: %v", err)
		}

		// Then the old recovery timer does not half-open it
		advance(10 * time.Second)
		wantState(t, e.Reg, "k", state.Open)
		tr.want(t, "open->open:forced_open")
	})
}

func TestForceCloseForwardsAndCountsButNeverTrips(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a tripped breaker with threshold 2
		tr := record(t, e.Reg)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "k", s.Func(nil), tripwire.Settings{Threshold: 2, OpenTimeout: time.Hour})
		for range 2 {
			_, _ = call(e.Reg, "k", failOp)
		}
		wantState(t, e.Reg, "k", state.Open)

		// When it is forced closed
		if err := e.Reg.ForceClose(context.Background(), "k"); err != nil {
			t.Fatalf("ForceClose: %v", err)
		}

		// Then every call is forwarded, failures are counted, and it never
		// trips
		before, counted := s.Counts().Calls, testkit.Snapshot(t, e.Reg, "k").Failures
		for i := range 10 {
			_, err := call(e.Reg, "k", failOp)
			wantErr(t, "call while forced closed", err, tripwiretest.ErrInjected)
			testkit.WantCircuit(t, e.Reg, "k", state.Closed, counted+i+1)
		}
		if n := s.Counts().Calls - before; n != 10 {
			t.Fatalf("target reached %d times; want 10", n)
		}

		// When it is reset
		if err := e.Reg.Reset(context.Background(), "k"); err != nil {
			t.Fatalf("Reset: %v", err)
		}

		// Then the counts are cleared and the threshold rules again
		testkit.WantCircuit(t, e.Reg, "k", state.Closed, 0)
		_, _ = call(e.Reg, "k", failOp)
		testkit.WantCircuit(t, e.Reg, "k", state.Closed, 1)
		_, _ = call(e.Reg, "k", failOp)
		wantState(t, e.Reg, "k", state.Open)
		tr.want(t, "closed->open:threshold", "open->closed:forced_closed", "closed->closed:reset", "closed->open:threshold")
	})
}

func TestResetClearsCounts(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		for _, tc := range []struct {
			name     string
			settings tripwire.Settings
			fails    int // failures before Reset; one more would trip
		}{
			{"consecutive", tripwire.Settings{Threshold: 3}, 2},
			{"count window", tripwire.Settings{Window: state.Window{Size: 4, MinCalls: 4, FailureRate: 1}}, 3},
		} {
			// Given a closed breaker one failure short of tripping
			tr := record(t, e.Reg)
			testkit.Register(t, e.Reg, tc.name, tripwiretest.New().Func(nil), tc.settings)
			for range tc.fails {
				_, _ = call(e.Reg, tc.name, failOp)
			}
			testkit.WantCircuit(t, e.Reg, tc.name, state.Closed, tc.fails)

			// When it is reset
			if err := e.Reg.Reset(context.Background(), tc.name); err != nil {
				t.Fatalf("%s: Reset: %v", tc.name, err)
			}

			// Then its counts are gone: as many failures again do not trip it
			testkit.WantCircuit(t, e.Reg, tc.name, state.Closed, 0)
			for range tc.fails {
				_, _ = call(e.Reg, tc.name, failOp)
			}
			testkit.WantCircuit(t, e.Reg, tc.name, state.Closed, tc.fails)
			tr.want(t, "closed->closed:reset")
		}
	})
}

func TestUpdateAppliesFromTheNextCallAndKeepsState(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with threshold 5 and 2 failures counted
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "k", tripwiretest.New().Func(nil), tripwire.Settings{Threshold: 5, OpenTimeout: time.Minute})
		for range 2 {
			_, _ = call(e.Reg, "k", failOp)
		}

		// When its threshold is lowered to 3
		if err := e.Reg.Update(context.Background(), "k", tripwire.Settings{Threshold: 3, OpenTimeout: time.Minute}); err != nil {
			t.Fatalf("Update: %v", err)
		}

		// Then the state and the count are kept, and the update is a
		// transition from closed to closed with reason "updated"
		testkit.WantCircuit(t, e.Reg, "k", state.Closed, 2)
		tr.want(t, "closed->closed:updated")
		// and the next failure trips it at the new threshold
		_, _ = call(e.Reg, "k", failOp)
		testkit.WantCircuit(t, e.Reg, "k", state.Open, 3)
		tr.want(t, "closed->closed:updated", "closed->open:threshold")

		// When an open circuit is updated
		retryAt := testkit.Snapshot(t, e.Reg, "k").RetryAt
		if err := e.Reg.Update(context.Background(), "k", tripwire.Settings{Threshold: 3, OpenTimeout: time.Hour}); err != nil {
			t.Fatalf("Update: %v", err)
		}

		// Then it stays open until the time it was given
		s := testkit.WantCircuit(t, e.Reg, "k", state.Open, 3)
		if !s.RetryAt.Equal(retryAt) {
			t.Errorf("RetryAt %v after Update; want %v", s.RetryAt, retryAt)
		}
	})
}

func TestUpdateCallTimeoutAppliesToLaterCalls(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 10s call timeout and a call hung under it
		testkit.Register(t, e.Reg, "k", tripwiretest.New().Func(nil), tripwire.Settings{CallTimeout: 10 * time.Second})
		start := time.Now()
		first := goCall(e.Reg, "k", tripwiretest.Op{Hang: true})
		testkit.StillPending(t, first, "first call")

		// When the call timeout is changed to 2s and a second call hangs
		if err := e.Reg.Update(context.Background(), "k", tripwire.Settings{CallTimeout: 2 * time.Second}); err != nil {
			t.Fatalf("Update: %v", err)
		}
		second := goCall(e.Reg, "k", tripwiretest.Op{Hang: true})

		// Then the second times out after 2s, the first keeps its 10s
		r := testkit.Await(t, second)
		wantErr(t, "second call", r.Err, tripwire.ErrTimeout)
		if d := r.At.Sub(start); d != 2*time.Second {
			t.Errorf("second call timed out after %v; want 2s", d)
		}
		r = testkit.Await(t, first)
		wantErr(t, "first call", r.Err, tripwire.ErrTimeout)
		if d := r.At.Sub(start); d != 10*time.Second {
			t.Errorf("first call timed out after %v; want 10s", d)
		}
	})
}

func TestControlRefusesBadInput(t *testing.T) {
	ops := []struct {
		name string
		do   func(r *tripwire.Registry, ctx context.Context, key string) error
	}{
		{"ForceOpen", (*tripwire.Registry).ForceOpen},
		{"ForceClose", (*tripwire.Registry).ForceClose},
		{"Reset", (*tripwire.Registry).Reset},
		{"Update", func(r *tripwire.Registry, ctx context.Context, key string) error {
			return r.Update(ctx, key, tripwire.Settings{})
		}},
	}
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry with the key "k"
		testkit.Register(t, e.Reg, "k", tripwiretest.New().Func(nil), tripwire.Settings{})
		for _, o := range ops {
			// When a control op names an invalid or unknown key
			// Then it returns the sentinel
			for key, want := range map[string]error{
				"":          tripwire.ErrInvalidKey,
				"bad\x00id": tripwire.ErrInvalidKey,
				"nope":      tripwire.ErrUnknownKey,
			} {
				if err := o.do(e.Reg, context.Background(), key); !errors.Is(err, want) {
					t.Errorf("%s(%q): %v; want %v", o.name, key, err, want)
				}
			}
		}
		// When Update is given invalid settings, Then ErrInvalidSettings
		for _, s := range []tripwire.Settings{
			{Threshold: -1},
			{Window: state.Window{Size: 4, Period: time.Second}},
			{Window: state.Window{Period: 5, FailureRate: 0.5}}, // 5 ns, under 1 ns a bucket
			{Backoff: state.Backoff{Multiplier: 0.5}},
			{Backoff: state.Backoff{Jitter: 2}},
			{MaxInFlight: -1},
		} {
			if err := e.Reg.Update(context.Background(), "k", s); !errors.Is(err, tripwire.ErrInvalidSettings) {
				t.Errorf("Update(%+v): %v; want ErrInvalidSettings", s, err)
			}
		}
		testkit.WantCircuit(t, e.Reg, "k", state.Closed, 0)

		// When the registry is shut down, Then every op returns ErrShutdown
		if err := e.Reg.Shutdown(context.Background()); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		for _, o := range ops {
			if err := o.do(e.Reg, context.Background(), "k"); !errors.Is(err, tripwire.ErrShutdown) {
				t.Errorf("%s after Shutdown: %v; want ErrShutdown", o.name, err)
			}
		}
	})
}
