package regress

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// goroutinesCreated is how many goroutines the process has started.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Regression: each breaker armed a runtime timer at its earliest call
// deadline, and the runtime starts a goroutine for each one that fires, so
// keys called once each started a goroutine apiece a CallTimeout later
// (100,000 at once in the 100,000-key test, whose descriptors the runtime
// keeps: 60-170 B a key of heap). The ticks share the registry's timer now.
func TestDeadlineTicksStartNoGoroutineEach(t *testing.T) {
	const keys = 1000
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a thousand keys, each called once
		echo := tripwire.Func(func(_ context.Context, m any) (any, error) { return m, nil })
		for i := range keys {
			k := fmt.Sprintf("k%d", i)
			testkit.Register(t, e.Reg, k, echo, tripwire.Settings{CallTimeout: time.Second})
			if _, err := e.Reg.Call(context.Background(), k, i); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()

		// When their calls' deadlines pass (each breaker's tick comes)
		before := goroutinesCreated()
		time.Sleep(2 * time.Second)
		synctest.Wait()

		// Then that started no goroutine per key. (A caller's backstop
		// timer, pooled across calls, fires once after its last one and
		// starts a goroutine then: one here, but a new one for each that
		// the pool drops, as the race detector's drops a quarter of them.)
		want := keys/10 + int(float64(keys)*(1-pooledKept)*1.2)
		if n := goroutinesCreated() - before; n > uint64(want) {
			t.Fatalf("%d goroutines started as %d keys' deadline ticks came, want at most %d", n, keys, want)
		}
	})
}

// Regression: a caller's backstop timer stays armed between calls, and
// one still armed when the registry had shut down fired later, starting a
// goroutine in a process that had let the registry go.
func TestAShutDownRegistryLeavesNoTimerToFire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a registry whose keys were called by many callers at once
		reg, err := tripwire.Start(tripwire.WithActorSystem(testkit.NewSystem(t)))
		if err != nil {
			t.Fatal(err)
		}
		echo := tripwire.Func(func(_ context.Context, m any) (any, error) { return m, nil })
		testkit.Register(t, reg, "k", echo, tripwire.Settings{CallTimeout: time.Second})
		var wg sync.WaitGroup
		for i := range 64 {
			wg.Go(func() {
				if _, err := reg.Call(context.Background(), "k", i); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()

		// When it has shut down
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()

		// Then nothing of it starts a goroutine later
		before := goroutinesCreated()
		time.Sleep(time.Minute)
		synctest.Wait()
		if n := goroutinesCreated() - before; n != 0 {
			t.Fatalf("%d goroutines started after Shutdown", n)
		}
	})
}
