package regress

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestLeakedGoroutineOnTimeout guards "a goroutine leaked on timeout"
// (rubyist/circuitbreaker#35, notes/testing.md §2): there, a call that timed
// out left the goroutine running the target blocked forever on its result.
// Here 100 calls time out at once; once their targets have returned, every
// worker goes idle and exits after its 10 s idle timeout, the late results
// are not counted twice, and goleak finds nothing after Shutdown. It covers a
// target that honours its context and one that ignores it for 2 s more.
func TestLeakedGoroutineOnTimeout(t *testing.T) {
	const n = 100
	for _, tc := range []struct {
		name     string
		msg      tripwiretest.Op
		returnAt time.Duration // when the targets return, from the calls' start
	}{
		{"target honours ctx", tripwiretest.Op{Hang: true}, time.Second + time.Millisecond},
		{"target ignores ctx", tripwiretest.Op{After: 3 * time.Second}, 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a breaker with a 1 s call timeout and a threshold it won't reach
				var s tripwiretest.Script
				testkit.Register(t, e.Reg, "slow", s.Func(nil), tripwire.Settings{Threshold: 1000, CallTimeout: time.Second})

				// When 100 calls to a target that outlives their deadline run at once
				start := time.Now()
				var wg sync.WaitGroup
				errs := make(chan error, n)
				for range n {
					wg.Go(func() {
						_, err := e.Reg.Call(context.Background(), "slow", tc.msg)
						if d := time.Since(start); d != time.Second {
							t.Errorf("call returned after %v, want its 1s deadline", d)
						}
						errs <- err
					})
				}
				wg.Wait()
				close(errs)

				// Then each gets ErrTimeout at its deadline
				for err := range errs {
					if !errors.Is(err, tripwire.ErrTimeout) {
						t.Errorf("call: %v, want ErrTimeout", err)
					}
				}
				if got := s.Counts().Calls; got != n {
					t.Fatalf("target ran %d times, want %d", got, n)
				}
				// and once the targets have returned, each timeout counted once
				sleepUntil(start.Add(tc.returnAt + time.Millisecond))
				if snap := testkit.WantCircuit(t, e.Reg, "slow", state.Closed, n); snap.InFlight != 0 {
					t.Errorf("InFlight = %d", snap.InFlight)
				}
				// and the workers, one per concurrent call, are idle but still there
				if w := testkit.Workers(e.Reg); w != n {
					t.Errorf("Workers() = %d right after the targets returned, want %d", w, n)
				}

				// and 15 s of idleness later none is left (a worker idle for
				// 10 to 15 s exits)
				time.Sleep(15 * time.Second)
				synctest.Wait()
				if w := testkit.Workers(e.Reg); w != 0 {
					t.Errorf("Workers() = %d after 15s idle, want 0", w)
				}
				// and the key still works, with a fresh worker
				if v, err := e.Reg.Call(context.Background(), "slow", tripwiretest.Op{Label: "after"}); err != nil || v != tripwiretest.Answer("after") {
					t.Errorf("call after the timeouts: %v, %v", v, err)
				}
				if w := testkit.Workers(e.Reg); w != 1 {
					t.Errorf("Workers() = %d after one call, want 1", w)
				}
			})
			// and no goroutine of the registry, its workers or the actor
			// system is left once it is shut down
			goleak.VerifyNone(t)
		})
	}
}
