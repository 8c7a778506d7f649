package test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

var errDown = errors.New("the dependency is down")

// hotFromTheStart makes every key hot after its first success, so that the
// workers (a function target's) or the callers (an actor target's) answer
// its quiet successes without its breaker's turn.
func hotFromTheStart(t *testing.T) {
	testkit.HotCalls(t, 1)
}

func TestAHotKeysQuietSuccessesAreCountedOnceAndItsFailuresStillOpenIt(t *testing.T) {
	hotFromTheStart(t)
	echo := func(_ context.Context, msg any) (any, error) {
		if msg == "fail" {
			return nil, errDown
		}
		return msg, nil
	}
	var served atomic.Int64
	for _, target := range []string{"function", "actor"} {
		t.Run(target, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				ctx := context.Background()
				tgt, ok, city := tripwire.Func(echo), any("ok"), any("fail")
				if target == "actor" {
					tgt = tripwire.ActorTarget(spawnWeather(t, e, &served))
					ok, city = &forecast{City: "Oslo"}, &forecast{City: "Atlantis"}
				}
				// Given a hot key with a threshold of 3
				testkit.Register(t, e.Reg, "k", tgt, tripwire.Settings{Threshold: 3, IgnoreTargetDown: true})

				// When its callers make 50 calls that succeed, then each has
				// its answer and counts once
				for range 50 {
					if _, err := e.Reg.Call(ctx, "k", ok); err != nil {
						t.Fatalf("call: %v", err)
					}
				}
				s := testkit.Snapshot(t, e.Reg, "k")
				if s.Stats.Total.Successes != 50 || s.Stats.Recent.Successes != 50 || s.Stats.Latency.Calls != 50 || s.InFlight != 0 {
					t.Fatalf("after 50 successes: total %d, recent %d, measured %d, in flight %d; want 50, 50, 50, 0",
						s.Stats.Total.Successes, s.Stats.Recent.Successes, s.Stats.Latency.Calls, s.InFlight)
				}

				// And two failures, a success (which resets them) and three
				// failures open it at the third of those, not before
				for i, fails := range []bool{true, true, false, true, true} {
					msg := ok
					if fails {
						msg = city
					}
					e.Reg.Call(ctx, "k", msg)
					if st := testkit.Snapshot(t, e.Reg, "k").State; st != state.Closed {
						t.Fatalf("after call %d: %v, want closed", i, st)
					}
				}
				if _, err := e.Reg.Call(ctx, "k", city); errors.Is(err, tripwire.ErrOpen) {
					t.Fatalf("the third failure in a row was rejected: %v", err)
				}
				if st := testkit.Snapshot(t, e.Reg, "k").State; st != state.Open {
					t.Fatalf("after three failures in a row: %v, want open", st)
				}
			})
		})
	}
}
