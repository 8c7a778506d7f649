//go:build !race

package scale

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// n is the scale of the test: 100,000 keys. The bounds are generous (the
// figures are in BENCHMARKS.md); they catch what grows with the key count.
const n = 100_000

func TestHundredThousandKeys(t *testing.T) {
	sys := testkit.NewSystem(t)
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
	if err != nil {
		t.Fatal(err)
	}
	warmGoroutines()
	base := heap()

	// Registering: the last thousand keys cost about what the first did
	first, last := registerAll(t, reg, 0, n, tripwire.Settings{})
	t.Logf("Register: %v per key for the first %d keys, %v for the last %d", first, batch, last, 10*batch)
	if last > 4*first+20*time.Microsecond {
		t.Errorf("Register slows down as keys grow: %v per key at first, %v at %d keys", first, last, n)
	}
	registered := heap()
	perKey := (registered - base) / n
	t.Logf("heap per registered key: %d B", perKey)
	if perKey > 1500 {
		t.Errorf("a registered key takes %d B of heap", perKey)
	}

	// Every key called once keeps about as much
	callAll(t, reg, 0, n, 8)
	// let the calls' deadline timers (CallTimeout 5s) go, and the keys'
	// statistics windows drain (a quiet key keeps only its totals): each
	// key checks a window after its first call, and 100,000 checks take
	// their turns on two cores
	time.Sleep(state.StatsWindow + 3*time.Second)
	called := settled(base, n, 1600)
	t.Logf("heap per key called and then quiet: %d B", called)
	if called > 1600 {
		t.Errorf("a key called once takes %d B of heap", called)
	}

	// Listing them stays one sorted pass
	keys := reg.Keys()
	if len(keys) != n || keys[0] != key(0) || keys[n-1] != key(n-1) {
		t.Fatalf("Keys: %d keys, from %q to %q", len(keys), keys[0], keys[len(keys)-1])
	}
	keys = nil

	// Unregistering returns the keys' heap, but for protoactor's floor
	for i := range n {
		if err := reg.Unregister(context.Background(), key(i)); err != nil {
			t.Fatal(err)
		}
	}
	kept := settled(base, n, perKey/10+80) // (protoactor's floor, measured next, is 90-110 B)
	floor := protoactorFloor(t, n)
	t.Logf("kept per key after Unregister: %d B, of which protoactor's process table keeps %d B", kept, floor)
	if kept-floor > perKey/10 {
		t.Errorf("Unregister keeps %d B of the %d B a key took, beyond protoactor's %d B", kept-floor, perKey, floor)
	}
	shutdown(t, reg)
}

func TestHundredThousandPassivatedKeys(t *testing.T) {
	sys := testkit.NewSystem(t)
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		return ok, tripwire.Settings{IdleTimeout: time.Second, CallTimeout: 500 * time.Millisecond}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	idle := processes(sys)
	warmGoroutines()
	base := heap()

	// Given 100,000 keys made by the factory on their first calls, from
	// 64 callers at once
	var wg sync.WaitGroup
	for w := range 64 {
		wg.Go(func() {
			for i := w; i < n; i += 64 {
				if _, err := reg.Call(context.Background(), key(i), nil); err != nil {
					t.Errorf("first call of %d: %v", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := len(reg.Keys()); got != n {
		t.Fatalf("%d keys made, want %d", got, n)
	}

	// When they all passivate, no breaker is left
	waitForProcesses(t, sys, idle+1) // and protoactor's guardian of the breakers
	time.Sleep(time.Second)          // the last calls' deadline timers
	asleep := settled(base, n, 800)
	floor := protoactorFloor(t, n)
	// What a user pays, protoactor's share included: its process table
	// keeps the maps it grew to hold every breaker (the floor).
	t.Logf("heap per passivated key: %d B, of which protoactor's process table keeps %d B", asleep, floor)
	if asleep > 800 {
		t.Errorf("a passivated key takes %d B", asleep)
	}

	// and every one wakes on its next call (made again if it timed out:
	// CallTimeout is 500 ms here, so that the deadline timers are gone
	// before the heap is measured)
	callAll(t, reg, 0, n, 8)
	shutdown(t, reg)
}

// shutdown shuts reg down, which must not take long even now.
func shutdown(t *testing.T, reg *tripwire.Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := reg.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}
