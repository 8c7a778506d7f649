package test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

func TestManyCallersOfAnActorTargetEachGetTheirOwnAnswer(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker in front of an actor target, closed: its callers
		// send their asks themselves
		var served atomic.Int64
		pid := spawnWeather(t, e, &served)
		testkit.Register(t, e.Reg, "weather", tripwire.ActorTarget(pid), tripwire.Settings{})

		// When 32 callers call it 100 times each, at once
		const callers, each = 32, 100
		var wg sync.WaitGroup
		for c := range callers {
			wg.Go(func() {
				for i := range each {
					city := fmt.Sprintf("city-%d-%d", c, i)
					v, err := e.Reg.Call(context.Background(), "weather", &forecast{City: city})
					if err != nil {
						t.Errorf("call %s: %v", city, err)
						return
					}
					if r, ok := v.(*report); !ok || r.City != city {
						t.Errorf("call %s answered %v", city, v)
						return
					}
				}
			})
		}
		wg.Wait()

		// Then each got its own answer, the target served each once, and
		// none is left in flight
		if n := served.Load(); n != callers*each {
			t.Fatalf("target served %d, want %d", n, callers*each)
		}
		snap := testkit.WantCircuit(t, e.Reg, "weather", state.Closed, 0)
		if snap.InFlight != 0 || snap.Stats.Total.Successes != callers*each {
			t.Fatalf("InFlight %d, successes %d; want 0, %d", snap.InFlight, snap.Stats.Total.Successes, callers*each)
		}
	})
}
