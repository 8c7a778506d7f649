package policies

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

// wantBreakerActors checks how many breaker actors key has in the actor
// system (0 once it passivated).
func wantBreakerActors(t *testing.T, e *testkit.Env, key string, n int) {
	t.Helper()
	synctest.Wait()
	if ids := breakerActors(e.Sys, key); len(ids) != n {
		t.Fatalf("%q has breaker actors %v; want %d", key, ids, n)
	}
}

func TestIdleBreakerStopsAndTheNextCallStartsIt(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 10s idle timeout, called once 1s after
		// Register
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "idle", s.Func(nil), tripwire.Settings{IdleTimeout: 10 * time.Second})
		wantBreakerActors(t, e, "idle", 1)
		advance(time.Second)
		v, err := call(e.Reg, "idle", okOp)
		wantOK(t, "call", v, err)

		// When no call comes for 10s
		advance(10*time.Second - time.Nanosecond)
		wantBreakerActors(t, e, "idle", 1)
		advance(time.Nanosecond)

		// Then its actor is gone, and the key stays registered and closed
		wantBreakerActors(t, e, "idle", 0)
		if keys := e.Reg.Keys(); len(keys) != 1 || keys[0] != "idle" {
			t.Fatalf("Keys %v; want [idle]", keys)
		}
		wantState(t, e.Reg, "idle", state.Closed)
		wantBreakerActors(t, e, "idle", 0) // State does not wake it

		// When the next call comes
		v, err = call(e.Reg, "idle", okOp)

		// Then it starts the breaker again, closed, and succeeds
		wantOK(t, "call after passivation", v, err)
		wantBreakerActors(t, e, "idle", 1)
		testkit.WantCircuit(t, e.Reg, "idle", state.Closed, 0)
		if n := s.Counts().Calls; n != 2 {
			t.Fatalf("target reached %d times; want 2", n)
		}
		// and it trips as a fresh breaker would
		for range 5 {
			_, _ = call(e.Reg, "idle", failOp)
		}
		wantState(t, e.Reg, "idle", state.Open)
	})
}

func TestSnapshotWakesAnIdleBreaker(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that passivated
		testkit.Register(t, e.Reg, "idle", tripwiretest.New().Func(nil), tripwire.Settings{IdleTimeout: 10 * time.Second})
		advance(10 * time.Second)
		wantBreakerActors(t, e, "idle", 0)

		// When it is asked for a snapshot
		s := testkit.Snapshot(t, e.Reg, "idle")

		// Then it answers from a breaker started again, closed
		if s.State != state.Closed || s.InFlight != 0 {
			t.Fatalf("snapshot %+v; want closed, nothing in flight", s)
		}
		wantBreakerActors(t, e, "idle", 1)
	})
}

func TestOpenOrForcedBreakerNeverPassivates(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(e *testkit.Env) error
		want state.State
	}{
		{"open", func(e *testkit.Env) error {
			_, err := call(e.Reg, "idle", failOp)
			return ignore(err, tripwiretest.ErrInjected)
		}, state.Open},
		{"forced open", func(e *testkit.Env) error { return e.Reg.ForceOpen(context.Background(), "idle") }, state.Open},
		{"forced closed", func(e *testkit.Env) error { return e.Reg.ForceClose(context.Background(), "idle") }, state.Closed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a breaker with a 10s idle timeout that is open for
				// an hour, forced open, or forced closed
				testkit.Register(t, e.Reg, "idle", tripwiretest.New().Func(nil), tripwire.Settings{
					Threshold: 1, OpenTimeout: time.Hour, IdleTimeout: 10 * time.Second,
				})
				advance(time.Second)
				if err := tc.make(e); err != nil {
					t.Fatal(err)
				}

				// When no call comes for 50 minutes
				advance(50 * time.Minute)

				// Then its actor is still there, in the same state
				wantBreakerActors(t, e, "idle", 1)
				wantState(t, e.Reg, "idle", tc.want)
			})
		})
	}
}

func TestBreakerWithACallInFlightDoesNotPassivate(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 10s idle timeout, and 3s after Register a
		// call that hangs until its 25s deadline
		testkit.Register(t, e.Reg, "idle", tripwiretest.New().Func(nil), tripwire.Settings{
			IdleTimeout: 10 * time.Second, CallTimeout: 25 * time.Second,
		})
		advance(3 * time.Second)
		h := goCall(e.Reg, "idle", tripwiretest.Op{Hang: true})

		// When it has been idle far longer than 10s, with the call in flight
		advance(25*time.Second - time.Nanosecond)

		// Then the breaker is still there
		wantBreakerActors(t, e, "idle", 1)
		if n := testkit.Snapshot(t, e.Reg, "idle").InFlight; n != 1 {
			t.Fatalf("InFlight %d; want 1", n)
		}
		// and after the call timed out it passivates in time
		r := testkit.Await(t, h)
		wantErr(t, "hung call", r.Err, tripwire.ErrTimeout)
		advance(20 * time.Second)
		wantBreakerActors(t, e, "idle", 0)
	})
}

func TestCallsAtThePassivationMomentGetOneAnswerEach(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker with a 10s idle timeout
		const (
			rounds    = 40
			perOffset = 8
		)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "idle", s.Func(nil), tripwire.Settings{IdleTimeout: 10 * time.Second})
		// In even rounds callers come at the idle moment (tying with the
		// breaker's idle check) and just after it; in odd rounds only just
		// after it, when the breaker has surely stopped and they all race
		// to wake it.
		offsets := [][]time.Duration{{0, 0, 0, 0, 1, 2, 3}, {1, 1, 1, 1, 2, 3}}
		total, woken := 0, 0
		for round := range rounds {
			// and one call that starts its idle time
			advance(20 * time.Second)
			v, err := call(e.Reg, "idle", okOp)
			wantOK(t, "priming call", v, err)
			total++
			before := breakerActors(e.Sys, "idle")
			moment := time.Now().Add(10 * time.Second)

			// When many callers call at the moment it passivates
			var wg sync.WaitGroup
			var mu sync.Mutex
			var bad []string
			for _, off := range offsets[round%2] {
				for range perOffset {
					total++
					wg.Go(func() {
						time.Sleep(time.Until(moment.Add(off)))
						v, err := call(e.Reg, "idle", okOp)
						if err != nil || v != "ok" {
							mu.Lock()
							bad = append(bad, errString(v, err))
							mu.Unlock()
						}
					})
				}
			}
			wg.Wait()

			// Then every caller gets its one answer: the target's
			if len(bad) > 0 {
				t.Fatalf("round %d: %d calls failed: %v", round, len(bad), bad)
			}
			// and the key is served by one breaker
			after := breakerActors(e.Sys, "idle")
			if len(after) != 1 {
				t.Fatalf("round %d: breakers %v", round, after)
			}
			if len(before) == 1 && after[0] != before[0] {
				woken++ // it passivated at the moment, and a caller woke it
			}
		}
		// and no call was lost or run twice
		if n := s.Counts().Calls; n != int64(total) {
			t.Fatalf("target ran %d times for %d calls", n, total)
		}
		t.Logf("passivated and woken at the idle moment in %d of %d rounds", woken, rounds)
		if woken < rounds/2 {
			t.Fatalf("woken in %d rounds; want at least the %d odd ones", woken, rounds/2)
		}
		testkit.WantCircuit(t, e.Reg, "idle", state.Closed, 0)
	})
}

func ignore(err, want error) error {
	if errors.Is(err, want) {
		return nil
	}
	return err
}

func errString(v any, err error) string {
	if err != nil {
		return err.Error()
	}
	return "value " + toString(v)
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return "?"
}

func TestControlWakesAnIdleBreakerThatThenStays(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that passivated
		tr := record(t, e.Reg)
		testkit.Register(t, e.Reg, "idle", tripwiretest.New().Func(nil), tripwire.Settings{IdleTimeout: 10 * time.Second})
		advance(10 * time.Second)
		wantBreakerActors(t, e, "idle", 0)

		// When it is forced open
		if err := e.Reg.ForceOpen(context.Background(), "idle"); err != nil {
			t.Fatalf("ForceOpen: %v", err)
		}

		// Then a breaker runs again, open, and stays however long it idles
		advance(time.Hour)
		wantBreakerActors(t, e, "idle", 1)
		wantState(t, e.Reg, "idle", state.Open)
		tr.want(t, "closed->open:forced_open")
	})
}
