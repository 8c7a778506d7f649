package tripwire_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// Regression: once every caller waiting for a factory had given up, the
// next caller ran the factory again while the first run, which ignored its
// context, was still going: two runs at once for one key.
func TestAFactoryNeverRunsTwiceAtOnceForAKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a factory that ignores its context until released
		release := make(chan struct{})
		var runs, running, most atomic.Int32
		reg := testkit.Start(t, testkit.NewSystem(t), tripwire.WithFactory(func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
			runs.Add(1)
			if n := running.Add(1); n > most.Load() {
				most.Store(n)
			}
			defer running.Add(-1)
			<-release
			return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}, nil
		}))
		// and its only waiter, which gave up
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := reg.Call(ctx, "k", 1); !errors.Is(err, tripwire.ErrTimeout) {
			t.Fatalf("the first call: %v, want ErrTimeout", err)
		}

		// When another caller comes while the factory still runs, and it returns
		second := testkit.GoCall(context.Background(), reg, "k", 1)
		synctest.Wait()
		close(release)

		// Then the second call is served by what that one run made
		if got := testkit.Await(t, second); got.Err != nil || got.V != "ok" {
			t.Fatalf("the second call: %+v", got)
		}
		if runs.Load() != 1 || most.Load() != 1 {
			t.Fatalf("the factory ran %d times, %d at once; want once", runs.Load(), most.Load())
		}
	})
}
