package tripwire_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Every method that may wait takes a context first (issue 41): a nil one is
// ErrNilContext, one already cancelled returns its error at once, and
// neither changes anything.
func TestEveryMethodThatWaitsTakesAContext(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		echo := tripwire.Func(func(_ context.Context, m any) (any, error) { return m, nil })
		testkit.Register(t, e.Reg, "k", echo, tripwire.Settings{})
		methods := map[string]func(context.Context) error{
			"Register":   func(ctx context.Context) error { return e.Reg.Register(ctx, "new", echo, tripwire.Settings{}) },
			"Unregister": func(ctx context.Context) error { return e.Reg.Unregister(ctx, "k") },
			"Snapshot":   func(ctx context.Context) error { _, err := e.Reg.Snapshot(ctx, "k"); return err },
			"ForceOpen":  func(ctx context.Context) error { return e.Reg.ForceOpen(ctx, "k") },
			"ForceClose": func(ctx context.Context) error { return e.Reg.ForceClose(ctx, "k") },
			"Reset":      func(ctx context.Context) error { return e.Reg.Reset(ctx, "k") },
			"ProbeNow":   func(ctx context.Context) error { return e.Reg.ProbeNow(ctx, "k") },
			"Update":     func(ctx context.Context) error { return e.Reg.Update(ctx, "k", tripwire.Settings{Threshold: 9}) },
			"Call":       func(ctx context.Context) error { _, err := e.Reg.Call(ctx, "k", 1); return err },
			"Key.Call":   func(ctx context.Context) error { _, err := tripwire.Key[int, int](e.Reg, "k").Call(ctx, 1); return err },
			"Snapshots": func(ctx context.Context) error {
				return e.Reg.Snapshots(ctx, tripwire.Filter{}, func(tripwire.Snapshot) bool { return true })
			},
			"tripwiretest.Crash": func(ctx context.Context) error { return tripwiretest.Crash(ctx, e.Reg, "k") },
		}
		canceled, cancel := context.WithCancel(context.Background())
		cancel()
		for name, do := range methods {
			//nolint:staticcheck // a nil context is the bad input under test
			if err := do(nil); !errors.Is(err, tripwire.ErrNilContext) {
				t.Errorf("%s(nil, ...) = %v; want ErrNilContext", name, err)
			}
			if err := do(canceled); !errors.Is(err, context.Canceled) {
				t.Errorf("%s(a cancelled context, ...) = %v; want context.Canceled", name, err)
			}
		}
		// Nothing changed
		if got := e.Reg.Keys(); len(got) != 1 || got[0] != "k" {
			t.Fatalf("keys %v; want [k]", got)
		}
		s := testkit.Snapshot(t, e.Reg, "k")
		if s.State != state.Closed || s.Forced != state.NotForced || s.Restarts != 0 || s.Settings.Threshold != state.DefaultThreshold || s.Stats.Total.Calls != 0 {
			t.Fatalf("a refused method changed the key: %+v", s)
		}
	})
}
