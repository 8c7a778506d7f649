package tripwire_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// A nil *Registry (what a failed Start returns) and a zero Registry are no
// registry: every method returns ErrInvalidOption, or nothing, and none
// panics.
func TestANilOrZeroRegistryRefusesEveryMethod(t *testing.T) {
	ctx := context.Background()
	echo := tripwire.Func(func(_ context.Context, msg any) (any, error) { return msg, nil })
	factory := func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		t.Error("the factory ran")
		return echo, tripwire.Settings{}, nil
	}
	for name, reg := range map[string]*tripwire.Registry{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			errs := map[string]error{}
			_, errs["Call"] = reg.Call(ctx, "k", "m")
			_, errs["CallWith"] = reg.CallWith(ctx, "k", "m", factory)
			_, errs["CallAs"] = tripwire.Key[any, string](reg, "k").Call(ctx, "m")
			errs["Register"] = reg.Register(context.Background(), "k", echo, tripwire.Settings{})
			errs["Unregister"] = reg.Unregister(context.Background(), "k")
			errs["ForceOpen"] = reg.ForceOpen(context.Background(), "k")
			errs["ForceClose"] = reg.ForceClose(context.Background(), "k")
			errs["Reset"] = reg.Reset(context.Background(), "k")
			errs["ProbeNow"] = reg.ProbeNow(context.Background(), "k")
			errs["Update"] = reg.Update(context.Background(), "k", tripwire.Settings{})
			_, errs["Snapshot"] = reg.Snapshot(context.Background(), "k")
			errs["Crash"] = tripwiretest.Crash(context.Background(), reg, "k")
			_, errs["State"] = reg.State("k")
			errs["Request"] = reg.Request(nil, "k", "m")
			errs["Snapshots"] = reg.Snapshots(ctx, tripwire.Filter{}, func(tripwire.Snapshot) bool { return true })
			errs["Shutdown"] = reg.Shutdown(ctx)
			for method, err := range errs {
				require.ErrorIs(t, err, tripwire.ErrInvalidOption, method)
			}
			require.Empty(t, reg.Keys())
			require.Zero(t, testkit.Workers(reg))
			reg.Subscribe(func(state.Transition) { t.Error("a transition of no registry") })()
		})
	}
}
